// convcert on an NVIDIA GPU: the GPU's own conversion intrinsics run over golden-vector inputs
// (outputs written in the replay layout) or over all 2^32 float inputs (per-chunk digests, no files).
// Build: nvcc -O2 -arch=sm_90 -o gpu_convert gpu_convert.cu        (see README.md beside this)
//   gpu_convert list                          the operations and the cases they answer
//   gpu_convert replay JOBS OUTDIR            JOBS lines: OP INPUT.in.bin OUTBASE  -> OUTBASE.in.bin, OUTBASE.out.bin
//   gpu_convert digest OP CHUNK_BITS          lines "chunk digest" over all 2^32 inputs, then timing
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

// One operation: the GPU function, element widths, and the canonical NaN of its result (0: no NaN).
struct Op { const char *name; int in_bytes, out_bytes; unsigned long long canonical_nan; };

#define OPS(X) \
  X(f2h_rn, 4, 2, 0x7E00) X(f2h_rz, 4, 2, 0x7E00) X(f2h_rd, 4, 2, 0x7E00) X(f2h_ru, 4, 2, 0x7E00) \
  X(f2bf_rn, 4, 2, 0x7FC0) X(f2bf_rz, 4, 2, 0x7FC0) X(f2bf_rd, 4, 2, 0x7FC0) X(f2bf_ru, 4, 2, 0x7FC0) \
  X(f2e4m3_nosat, 4, 1, 0) X(f2e4m3_sat, 4, 1, 0) X(f2e5m2_nosat, 4, 1, 0) X(f2e5m2_sat, 4, 1, 0) \
  X(f2i_rn, 4, 4, 0) X(f2i_rz, 4, 4, 0) X(f2i_rd, 4, 4, 0) X(f2i_ru, 4, 4, 0) \
  X(f2u_rn, 4, 4, 0) X(f2u_rz, 4, 4, 0) X(f2u_rd, 4, 4, 0) X(f2u_ru, 4, 4, 0) \
  X(f2ll_rn, 4, 8, 0) X(f2ll_rz, 4, 8, 0) X(f2ll_rd, 4, 8, 0) X(f2ll_ru, 4, 8, 0) \
  X(f2ull_rn, 4, 8, 0) X(f2ull_rz, 4, 8, 0) X(f2ull_rd, 4, 8, 0) X(f2ull_ru, 4, 8, 0) \
  X(h2f, 2, 4, 0) X(bf2f, 2, 4, 0) X(e4m3_2f, 1, 4, 0) X(e5m2_2f, 1, 4, 0) \
  X(i2f_rn, 4, 4, 0) X(i2f_rz, 4, 4, 0) X(i2f_rd, 4, 4, 0) X(i2f_ru, 4, 4, 0) \
  X(u2f_rn, 4, 4, 0) X(u2f_rz, 4, 4, 0) X(u2f_rd, 4, 4, 0) X(u2f_ru, 4, 4, 0) \
  X(ll2f_rn, 8, 4, 0) X(ll2f_rz, 8, 4, 0) X(ll2f_rd, 8, 4, 0) X(ll2f_ru, 8, 4, 0) \
  X(ull2f_rn, 8, 4, 0) X(ull2f_rz, 8, 4, 0) X(ull2f_rd, 8, 4, 0) X(ull2f_ru, 8, 4, 0) \
  X(i2h_rn, 4, 2, 0) X(i2h_rz, 4, 2, 0) X(i2h_rd, 4, 2, 0) X(i2h_ru, 4, 2, 0) \
  X(u2h_rn, 4, 2, 0) X(u2h_rz, 4, 2, 0) X(u2h_rd, 4, 2, 0) X(u2h_ru, 4, 2, 0) \
  X(ll2h_rn, 8, 2, 0) X(ll2h_rz, 8, 2, 0) X(ll2h_rd, 8, 2, 0) X(ll2h_ru, 8, 2, 0) \
  X(ull2h_rn, 8, 2, 0) X(ull2h_rz, 8, 2, 0) X(ull2h_rd, 8, 2, 0) X(ull2h_ru, 8, 2, 0) \
  X(i2bf_rn, 4, 2, 0) X(i2bf_rz, 4, 2, 0) X(i2bf_rd, 4, 2, 0) X(i2bf_ru, 4, 2, 0) \
  X(u2bf_rn, 4, 2, 0) X(u2bf_rz, 4, 2, 0) X(u2bf_rd, 4, 2, 0) X(u2bf_ru, 4, 2, 0) \
  X(ll2bf_rn, 8, 2, 0) X(ll2bf_rz, 8, 2, 0) X(ll2bf_rd, 8, 2, 0) X(ll2bf_ru, 8, 2, 0) \
  X(ull2bf_rn, 8, 2, 0) X(ull2bf_rz, 8, 2, 0) X(ull2bf_rd, 8, 2, 0) X(ull2bf_ru, 8, 2, 0) \
  X(h2i_rn, 2, 4, 0) X(h2i_rz, 2, 4, 0) X(h2i_rd, 2, 4, 0) X(h2i_ru, 2, 4, 0) \
  X(h2u_rn, 2, 4, 0) X(h2u_rz, 2, 4, 0) X(h2u_rd, 2, 4, 0) X(h2u_ru, 2, 4, 0) \
  X(h2ll_rn, 2, 8, 0) X(h2ll_rz, 2, 8, 0) X(h2ll_rd, 2, 8, 0) X(h2ll_ru, 2, 8, 0) \
  X(h2ull_rn, 2, 8, 0) X(h2ull_rz, 2, 8, 0) X(h2ull_rd, 2, 8, 0) X(h2ull_ru, 2, 8, 0) \
  X(bf2i_rn, 2, 4, 0) X(bf2i_rz, 2, 4, 0) X(bf2i_rd, 2, 4, 0) X(bf2i_ru, 2, 4, 0) \
  X(bf2u_rn, 2, 4, 0) X(bf2u_rz, 2, 4, 0) X(bf2u_rd, 2, 4, 0) X(bf2u_ru, 2, 4, 0) \
  X(bf2ll_rn, 2, 8, 0) X(bf2ll_rz, 2, 8, 0) X(bf2ll_rd, 2, 8, 0) X(bf2ll_ru, 2, 8, 0) \
  X(bf2ull_rn, 2, 8, 0) X(bf2ull_rz, 2, 8, 0) X(bf2ull_rd, 2, 8, 0) X(bf2ull_ru, 2, 8, 0) \
  X(f2f_rn, 4, 4, 0) X(f2f_rz, 4, 4, 0) X(f2f_rd, 4, 4, 0) X(f2f_ru, 4, 4, 0) \
  X(h2h_rn, 2, 2, 0) X(h2h_rz, 2, 2, 0) X(h2h_rd, 2, 2, 0) X(h2h_ru, 2, 2, 0) \
  X(bf2bf_rn, 2, 2, 0) X(bf2bf_rz, 2, 2, 0) X(bf2bf_rd, 2, 2, 0) X(bf2bf_ru, 2, 2, 0) \
  X(bf2h_rn, 2, 2, 0) X(bf2h_rz, 2, 2, 0) X(bf2h_rd, 2, 2, 0) X(bf2h_ru, 2, 2, 0) \
  X(h2bf_rn, 2, 2, 0) X(h2bf_rz, 2, 2, 0) X(h2bf_rd, 2, 2, 0) X(h2bf_ru, 2, 2, 0) \
  X(f2e2m1_rn, 4, 1, 0) X(f2e2m1_rz, 4, 1, 0) X(f2e2m3_rn, 4, 1, 0) X(f2e2m3_rz, 4, 1, 0) \
  X(f2e3m2_rn, 4, 1, 0) X(f2e3m2_rz, 4, 1, 0) X(e2m1_2f, 1, 4, 0) X(e2m3_2f, 1, 4, 0) X(e3m2_2f, 1, 4, 0) \
  X(f2e8m0_rz_nosat, 4, 1, 0) X(f2e8m0_rz_sat, 4, 1, 0) X(f2e8m0_ru_nosat, 4, 1, 0) X(f2e8m0_ru_sat, 4, 1, 0) \
  X(e8m0_2f, 1, 4, 0) \
  X(f2e2m1x2_rn, 8, 1, 0) X(f2e2m1x2_rz, 8, 1, 0) X(e2m1x2_2f, 1, 8, 0) \
  X(d2f_rn, 8, 4, 0) X(d2f_rz, 8, 4, 0) X(d2f_rd, 8, 4, 0) X(d2f_ru, 8, 4, 0) X(f2d, 4, 8, 0) \
  X(d2h_rn, 8, 2, 0) X(d2bf_rn, 8, 2, 0) \
  X(d2e4m3_nosat, 8, 1, 0) X(d2e4m3_sat, 8, 1, 0) X(d2e5m2_nosat, 8, 1, 0) X(d2e5m2_sat, 8, 1, 0) \
  X(d2i_rn, 8, 4, 0) X(d2i_rz, 8, 4, 0) X(d2i_rd, 8, 4, 0) X(d2i_ru, 8, 4, 0) \
  X(d2u_rn, 8, 4, 0) X(d2u_rz, 8, 4, 0) X(d2u_rd, 8, 4, 0) X(d2u_ru, 8, 4, 0) \
  X(d2ll_rn, 8, 8, 0) X(d2ll_rz, 8, 8, 0) X(d2ll_rd, 8, 8, 0) X(d2ll_ru, 8, 8, 0) \
  X(d2ull_rn, 8, 8, 0) X(d2ull_rz, 8, 8, 0) X(d2ull_rd, 8, 8, 0) X(d2ull_ru, 8, 8, 0) \
  X(d2e2m1_rn, 8, 1, 0) X(d2e2m1_rz, 8, 1, 0) X(d2e2m3_rn, 8, 1, 0) X(d2e2m3_rz, 8, 1, 0) \
  X(d2e3m2_rn, 8, 1, 0) X(d2e3m2_rz, 8, 1, 0) \
  X(d2e8m0_rz_nosat, 8, 1, 0) X(d2e8m0_rz_sat, 8, 1, 0) X(d2e8m0_ru_nosat, 8, 1, 0) X(d2e8m0_ru_sat, 8, 1, 0)

