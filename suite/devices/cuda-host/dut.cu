// convcert process device: CUDA's conversion functions as they run on the host (the C++ emulation in
// cuda_fp16.hpp, cuda_bf16.hpp, cuda_fp8.hpp, cuda_fp6.hpp and cuda_fp4.hpp that __host__ code calls), built
// with nvcc and run on the CPU, no GPU needed. Build (README.md beside this):
//   nvcc -O2 -o cuda_host_dut suite/devices/cuda-host/dut.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

static float f32(uint64_t x) { uint32_t b = (uint32_t)x; float f; memcpy(&f, &b, 4); return f; }
static double f64(uint64_t x) { double d; memcpy(&d, &x, 8); return d; }
static uint64_t h(__half v) { uint16_t b; memcpy(&b, &v, 2); return b; }
static uint64_t bf(__nv_bfloat16 v) { uint16_t b; memcpy(&b, &v, 2); return b; }
static uint64_t u32(float v) { uint32_t b; memcpy(&b, &v, 4); return b; }
static __half as_h(uint64_t x) { uint16_t b = (uint16_t)x; __half v; memcpy(&v, &b, 2); return v; }
static __nv_bfloat16 as_bf(uint64_t x) { uint16_t b = (uint16_t)x; __nv_bfloat16 v; memcpy(&v, &b, 2); return v; }

typedef uint64_t (*Fn)(uint64_t);
struct Op { const char *from, *to, *rounding, *state; int in_bytes, out_bytes; Fn fn; };

static const Op OPS[] = {
  {"float", "half", "rn", "nosat", 4, 2, [](uint64_t x) { return h(__float2half_rn(f32(x))); }},
  {"float", "half", "rz", "nosat", 4, 2, [](uint64_t x) { return h(__float2half_rz(f32(x))); }},
  {"float", "half", "rd", "nosat", 4, 2, [](uint64_t x) { return h(__float2half_rd(f32(x))); }},
  {"float", "half", "ru", "nosat", 4, 2, [](uint64_t x) { return h(__float2half_ru(f32(x))); }},
  {"float", "bfloat16", "rn", "nosat", 4, 2, [](uint64_t x) { return bf(__float2bfloat16_rn(f32(x))); }},
  {"float", "bfloat16", "rz", "nosat", 4, 2, [](uint64_t x) { return bf(__float2bfloat16_rz(f32(x))); }},
  {"float", "bfloat16", "rd", "nosat", 4, 2, [](uint64_t x) { return bf(__float2bfloat16_rd(f32(x))); }},
  {"float", "bfloat16", "ru", "nosat", 4, 2, [](uint64_t x) { return bf(__float2bfloat16_ru(f32(x))); }},
  {"double", "half", "rn", "nosat", 8, 2, [](uint64_t x) { return h(__double2half(f64(x))); }},
  {"double", "bfloat16", "rn", "nosat", 8, 2, [](uint64_t x) { return bf(__double2bfloat16(f64(x))); }},
  {"half", "float", "rn", "nosat", 2, 4, [](uint64_t x) { return u32(__half2float(as_h(x))); }},
  {"bfloat16", "float", "rn", "nosat", 2, 4, [](uint64_t x) { return u32(__bfloat162float(as_bf(x))); }},
  {"float", "fp8_e4m3fn", "rn", "nosat", 4, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_float_to_fp8(f32(x), __NV_NOSAT, __NV_E4M3); }},
  {"float", "fp8_e4m3fn", "rn", "sat", 4, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_float_to_fp8(f32(x), __NV_SATFINITE, __NV_E4M3); }},
  {"float", "fp8_e5m2", "rn", "nosat", 4, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_float_to_fp8(f32(x), __NV_NOSAT, __NV_E5M2); }},
  {"float", "fp8_e5m2", "rn", "sat", 4, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_float_to_fp8(f32(x), __NV_SATFINITE, __NV_E5M2); }},
  {"double", "fp8_e4m3fn", "rn", "nosat", 8, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_double_to_fp8(f64(x), __NV_NOSAT, __NV_E4M3); }},
  {"double", "fp8_e4m3fn", "rn", "sat", 8, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_double_to_fp8(f64(x), __NV_SATFINITE, __NV_E4M3); }},
  {"double", "fp8_e5m2", "rn", "nosat", 8, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_double_to_fp8(f64(x), __NV_NOSAT, __NV_E5M2); }},
  {"double", "fp8_e5m2", "rn", "sat", 8, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_double_to_fp8(f64(x), __NV_SATFINITE, __NV_E5M2); }},
  {"float", "fp4_e2m1", "rn", "sat", 4, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_float_to_fp4(f32(x), __NV_E2M1, cudaRoundNearest); }},
  {"float", "fp4_e2m1", "rz", "sat", 4, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_float_to_fp4(f32(x), __NV_E2M1, cudaRoundZero); }},
  {"float", "fp6_e2m3", "rn", "sat", 4, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_float_to_fp6(f32(x), __NV_E2M3, cudaRoundNearest); }},
  {"float", "fp6_e2m3", "rz", "sat", 4, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_float_to_fp6(f32(x), __NV_E2M3, cudaRoundZero); }},
  {"float", "fp6_e3m2", "rn", "sat", 4, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_float_to_fp6(f32(x), __NV_E3M2, cudaRoundNearest); }},
  {"float", "fp6_e3m2", "rz", "sat", 4, 1, [](uint64_t x) { return (uint64_t)__nv_cvt_float_to_fp6(f32(x), __NV_E3M2, cudaRoundZero); }},
};
static const int NOPS = sizeof OPS / sizeof OPS[0];

int main() {
  char line[256];
  if (!fgets(line, sizeof line, stdin) || strncmp(line, "CONVCERT 1", 10)) return 2;
  for (int i = 0; i < NOPS; i++) printf("CAP %s %s %s %s\n", OPS[i].from, OPS[i].to, OPS[i].rounding, OPS[i].state);
  printf("READY\n");
  fflush(stdout);
  static unsigned char in[8 * 65536], out[8 * 65536];
  while (fgets(line, sizeof line, stdin)) {
    if (!strncmp(line, "QUIT", 4)) return 0;
    char from[32], to[32], rounding[8], state[16], form[16], ctrl[64];
    unsigned long long count;
    if (sscanf(line, "BATCH %31s %31s %7s %15s %15s %63s %llu", from, to, rounding, state, form, ctrl, &count) != 7
        || count > 65536) {
      printf("ERR malformed batch\n"); fflush(stdout); return 2;
    }
    const Op *op = nullptr;
    for (int i = 0; i < NOPS; i++)
      if (!strcmp(OPS[i].from, from) && !strcmp(OPS[i].to, to) && !strcmp(OPS[i].rounding, rounding) && !strcmp(OPS[i].state, state))
        op = &OPS[i];
    int in_bytes = op ? op->in_bytes : (!strcmp(from, "double") ? 8 : !strcmp(from, "float") ? 4 : 2);
    if (count && fread(in, in_bytes, count, stdin) != count) return 3;
    if (!op) { printf("ERR not implemented: %s->%s %s %s\n", from, to, rounding, state); fflush(stdout); continue; }
    for (unsigned long long i = 0; i < count; i++) {
      uint64_t x = 0;
      memcpy(&x, in + in_bytes * i, in_bytes);
      uint64_t r = op->fn(x);
      memcpy(out + op->out_bytes * i, &r, op->out_bytes);
    }
    printf("OK %llu\n", count);
    fwrite(out, op->out_bytes, count, stdout);
    fflush(stdout);
  }
  return 0;
}
