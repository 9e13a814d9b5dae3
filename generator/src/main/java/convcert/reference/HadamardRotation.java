package convcert.reference;

import convcert.spec.Rotation;
import java.math.BigDecimal;

/**
 * A block's values through the Hadamard rotation of tensors.csv (Rotation): y_j = c sum_k d_k x_k H_kj, H the
 * Sylvester matrix (H_kj = -1 where k AND j has an odd number of bits), d the signs, c = 1 / sqrt(size), a power of
 * two. Each y_j is the exact sum rounded once to binary32 (round to nearest even; an exact zero is +0), what any
 * order of summation in binary32 gives where every partial sum is exact, which is where the golden tensors lie
 * (generator/COVERAGE.md, "Rotated tensors"). A NaN or infinity makes the group's values NaN or infinite, with a
 * sign and payload each kernel's order picks: the reference gives the canonical quiet NaN, or the infinity the
 * sum in index order gives; the golden tensors hold none.
 */
public final class HadamardRotation {

    private HadamardRotation() {
    }

    /** Where the signs go (decision rotation-signs), and whether c is applied (not, under fault rotation-unnormalized). */
    public record Reading(Semantics.RotationSigns signs, boolean normalized) {
    }

    static int h(int k, int j) {
        return Integer.bitCount(k & j) % 2 == 0 ? 1 : -1;
    }

    /** The rotated group of binary32 values x (bits), under a reading. */
    static float[] rotate(float[] x, Rotation r, Reading reading) {
        int n = r.size();
        float[] y = new float[n];
        boolean finite = true;
        for (float v : x) {
            finite &= Float.isFinite(v);
        }
        BigDecimal c = reading.normalized() ? BigDecimal.ONE.divide(BigDecimal.valueOf(Math.round(Math.sqrt(n)))) : BigDecimal.ONE;
        for (int j = 0; j < n; j++) {
            BigDecimal sum = BigDecimal.ZERO;
            double special = 0;
            for (int k = 0; k < n; k++) {
                int sign = h(k, j) * (reading.signs() == Semantics.RotationSigns.INPUTS ? r.sign(k) : 1);
                if (finite) {
                    BigDecimal term = new BigDecimal(x[k]);
                    sum = sign > 0 ? sum.add(term) : sum.subtract(term);
                } else {
                    special += sign * (double) x[k];
                }
            }
            int after = reading.signs() == Semantics.RotationSigns.OUTPUTS ? r.sign(j) : 1;
            y[j] = finite ? (after > 0 ? sum : sum.negate()).multiply(c).floatValue()
                    : Double.isNaN(special) ? Float.intBitsToFloat(0x7FC00000) : (float) (after * special);
        }
        return y;
    }

    /**
     * The x whose rotation under the default reading (signs on the inputs) is y: x = c D H y, since H H = size I.
     * Exact in double arithmetic for the y the golden tensors use (a group's values on a grid of 2^-15 of its
     * largest binade), and then exactly a binary32 each.
     */
    public static float[] preimage(float[] y, Rotation r) {
        int n = r.size();
        float[] x = new float[n];
        double c = 1 / Math.sqrt(n);
        for (int k = 0; k < n; k++) {
            double sum = 0;
            for (int j = 0; j < n; j++) {
                sum += h(k, j) * (double) y[j];
            }
            x[k] = (float) (r.sign(k) * c * sum);
        }
        return x;
    }
}