enum OpId {
#define AS_ENUM(n, i, o, c) OP_##n,
  OPS(AS_ENUM)
#undef AS_ENUM
  OP_COUNT
};
static const Op OP_TABLE[] = {
#define AS_ROW(n, i, o, c) {#n, i, o, c},
  OPS(AS_ROW)
#undef AS_ROW
};

__device__ __forceinline__ float f32(uint64_t x) { return __uint_as_float((uint32_t)x); }
__device__ __forceinline__ uint64_t bits(float f) { return __float_as_uint(f); }
__device__ __forceinline__ __half h16(uint64_t x) { return __ushort_as_half((unsigned short)x); }
__device__ __forceinline__ uint64_t bits(__half h) { return __half_as_ushort(h); }
__device__ __forceinline__ __nv_bfloat16 b16(uint64_t x) { return __ushort_as_bfloat16((unsigned short)x); }
__device__ __forceinline__ uint64_t bits(__nv_bfloat16 b) { return __bfloat16_as_ushort(b); }
__device__ __forceinline__ double f64(uint64_t x) { return __longlong_as_double((long long)x); }
__device__ __forceinline__ uint64_t bits(double d) { return (uint64_t)__double_as_longlong(d); }
__device__ __forceinline__ uint64_t u32(unsigned v) { return v; }
__device__ __forceinline__ uint64_t s32(int v) { return (uint32_t)v; }

