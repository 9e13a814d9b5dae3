/*
 * PTX cvt.rs (stochastic rounding with explicit random bits) from float to half, bfloat16, FP8, FP6 and FP4,
 * written from the PTX ISA text, as a process device speaking convcert's protocol with the RANDOM
 * handshake line (suite/ADAPTERS.md): each BATCH of an rs case carries, after its float inputs, one u32
 * of random bits per element. "The carry out of an integer add of rbits to the discarded mantissa bits"
 * rounds the magnitude up: the random bits meet the most significant discarded bits.
 *
 * --fault ignore-random   truncates (the random bits never read)
 * --fault at-source-lsb   adds the random bits to the float's lowest bits, then truncates
 * --fault shifted         uses the random bits one place too low (r >> 1)
 * --fault no-random       leaves RANDOM out of its handshake (the suite then sends it no rs case)
 *
 * Build: cc -O2 -o rs_dut rs_dut.c
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ieee_top: the top exponent is Inf/NaN; nan_code: only the all-ones code is NaN (E4M3FN); else all finite. */
struct format { const char *name; int e, m, bias, ieee_top, nan_code, random_bits; };
static const struct format FORMATS[] = {
    {"half", 5, 10, 15, 1, 0, 13}, {"bfloat16", 8, 7, 127, 1, 0, 16},
    {"fp8_e4m3fn", 4, 3, 7, 0, 1, 16}, {"fp8_e5m2", 5, 2, 15, 1, 0, 16},
    {"fp6_e2m3", 2, 3, 1, 0, 0, 16}, {"fp6_e3m2", 3, 2, 3, 0, 0, 16}, {"fp4_e2m1", 2, 1, 1, 0, 0, 8},
};
#define NFORMATS (sizeof FORMATS / sizeof FORMATS[0])

static const char *fault = "";

/* One conversion: x a float's bits, r its random bits; sat: the .satfinite form. */
static uint64_t cvt_rs(const struct format *f, uint32_t x, uint32_t r, int sat) {
    uint64_t sign = (uint64_t)(x >> 31) << (f->e + f->m);
    int64_t all_ones = ((int64_t)1 << (f->e + f->m)) - 1;
    int64_t max_code = f->ieee_top ? ((((int64_t)1 << f->e) - 1) << f->m) - 1 : all_ones - f->nan_code;
    uint32_t ax = x & 0x7FFFFFFF;
    if (!strcmp(fault, "ignore-random")) r = 0;
    if (!strcmp(fault, "shifted")) r >>= 1;
    if (!strcmp(fault, "at-source-lsb") && ax < 0x7F800000) { ax = (ax + r) & 0x7FFFFFFF; r = 0; }
    if (ax > 0x7F800000) return (uint64_t)(f->ieee_top || f->nan_code ? all_ones : max_code); /* NaN: canonical, or the largest */
    if (ax == 0x7F800000) return sign | (uint64_t)(f->ieee_top && !sat ? max_code + 1 : max_code);
    if (ax == 0) return sign;
    uint64_t sig = ax >> 23 ? (ax & 0x7FFFFF) | 0x800000 : ax;
    int ex = ax >> 23 ? (int)(ax >> 23) - 150 : -149;                              /* value = sig * 2^ex */
    int e = ex + 63 - __builtin_clzll(sig);                                          /* floor(log2 value) */
    int emin = 1 - f->bias;
    int q = (e < emin ? emin : e) - f->m;                                            /* the result's last place */
    int shift = q - ex, n = f->random_bits;
    uint64_t kept = shift <= 0 ? sig << -shift : shift >= 64 ? 0 : sig >> shift;
    if (shift > 0) {
        uint64_t top = shift >= n ? (shift - n >= 64 ? 0 : (sig >> (shift - n)) & ((1ULL << n) - 1))
                                  : (sig & ((1ULL << shift) - 1)) << (n - shift);
        if (top + (r & ((1ULL << n) - 1)) >= 1ULL << n) kept++;                     /* the carry out */
    }
    int64_t code = e >= emin ? ((int64_t)(e - emin + 1) << f->m) + (int64_t)kept - ((int64_t)1 << f->m) : (int64_t)kept;
    if (e > emin + (1 << f->e) || code > max_code) code = sat || !f->ieee_top ? max_code : max_code + 1;
    return sign | (uint64_t)code;
}

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i++) if (!strcmp(argv[i], "--fault")) fault = argv[i + 1];
    char line[1024];
    if (!fgets(line, sizeof line, stdin) || strncmp(line, "CONVCERT 1", 10)) return 2;
    for (size_t i = 0; i < NFORMATS; i++) printf("CAP float %s rs *\n", FORMATS[i].name);
    printf("%sREADY\n", strcmp(fault, "no-random") ? "RANDOM\n" : "");
    fflush(stdout);
    static uint32_t in[65536], rnd[65536];
    static uint8_t out[2 * 65536];
    while (fgets(line, sizeof line, stdin)) {
        if (!strncmp(line, "QUIT", 4)) return 0;
        char from[32], to[32], rounding[8], state[16], form[16], ctrl[64];
        unsigned long long count;
        if (sscanf(line, "BATCH %31s %31s %7s %15s %15s %63s %llu", from, to, rounding, state, form, ctrl, &count) != 7
            || count > 65536) {
            printf("ERR malformed batch\n"); fflush(stdout); return 2;
        }
        const struct format *f = NULL;
        for (size_t i = 0; i < NFORMATS; i++) if (!strcmp(to, FORMATS[i].name)) f = &FORMATS[i];
        if (count && (fread(in, 4, count, stdin) != count || fread(rnd, 4, count, stdin) != count)) return 3;
        if (!f || strcmp(from, "float") || strcmp(rounding, "rs")) {
            printf("ERR not implemented: %s->%s %s\n", from, to, rounding); fflush(stdout); continue;
        }
        int bytes = f->e + f->m + 1 > 8 ? 2 : 1, sat = !strcmp(state, "sat");
        for (unsigned long long i = 0; i < count; i++) {
            uint64_t v = cvt_rs(f, in[i], rnd[i], sat);
            out[bytes * i] = (uint8_t)v;
            if (bytes == 2) out[2 * i + 1] = (uint8_t)(v >> 8);
        }
        printf("OK %llu\n", count);
        fwrite(out, 1, bytes * count, stdout);
        fflush(stdout);
    }
    return 0;
}
