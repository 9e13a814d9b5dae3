/*
 * float -> E4M3FN (rn, nosat and sat) written for speed, with two of planted.c's bugs, for docs/diagnosis-cost.sh:
 * an exhaustive diagnosis timed beside the certification of a device that converts 2^32 inputs in a few seconds.
 * -DBUG=1: saturation decided before rounding (464 < |x| < 480 carries into NaN, 0x7F); -DBUG=2: subnormal ties
 * rounded away from zero; -DBUG=0: none.
 *   gcc -O2 -shared -fPIC -DBUG=1 -I suite/native -o libfast.so suite/devices/planted/fast_e4m3.c
 */
#include <stdint.h>
#include <string.h>
#include "convcert_dut.h"
#ifndef BUG
#define BUG 0
#endif

static uint8_t convert(uint32_t x, int sat) {
    uint32_t s = (x >> 24) & 0x80, a = x & 0x7FFFFFFF;
    if (a > 0x7F800000) return (uint8_t)(s | 0x7F);
    if (BUG == 1 ? a >= 0x43F00000 : a > 0x43E80000) return (uint8_t)(s | (sat ? 0x7E : 0x7F)); /* 480 : just above 464 */
    int e = (int)(a >> 23) - 127;
    if (e < -6) { /* a subnormal result, quantum 2^-9 (zero below 2^-11) */
        if (e < -11) return (uint8_t)s;
        uint32_t m = (a & 0x7FFFFF) | 0x800000;
        int shift = 14 - e; /* m x 2^(e - 23) in units of 2^-9 */
        uint32_t q = m >> shift, r = m & ((1u << shift) - 1), h = 1u << (shift - 1);
        if (r > h || (r == h && (BUG == 2 || (q & 1)))) q++;
        return (uint8_t)(s | q);
    }
    uint32_t q = ((uint32_t)(e + 7) << 3) | ((a >> 20) & 7), r = a & 0xFFFFF;
    if (r > 0x80000 || (r == 0x80000 && (q & 1))) q++;
    return (uint8_t)(s | q);
}

const char *convcert_capabilities(void) { return "float fp8_e4m3fn rn sat\nfloat fp8_e4m3fn rn nosat\n"; }
int convcert_programs_saturation(void) { return 0; }
const char *convcert_last_error(void) { return ""; }
int convcert_convert(const char *from, const char *to, const char *rounding, const char *state, const char *form,
                     const char *ctrl, const void *in, void *out, uint64_t count) {
    (void)from; (void)to; (void)rounding; (void)form; (void)ctrl;
    const uint32_t *x = in;
    uint8_t *y = out;
    int sat = !strcmp(state, "sat");
    for (uint64_t i = 0; i < count; i++) y[i] = convert(x[i], sat);
    return 0;
}