__device__ uint64_t convert(int op, uint64_t x) {
  switch (op) {
    case OP_f2h_rn: return bits(__float2half_rn(f32(x)));
    case OP_f2h_rz: return bits(__float2half_rz(f32(x)));
    case OP_f2h_rd: return bits(__float2half_rd(f32(x)));
    case OP_f2h_ru: return bits(__float2half_ru(f32(x)));
    case OP_f2bf_rn: return bits(__float2bfloat16_rn(f32(x)));
    case OP_f2bf_rz: return bits(__float2bfloat16_rz(f32(x)));
    case OP_f2bf_rd: return bits(__float2bfloat16_rd(f32(x)));
    case OP_f2bf_ru: return bits(__float2bfloat16_ru(f32(x)));
    case OP_f2e4m3_nosat: return __nv_cvt_float_to_fp8(f32(x), __NV_NOSAT, __NV_E4M3);
    case OP_f2e4m3_sat: return __nv_cvt_float_to_fp8(f32(x), __NV_SATFINITE, __NV_E4M3);
    case OP_f2e5m2_nosat: return __nv_cvt_float_to_fp8(f32(x), __NV_NOSAT, __NV_E5M2);
    case OP_f2e5m2_sat: return __nv_cvt_float_to_fp8(f32(x), __NV_SATFINITE, __NV_E5M2);
    case OP_f2i_rn: return s32(__float2int_rn(f32(x)));
    case OP_f2i_rz: return s32(__float2int_rz(f32(x)));
    case OP_f2i_rd: return s32(__float2int_rd(f32(x)));
    case OP_f2i_ru: return s32(__float2int_ru(f32(x)));
    case OP_f2u_rn: return u32(__float2uint_rn(f32(x)));
    case OP_f2u_rz: return u32(__float2uint_rz(f32(x)));
    case OP_f2u_rd: return u32(__float2uint_rd(f32(x)));
    case OP_f2u_ru: return u32(__float2uint_ru(f32(x)));
    case OP_f2ll_rn: return (uint64_t)__float2ll_rn(f32(x));
    case OP_f2ll_rz: return (uint64_t)__float2ll_rz(f32(x));
    case OP_f2ll_rd: return (uint64_t)__float2ll_rd(f32(x));
    case OP_f2ll_ru: return (uint64_t)__float2ll_ru(f32(x));
    case OP_f2ull_rn: return __float2ull_rn(f32(x));
    case OP_f2ull_rz: return __float2ull_rz(f32(x));
    case OP_f2ull_rd: return __float2ull_rd(f32(x));
    case OP_f2ull_ru: return __float2ull_ru(f32(x));
    case OP_h2f: return bits(__half2float(h16(x)));
    case OP_bf2f: return bits(__bfloat162float(b16(x)));
    case OP_e4m3_2f: return bits(__half2float(__half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)x, __NV_E4M3))));
    case OP_e5m2_2f: return bits(__half2float(__half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)x, __NV_E5M2))));
    case OP_i2f_rn: return bits(__int2float_rn((int)x));
    case OP_i2f_rz: return bits(__int2float_rz((int)x));
    case OP_i2f_rd: return bits(__int2float_rd((int)x));
    case OP_i2f_ru: return bits(__int2float_ru((int)x));
    case OP_u2f_rn: return bits(__uint2float_rn((unsigned)x));
    case OP_u2f_rz: return bits(__uint2float_rz((unsigned)x));
    case OP_u2f_rd: return bits(__uint2float_rd((unsigned)x));
    case OP_u2f_ru: return bits(__uint2float_ru((unsigned)x));
    case OP_ll2f_rn: return bits(__ll2float_rn((long long)x));
    case OP_ll2f_rz: return bits(__ll2float_rz((long long)x));
    case OP_ll2f_rd: return bits(__ll2float_rd((long long)x));
    case OP_ll2f_ru: return bits(__ll2float_ru((long long)x));
    case OP_ull2f_rn: return bits(__ull2float_rn(x));
    case OP_ull2f_rz: return bits(__ull2float_rz(x));
    case OP_ull2f_rd: return bits(__ull2float_rd(x));
    case OP_ull2f_ru: return bits(__ull2float_ru(x));
    case OP_i2h_rn: return bits(__int2half_rn((int)x));
    case OP_i2h_rz: return bits(__int2half_rz((int)x));
    case OP_i2h_rd: return bits(__int2half_rd((int)x));
    case OP_i2h_ru: return bits(__int2half_ru((int)x));
    case OP_u2h_rn: return bits(__uint2half_rn((unsigned)x));
    case OP_u2h_rz: return bits(__uint2half_rz((unsigned)x));
    case OP_u2h_rd: return bits(__uint2half_rd((unsigned)x));
    case OP_u2h_ru: return bits(__uint2half_ru((unsigned)x));
    case OP_ll2h_rn: return bits(__ll2half_rn((long long)x));
    case OP_ll2h_rz: return bits(__ll2half_rz((long long)x));
    case OP_ll2h_rd: return bits(__ll2half_rd((long long)x));
    case OP_ll2h_ru: return bits(__ll2half_ru((long long)x));
    case OP_ull2h_rn: return bits(__ull2half_rn(x));
    case OP_ull2h_rz: return bits(__ull2half_rz(x));
    case OP_ull2h_rd: return bits(__ull2half_rd(x));
    case OP_ull2h_ru: return bits(__ull2half_ru(x));
    case OP_i2bf_rn: return bits(__int2bfloat16_rn((int)x));
    case OP_i2bf_rz: return bits(__int2bfloat16_rz((int)x));
    case OP_i2bf_rd: return bits(__int2bfloat16_rd((int)x));
    case OP_i2bf_ru: return bits(__int2bfloat16_ru((int)x));
    case OP_u2bf_rn: return bits(__uint2bfloat16_rn((unsigned)x));
    case OP_u2bf_rz: return bits(__uint2bfloat16_rz((unsigned)x));
    case OP_u2bf_rd: return bits(__uint2bfloat16_rd((unsigned)x));
    case OP_u2bf_ru: return bits(__uint2bfloat16_ru((unsigned)x));
    case OP_ll2bf_rn: return bits(__ll2bfloat16_rn((long long)x));
    case OP_ll2bf_rz: return bits(__ll2bfloat16_rz((long long)x));
    case OP_ll2bf_rd: return bits(__ll2bfloat16_rd((long long)x));
    case OP_ll2bf_ru: return bits(__ll2bfloat16_ru((long long)x));
    case OP_ull2bf_rn: return bits(__ull2bfloat16_rn(x));
    case OP_ull2bf_rz: return bits(__ull2bfloat16_rz(x));
    case OP_ull2bf_rd: return bits(__ull2bfloat16_rd(x));
    case OP_ull2bf_ru: return bits(__ull2bfloat16_ru(x));
    case OP_h2i_rn: return s32(__half2int_rn(h16(x)));
    case OP_h2i_rz: return s32(__half2int_rz(h16(x)));
    case OP_h2i_rd: return s32(__half2int_rd(h16(x)));
    case OP_h2i_ru: return s32(__half2int_ru(h16(x)));
    case OP_h2u_rn: return u32(__half2uint_rn(h16(x)));
    case OP_h2u_rz: return u32(__half2uint_rz(h16(x)));
    case OP_h2u_rd: return u32(__half2uint_rd(h16(x)));
    case OP_h2u_ru: return u32(__half2uint_ru(h16(x)));
    case OP_h2ll_rn: return (uint64_t)__half2ll_rn(h16(x));
    case OP_h2ll_rz: return (uint64_t)__half2ll_rz(h16(x));
    case OP_h2ll_rd: return (uint64_t)__half2ll_rd(h16(x));
    case OP_h2ll_ru: return (uint64_t)__half2ll_ru(h16(x));
    case OP_h2ull_rn: return __half2ull_rn(h16(x));
    case OP_h2ull_rz: return __half2ull_rz(h16(x));
    case OP_h2ull_rd: return __half2ull_rd(h16(x));
    case OP_h2ull_ru: return __half2ull_ru(h16(x));
    case OP_bf2i_rn: return s32(__bfloat162int_rn(b16(x)));
    case OP_bf2i_rz: return s32(__bfloat162int_rz(b16(x)));
    case OP_bf2i_rd: return s32(__bfloat162int_rd(b16(x)));
    case OP_bf2i_ru: return s32(__bfloat162int_ru(b16(x)));
    case OP_bf2u_rn: return u32(__bfloat162uint_rn(b16(x)));
    case OP_bf2u_rz: return u32(__bfloat162uint_rz(b16(x)));
    case OP_bf2u_rd: return u32(__bfloat162uint_rd(b16(x)));
    case OP_bf2u_ru: return u32(__bfloat162uint_ru(b16(x)));
    case OP_bf2ll_rn: return (uint64_t)__bfloat162ll_rn(b16(x));
    case OP_bf2ll_rz: return (uint64_t)__bfloat162ll_rz(b16(x));
    case OP_bf2ll_rd: return (uint64_t)__bfloat162ll_rd(b16(x));
    case OP_bf2ll_ru: return (uint64_t)__bfloat162ll_ru(b16(x));
    case OP_bf2ull_rn: return __bfloat162ull_rn(b16(x));
    case OP_bf2ull_rz: return __bfloat162ull_rz(b16(x));
    case OP_bf2ull_rd: return __bfloat162ull_rd(b16(x));
    case OP_bf2ull_ru: return __bfloat162ull_ru(b16(x));
    case OP_f2f_rn: return bits(rintf(f32(x)));
    case OP_f2f_rz: return bits(truncf(f32(x)));
    case OP_f2f_rd: return bits(floorf(f32(x)));
    case OP_f2f_ru: return bits(ceilf(f32(x)));
    case OP_h2h_rn: return bits(hrint(h16(x)));
    case OP_h2h_rz: return bits(htrunc(h16(x)));
    case OP_h2h_rd: return bits(hfloor(h16(x)));
    case OP_h2h_ru: return bits(hceil(h16(x)));
    case OP_bf2bf_rn: return bits(hrint(b16(x)));
    case OP_bf2bf_rz: return bits(htrunc(b16(x)));
    case OP_bf2bf_rd: return bits(hfloor(b16(x)));
    case OP_bf2bf_ru: return bits(hceil(b16(x)));
    case OP_bf2h_rn: return bits(__float2half_rn(__bfloat162float(b16(x))));
    case OP_bf2h_rz: return bits(__float2half_rz(__bfloat162float(b16(x))));
    case OP_bf2h_rd: return bits(__float2half_rd(__bfloat162float(b16(x))));
    case OP_bf2h_ru: return bits(__float2half_ru(__bfloat162float(b16(x))));
    case OP_h2bf_rn: return bits(__float2bfloat16_rn(__half2float(h16(x))));
    case OP_h2bf_rz: return bits(__float2bfloat16_rz(__half2float(h16(x))));
    case OP_h2bf_rd: return bits(__float2bfloat16_rd(__half2float(h16(x))));
    case OP_h2bf_ru: return bits(__float2bfloat16_ru(__half2float(h16(x))));
    // OCP MX elements (cuda_fp4.h, cuda_fp6.h): one element in the low bits of a byte.
    case OP_f2e2m1_rn: return __nv_cvt_float_to_fp4(f32(x), __NV_E2M1, cudaRoundNearest);
    case OP_f2e2m1_rz: return __nv_cvt_float_to_fp4(f32(x), __NV_E2M1, cudaRoundZero);
    case OP_f2e2m3_rn: return __nv_cvt_float_to_fp6(f32(x), __NV_E2M3, cudaRoundNearest);
    case OP_f2e2m3_rz: return __nv_cvt_float_to_fp6(f32(x), __NV_E2M3, cudaRoundZero);
    case OP_f2e3m2_rn: return __nv_cvt_float_to_fp6(f32(x), __NV_E3M2, cudaRoundNearest);
    case OP_f2e3m2_rz: return __nv_cvt_float_to_fp6(f32(x), __NV_E3M2, cudaRoundZero);
    case OP_e2m1_2f: return bits(__half2float(__half(__nv_cvt_fp4_to_halfraw((__nv_fp4_storage_t)x, __NV_E2M1))));
    case OP_e2m3_2f: return bits(__half2float(__half(__nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)x, __NV_E2M3))));
    case OP_e3m2_2f: return bits(__half2float(__half(__nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)x, __NV_E3M2))));
    // The OCP MX scale (cuda_fp8.h): only toward zero and toward +infinity are allowed.
    case OP_f2e8m0_rz_nosat: return __nv_cvt_float_to_e8m0(f32(x), __NV_NOSAT, cudaRoundZero);
    case OP_f2e8m0_rz_sat: return __nv_cvt_float_to_e8m0(f32(x), __NV_SATFINITE, cudaRoundZero);
    case OP_f2e8m0_ru_nosat: return __nv_cvt_float_to_e8m0(f32(x), __NV_NOSAT, cudaRoundPosInf);
    case OP_f2e8m0_ru_sat: return __nv_cvt_float_to_e8m0(f32(x), __NV_SATFINITE, cudaRoundPosInf);
    case OP_e8m0_2f: return bits(__bfloat162float(__nv_bfloat16(__nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)x))));
    // Packed pairs (cuda_fp4.h): a float2 (.x in the low 32 bits) to one byte of two FP4 values, and back
    // through half2 (exact); the byte's nibble order is what the certification checks.
    case OP_f2e2m1x2_rn: return __nv_cvt_float2_to_fp4x2(make_float2(f32(x), f32(x >> 32)), __NV_E2M1, cudaRoundNearest);
    case OP_f2e2m1x2_rz: return __nv_cvt_float2_to_fp4x2(make_float2(f32(x), f32(x >> 32)), __NV_E2M1, cudaRoundZero);
    case OP_e2m1x2_2f: {
      float2 f = __half22float2(__half2(__nv_cvt_fp4x2_to_halfraw2((__nv_fp4x2_storage_t)x, __NV_E2M1)));
      return bits(f.x) | bits(f.y) << 32;
    }
    // 64-bit sources: double precision intrinsics and the cuda_fp8/fp6/fp4 double entry points.
    case OP_d2f_rn: return bits(__double2float_rn(f64(x)));
    case OP_d2f_rz: return bits(__double2float_rz(f64(x)));
    case OP_d2f_rd: return bits(__double2float_rd(f64(x)));
    case OP_d2f_ru: return bits(__double2float_ru(f64(x)));
    case OP_f2d: return bits((double)f32(x));
    case OP_d2h_rn: return bits(__double2half(f64(x)));
    case OP_d2bf_rn: return bits(__double2bfloat16(f64(x)));
    case OP_d2e4m3_nosat: return __nv_cvt_double_to_fp8(f64(x), __NV_NOSAT, __NV_E4M3);
    case OP_d2e4m3_sat: return __nv_cvt_double_to_fp8(f64(x), __NV_SATFINITE, __NV_E4M3);
    case OP_d2e5m2_nosat: return __nv_cvt_double_to_fp8(f64(x), __NV_NOSAT, __NV_E5M2);
    case OP_d2e5m2_sat: return __nv_cvt_double_to_fp8(f64(x), __NV_SATFINITE, __NV_E5M2);
    case OP_d2i_rn: return s32(__double2int_rn(f64(x)));
    case OP_d2i_rz: return s32(__double2int_rz(f64(x)));
    case OP_d2i_rd: return s32(__double2int_rd(f64(x)));
    case OP_d2i_ru: return s32(__double2int_ru(f64(x)));
    case OP_d2u_rn: return u32(__double2uint_rn(f64(x)));
    case OP_d2u_rz: return u32(__double2uint_rz(f64(x)));
    case OP_d2u_rd: return u32(__double2uint_rd(f64(x)));
    case OP_d2u_ru: return u32(__double2uint_ru(f64(x)));
    case OP_d2ll_rn: return (uint64_t)__double2ll_rn(f64(x));
    case OP_d2ll_rz: return (uint64_t)__double2ll_rz(f64(x));
    case OP_d2ll_rd: return (uint64_t)__double2ll_rd(f64(x));
    case OP_d2ll_ru: return (uint64_t)__double2ll_ru(f64(x));
    case OP_d2ull_rn: return __double2ull_rn(f64(x));
    case OP_d2ull_rz: return __double2ull_rz(f64(x));
    case OP_d2ull_rd: return __double2ull_rd(f64(x));
    case OP_d2ull_ru: return __double2ull_ru(f64(x));
    case OP_d2e2m1_rn: return __nv_cvt_double_to_fp4(f64(x), __NV_E2M1, cudaRoundNearest);
    case OP_d2e2m1_rz: return __nv_cvt_double_to_fp4(f64(x), __NV_E2M1, cudaRoundZero);
    case OP_d2e2m3_rn: return __nv_cvt_double_to_fp6(f64(x), __NV_E2M3, cudaRoundNearest);
    case OP_d2e2m3_rz: return __nv_cvt_double_to_fp6(f64(x), __NV_E2M3, cudaRoundZero);
    case OP_d2e3m2_rn: return __nv_cvt_double_to_fp6(f64(x), __NV_E3M2, cudaRoundNearest);
    case OP_d2e3m2_rz: return __nv_cvt_double_to_fp6(f64(x), __NV_E3M2, cudaRoundZero);
    case OP_d2e8m0_rz_nosat: return __nv_cvt_double_to_e8m0(f64(x), __NV_NOSAT, cudaRoundZero);
    case OP_d2e8m0_rz_sat: return __nv_cvt_double_to_e8m0(f64(x), __NV_SATFINITE, cudaRoundZero);
    case OP_d2e8m0_ru_nosat: return __nv_cvt_double_to_e8m0(f64(x), __NV_NOSAT, cudaRoundPosInf);
    case OP_d2e8m0_ru_sat: return __nv_cvt_double_to_e8m0(f64(x), __NV_SATFINITE, cudaRoundPosInf);
  }
  return 0;
}

