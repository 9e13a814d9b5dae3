/*
 * Planted bugs for the diagnosis benchmark (docs/diagnosis.md): one hand-written converter library, the way
 * firmware writes one (decompose, shift, take guard and sticky, round, carry, encode, saturate), with one bug
 * planted per build. -DBUG=NAME picks it (BUG=NONE: a correct library, which certifies under the cuda profile).
 *
 *   gcc -O2 -shared -fPIC -DBUG=TIES_AWAY -I suite/native -o libplanted.so suite/devices/planted/planted.c
 *   ./convcert certify --profile cuda --adapter native:lib=./libplanted.so
 *
 * Conversions (cuda profile names): float -> half, bfloat16 (rn rz ru rd), fp8_e4m3fn, fp8_e5m2 (rn, nosat and
 * sat); double -> float (rn rz ru rd), half (rn); half -> float; float -> int32 (rn rz ru rd, sat);
 * int32 -> float (rn rz ru rd). Under riscv, float -> half in rna too, with the exception flags of each conversion
 * (convcert_convert_flags); under arm, float -> fp8_e4m3fn and fp8_e5m2 with a scale beside each value
 * (convcert_convert_lane: x 2^NSCALE). Nothing here is convcert's reference: it is written from the formats'
 * definitions.
 */
#include <stdint.h>
#include <string.h>
#include "convcert_dut.h"

enum bug {
    NONE, TIES_AWAY, TIES_AWAY_SUBNORMAL, TIES_TOWARD_ZERO, TIES_UP, TRUNCATE, STICKY_IGNORED, STICKY_LOW8,
    CARRY_DROPPED, CARRY_INTO_NEXT_CODE, SATURATE_FROM_TOP_BINADE, NEVER_SATURATE, ALWAYS_SATURATE, FTZ, DAZ, ZERO_SIGN_LOST,
    NAN_TO_ZERO, NAN_TRUNCATED, INFINITY_TO_MAX, INFINITY_TO_NAN, OVERFLOW_LATE, DIRECTED_OVERFLOW_INF,
    DIRECTED_SWAPPED_NEGATIVE, VIA_FLOAT, INT_WRAP, INT_NAN_MIN, RZ_AS_RN, SUBNORMAL_BINADE_OFF, NEGATIVE_SUBNORMAL_ABS,
    RU_AS_RD, GUARD_FROM_STICKY, NAN_AS_INFINITY, EXPONENT_BIAS_OFF, DOUBLE_ROUND_HALF, E4M3_NAN_FNUZ_STYLE,
    INT_TIES_AWAY, INT_TRUNCATE_NEGATIVE_UP, MAX_FINITE_ONE_LOW,
    /* the exception flags (riscv profile) */
    FLAGS_NO_INEXACT, FLAGS_TININESS_BEFORE, FLAGS_OVERFLOW_NO_INEXACT, FLAGS_UNDERFLOW_WHEN_TINY, FLAGS_NONE,
    FLAGS_OVERFLOW_BEFORE_ROUNDING, FLAGS_INEXACT_ALWAYS, FLAGS_QUIET_NAN_INVALID,
    /* the scale beside each value (arm profile: x 2^NSCALE) */
    SCALE_IGNORED, SCALE_NEGATED, SCALE_UNSIGNED, SCALE_AFTER_ROUNDING, SCALE_CLAMPED
};
#ifndef BUG
#define BUG NONE
#endif

enum mode { RN, RZ, RU, RD, RNA };

/* The exception flags of the last conversion, in SoftFloat's bits. */
enum { NX = 0x01, UF = 0x02, OF = 0x04, NV = 0x10 };
static int flags;

/* A binary floating format: exponent and fraction bits, bias; ieee: an all-ones exponent holds infinity and NaN
   (else, as in E4M3FN, only S.1111.111 is NaN and there is no infinity). */
typedef struct { int ebits, mbits, bias, ieee; } fmt_t;
static const fmt_t HALF = {5, 10, 15, 1}, BF16 = {8, 7, 127, 1}, E4M3 = {4, 3, 7, 0}, E5M2 = {5, 2, 15, 1},
                   FLOAT = {8, 23, 127, 1};

