package convcert.opencl;

import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.spec.Form;
import convcert.spec.Rounding;
import convcert.spi.MemoryCase;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The reference of the OpenCL memory functions and as_type, on a little-endian byte memory. Addresses
 * are checked against the alignment of vector-functions.csv: a misaligned access is a defined error
 * of the reference, never a silent access. vstore(a)_half rounds through the numeric reference of the
 * opencl profile (float or double -> half), vload(a)_half widens exactly (half -> float).
 */
public final class OpenClReference {

    private final OpenClTables tables;
    private final Reference numeric;
    private final Map<String, Converter> converters = new HashMap<>();

    public OpenClReference(OpenClTables tables, Reference numeric) {
        this.tables = tables;
        this.numeric = numeric;
    }

    public OpenClTables tables() {
        return tables;
    }

    /** The rounding mode of a vstore_half suffix; the default rounds to nearest even (decision vstore-half-default-rounding). */
    public Rounding rounding(String suffix) {
        String cast = "_" + (suffix.isEmpty() ? "rte" : suffix);
        for (Rounding mode : Rounding.values()) {
            if (cast.equals(numeric.tables().castName(mode))) {
                return mode;
            }
        }
        throw new IllegalArgumentException("no rounding mode " + cast + " in rounding.csv");
    }

    private Converter converter(String from, String to, Rounding mode) {
        return converters.computeIfAbsent(from + to + mode, k -> numeric.converter(numeric.resolve(
                numeric.conversion(from, to), mode, Form.NOSAT, numeric.tables().powerOnCtrl())));
    }

    /** Evaluates one vector; extensions are those enabled (a type that needs another is an error). */
    public MemoryVector evaluate(MemoryCase c, long pointer, long offset, byte[] memory, byte[] data, Set<String> extensions,
                                 String coverage) {
        OpenClTypes.Type value = tables.types().ofOpenCl(c.type());
        OpenClTypes.Type target = c.isAsType() ? tables.types().ofOpenCl(c.toType()) : value;
        if (!value.extension().isEmpty() && !extensions.contains(value.extension())
                || !target.extension().isEmpty() && !extensions.contains(target.extension())) {
            return new MemoryVector(pointer, offset, memory, data, null, 0, MemoryVector.Outcome.EXTENSION_DISABLED, coverage);
        }
        if (c.isAsType()) {
            return asType(c, data, coverage);
        }
        OpenClTables.Function f = tables.function(c.function());
        OpenClTypes.Type memoryType = f.memoryType().equals("gentype") ? value : tables.types().ofOpenCl(f.memoryType());
        int element = memoryType.bytes();
        int stride = f.strideByStorage() ? tables.storage(c.n()) : c.n();
        int alignment = f.vectorAlignment() ? element * tables.storage(c.n()) : element;
        long address = pointer + offset * stride * element;
        if (address % alignment != 0) {
            return new MemoryVector(pointer, offset, memory, data, null, 0, MemoryVector.Outcome.MISALIGNED, coverage);
        }
        int bytes = element * c.n();
        if (address < 0 || address + bytes > memory.length) {
            throw new IllegalArgumentException(c.name() + ": address " + address + " outside the " + memory.length
                    + "-byte image");
        }
        byte[] result;
        MemoryVector.Unjudged padding = null;
        if (!f.store()) {
            byte[] loaded = Arrays.copyOfRange(memory, (int) address, (int) address + bytes);
            result = memoryType == value ? loaded : widenHalves(loaded, c.n());
        } else {
            result = memory.clone();
            byte[] stored = memoryType == value ? data : narrowToHalves(data, value, c);
            System.arraycopy(stored, 0, result, (int) address, bytes);
            int storage = element * tables.storage(c.n());
            if (f.vectorAlignment() && storage > bytes
                    && numeric.semantics().get(Semantics.HALF3_PADDING) == Semantics.Half3Padding.ANY) {
                padding = new MemoryVector.Unjudged((int) address + bytes, (int) Math.min(memory.length, address + storage));
            }
        }
        return new MemoryVector(pointer, offset, memory, data, result, result.length, MemoryVector.Outcome.OK, coverage, padding);
    }

    private byte[] widenHalves(byte[] halves, int n) {
        Converter c = converter("half", "float", Rounding.RN);
        ByteBuffer in = ByteBuffer.wrap(halves).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer out = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            out.putInt((int) c.apply(in.getShort() & 0xFFFFL));
        }
        return out.array();
    }

    private byte[] narrowToHalves(byte[] values, OpenClTypes.Type type, MemoryCase c) {
        Converter conv = converter(type.format(), "half", rounding(c.rounding()));
        ByteBuffer in = ByteBuffer.wrap(values).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer out = ByteBuffer.allocate(2 * c.n()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < c.n(); i++) {
            long bits = type.bytes() == 4 ? in.getInt() & 0xFFFFFFFFL : in.getLong();
            out.putShort((short) conv.apply(bits));
        }
        return out.array();
    }

    private MemoryVector asType(MemoryCase c, byte[] operand, String coverage) {
        OpenClTypes.Type from = tables.types().ofOpenCl(c.type());
        OpenClTypes.Type to = tables.types().ofOpenCl(c.toType());
        int fromBytes = from.bytes() * tables.storage(c.n());
        int toBytes = to.bytes() * tables.storage(c.toN());
        String rule = fromBytes != toBytes ? "size-differs" : c.n() == c.toN() ? "same-count"
                : c.n() == 4 && c.toN() == 3 ? "four-to-three" : "other-count";
        return switch (tables.asTypeOutcome(rule)) {
            case "error" -> new MemoryVector(0, 0, null, operand, null, 0, MemoryVector.Outcome.SIZE_MISMATCH, coverage);
            // A 3-element result's 4th slot is padding, not a value: compare 3 elements.
            case "bits-unchanged" -> new MemoryVector(0, 0, null, operand, operand.clone(), to.bytes() * c.toN(),
                    MemoryVector.Outcome.OK, coverage);
            case "bits-unchanged-first-3" -> new MemoryVector(0, 0, null, operand, operand.clone(), 3 * to.bytes(),
                    MemoryVector.Outcome.OK, coverage);
            default -> new MemoryVector(0, 0, null, operand, null, 0, MemoryVector.Outcome.IMPLEMENTATION_DEFINED, coverage);
        };
    }

    /** Splits "float4" into its scalar type and count (1 for a scalar). */
    public static String[] parseVectorType(String name) {
        int i = name.length();
        while (i > 0 && Character.isDigit(name.charAt(i - 1))) {
            i--;
        }
        return new String[] {name.substring(0, i), i == name.length() ? "1" : name.substring(i)};
    }
}