__global__ void run_op(int op, const uint64_t *in, uint64_t *out, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = convert(op, in[i]);
}

// SplitMix64's finalizer; a chunk's digest is the sum of mix((x << 32) ^ y) over its inputs.
__device__ __forceinline__ uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__device__ __forceinline__ bool is_nan(uint64_t y, int out_bytes, uint64_t canonical) {
  if (!canonical || out_bytes != 2) return false;
  uint64_t exp = canonical == 0x7E00 ? 0x7C00 : 0x7F80, man = canonical == 0x7E00 ? 0x3FF : 0x7F;
  return (y & exp) == exp && (y & man) != 0;
}

// Each block sums its elements' mixes; chunk_bits >= 16, so a block never straddles chunks.
__global__ void digest_op(int op, int out_bytes, uint64_t canonical, uint64_t first, int chunk_bits,
                          unsigned long long *digests) {
  __shared__ unsigned long long partial[256];
  uint64_t x = first + blockIdx.x * (uint64_t)blockDim.x * 16 + threadIdx.x;
  unsigned long long sum = 0;
  for (int k = 0; k < 16; k++, x += blockDim.x) {
    uint64_t y = convert(op, x);
    if (is_nan(y, out_bytes, canonical)) y = canonical;
    sum += mix((x << 32) ^ y);
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(&digests[(first + blockIdx.x * (uint64_t)blockDim.x * 16) >> chunk_bits], partial[0]);
}

static int find_op(const char *name) {
  for (int i = 0; i < OP_COUNT; i++) if (!strcmp(OP_TABLE[i].name, name)) return i;
  fprintf(stderr, "unknown op %s\n", name);
  exit(2);
}

static std::vector<uint64_t> read_elements(const char *path, int bytes) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(1); }
  std::vector<uint64_t> v;
  unsigned char b[8];
  while (fread(b, 1, bytes, f) == (size_t)bytes) {
    uint64_t x = 0;
    for (int k = 0; k < bytes; k++) x |= (uint64_t)b[k] << (8 * k);
    v.push_back(x);
  }
  fclose(f);
  return v;
}

