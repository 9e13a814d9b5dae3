package convcert.opencl;

import convcert.reference.Reference;
import convcert.spi.MemoryCase;
import convcert.vectors.CoverageModel;
import convcert.vectors.CoverageTag;
import convcert.vectors.Level;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The vectors of every OpenCL memory case: exhaustive where small (every half value through
 * vload_half and vloada_half), aligned pointers and offsets with seeded data elsewhere, the values of
 * vstore_half from the coverage model of float/double -> half (ties, overflow, specials), and negative
 * vectors (misaligned addresses, types whose extension is off, as_type across sizes) whose expected
 * outcome is the reference's error.
 */
public final class OpenClVectors {

    /** Bytes of the memory image of gentype loads and all stores. */
    public static final int IMAGE = 512;
    static final Set<String> ALL_EXTENSIONS = Set.of("cl_khr_fp16", "cl_khr_fp64");

    private final OpenClReference reference;
    private final Reference numeric;
    private final Level level;
    private final long seed;

    public OpenClVectors(OpenClReference reference, Reference numeric, Level level, long seed) {
        this.reference = reference;
        this.numeric = numeric;
        this.level = level;
        this.seed = seed;
    }

    /** Every memory case of the tables, in a stable order. */
    public List<MemoryCase> cases() {
        return cases(reference.tables());
    }

    public static List<MemoryCase> cases(OpenClTables t) {
        List<MemoryCase> cases = new ArrayList<>();
        for (OpenClTables.Function f : t.functions()) {
            List<String> values = f.valueTypes().equals(List.of("gentype"))
                    ? t.types().all().stream().map(OpenClTypes.Type::opencl).toList() : f.valueTypes();
            for (String type : values) {
                for (int n : f.widths()) {
                    for (String rounding : f.roundings()) {
                        cases.add(MemoryCase.of(f.name(), type, n, rounding));
                    }
                }
            }
        }
        for (OpenClTypes.Type a : t.types().all()) {
            for (OpenClTypes.Type b : t.types().all()) {
                if (a.bytes() == b.bytes()) {
                    for (int n : t.widths()) {
                        if (a != b) {
                            cases.add(MemoryCase.asType(a.opencl(), n, b.opencl(), n));
                        }
                    }
                    cases.add(MemoryCase.asType(a.opencl(), 4, b.opencl(), 3));
                }
            }
        }
        for (OpenClTables.AsTypeExample e : t.examples()) {
            String[] from = OpenClReference.parseVectorType(e.from());
            String[] to = OpenClReference.parseVectorType(e.to());
            MemoryCase c = MemoryCase.asType(from[0], Integer.parseInt(from[1]), to[0], Integer.parseInt(to[1]));
            if (!cases.contains(c)) {
                cases.add(c);
            }
        }
        return cases;
    }

    /** Byte i of the memory image: a fixed pattern both sides can rebuild. */
    public static byte pattern(int i) {
        return (byte) (i * 131 + 7 + (i >> 8) * 17);
    }

    private static byte[] image(int size) {
        byte[] image = new byte[size];
        for (int i = 0; i < size; i++) {
            image[i] = pattern(i);
        }
        return image;
    }

    public List<MemoryVector> vectors(MemoryCase c) {
        SplittableRandom random = new SplittableRandom(seed ^ c.name().hashCode());
        if (c.isAsType()) {
            return asTypeVectors(c, random);
        }
        OpenClTables t = reference.tables();
        OpenClTables.Function f = t.function(c.function());
        OpenClTypes.Type value = t.types().ofOpenCl(c.type());
        OpenClTypes.Type memoryType = f.memoryType().equals("gentype") ? value : t.types().ofOpenCl(f.memoryType());
        int element = memoryType.bytes();
        int stride = (f.strideByStorage() ? t.storage(c.n()) : c.n()) * element;
        int alignment = f.vectorAlignment() ? element * t.storage(c.n()) : element;
        if (!f.store() && memoryType != value) {
            return halfLoadVectors(c, stride, alignment);
        }
        List<MemoryVector> vectors = new ArrayList<>();
        byte[] memory = image(IMAGE);
        List<byte[]> data = new ArrayList<>();
        if (f.store()) {
            data.addAll(storeValues(c, value, random));
        }
        int placements = 0;
        for (int p = 0; p < 4; p++) {
            for (int offset = 0; offset < 4; offset++) {
                long pointer = (long) p * alignment;
                if (pointer + (long) offset * stride + (long) element * c.n() > IMAGE) {
                    continue;
                }
                byte[] d = f.store() ? data.get(placements++ % data.size()) : null;
                vectors.add(reference.evaluate(c, pointer, offset, memory, d, ALL_EXTENSIONS, "aligned"));
            }
        }
        // a vector ending at the image's last byte (a 3-vector's missing fourth element lies past it): a load
        // or store that touches more than its n elements reads past the buffer or spoils the next image
        for (int offset = 0; offset < 2; offset++) {
            long pointer = IMAGE - (long) element * c.n() - (long) offset * stride;
            if (pointer >= 0 && pointer % alignment == 0) {
                byte[] d = f.store() ? data.get(placements++ % data.size()) : null;
                vectors.add(reference.evaluate(c, pointer, offset, memory, d, ALL_EXTENSIONS, "buffer-end"));
            }
        }
        for (int i = placements; f.store() && i < data.size(); i++) { // the rest of the values at offset 0
            vectors.add(reference.evaluate(c, (long) (i % 4) * alignment, 0, memory, data.get(i), ALL_EXTENSIONS, "values"));
        }
        negatives(c, alignment, memory, f.store() ? data.getFirst() : null, vectors);
        return vectors;
    }

