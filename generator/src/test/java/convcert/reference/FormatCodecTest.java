package convcert.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import convcert.TestProfile;
import convcert.oracle.IndependentDecoder;
import convcert.oracle.Value;
import convcert.spec.Format;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The table-driven decoding of every format up to 16 bits agrees with the research notes' decoding
 * on every code, and every finite code encodes back to itself.
 */
class FormatCodecTest {

    @TestFactory
    Stream<DynamicTest> everyCodeDecodesAndEncodesBack() {
        Reference r = TestProfile.reference();
        return r.tables().formats().stream().filter(f -> f.width() <= 16 && !f.isInteger())
                .map(f -> DynamicTest.dynamicTest(f.name(), () -> check(r.codec(f))));
    }

    private static void check(FormatCodec codec) {
        Format f = codec.format();
        for (long code = 0; code < (1L << f.width()); code++) {
            Decoded d = codec.decode(code);
            Value v = IndependentDecoder.decode(f.name(), code);
            String where = f.name() + " " + f.hex(code);
            assertEquals(v.kind().name(), d.kind().name(), where);
            if (v.kind() != Value.Kind.NAN && !(v.kind() == Value.Kind.ZERO && f.name().equals("hifloat8"))) {
                assertEquals(v.negative(), d.negative(), where);
            }
            if (d.kind() == Decoded.Kind.FINITE) {
                assertEquals(0, v.magnitude().compareTo(Values.exact(false, d.significand(), d.exponent())), where);
                int q = codec.quantum(d.binade());
                long kept = d.significand() << (d.exponent() - q);
                assertEquals(code, codec.encode(d.negative(), kept, q), where + " encodes back");
            }
        }
    }
}