static void write_elements(const std::string &path, const std::vector<uint64_t> &v, int bytes) {
  FILE *f = fopen(path.c_str(), "wb");
  if (!f) { perror(path.c_str()); exit(1); }
  for (uint64_t x : v) for (int k = 0; k < bytes; k++) fputc((int)(x >> (8 * k)) & 0xFF, f);
  fclose(f);
}

static int replay(const char *jobs_path) {
  FILE *jobs = fopen(jobs_path, "r");
  if (!jobs) { perror(jobs_path); return 1; }
  char op_name[64], in_path[512], out_base[512];
  int cases = 0;
  while (fscanf(jobs, "%63s %511s %511s", op_name, in_path, out_base) == 3) {
    int op = find_op(op_name);
    std::vector<uint64_t> in = read_elements(in_path, OP_TABLE[op].in_bytes), out(in.size());
    uint64_t *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, in.size() * 8 + 8));
    CHECK(cudaMalloc(&d_out, in.size() * 8 + 8));
    CHECK(cudaMemcpy(d_in, in.data(), in.size() * 8, cudaMemcpyHostToDevice));
    run_op<<<(unsigned)((in.size() + 255) / 256), 256>>>(op, d_in, d_out, in.size());
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d_out, in.size() * 8, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    write_elements(std::string(out_base) + ".in.bin", in, OP_TABLE[op].in_bytes);
    write_elements(std::string(out_base) + ".out.bin", out, OP_TABLE[op].out_bytes);
    cases++;
  }
  fclose(jobs);
  printf("replay: %d cases written\n", cases);
  return 0;
}

