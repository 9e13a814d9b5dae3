/*
 * Arm FEAT_FP8's conversions, written from the Arm ARM's text (DDI 0487: FCVTN, BFCVTN, F1CVTL,
 * BF1CVTL, FPMR, A1.5.5 "Summary of FP8 instruction behaviors", A1.5.7.1 default NaNs), as a process
 * device speaking convcert's protocol with the SCALE handshake line (suite/ADAPTERS.md): each BATCH
 * carries, after its inputs, one u32 per element holding the FPMR scale field the instruction reads:
 * NSCALE (signed, "added to the operand exponent") for conversions to FP8, all 8 bits from single
 * precision and BFloat16 but NSCALE[4:0] from half precision (FCVTN), LSCALE[3:0] for FP8
 * to half and LSCALE[5:0] for FP8 to bfloat16 (unsigned, "subtracted from the result exponent").
 * Round to nearest even always; no flushing; NaN inputs give the default NaN with FPCR.AH=0 (sign 0);
 * overflow, or an infinity converted to FP8, gives with the result's sign the largest normal number
 * (FPMR.OSC=1, the "sat" state), else NaN for E4M3 and infinity for E5M2.
 *
 * --fault ignore-scale          converts as if every scale were 0
 * --fault scale-after-rounding  rounds the unscaled value to the destination, then scales that
 * --fault nscale-unsigned       reads NSCALE as an unsigned number
 * --fault nscale-full-byte      FCVTN from half reads all 8 bits of NSCALE instead of NSCALE[4:0]
 * --fault unsigned-overflow-nan gives E4M3's overflow the default NaN 0x7F whatever its sign
 * --fault no-scale              leaves SCALE out of its handshake (the suite then sends it no scaled case)
 *
 * Build: cc -O2 -o fp8_dut fp8_dut.c
 * As a library with the native ABI (the lane of suite/native/convcert_dut.h; faults by CONVCERT_FAULT):
 *        cc -O2 -shared -fPIC -DCONVCERT_LIBRARY -I suite/native -o libfp8.so fp8_dut.c
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A binary format: exponent and fraction widths, bias; e4m3: OFP8 E4M3 (no infinity, S.1111.111 NaN). */
struct fmt { const char *name; int bytes, ebits, fbits, bias, e4m3; };
static const struct fmt FMTS[] = {
    {"float", 4, 8, 23, 127, 0}, {"half", 2, 5, 10, 15, 0}, {"bfloat16", 2, 8, 7, 127, 0},
    {"fp8_e4m3fn", 1, 4, 3, 7, 1}, {"fp8_e5m2", 1, 5, 2, 15, 0},
};
#ifndef CONVCERT_FAULT
#define CONVCERT_FAULT ""
#endif
static const char *fault = CONVCERT_FAULT;

static const struct fmt *find(const char *name) {
    for (size_t i = 0; i < sizeof FMTS / sizeof FMTS[0]; i++) if (!strcmp(FMTS[i].name, name)) return &FMTS[i];
    return NULL;
}

static uint64_t default_nan(const struct fmt *f) {  /* Table A1-8, sign 0 */
    return f->e4m3 ? 0x7F : (((1ULL << f->ebits) - 1) << f->fbits) | (1ULL << (f->fbits - 1));
}

static uint64_t max_normal(const struct fmt *f) {
    uint64_t top = (1ULL << f->ebits) - 1;
    return f->e4m3 ? (top << f->fbits) | ((1ULL << f->fbits) - 2) : ((top - 1) << f->fbits) | ((1ULL << f->fbits) - 1);
}

/* What A1.5.5 gives for an overflow or an infinity: OSC=1 the largest normal, else NaN (E4M3) or infinity. */
static uint64_t overflow(const struct fmt *f, uint64_t sign, int osc) {
    if (osc) return sign | max_normal(f);
    if (f->e4m3) return !strcmp(fault, "unsigned-overflow-nan") ? 0x7F : sign | 0x7F;
    return sign | (((1ULL << f->ebits) - 1) << f->fbits);
}

/*
 * Rounds (-1)^s * mag * 2^exp (mag > 0) to nearest even on the format's grid with an unbounded
 * exponent above, then checks the range: the one rounding of the exactly scaled value.
 */