/* A decoded value: kind, sign, and for finite nonzero values m * 2^(e - 63), m normalized (bit 63 set). */
enum kind { ZERO, FINITE, INF, NAN_ };
typedef struct { int kind, sign, e; uint64_t m; uint64_t payload; } val_t;

static val_t decode(uint64_t bits, int ebits, int mbits) {
    val_t v = {0};
    v.sign = (int)((bits >> (ebits + mbits)) & 1);
    uint64_t exp = (bits >> mbits) & ((1ull << ebits) - 1), frac = bits & ((1ull << mbits) - 1);
    int bias = (1 << (ebits - 1)) - 1;
    if (exp == (1ull << ebits) - 1) {
        v.kind = frac ? NAN_ : INF;
        v.payload = frac << (64 - mbits); /* left-aligned, quiet bit first */
        return v;
    }
    if (exp == 0 && frac == 0) { v.kind = ZERO; return v; }
    v.kind = FINITE;
    if (exp == 0) { /* subnormal */
        if (BUG == DAZ) { v.kind = ZERO; return v; }
        v.e = 1 - bias;
        v.m = frac << (64 - mbits);
        while (!(v.m >> 63)) { v.m <<= 1; v.e--; }
        v.e--; /* frac is 0.f: the leading bit sits one place below the binary point */
        return v;
    }
    v.e = (int)exp - bias;
    v.m = (1ull << 63) | (frac << (63 - mbits));
    return v;
}