static int digest(const char *op_name, int chunk_bits) {
  int op = find_op(op_name);
  if (OP_TABLE[op].in_bytes != 4 || chunk_bits < 16 || chunk_bits > 32) { fprintf(stderr, "digest: 32-bit sources, 16 <= chunk bits <= 32\n"); return 2; }
  size_t chunks = (size_t)1 << (32 - chunk_bits);
  unsigned long long *d_digests;
  CHECK(cudaMalloc(&d_digests, chunks * 8));
  CHECK(cudaMemset(d_digests, 0, chunks * 8));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const uint64_t per_launch = 1ull << 28;  // 2^28 inputs per launch: 65536 blocks of 256 threads x 16
  CHECK(cudaEventRecord(start));
  for (uint64_t first = 0; first < (1ull << 32); first += per_launch)
    digest_op<<<(unsigned)(per_launch / (256 * 16)), 256>>>(op, OP_TABLE[op].out_bytes, OP_TABLE[op].canonical_nan,
                                                           first, chunk_bits, d_digests);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::vector<unsigned long long> digests(chunks);
  CHECK(cudaMemcpy(digests.data(), d_digests, chunks * 8, cudaMemcpyDeviceToHost));
  for (size_t c = 0; c < chunks; c++) printf("%zu %016llx\n", c, digests[c]);
  fprintf(stderr, "%s: 2^32 inputs in %.2f ms on the GPU, %.1f G conversions/s\n", op_name, ms, 4294967296.0 / ms / 1e6);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "list")) {
    for (int i = 0; i < OP_COUNT; i++) printf("%s %d %d\n", OP_TABLE[i].name, OP_TABLE[i].in_bytes, OP_TABLE[i].out_bytes);
    return 0;
  }
  if (argc == 3 && !strcmp(argv[1], "replay")) return replay(argv[2]);
  if (argc == 4 && !strcmp(argv[1], "digest")) return digest(argv[2], atoi(argv[3]));
  fprintf(stderr, "usage: gpu_convert list | replay JOBS | digest OP CHUNK_BITS\n");
  return 2;
}
