/*
 * convcert process device: GCC's _Float16 conversions (libgcc's soft-fp __truncsfhf2, __truncdfhf2,
 * __extendhfsf2, __floatsihf ... when compiled without F16C) in the four IEEE rounding directions set with
 * fesetround, with the <fenv.h> exception flags read after each element and answered in SoftFloat's bits
 * (FLAGS in the handshake). Build (suite/devices/gcc-float16/README.md):
 *   cc -O2 -mno-f16c -frounding-math -o gcc_float16 dut.c -lm
 * As a library with the native ABI (its flags through convcert_convert_flags, suite/native/convcert_dut.h):
 *   cc -O2 -mno-f16c -frounding-math -shared -fPIC -DCONVCERT_LIBRARY -I suite/native -o libgcc_float16.so dut.c -lm
 */
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GCC ignores "#pragma STDC FENV_ACCESS"; -frounding-math keeps the conversions in the dynamic mode. */


static unsigned softfloat_flags(int raised) {
  return ((raised & FE_INEXACT) ? 0x01 : 0) | ((raised & FE_UNDERFLOW) ? 0x02 : 0) | ((raised & FE_OVERFLOW) ? 0x04 : 0) |
         ((raised & FE_DIVBYZERO) ? 0x08 : 0) | ((raised & FE_INVALID) ? 0x10 : 0);
}

static int width_of(const char *t) {
  if (!strcmp(t, "half")) return 2;
  if (!strcmp(t, "float") || !strcmp(t, "int32") || !strcmp(t, "uint32")) return 4;
  return 8; /* double, int64, uint64 */
}

/* One element: x (the source's bits) converted; volatile keeps each conversion at run time, in its mode. */
static uint64_t convert(const char *from, const char *to, uint64_t x) {
  volatile _Float16 h;
  uint64_t r = 0;
  if (!strcmp(to, "half")) {
    if (!strcmp(from, "float")) { uint32_t b = (uint32_t)x; float f; memcpy(&f, &b, 4); h = (_Float16)f; }
    else if (!strcmp(from, "double")) { double d; memcpy(&d, &x, 8); h = (_Float16)d; }
    else if (!strcmp(from, "int32")) h = (_Float16)(int32_t)x;
    else if (!strcmp(from, "uint32")) h = (_Float16)(uint32_t)x;
    else if (!strcmp(from, "int64")) h = (_Float16)(int64_t)x;
    else h = (_Float16)(uint64_t)x;
    _Float16 v = h;
    memcpy(&r, &v, 2);
    return r;
  }
  uint16_t b = (uint16_t)x;
  _Float16 v;
  memcpy(&v, &b, 2);
  h = v;
  if (!strcmp(to, "float")) { volatile float f = h; float g = f; uint32_t o; memcpy(&o, &g, 4); return o; }
  volatile double d = h;
  double g = d;
  memcpy(&r, &g, 8);
  return r;
}

/* Converts n elements in the rounding mode, each element's flags into fl (when not NULL). */
static void convert_batch(const char *from, const char *to, const char *rounding, const unsigned char *in,
                          unsigned char *out, uint8_t *fl, unsigned long long n) {
  int iw = width_of(from), ow = width_of(to);
  int mode = !strcmp(rounding, "rd") ? FE_DOWNWARD : !strcmp(rounding, "ru") ? FE_UPWARD
           : !strcmp(rounding, "rz") ? FE_TOWARDZERO : FE_TONEAREST;
  fesetround(mode);
  for (unsigned long long i = 0; i < n; i++) {
    uint64_t x = 0;
    memcpy(&x, in + i * iw, iw);
    feclearexcept(FE_ALL_EXCEPT);
    uint64_t y = convert(from, to, x);
    if (fl) fl[i] = (uint8_t)softfloat_flags(fetestexcept(FE_ALL_EXCEPT));
    memcpy(out + i * ow, &y, ow);
  }
  fesetround(FE_TONEAREST);
}

#ifdef CONVCERT_LIBRARY
/* The same conversions as a library with the native ABI, flags through convcert_convert_flags. */
#include "convcert_dut.h"

static char capabilities[2048];

const char *convcert_capabilities(void) {
  const char *modes[] = {"rn", "rd", "ru", "rz"};
  const char *sources[] = {"float", "double", "int32", "uint32", "int64", "uint64"};
  size_t n = 0;
  for (int s = 0; s < 6; s++)
    for (int m = 0; m < 4; m++) n += snprintf(capabilities + n, sizeof capabilities - n, "%s half %s nosat\n", sources[s], modes[m]);
  snprintf(capabilities + n, sizeof capabilities - n, "half float rn nosat\nhalf double rn nosat\n");
  return capabilities;
}

int convcert_convert(const char *from, const char *to, const char *rounding, const char *state, const char *form,
                     const char *ctrl, const void *in, void *out, uint64_t count) {
  (void)state; (void)form; (void)ctrl;
  convert_batch(from, to, rounding, in, out, NULL, count);
  return 0;
}

int convcert_convert_flags(const char *from, const char *to, const char *rounding, const char *state, const char *form,
                           const char *ctrl, const void *in, void *out, uint8_t *flags, uint64_t count) {
  (void)state; (void)form; (void)ctrl;
#ifdef CONVCERT_FLAGS_UNWRITTEN /* a library that says it reports flags and never writes them (GccFloat16Test) */
  flags = NULL;
#endif
  convert_batch(from, to, rounding, in, out, flags, count);
  return 0;
}

const char *convcert_last_error(void) { return ""; }
#else
int main(void) {
  char line[256];
  if (!fgets(line, sizeof line, stdin) || strncmp(line, "CONVCERT 1", 10) != 0) return 2;
  const char *modes[] = {"rn", "rd", "ru", "rz"};
  const char *sources[] = {"float", "double", "int32", "uint32", "int64", "uint64"};
  for (int s = 0; s < 6; s++)
    for (int m = 0; m < 4; m++) printf("CAP %s half %s nosat\n", sources[s], modes[m]);
  printf("CAP half float rn nosat\nCAP half double rn nosat\nFLAGS\nREADY\n");
  fflush(stdout);
  static unsigned char in[8 << 16], out[8 << 16];
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
    if (n > (1 << 16) || fread(in, width_of(from), n, stdin) != n) return 2;
    convert_batch(from, to, rounding, in, out, fl, n);
    printf("OK %llu\n", n);
    fwrite(out, width_of(to), n, stdout);
    fwrite(fl, 1, n, stdout);
    fflush(stdout);
  }
  return 0;
}
#endif
