package convcert.suite.adapters;

import convcert.spi.AdapterContext;
import convcert.spi.AdapterException;
import convcert.spi.AdapterProvider;
import convcert.spi.Capability;
import convcert.spi.CaseKey;
import convcert.spi.ConverterAdapter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongUnaryOperator;

/**
 * The JDK's own conversions, a real third-party implementation: Float.floatToFloat16 and
 * float16ToFloat (IEEE round to nearest even, non-saturating), Java's primitive casts (float/double
 * to int/long truncate toward zero, saturate, NaN -> 0: JLS 5.1.3; int/long to float round to nearest
 * even: JLS 5.1.2; integer narrowing keeps the low bits), and Math.rint/floor/ceil for rounding to an
 * integral value. It declares only those; everything else is not applicable.
 */
public final class JdkAdapter implements ConverterAdapter {

    public static final class Provider implements AdapterProvider {
        @Override
        public String name() {
            return "jdk";
        }

        @Override
        public String description() {
            return "the JDK: Float.floatToFloat16/float16ToFloat, primitive casts, Math.rint/floor/ceil";
        }

        @Override
        public ConverterAdapter create(AdapterContext context, Map<String, String> options) {
            return new JdkAdapter();
        }
    }

    private final Map<String, LongUnaryOperator> operations = new LinkedHashMap<>();

    @Override
    public String identity() {
        return "the JDK's conversions: " + System.getProperty("java.vendor") + " " + System.getProperty("java.vm.version");
    }

    public JdkAdapter() {
        operations.put("float half rn nosat", f -> Float.floatToFloat16(f32(f)) & 0xFFFFL);
        operations.put("half float rn nosat", h -> bits(Float.float16ToFloat((short) h)));
        Map<String, DoubleUnaryOperator> integral = new LinkedHashMap<>();
        integral.put("rn", Math::rint);
        integral.put("rd", Math::floor);
        integral.put("ru", Math::ceil);
        integral.put("rz", x -> x); // the cast itself truncates
        integral.forEach((mode, round) -> {
            operations.put("float int32 " + mode + " sat", f -> (int) round.applyAsDouble(f32(f)) & 0xFFFFFFFFL);
            operations.put("float int64 " + mode + " sat", f -> (long) round.applyAsDouble(f32(f)));
            operations.put("half int32 " + mode + " sat",
                    h -> (int) round.applyAsDouble(Float.float16ToFloat((short) h)) & 0xFFFFFFFFL);
            operations.put("half int64 " + mode + " sat", h -> (long) round.applyAsDouble(Float.float16ToFloat((short) h)));
            if (!mode.equals("rz")) {
                operations.put("float float " + mode + " nosat", f -> bits((float) round.applyAsDouble(f32(f))));
                operations.put("half half " + mode + " nosat",
                        h -> Float.floatToFloat16((float) round.applyAsDouble(Float.float16ToFloat((short) h))) & 0xFFFFL);
            }
        });
        operations.put("int32 float rn nosat", i -> bits((float) (int) i));
        operations.put("uint32 float rn nosat", u -> bits((float) (u & 0xFFFFFFFFL)));
        operations.put("int64 float rn nosat", l -> bits((float) l));
        // Integer to integer: widen by sign or zero extension, narrow by a cast (keeps the low bits).
        Map<String, LongUnaryOperator> widen = new LinkedHashMap<>();
        widen.put("int8", x -> (byte) x);
        widen.put("uint8", x -> Byte.toUnsignedLong((byte) x));
        widen.put("int16", x -> (short) x);
        widen.put("uint16", x -> Short.toUnsignedLong((short) x));
        widen.put("int32", x -> (int) x);
        widen.put("uint32", x -> Integer.toUnsignedLong((int) x));
        widen.put("int64", x -> x);
        widen.put("uint64", x -> x);
        Map<String, LongUnaryOperator> narrow = new LinkedHashMap<>();
        narrow.put("int8", x -> (byte) x & 0xFFL);
        narrow.put("uint8", x -> (byte) x & 0xFFL);
        narrow.put("int16", x -> (short) x & 0xFFFFL);
        narrow.put("uint16", x -> (short) x & 0xFFFFL);
        narrow.put("int32", x -> (int) x & 0xFFFFFFFFL);
        narrow.put("uint32", x -> (int) x & 0xFFFFFFFFL);
        narrow.put("int64", x -> x);
        narrow.put("uint64", x -> x);
        widen.forEach((from, w) -> narrow.forEach((to, n) -> {
            if (!from.equals(to)) {
                operations.put(from + " " + to + " rz wrap", x -> n.applyAsLong(w.applyAsLong(x)));
            }
        }));
    }

    private static float f32(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    private static long bits(float f) {
        return Float.floatToRawIntBits(f) & 0xFFFFFFFFL;
    }

    /** Told the effective state; the form and CTRL variants would only repeat the same answers. */
    @Override
    public boolean programsSaturation() {
        return false;
    }

    @Override
    public List<Capability> capabilities() {
        List<Capability> list = new ArrayList<>();
        operations.keySet().forEach(k -> list.add(Capability.parse(k)));
        return list;
    }

    @Override
    public void convert(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException {
        LongUnaryOperator op = operations.get(c.from() + " " + c.to() + " " + c.rounding() + " " + c.state());
        if (op == null) {
            throw new AdapterException("the JDK has no " + c.name());
        }
        for (int i = 0; i < count; i++) {
            outputs[i] = op.applyAsLong(inputs[i]);
        }
    }
}