static uint64_t round_to(const struct fmt *f, uint64_t sign, uint64_t mag, int exp, int osc) {
    int top = 63 - __builtin_clzll(mag);           /* value in [2^(exp+top), 2^(exp+top+1)) */
    int emin = 1 - f->bias;
    int binade = exp + top;
    int quantum = (binade < emin ? emin : binade) - f->fbits;
    int drop = quantum - exp;
    uint64_t kept;
    if (drop <= 0) {
        kept = mag << -drop;
    } else if (drop > 63) {
        kept = 0;                                   /* below half the smallest subnormal: rounds to zero */
    } else {
        kept = mag >> drop;
        uint64_t rest = mag & ((1ULL << drop) - 1), half = 1ULL << (drop - 1);
        if (rest > half || (rest == half && (kept & 1))) kept++;
    }
    if (kept >> (f->fbits + 1)) { kept >>= 1; quantum++; }   /* carried into the next binade */
    int emax = f->e4m3 ? (1 << f->ebits) - 1 - f->bias : (1 << f->ebits) - 2 - f->bias;
    if (kept == 0) return sign;
    int rbin = quantum + 63 - __builtin_clzll(kept);
    uint64_t code = rbin < emin ? kept : ((uint64_t)(rbin - emin + 1) << f->fbits) | (kept & ((1ULL << f->fbits) - 1));
    if (rbin > emax || code > max_normal(f)) return overflow(f, sign, osc);
    return sign | code;
}

/* Decodes bits: 0 zero, 1 finite (mag * 2^exp), 2 infinity, 3 NaN. */
static int decode(const struct fmt *f, uint64_t x, uint64_t *sign, uint64_t *mag, int *exp) {
    int width = 8 * f->bytes;
    if (f->e4m3) width = 8;
    *sign = (x >> (f->ebits + f->fbits)) & 1;
    uint64_t e = (x >> f->fbits) & ((1ULL << f->ebits) - 1), fr = x & ((1ULL << f->fbits) - 1);
    (void)width;
    if (f->e4m3 && e == (1ULL << f->ebits) - 1 && fr == (1ULL << f->fbits) - 1) return 3;
    if (!f->e4m3 && e == (1ULL << f->ebits) - 1) return fr ? 3 : 2;
    if (e == 0 && fr == 0) return 0;
    *mag = e ? fr | (1ULL << f->fbits) : fr;
    *exp = (e ? (int)e : 1) - f->bias - f->fbits;
    return 1;
}

/* One conversion; k the power of two the scale gives; osc: FPMR.OSC (the "sat" state). */
static uint64_t convert(const struct fmt *s, const struct fmt *d, uint64_t x, int k, int osc) {
    uint64_t sign, mag = 0;
    int exp = 0, kind = decode(s, x, &sign, &mag, &exp);
    uint64_t dsign = sign << (d->ebits + d->fbits);
    if (kind == 3) return default_nan(d);
    if (kind == 2) return d->bytes == 1 ? overflow(d, dsign, osc) : dsign | (((1ULL << d->ebits) - 1) << d->fbits);
    if (kind == 0) return dsign;
    if (!strcmp(fault, "scale-after-rounding")) {
        uint64_t r = round_to(d, dsign, mag, exp, osc), rs, rm = 0;
        int re = 0, rk = decode(d, r, &rs, &rm, &re);
        return rk == 1 ? round_to(d, dsign, rm, re + k, osc) : r;
    }
    return round_to(d, dsign, mag, exp + k, osc);
}