    /** as_type: the document's examples, then random bit patterns. */
    private List<MemoryVector> asTypeVectors(MemoryCase c, SplittableRandom random) {
        List<MemoryVector> vectors = new ArrayList<>();
        OpenClTables t = reference.tables();
        OpenClTypes.Type from = t.types().ofOpenCl(c.type());
        int bytes = from.bytes() * t.storage(c.n());
        int count = level == Level.QUICK ? 8 : level == Level.CI ? 64 : 1024;
        for (String operand : exampleOperands(c)) {
            vectors.add(reference.evaluate(c, 0, 0, null, operand(operand, bytes), ALL_EXTENSIONS, "document-example"));
        }
        for (int i = 0; i < count; i++) {
            byte[] operand = new byte[bytes];
            random.nextBytes(operand);
            vectors.add(reference.evaluate(c, 0, 0, null, operand, ALL_EXTENSIONS, "random-bits"));
        }
        return vectors;
    }

    /** A load of halves into a wider type: every half value, the image holding all 65536 codes and the vectors walking it. */
    private List<MemoryVector> halfLoadVectors(MemoryCase c, int stride, int alignment) {
        List<MemoryVector> vectors = new ArrayList<>();
        byte[] halves = new byte[2 * 65536 + 2 * 16];
        for (int h = 0; h < 65536; h++) {
            halves[2 * h] = (byte) h;
            halves[2 * h + 1] = (byte) (h >>> 8);
        }
        int step = level == Level.QUICK ? 61 : 1;
        for (long offset = 0; (offset + 1) * stride <= 2 * 65536; offset += step) {
            vectors.add(reference.evaluate(c, 0, offset, halves, null, ALL_EXTENSIONS, "exhaustive"));
        }
        negatives(c, alignment, halves, null, vectors);
        return vectors;
    }

    private void negatives(MemoryCase c, int alignment, byte[] memory, byte[] data, List<MemoryVector> vectors) {
        for (int misalign : alignment == 1 ? new int[0] : new int[] {1, alignment / 2, alignment - 1}) {
            MemoryVector v = reference.evaluate(c, alignment + misalign, 0, memory, data, ALL_EXTENSIONS, "misaligned");
            vectors.add(v);
        }
        MemoryVector off = reference.evaluate(c, 0, 0, memory, data, Set.of(), "extension-disabled");
        if (off.outcome() == MemoryVector.Outcome.EXTENSION_DISABLED) {
            vectors.add(off);
        }
    }

    /** Values for stores: gentypes get seeded bits; vstore(a)_half gets the coverage inputs of VALUE -> half. */
    private List<byte[]> storeValues(MemoryCase c, OpenClTypes.Type value, SplittableRandom random) {
        int bytes = value.bytes() * c.n();
        List<byte[]> values = new ArrayList<>();
        if (!c.function().contains("_half")) {
            for (int i = 0; i < 16; i++) {
                byte[] d = new byte[bytes];
                random.nextBytes(d);
                values.add(d);
            }
            return values;
        }
        long[] inputs = new CoverageModel(numeric, CoverageTag.builtIn(), Level.QUICK, seed)
                .inputs(numeric.conversion(value.format(), "half")).bits();
        int limit = level == Level.QUICK ? 64 : level == Level.CI ? 512 : inputs.length;
        for (int start = 0; start < Math.min(limit, inputs.length); start += c.n()) {
            ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
            for (int k = 0; k < c.n(); k++) {
                long bits = inputs[(start + k) % inputs.length];
                if (value.bytes() == 4) {
                    b.putInt((int) bits);
                } else {
                    b.putLong(bits);
                }
            }
            values.add(b.array());
        }
        return values;
    }

    private List<String> exampleOperands(MemoryCase c) {
        List<String> operands = new ArrayList<>();
        for (OpenClTables.AsTypeExample e : reference.tables().examples()) {
            if (e.from().equals(MemoryCase.vectorType(c.type(), c.n())) && e.to().equals(MemoryCase.vectorType(c.toType(), c.toN()))) {
                operands.add(e.operand());
            }
        }
        return operands;
    }

    /** "0x3F800000 0x40000000" (elements, as the document writes them) to little-endian bytes. */
    static byte[] operand(String text, int bytes) {
        String[] words = text.split("\\s+");
        int size = bytes / words.length;
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (String w : words) {
            long v = Long.parseUnsignedLong(w.substring(2), 16);
            switch (size) {
                case 1 -> b.put((byte) v);
                case 2 -> b.putShort((short) v);
                case 4 -> b.putInt((int) v);
                default -> b.putLong(v);
            }
        }
        return b.array();
    }

    /** Counts by outcome, for summaries. */
    public static Map<String, Integer> outcomes(List<MemoryVector> vectors) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        vectors.forEach(v -> counts.merge(v.outcome().label(), 1, Integer::sum));
        return counts;
    }
}