static uint64_t ones(int n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

/* The largest finite code of a format (magnitude). */
static uint64_t max_finite(fmt_t f) {
    if (!f.ieee) return (ones(f.ebits) << f.mbits) | (ones(f.mbits) - 1); /* E4M3FN: S.1111.110 */
    return ((ones(f.ebits) - 1) << f.mbits) | ones(f.mbits);
}
static uint64_t nan_code(fmt_t f) { return f.ieee ? (ones(f.ebits) << f.mbits) | (1ull << (f.mbits - 1)) : ones(f.ebits + f.mbits); }

/* Overflow of a finite value: saturate, or infinity (NaN in E4M3FN), or the largest finite value where the
   rounding goes toward zero (cuda's directed-overflow = largest-finite). */
static uint64_t overflow(fmt_t f, int sign, int mode, int sat) {
    uint64_t s = (uint64_t)sign << (f.ebits + f.mbits);
    flags |= OF | (BUG == FLAGS_OVERFLOW_NO_INEXACT ? 0 : NX);
    int toward_zero = mode == RZ || (mode == RU && sign) || (mode == RD && !sign);
    if (BUG == DIRECTED_OVERFLOW_INF) toward_zero = 0;
    if (BUG == NEVER_SATURATE) sat = 0;
    if (sat || (toward_zero && f.ieee) || BUG == ALWAYS_SATURATE) return s | max_finite(f);
    if (BUG == INFINITY_TO_MAX && f.ieee) return s | max_finite(f);
    if (BUG == INFINITY_TO_NAN && f.ieee) return nan_code(f);
    return s | (f.ieee ? ones(f.ebits) << f.mbits : nan_code(f));
}

/*
 * Whether a value below the smallest normal stays below it when rounded with the format's full precision (IEEE 754's
 * tininess after rounding, RISC-V's); before rounding (the bug) every such value is tiny.
 */
static int tiny_after_rounding(fmt_t f, val_t v, int mode) {
    int emin = 1 - f.bias;
    if (BUG == FLAGS_TININESS_BEFORE || v.e < emin - 1) return 1;
    int shift = 63 - f.mbits; /* keep mbits + 1 bits */
    uint64_t kept = v.m >> shift, guard = (v.m >> (shift - 1)) & 1, sticky = (v.m & ones(shift - 1)) != 0;
    int up = mode == RN ? guard && (sticky || (kept & 1)) : mode == RNA ? (int)guard
           : mode == RU ? (guard || sticky) && !v.sign : mode == RD ? (guard || sticky) && v.sign : 0;
    return !((kept + up) >> (f.mbits + 1)); /* no carry into 2^emin */
}

/* Rounds a finite value into format f: the heart of every conversion here, and where most bugs go. */
static uint64_t round_to(fmt_t f, val_t v, int mode, int sat) {
    uint64_t s = (uint64_t)v.sign << (f.ebits + f.mbits);
    int emin = 1 - f.bias, emax = (f.ieee ? (int)ones(f.ebits) - 1 : (int)ones(f.ebits)) - f.bias;
    if (BUG == EXPONENT_BIAS_OFF && v.e == emin) v.e++;
    if (BUG == SATURATE_FROM_TOP_BINADE && sat && v.e >= emax) return s | max_finite(f);
    if (BUG == MAX_FINITE_ONE_LOW && sat && v.e > emax) return s | (max_finite(f) - 1);
    if (v.e > emax) return overflow(f, v.sign, mode, sat);
    /* saturation decided before rounding: 480 and above saturate, what rounds up to 480 carries into the NaN code */
    if (BUG == CARRY_INTO_NEXT_CODE && !f.ieee && v.e == emax && (v.m >> (63 - f.mbits)) == ones(f.mbits + 1))
        return overflow(f, v.sign, mode, sat);
    int subnormal = v.e < emin;
    if (BUG == SUBNORMAL_BINADE_OFF && subnormal) v.e--;
    int k = f.mbits + 1 - (subnormal ? emin - v.e : 0); /* significant bits kept */
    uint64_t kept, guard, sticky;
    if (k >= 1) {
        int shift = 64 - k;
        kept = v.m >> shift;
        guard = (v.m >> (shift - 1)) & 1;
        sticky = (v.m & ones(shift - 1)) != 0;
        if (BUG == STICKY_IGNORED) sticky = 0;
        if (BUG == STICKY_LOW8) sticky = (v.m & ones(shift - 1) & ~ones(8 + 40)) != 0; /* a float's low 8 bits */
        if (BUG == GUARD_FROM_STICKY) guard = guard | sticky;
    } else {
        kept = 0;
        guard = k == 0;
        sticky = k == 0 ? (v.m << 1) != 0 : 1;
    }
    int inexact = guard || sticky, up = 0;
    if (inexact) flags |= NX;
    if (subnormal && (inexact || BUG == FLAGS_UNDERFLOW_WHEN_TINY) && tiny_after_rounding(f, v, mode)) flags |= UF;
    int m = mode;
    if (BUG == RZ_AS_RN && m == RZ) m = RN;
    if (BUG == RU_AS_RD && m == RU) m = RD;
    if (BUG == DIRECTED_SWAPPED_NEGATIVE && v.sign && (m == RU || m == RD)) m = m == RU ? RD : RU;
    if (BUG == TRUNCATE) m = RZ;
    switch (m) {
    case RNA: up = guard; break;
    case RN: {
        int tie = guard && !sticky;
        if (!tie) up = guard;
        else if (BUG == TIES_AWAY || (BUG == TIES_AWAY_SUBNORMAL && subnormal)) up = 1;
        else if (BUG == TIES_TOWARD_ZERO) up = 0;
        else if (BUG == TIES_UP) up = !v.sign;
        else up = (int)(kept & 1);
        break;
    }
    case RZ: up = 0; break;
    case RU: up = inexact && !v.sign; break;
    case RD: up = inexact && v.sign; break;
    }
    if (BUG == NEGATIVE_SUBNORMAL_ABS && subnormal && v.sign) up = inexact; /* rounds the magnitude up */
    kept += up;
    int e = v.e;
    if (!subnormal && kept >> (f.mbits + 1)) { /* the carry out of the significand */
        if (BUG == CARRY_DROPPED) kept = 1ull << f.mbits;
        else { kept >>= 1; e++; }
    }
    if (subnormal) {
        if (BUG == FTZ && !(kept >> f.mbits)) return s; /* a subnormal result flushed */
        return s | kept; /* exponent field 0, or 1 where the rounding reached the smallest normal */
    }
    if (e > emax && BUG == OVERFLOW_LATE && f.ieee && mode == RN) return s | max_finite(f);
    if (e > emax && BUG != CARRY_INTO_NEXT_CODE) return overflow(f, v.sign, mode, sat);
    uint64_t code = ((uint64_t)(e + f.bias) << f.mbits) | (kept & ones(f.mbits));
    if (!f.ieee && code == nan_code(f) && BUG != CARRY_INTO_NEXT_CODE) return overflow(f, v.sign, mode, sat);
    return s | code;
}

/* A float, double or half into format f. */
static uint64_t convert_float(fmt_t f, uint64_t bits, int ebits, int mbits, int mode, int sat) {
    if (BUG == VIA_FLOAT && mbits == 52 && f.mbits < 23) { /* double -> half through float: two roundings */
        uint64_t once = convert_float(FLOAT, bits, 11, 52, RN, 0);
        return convert_float(f, once, 8, 23, mode, sat);
    }
    if (BUG == DOUBLE_ROUND_HALF && mbits == 23 && f.mbits < 10) { /* float -> FP8 through half */
        uint64_t once = convert_float(HALF, bits, 8, 23, RN, 0);
        return convert_float(f, once, 5, 10, mode, sat);
    }
    val_t v = decode(bits, ebits, mbits);
    uint64_t s = (uint64_t)v.sign << (f.ebits + f.mbits);
    switch (v.kind) {
    case ZERO: return BUG == ZERO_SIGN_LOST ? 0 : s;
    case FINITE: break;
    case INF:
        if (BUG == INFINITY_TO_NAN) return nan_code(f);
        if (!f.ieee) return sat ? s | max_finite(f) : nan_code(f);
        return sat || BUG == INFINITY_TO_MAX || BUG == ALWAYS_SATURATE ? s | max_finite(f) : s | (ones(f.ebits) << f.mbits);
    case NAN_:
        if (!(v.payload >> 63) || BUG == FLAGS_QUIET_NAN_INVALID) flags |= NV; /* a signaling NaN */
        if (BUG == NAN_TO_ZERO) return 0;
        if (BUG == NAN_AS_INFINITY) return s | (ones(f.ebits) << f.mbits);
        if (!f.ieee) return s | nan_code(f);
        if (BUG == NAN_TRUNCATED) return s | (ones(f.ebits) << f.mbits) | (v.payload >> (64 - f.mbits));
        return s | (ones(f.ebits) << f.mbits) | (1ull << (f.mbits - 1)) | (v.payload >> (64 - f.mbits));
    }
    uint64_t r = round_to(f, v, mode, sat);
    if (BUG == E4M3_NAN_FNUZ_STYLE && !f.ieee && r == s && v.sign) return nan_code(f); /* 0x80 taken for NaN */
    if (BUG == ZERO_SIGN_LOST && r == s) return 0; /* a negative value rounded to -0 */
    return r;
}

/* float or double -> int32, saturating, NaN -> 0 (cuda's __float2int_rn). */
static uint32_t to_int32(uint64_t bits, int ebits, int mbits, int mode) {
    val_t v = decode(bits, ebits, mbits);
    if (v.kind == NAN_) return BUG == INT_NAN_MIN ? 0x80000000u : 0;
    if (v.kind == INF) return v.sign ? 0x80000000u : 0x7FFFFFFFu;
    if (v.kind == ZERO) return 0;
    if (v.e >= 31 && BUG != INT_WRAP) return v.sign ? 0x80000000u : 0x7FFFFFFFu; /* -2^31 is the saturated value too */
    uint64_t kept, guard, sticky;
    if (v.e >= 63) { kept = 0; guard = 0; sticky = 0; }
    else if (v.e >= 0) {
        int shift = 63 - v.e;
        kept = shift ? v.m >> shift : v.m;
        guard = shift ? (v.m >> (shift - 1)) & 1 : 0;
        sticky = shift > 1 ? (v.m & ones(shift - 1)) != 0 : 0;
    } else { kept = 0; guard = v.e == -1; sticky = v.e == -1 ? (v.m << 1) != 0 : 1; }
    int up = 0, m = BUG == TRUNCATE ? RZ : mode;
    if (BUG == INT_TRUNCATE_NEGATIVE_UP && v.sign && m == RZ) m = RD;
    switch (m) {
    case RN: up = guard && (sticky || (kept & 1) || BUG == INT_TIES_AWAY); break;
    case RZ: up = 0; break;
    case RU: up = (guard || sticky) && !v.sign; break;
    case RD: up = (guard || sticky) && v.sign; break;
    }
    kept += up;
    if (BUG != INT_WRAP && kept > 0x7FFFFFFFull + v.sign) return v.sign ? 0x80000000u : 0x7FFFFFFFu;
    return (uint32_t)(v.sign ? -kept : kept);
}

/* int32 -> float: the integer's magnitude normalized, then rounded as any other value. */
static uint32_t int32_to_float(uint32_t i, int mode) {
    int32_t x = (int32_t)i;
    if (x == 0) return 0;
    val_t v = {FINITE, x < 0, 63, 0, 0};
    v.m = x < 0 ? (uint64_t)(-(int64_t)x) : (uint64_t)x;
    while (!(v.m >> 63)) { v.m <<= 1; v.e--; }
    return (uint32_t)round_to(FLOAT, v, mode, 0);
}

static int mode_of(const char *r) {
    return !strcmp(r, "rz") ? RZ : !strcmp(r, "ru") ? RU : !strcmp(r, "rd") ? RD : !strcmp(r, "rna") ? RNA : RN;
}

/* The flags as the planted flag bugs report them. */
static int reported(int raised, uint64_t bits, int ebits, int mbits) {
    if (BUG == FLAGS_NONE) return 0;
    if (BUG == FLAGS_NO_INEXACT) raised &= ~NX;
    if (BUG == FLAGS_INEXACT_ALWAYS) raised |= NX;
    if (BUG == FLAGS_OVERFLOW_BEFORE_ROUNDING) { /* OF (and NX) when the value itself exceeds the largest finite */
        val_t v = decode(bits, ebits, mbits);
        if (v.kind == FINITE && v.e == HALF.bias && (v.m >> (63 - HALF.mbits)) == ones(HALF.mbits + 1)
            && (v.m & ones(63 - HALF.mbits)) != 0) raised |= OF | NX;
    }
    return raised;
}

const char *convcert_capabilities(void) {
    return "float half rn nosat\nfloat half rz nosat\nfloat half ru nosat\nfloat half rd nosat\nfloat half rna nosat\n"
           "float bfloat16 rn nosat\nfloat bfloat16 rz nosat\nfloat fp8_e4m3fn rn nosat\nfloat fp8_e4m3fn rn sat\n"
           "float fp8_e5m2 rn nosat\nfloat fp8_e5m2 rn sat\ndouble float rn nosat\ndouble float rz nosat\n"
           "double half rn nosat\nhalf float rn nosat\nfloat int32 rn sat\nfloat int32 rz sat\nint32 float rn nosat\n"
           "int32 float rz nosat\n";
}

int convcert_programs_saturation(void) { return 0; }

static char error[128];
const char *convcert_last_error(void) { return error; }

static int convert(const char *from, const char *to, const char *rounding, const char *state, const uint32_t *scales,
                   const void *in, void *out, uint8_t *flag_out, uint64_t count);

int convcert_convert(const char *from, const char *to, const char *rounding, const char *state, const char *form,
                     const char *ctrl, const void *in, void *out, uint64_t count) {
    (void)form; (void)ctrl;
    return convert(from, to, rounding, state, NULL, in, out, NULL, count);
}

int convcert_convert_flags(const char *from, const char *to, const char *rounding, const char *state, const char *form,
                           const char *ctrl, const void *in, void *out, uint8_t *flag_out, uint64_t count) {
    (void)form; (void)ctrl;
    return convert(from, to, rounding, state, NULL, in, out, flag_out, count);
}

const char *convcert_lanes(void) { return "scale"; }

int convcert_convert_lane(const char *from, const char *to, const char *rounding, const char *state, const char *form,
                          const char *ctrl, const char *lane, const uint32_t *lane_values, const void *in, void *out,
                          uint64_t count) {
    (void)form; (void)ctrl; (void)lane;
    return convert(from, to, rounding, state, lane_values, in, out, NULL, count);
}

/* A float times 2^scale into E4M3 or E5M2 (Arm's FCVTN with FPMR.NSCALE): the scale added to the exponent, exactly. */
static uint64_t convert_scaled(fmt_t f, uint32_t x, int32_t scale, int sat) {
    if (BUG == SCALE_IGNORED) scale = 0;
    if (BUG == SCALE_NEGATED) scale = -scale;
    if (BUG == SCALE_UNSIGNED) scale = (uint8_t)scale;
    if (BUG == SCALE_CLAMPED) scale = scale < -16 ? -16 : scale > 15 ? 15 : scale;
    if (BUG == SCALE_AFTER_ROUNDING) { /* the unscaled value rounded first, then scaled and rounded again */
        uint64_t once = convert_float(f, x, 8, 23, RN, sat);
        val_t w = decode(once, f.ebits, f.mbits);
        if (w.kind != FINITE || (!f.ieee && (once & ones(f.ebits + f.mbits)) == nan_code(f))) return once;
        w.e += scale;
        return round_to(f, w, RN, sat);
    }
    val_t v = decode(x, 8, 23);
    if (v.kind != FINITE) return convert_float(f, x, 8, 23, RN, sat);
    v.e += scale;
    return round_to(f, v, RN, sat);
}

/* A little-endian element of 1, 2, 4 or 8 bytes: fixed-size copies, which compile to plain moves. */
static uint64_t load(const uint8_t *p, int bytes) {
    uint8_t b; uint16_t h; uint32_t w; uint64_t d;
    switch (bytes) {
    case 1: memcpy(&b, p, 1); return b;
    case 2: memcpy(&h, p, 2); return h;
    case 4: memcpy(&w, p, 4); return w;
    default: memcpy(&d, p, 8); return d;
    }
}

static void store(uint8_t *p, uint64_t v, int bytes) {
    uint8_t b = (uint8_t)v; uint16_t h = (uint16_t)v; uint32_t w = (uint32_t)v;
    switch (bytes) {
    case 1: memcpy(p, &b, 1); break;
    case 2: memcpy(p, &h, 2); break;
    case 4: memcpy(p, &w, 4); break;
    default: memcpy(p, &v, 8);
    }
}

static int convert(const char *from, const char *to, const char *rounding, const char *state, const uint32_t *scales,
                   const void *in, void *out, uint8_t *flag_out, uint64_t count) {
    /* the call's conversion resolved once, as a firmware dispatch table would: the loop only converts */
    enum { SCALED, FROM_INT32, TO_INT32, FROM_HALF, FLOATING } kind = scales ? SCALED : !strcmp(from, "int32") ? FROM_INT32
            : !strcmp(to, "int32") ? TO_INT32 : !strcmp(from, "half") ? FROM_HALF : FLOATING;
    int mode = mode_of(rounding), sat = !strcmp(state, "sat");
    int in_bytes = !strcmp(from, "double") ? 8 : !strcmp(from, "half") ? 2 : 4;
    int ebits = in_bytes == 8 ? 11 : 8, mbits = in_bytes == 8 ? 52 : 23;
    fmt_t f = !strcmp(to, "half") ? HALF : !strcmp(to, "bfloat16") ? BF16 : !strcmp(to, "fp8_e4m3fn") ? E4M3
            : !strcmp(to, "fp8_e5m2") ? E5M2 : FLOAT;
    int out_bytes = kind == FROM_INT32 || kind == TO_INT32 || kind == FROM_HALF ? 4
            : f.ebits + f.mbits + 1 <= 8 ? 1 : f.ebits + f.mbits + 1 <= 16 ? 2 : 4;
    const uint8_t *src = in;
    uint8_t *dst = out;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t x = load(src + i * in_bytes, in_bytes), y;
        flags = 0;
        switch (kind) {
        case SCALED: y = convert_scaled(f, (uint32_t)x, (int8_t)scales[i], sat); break;
        case FROM_INT32: y = int32_to_float((uint32_t)x, mode); break;
        case TO_INT32: y = to_int32(x, 8, 23, mode); break;
        case FROM_HALF: y = convert_float(FLOAT, x, 5, 10, RN, 0); break;
        default: y = convert_float(f, x, ebits, mbits, mode, sat);
        }
        store(dst + i * out_bytes, y, out_bytes);
        if (flag_out) flag_out[i] = (uint8_t)reported(flags, x, in_bytes == 2 ? 5 : 8, in_bytes == 2 ? 10 : 23);
    }
    error[0] = 0;
    return 0;
}