static uint64_t get(const uint8_t *p, int bytes) {
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* Converts count elements of in, each with its FPMR scale field, into out; returns why not, or NULL. */
static const char *convert_batch(const char *from, const char *to, const char *state, const uint8_t *in,
                                 const uint32_t *scale, uint8_t *out, uint64_t count) {
    const struct fmt *s = find(from), *d = find(to);
    if (!s || !d || (s->bytes == 1) == (d->bytes == 1)) return "not implemented";
    int osc = !strcmp(state, "sat");
    for (uint64_t i = 0; i < count; i++) {
        uint32_t field = scale ? scale[i] : 0;
        int k;
        if (d->bytes == 1) {                       /* FCVTN from half reads NSCALE[4:0]; from single, BFCVTN all 8 */
            int bits = s->ebits == 5 && strcmp(fault, "nscale-full-byte") ? 5 : 8;
            uint32_t low = field & ((1u << bits) - 1);
            k = !strcmp(fault, "nscale-unsigned") || (low >> (bits - 1)) == 0 ? (int)low : (int)low - (1 << bits);
        } else {
            k = -(int)(field & (d->ebits == 8 ? 0x3F : 0xF));              /* BF1CVT: LSCALE[5:0]; F1CVT: [3:0] */
        }
        if (!strcmp(fault, "ignore-scale")) k = 0;
        uint64_t v = convert(s, d, get(in + s->bytes * i, s->bytes), k, osc);
        for (int b = 0; b < d->bytes; b++) out[d->bytes * i + b] = (uint8_t)(v >> (8 * b));
    }
    return NULL;
}

static const char CAPABILITIES[] =
    "float fp8_e4m3fn rn *\nfloat fp8_e5m2 rn *\nhalf fp8_e4m3fn rn *\nhalf fp8_e5m2 rn *\n"
    "bfloat16 fp8_e4m3fn rn *\nbfloat16 fp8_e5m2 rn *\nfp8_e4m3fn half rn *\nfp8_e4m3fn bfloat16 rn *\n"
    "fp8_e5m2 half rn *\nfp8_e5m2 bfloat16 rn *\n";

#ifdef CONVCERT_LIBRARY
/* The same conversions as a library with the native ABI's lane (suite/native/convcert_dut.h). */
#include "convcert_dut.h"

static const char *last_error = "";

const char *convcert_capabilities(void) { return CAPABILITIES; }

const char *convcert_lanes(void) { return "scale"; }

int convcert_convert(const char *from, const char *to, const char *rounding, const char *state, const char *form,
                     const char *ctrl, const void *in, void *out, uint64_t count) {
    (void)from; (void)to; (void)rounding; (void)state; (void)form; (void)ctrl; (void)in; (void)out;
    if (count == 0) return 0;
    last_error = "every FEAT_FP8 conversion takes its FPMR scale (convcert_convert_lane)";
    return 1;
}

int convcert_convert_lane(const char *from, const char *to, const char *rounding, const char *state,
                          const char *form, const char *ctrl, const char *lane, const uint32_t *lane_values,
                          const void *in, void *out, uint64_t count) {
    (void)rounding; (void)form; (void)ctrl;
    if (strcmp(lane, "scale")) { last_error = "takes a scale, not random bits"; return 1; }
    const char *why = convert_batch(from, to, state, in, lane_values, out, count);
    if (why) { last_error = why; return 1; }
    return 0;
}

const char *convcert_last_error(void) { return last_error; }
#else
int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i++) if (!strcmp(argv[i], "--fault")) fault = argv[i + 1];
    char line[1024];
    if (!fgets(line, sizeof line, stdin) || strncmp(line, "CONVCERT 1", 10)) return 2;
    for (const char *p = CAPABILITIES; *p; p = strchr(p, '\n') + 1) printf("CAP %.*s\n", (int)(strchr(p, '\n') - p), p);
    printf("%sREADY\n", strcmp(fault, "no-scale") ? "SCALE\n" : "");
    fflush(stdout);
    static uint8_t in[4 * 65536], out[4 * 65536];
    static uint32_t scale[65536];
    while (fgets(line, sizeof line, stdin)) {
        if (!strncmp(line, "QUIT", 4)) return 0;
        char from[32], to[32], rounding[8], state[16], form[16], ctrl[64];
        unsigned long long count;
        if (sscanf(line, "BATCH %31s %31s %7s %15s %15s %63s %llu", from, to, rounding, state, form, ctrl, &count) != 7
            || count > 65536) {
            printf("ERR malformed batch\n"); fflush(stdout); return 2;
        }
        const struct fmt *s = find(from), *d = find(to);
        if (!s || !d) { printf("ERR not implemented: %s->%s\n", from, to); fflush(stdout); return 2; }
        int scaled = strcmp(fault, "no-scale") != 0;
        if (count && (fread(in, s->bytes, count, stdin) != count || (scaled && fread(scale, 4, count, stdin) != count))) return 3;
        const char *why = convert_batch(from, to, state, in, scaled ? scale : NULL, out, count);
        if (why) { printf("ERR %s: %s->%s\n", why, from, to); fflush(stdout); continue; }
        printf("OK %llu\n", count);
        fwrite(out, d->bytes, count, stdout);
        fflush(stdout);
    }
    return 0;
}
#endif
