/*
 * convcert process device: the x86 F16C instruction VCVTPS2PH converting float to half, one element at a
 * time, in the four rounding immediates (0 nearest-even, 1 down, 2 up, 3 toward zero), with the MXCSR
 * exception flags read after each conversion and answered in SoftFloat's bits (FLAGS in the handshake).
 * Build: cc -O2 -mf16c -o f16c_dut f16c_dut.c        (suite/devices/x86-f16c/README.md)
 * CONVCERT_F16C_MUTATION=drop-underflow|no-flags makes it lie about the flags, for convcert's own tests.
 * f16c_dut --testfloat rn|rd|ru|rz answers Berkeley TestFloat's cases instead: each stdin line's first
 * field a float in hex, each stdout line "INPUT RESULT FLAGS" as testfloat_ver reads them
 * (docs/peers/testfloat.sh --device).
 * Built with -DCONVCERT_LIBRARY (cc -O2 -mavx -mf16c -shared -fPIC -Isuite/native) it is instead a library
 * with convcert's native ABI converting eight floats per instruction without flags: the speed of the
 * instruction itself, for exhaustive certification under a profile without flags (docs/exhaustive-ratio.sh).
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MXCSR: IE 0x01, DE 0x02 (a denormal operand: not an IEEE 754 flag), ZE 0x04, OE 0x08, UE 0x10, PE 0x20. */
static unsigned softfloat_flags(unsigned mxcsr) {
  return ((mxcsr & 0x20) ? 0x01 : 0) | ((mxcsr & 0x10) ? 0x02 : 0) | ((mxcsr & 0x08) ? 0x04 : 0) |
         ((mxcsr & 0x04) ? 0x08 : 0) | ((mxcsr & 0x01) ? 0x10 : 0);
}

static uint16_t convert(float x, int mode, unsigned *flags) {
  unsigned csr = _mm_getcsr() & ~0x3Fu;
  _mm_setcsr(csr);
  __m128 v = _mm_set_ss(x);
  __m128i h;
  switch (mode) { /* the immediate's bit 2 is clear: its bits 1:0 choose the rounding, not MXCSR.RC */
    case 0: h = _mm_cvtps_ph(v, 0); break;
    case 1: h = _mm_cvtps_ph(v, 1); break;
    case 2: h = _mm_cvtps_ph(v, 2); break;
    default: h = _mm_cvtps_ph(v, 3); break;
  }
  uint16_t r = (uint16_t)_mm_extract_epi16(h, 0);
  *flags = softfloat_flags(_mm_getcsr());
  return r;
}

static int testfloat(const char *rounding) {
  int mode = !strcmp(rounding, "rn") ? 0 : !strcmp(rounding, "rd") ? 1 : !strcmp(rounding, "ru") ? 2
           : !strcmp(rounding, "rz") ? 3 : -1;
  if (mode < 0) {
    fprintf(stderr, "f16c_dut: --testfloat takes rn, rd, ru or rz, not '%s'\n", rounding);
    return 2;
  }
  char line[256];
  unsigned bits;
  while (fgets(line, sizeof line, stdin)) {
    if (sscanf(line, "%x", &bits) != 1) return 2;
    float x;
    memcpy(&x, &bits, 4);
    unsigned flags;
    uint16_t r = convert(x, mode, &flags);
    printf("%08X %04X %02X\n", bits, r, flags);
  }
  return 0;
}

#ifdef CONVCERT_LIBRARY
#include "convcert_dut.h"

const char *convcert_capabilities(void) {
  return "float half rn nosat\nfloat half rd nosat\nfloat half ru nosat\nfloat half rz nosat\n";
}

const char *convcert_last_error(void) { return ""; }

/* The immediate must be a constant: one loop per rounding, eight values per vcvtps2ph. */
#define LOOP(IMM)                                                                         \
  for (; i + 8 <= count; i += 8)                                                          \
    _mm_storeu_si128((__m128i *)(o + i), _mm256_cvtps_ph(_mm256_loadu_ps(f + i), IMM));   \
  for (; i < count; i++) o[i] = (uint16_t)_mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(f[i]), IMM), 0);

int convcert_convert(const char *from, const char *to, const char *rounding, const char *state, const char *form,
                     const char *ctrl, const void *in, void *out, uint64_t count) {
  (void)from; (void)to; (void)state; (void)form; (void)ctrl; /* only the capabilities above are asked */
  const float *f = in;
  uint16_t *o = out;
  uint64_t i = 0;
  switch (rounding[1]) {
    case 'n': LOOP(0) break;
    case 'd': LOOP(1) break;
    case 'u': LOOP(2) break;
    default: LOOP(3) break;
  }
  return 0;
}
#else
int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--testfloat")) return testfloat(argv[2]);
  const char *mutation = getenv("CONVCERT_F16C_MUTATION");
  char line[256];
  if (!fgets(line, sizeof line, stdin) || strncmp(line, "CONVCERT 1", 10) != 0) return 2;
  printf("CAP float half rn nosat\nCAP float half rd nosat\nCAP float half ru nosat\nCAP float half rz nosat\n");
  printf("FLAGS\nREADY\n");
  fflush(stdout);
  static float in[1 << 16];
  static uint16_t out[1 << 16];
  static uint8_t fl[1 << 16];
  while (fgets(line, sizeof line, stdin)) {
    if (!strncmp(line, "QUIT", 4)) return 0;
    char from[32], to[32], rounding[8], state[16], form[16], ctrl[64];
    unsigned long long n;
    if (sscanf(line, "BATCH %31s %31s %7s %15s %15s %63s %llu", from, to, rounding, state, form, ctrl, &n) != 7) {
      printf("ERR unexpected line\n");
      fflush(stdout);
      return 2;
    }
    if (n > (1 << 16) || fread(in, 4, n, stdin) != n) return 2;
    int mode = !strcmp(rounding, "rn") ? 0 : !strcmp(rounding, "rd") ? 1 : !strcmp(rounding, "ru") ? 2 : 3;
    for (unsigned long long i = 0; i < n; i++) {
      unsigned flags;
      out[i] = convert(in[i], mode, &flags);
      if (mutation && !strcmp(mutation, "drop-underflow")) flags &= ~0x02u;
      if (mutation && !strcmp(mutation, "no-flags")) flags = 0;
      fl[i] = (uint8_t)flags;
    }
    printf("OK %llu\n", n);
    fwrite(out, 2, n, stdout);
    fwrite(fl, 1, n, stdout);
    fflush(stdout);
  }
  return 0;
}
#endif
