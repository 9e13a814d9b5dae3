package convcert.oracle;

/**
 * A literal transcription of the Ascend "float/half to hifloat8_t" pseudo-code (research formats.md
 * 1.4.1 and 1.4.2, from the Reg Cast documentation): TA and HR rounding, Inf/NaN, saturation. It
 * works on the input's bit fields as the hardware description does; its encoder follows the layout
 * table of formats.md 1.2. Half inputs are normalised first (decision hr-half-subnormal).
 */
public final class HifloatPseudoCode {

    private HifloatPseudoCode() {
    }

    public static int fromFloat(int bits, boolean hybrid, boolean saturate) {
        int sign = bits >>> 31;
        int ev = ((bits >>> 23) & 0xFF) - 127;
        int man = bits & 0x7FFFFF;
        int thr = bits & 0x3FFF;
        if (ev == 128 && man != 0) {
            return saturate ? 0x00 : 0x80;
        }
        if ((ev == 128 && man == 0) || ev > 15) {
            return inf(sign, saturate);
        }
        if (ev < -23) {
            return 0x00;
        }
        if (ev == -23) {
            boolean up = !hybrid || ((1 << 13) | (man >>> 10)) >= thr;
            return up ? (sign << 7) | 0x01 : 0x00;
        }
        int abs = Math.abs(ev);
        int mbits;
        int taBit;
        int frac;
        if (ev >= -22 && ev <= -16) {
            mbits = 0;
            taBit = (man >>> 22) & 1;
            frac = (man >>> 9) & 0x3FFF;
        } else if (abs <= 3) {
            mbits = 3;
            taBit = (man >>> 19) & 1;
            frac = (man >>> 6) & 0x3FFF;
        } else if (abs <= 7) {
            mbits = 2;
            taBit = (man >>> 20) & 1;
            frac = (man >>> 7) & 0x3FFF;
        } else {
            mbits = 1;
            taBit = (man >>> 21) & 1;
            frac = (man >>> 8) & 0x3FFF;
        }
        int m = mbits == 0 ? 0 : man >>> (23 - mbits);
        boolean up = abs <= 3 || !hybrid ? taBit == 1 : frac >= thr;
        return round(sign, ev, m, mbits, up, saturate);
    }

    public static int fromHalf(int bits, boolean hybrid, boolean saturate) {
        int sign = (bits >>> 15) & 1;
        int exponentField = (bits >>> 10) & 0x1F;
        int man = bits & 0x3FF;
        int thr = ((bits & 1) << 1) | 1;
        if (exponentField == 0x1F) {
            return man != 0 ? (saturate ? 0x00 : 0x80) : inf(sign, saturate);
        }
        if (exponentField == 0 && man == 0) {
            return 0x00;
        }
        int ev = exponentField - 15;
        if (exponentField == 0) { // subnormal: normalise so that the leading 1 becomes implicit
            ev = -14;
            while ((man & 0x400) == 0) {
                man <<= 1;
                ev--;
            }
            man &= 0x3FF;
        }
        if (ev < -23) {
            return 0x00;
        }
        if (ev == -23) {
            boolean up = !hybrid || ((1 << 1) | (man >>> 9)) >= thr;
            return up ? (sign << 7) | 0x01 : 0x00;
        }
        int abs = Math.abs(ev);
        int mbits;
        int taBit;
        int frac;
        if (ev >= -22 && ev <= -16) {
            mbits = 0;
            taBit = (man >>> 9) & 1;
            frac = (man >>> 8) & 3;
        } else if (abs <= 3) {
            mbits = 3;
            taBit = (man >>> 6) & 1;
            frac = (man >>> 5) & 3;
        } else if (abs <= 7) {
            mbits = 2;
            taBit = (man >>> 7) & 1;
            frac = (man >>> 6) & 3;
        } else {
            mbits = 1;
            taBit = (man >>> 8) & 1;
            frac = (man >>> 7) & 3;
        }
        int m = mbits == 0 ? 0 : man >>> (10 - mbits);
        boolean up = abs <= 3 || !hybrid ? taBit == 1 : frac >= thr;
        return round(sign, ev, m, mbits, up, saturate);
    }

    private static int round(int sign, int ev, int m, int mbits, boolean up, boolean saturate) {
        if (mbits == 0) { // DML range: a carry moves to the next power of two
            if (up) {
                ev++;
            }
            return encode(sign, ev, 0, saturate);
        }
        if (up) {
            m++;
            if (m == (1 << mbits)) {
                m = 0;
                ev++;
            }
        }
        return encode(sign, ev, m, saturate);
    }

    private static int inf(int sign, boolean saturate) {
        return (sign << 7) | (saturate ? 0x6E : 0x6F);
    }

    /** {sign, Ev, M} -> code; M is left-aligned to the binade's mantissa width. */
    private static int encode(int sign, int ev, int m, boolean saturate) {
        if (ev > 15) {
            return inf(sign, saturate);
        }
        int code;
        if (ev <= -16) {
            code = ev + 23; // DML: 2^(M-23)
        } else {
            int abs = Math.abs(ev);
            int es = ev < 0 ? 1 : 0;
            if (abs == 0) {
                code = 0b0001_000 | m;
            } else if (abs == 1) {
                code = 0b001_0000 | es << 3 | m;
            } else if (abs <= 3) {
                code = 0b01_00000 | (es << 1 | (abs & 1)) << 3 | m;
            } else if (abs <= 7) {
                code = 0b10_00000 | (es << 2 | (abs & 3)) << 2 | m;
            } else {
                code = 0b11_00000 | (es << 3 | (abs & 7)) << 1 | m;
            }
        }
        int result = sign << 7 | code;
        if ((result & 0x7F) == 0x6F) { // the 1.5*2^15 slot is infinity
            return inf(sign, saturate);
        }
        return result;
    }
}
