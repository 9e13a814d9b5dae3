/*
 * convcert process device: LLVM compiler-rt's half and bfloat16 conversion builtins, called directly with
 * the ABI each was built with. __truncsfbf2 and __truncdfbf2 return a bfloat16 in the low 16 bits of an
 * SSE register. The half builtins (__truncsfhf2, __truncdfhf2, __extendhfsf2) changed: compiler-rt 15 was
 * built without _Float16 and passes a half as a uint16_t in an integer register (clang-15's own _Float16
 * casts pass it in an SSE register and read garbage, see README.md); compiler-rt 22 passes it in the low 16
 * bits of an SSE register, as _Float16 is (objdump: pinsrw/pextrw on xmm0). Build with -DHALF_IN_SSE for
 * such a library. Each batch's rounding direction is set with fesetround and the <fenv.h> flags are read
 * after each element (FLAGS in the handshake), so the suite sees whether the builtins follow the dynamic
 * rounding mode and raise IEEE flags. It claims rn only unless given --all-modes (then rd, ru and rz too,
 * and FLAGS). Build (README.md beside this):
 *   clang-15 -O2 -frounding-math --rtlib=compiler-rt -o compiler_rt_dut dut.c -lm
 *   clang-22 -O2 -frounding-math --rtlib=compiler-rt -DHALF_IN_SSE -o compiler_rt_dut dut.c -lm
 */
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A 16-bit value in the low bits of xmm0 is declared as a float: clang-15 would pass a __bf16 value through
   __truncsfbf2 again (a float round trip) before its bits could be read. */
#ifdef HALF_IN_SSE
typedef float half_reg;
#else
typedef uint16_t half_reg;
#endif
half_reg __truncsfhf2(float);
half_reg __truncdfhf2(double);
float __extendhfsf2(half_reg);
float __truncsfbf2(float);
float __truncdfbf2(double);

static uint16_t low16(float r) {
  uint32_t bits;
  memcpy(&bits, &r, 4);
  return bits & 0xFFFF;
}

static uint16_t half_bits(half_reg h) {
#ifdef HALF_IN_SSE
  return low16(h);
#else
  return h;
#endif
}

static half_reg half_arg(uint16_t x) {
#ifdef HALF_IN_SSE
  uint32_t bits = x;
  float r;
  memcpy(&r, &bits, 4);
  return r;
#else
  return x;
#endif
}

static unsigned softfloat_flags(int raised) {
  return ((raised & FE_INEXACT) ? 0x01 : 0) | ((raised & FE_UNDERFLOW) ? 0x02 : 0) | ((raised & FE_OVERFLOW) ? 0x04 : 0) |
         ((raised & FE_DIVBYZERO) ? 0x08 : 0) | ((raised & FE_INVALID) ? 0x10 : 0);
}

static int width_of(const char *t) {
  return !strcmp(t, "half") || !strcmp(t, "bfloat16") ? 2 : !strcmp(t, "float") ? 4 : 8;
}

static uint64_t convert(const char *from, const char *to, uint64_t x) {
  uint32_t b = (uint32_t)x;
  float f;
  double d;
  memcpy(&f, &b, 4);
  memcpy(&d, &x, 8);
  if (!strcmp(to, "half")) return half_bits(!strcmp(from, "float") ? __truncsfhf2(f) : __truncdfhf2(d));
  if (!strcmp(to, "bfloat16")) return low16(!strcmp(from, "float") ? __truncsfbf2(f) : __truncdfbf2(d));
  float g = __extendhfsf2(half_arg((uint16_t)x)); /* half -> float */
  uint32_t o;
  memcpy(&o, &g, 4);
  return o;
}

int main(int argc, char **argv) {
  int all = argc > 1 && !strcmp(argv[1], "--all-modes");
  char line[256];
  if (!fgets(line, sizeof line, stdin) || strncmp(line, "CONVCERT 1", 10) != 0) return 2;
  const char *modes[] = {"rn", "rd", "ru", "rz"};
  const char *pairs[][2] = {{"float", "half"}, {"double", "half"}, {"float", "bfloat16"}, {"double", "bfloat16"}};
  for (int p = 0; p < 4; p++)
    for (int m = 0; m < (all ? 4 : 1); m++) printf("CAP %s %s %s nosat\n", pairs[p][0], pairs[p][1], modes[m]);
  printf("CAP half float rn nosat\n%sREADY\n", all ? "FLAGS\n" : "");
  fflush(stdout);
  static uint8_t in[8 * 65536], out[9 * 65536];
  while (fgets(line, sizeof line, stdin)) {
    if (!strncmp(line, "QUIT", 4)) return 0;
    char from[32], to[32], rounding[8], state[16], form[16], ctrl[64];
    unsigned long long count;
    if (sscanf(line, "BATCH %31s %31s %7s %15s %15s %63s %llu", from, to, rounding, state, form, ctrl, &count) != 7
        || count > 65536) {
      printf("ERR malformed batch\n"); fflush(stdout); return 2;
    }
    int iw = width_of(from), ow = width_of(to);
    if (count && fread(in, iw, count, stdin) != count) return 3;
    int mode = !strcmp(rounding, "rd") ? FE_DOWNWARD : !strcmp(rounding, "ru") ? FE_UPWARD
             : !strcmp(rounding, "rz") ? FE_TOWARDZERO : FE_TONEAREST;
    fesetround(mode);
    for (unsigned long long i = 0; i < count; i++) {
      uint64_t x = 0;
      memcpy(&x, in + iw * i, iw);
      feclearexcept(FE_ALL_EXCEPT);
      uint64_t r = convert(from, to, x);
      out[ow * count + i] = (uint8_t)softfloat_flags(fetestexcept(FE_ALL_EXCEPT));
      memcpy(out + ow * i, &r, ow);
    }
    fesetround(FE_TONEAREST);
    printf("OK %llu\n", count);
    fwrite(out, 1, (ow + (all ? 1 : 0)) * count, stdout);
    fflush(stdout);
  }
  return 0;
}
