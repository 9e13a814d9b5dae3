package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertTrue;

import convcert.Sweeps;
import convcert.TestProfile;
import convcert.oracle.IndependentDecoder;
import convcert.oracle.Value;
import convcert.spec.Conversion;
import convcert.spec.Form;
import convcert.spec.Location;
import convcert.spec.Rounding;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Structural laws every rounding must obey, checked on every pair's inputs (exhaustive for 8/16-bit
 * sources, seeded for wider ones): rd <= x <= ru; rn, rna, rz, ro are one of rd and ru; rz is rd for
 * positive x and ru for negative; an inexact ro result has an odd last bit; results are monotonic in
 * the input (wrapping integer results apart); and round-to-odd to p+2 bits followed by rn equals direct rn.
 */
class LawsTest {

    /** Value order with infinities; NaN is excluded before. */
    private static BigDecimal order(Value v) {
        return switch (v.kind()) {
            case INFINITE -> v.negative() ? new BigDecimal("-1e400") : new BigDecimal("1e400");
            default -> v.signed();
        };
    }

    private static BigDecimal valueOf(String format, long bits) {
        return order(IndependentDecoder.decode(format, bits));
    }

    @TestFactory
    Stream<DynamicTest> bracketingAndOddness() {
        Reference r = TestProfile.reference();
        List<DynamicTest> tests = new ArrayList<>();
        for (Conversion c : r.tables().conversions()) {
            if (!c.modes().contains(Rounding.RD) || !c.modes().contains(Rounding.RU)) {
                continue;
            }
            Form form = c.forms().contains(Form.NOSAT) ? Form.NOSAT : Form.SAT;
            tests.add(DynamicTest.dynamicTest(c.pairName() + " " + form.tableName(), () -> {
                Map<Rounding, Converter> converters = new EnumMap<>(Rounding.class);
                for (Rounding mode : c.modes()) {
                    converters.put(mode, r.converter(r.resolve(c, mode, form, r.ctrl("60=0"))));
                }
                String from = c.from().name();
                String to = c.to().name();
                List<String> failures = new ArrayList<>();
                RationalOracleTest.sweep(c, bits -> {
                    Value x = IndependentDecoder.decode(from, bits);
                    if (x.kind() == Value.Kind.NAN || failures.size() >= 5) {
                        return;
                    }
                    long down = converters.get(Rounding.RD).apply(bits);
                    long up = converters.get(Rounding.RU).apply(bits);
                    BigDecimal xv = order(x);
                    BigDecimal dv = valueOf(to, down);
                    BigDecimal uv = valueOf(to, up);
                    boolean saturated = converters.get(Rounding.RD).spec().saturation() != convcert.spec.Saturation.NOSAT;
                    if (!saturated && (dv.compareTo(xv) > 0 || uv.compareTo(xv) < 0)) {
                        failures.add("rd/ru do not bracket x for input 0x" + Long.toHexString(bits));
                    }
                    for (var e : converters.entrySet()) {
                        long result = e.getValue().apply(bits);
                        if (result != down && result != up) {
                            failures.add(e.getKey().suffix() + " of 0x" + Long.toHexString(bits) + " is neither rd nor ru");
                        }
                        if (e.getKey() == Rounding.RZ && result != (xv.signum() >= 0 ? down : up)) {
                            failures.add("rz of 0x" + Long.toHexString(bits) + " is not rd/ru by sign");
                        }
                        if (e.getKey() == Rounding.RO && down != up && (result & 1) == 0) {
                            failures.add("ro of 0x" + Long.toHexString(bits) + " is inexact but even");
                        }
                    }
                });
                assertTrue(failures.isEmpty(), String.join("\n", failures));
            }));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> monotonicOverEvery16BitSource() {
        Reference r = TestProfile.reference();
        List<DynamicTest> tests = new ArrayList<>();
        for (Conversion c : r.tables().conversions()) {
            if (c.from().width() > 16) {
                continue;
            }
            for (Rounding mode : c.modes()) {
                if (mode == Rounding.RH) {
                    continue; // hybrid rounding compares input bits; it is not monotonic by design
                }
                for (Case state : r.saturationStates(c, mode)) {
                    if (state.saturation() == convcert.spec.Saturation.WRAP) {
                        continue; // keeping the low bits is not monotonic by design
                    }
                    tests.add(DynamicTest.dynamicTest(c.pairName() + " " + mode.suffix() + " " + state.stateLabel(),
                            () -> monotonic(r.converter(state))));
                }
            }
        }
        return tests.stream();
    }

    private static void monotonic(Converter converter) {
        String from = converter.spec().conversion().from().name();
        String to = converter.spec().conversion().to().name();
        record Point(BigDecimal x, long bits) { }
        List<Point> points = new ArrayList<>();
        Sweeps.exhaustive(converter.spec().conversion().from().width(), bits -> {
            Value v = IndependentDecoder.decode(from, bits);
            if (v.kind() != Value.Kind.NAN) {
                points.add(new Point(order(v), bits));
            }
        });
        points.sort((a, b) -> a.x().compareTo(b.x()));
        BigDecimal previous = null;
        for (Point p : points) {
            long result = converter.apply(p.bits());
            Value v = IndependentDecoder.decode(to, result);
            if (v.kind() == Value.Kind.NAN) {
                continue; // fp8_e4m3fn overflow gives NaN, outside the order
            }
            BigDecimal y = order(v);
            assertTrue(previous == null || previous.compareTo(y) <= 0, () -> converter.spec().describe()
                    + " not monotonic between inputs 0x" + Long.toHexString(p.bits()) + " and its predecessor");
            previous = y;
        }
    }

    @Test
    void roundToOddThenNearestEqualsDirectNearest() {
        // Boldo-Melquiond: rounding to odd at >= p+2 bits, then to nearest at p bits, rounds once.
        Reference r = TestProfile.reference();
        var t = r.tables();
        Location here = new Location(Path.of("LawsTest"), 0, 0);
        for (String source : List.of("double", "int64")) {
            for (String target : List.of("half", "bfloat16")) {
                var src = t.findFormat(source);
                var mid = t.findFormat("float");
                var dst = t.findFormat(target);
                Converter odd = r.converter(r.resolve(new Conversion(src, mid, Set.of(Rounding.RO), Set.of(Form.NOSAT),
                        "A", null, "test", "test", here), Rounding.RO, Form.NOSAT, r.ctrl("60=0")));
                Converter nearest = r.converter(r.resolve(t.conversion(mid, dst), Rounding.RN, Form.NOSAT, r.ctrl("60=0")));
                Converter direct = r.converter(r.resolve(new Conversion(src, dst, Set.of(Rounding.RN), Set.of(Form.NOSAT),
                        "A", null, "test", "test", here), Rounding.RN, Form.NOSAT, r.ctrl("60=0")));
                SplittableRandom random = new SplittableRandom(77);
                for (int i = 0; i < 200_000; i++) {
                    long bits = random.nextLong();
                    if (source.equals("double")) { // bring most doubles into the target's range
                        bits = (bits & 0x800FFFFFFFFFFFFFL) | ((long) (1023 - 140 + random.nextInt(280)) << 52);
                    } else {
                        bits >>= random.nextInt(64);
                    }
                    long twoStep = nearest.apply(odd.apply(bits));
                    long oneStep = direct.apply(bits);
                    if (twoStep != oneStep) {
                        throw new AssertionError(source + "->" + target + " 0x" + Long.toHexString(bits) + ": ro then rn 0x"
                                + Long.toHexString(twoStep) + ", direct rn 0x" + Long.toHexString(oneStep));
                    }
                }
            }
        }
    }
}
