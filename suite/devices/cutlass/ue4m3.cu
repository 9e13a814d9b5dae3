// CUTLASS's UE4M3 (cutlass::float_ue4m3_t, include/cutlass/float8.h): float -> ue4m3 through its float
// constructor and ue4m3 -> float through its conversion operator. Built two ways (README.md beside this):
//   nvcc -O2 -std=c++17 -shared -Xcompiler -fPIC -I$CUTLASS/include -Isuite/native -o libcutlass_ue4m3.so ue4m3.cu
//       a library with the ABI of suite/native/convcert_dut.h, converting on the host: CUTLASS's generic
//       conversion of exmy_base.h
//   nvcc -O2 -std=c++17 -arch=sm_90 -DCUTLASS_DUT_GPU -I$CUTLASS/include -o ue4m3_record ue4m3.cu
//       a recorder: ue4m3_record host|gpu CASE IN OUT converts the inputs of a vector file (CASE float-ue4m3
//       or ue4m3-float) on the host or on the GPU, where on sm_89 and later CUTLASS takes
//       cvt.rn.satfinite.e4m3x2.f32 and cvt.rn.f16x2.e4m3x2, and writes the outputs in the replay layout
//       (suite/ADAPTERS.md)
#include <cutlass/float8.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

// Element i each way (float -> ue4m3, or ue4m3 -> float); the same source runs on the host and, in the
// recorder, on the GPU.
__host__ __device__ static void convert_one(bool toUe4m3, const unsigned char *in, unsigned char *out, uint64_t i) {
  if (toUe4m3) {
    float f;
    memcpy(&f, in + 4 * i, 4);
    out[i] = cutlass::float_ue4m3_t(f).storage;
  } else {
    float f = float(cutlass::float_ue4m3_t(cutlass::float_ue4m3_t::bitcast(in[i])));
    memcpy(out + 4 * i, &f, 4);
  }
}

static void convert_host(bool toUe4m3, const unsigned char *in, unsigned char *out, uint64_t count) {
  for (uint64_t i = 0; i < count; i++) convert_one(toUe4m3, in, out, i);
}

#ifndef CUTLASS_DUT_GPU
#include "convcert_dut.h"

static const char *error = "";

extern "C" const char *convcert_capabilities(void) { return "float ue4m3 rn sat\nue4m3 float rn nosat\n"; }

extern "C" const char *convcert_last_error(void) { return error; }

extern "C" int convcert_programs_saturation(void) { return 0; }

extern "C" int convcert_convert(const char *from, const char *to, const char *rounding, const char *state,
                                const char *form, const char *ctrl, const void *in, void *out, uint64_t count) {
  (void)rounding; (void)state; (void)form; (void)ctrl;
  bool toUe4m3 = !strcmp(from, "float") && !strcmp(to, "ue4m3");
  if (!toUe4m3 && (strcmp(from, "ue4m3") || strcmp(to, "float"))) {
    error = "not implemented";
    return 1;
  }
  convert_host(toUe4m3, (const unsigned char *)in, (unsigned char *)out, count);
  return 0;
}
#else
__global__ void convert_gpu(bool toUe4m3, const unsigned char *in, unsigned char *out, uint64_t count) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i < count) convert_one(toUe4m3, in, out, i);
}

int main(int argc, char **argv) {
  bool gpu = argc == 5 && !strcmp(argv[1], "gpu");
  if (argc != 5 || (!gpu && strcmp(argv[1], "host")) || (strcmp(argv[2], "float-ue4m3") && strcmp(argv[2], "ue4m3-float"))) {
    fprintf(stderr, "usage: ue4m3_record host|gpu float-ue4m3|ue4m3-float IN.in.bin OUT.out.bin\n");
    return 2;
  }
  bool toUe4m3 = !strcmp(argv[2], "float-ue4m3");
  size_t inBytes = toUe4m3 ? 4 : 1, outBytes = toUe4m3 ? 1 : 4;
  FILE *f = fopen(argv[3], "rb");
  if (!f) { perror(argv[3]); return 2; }
  std::vector<unsigned char> in;
  unsigned char buffer[65536];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, f)) > 0;) in.insert(in.end(), buffer, buffer + n);
  fclose(f);
  uint64_t count = in.size() / inBytes;
  std::vector<unsigned char> out(count * outBytes);
  if (gpu) {
    unsigned char *dIn, *dOut;
    if (cudaMalloc(&dIn, in.size() + 1) || cudaMalloc(&dOut, out.size() + 1)) { fprintf(stderr, "cudaMalloc failed\n"); return 3; }
    cudaMemcpy(dIn, in.data(), in.size(), cudaMemcpyHostToDevice);
    convert_gpu<<<(unsigned)((count + 255) / 256), 256>>>(toUe4m3, dIn, dOut, count);
    if (cudaMemcpy(out.data(), dOut, out.size(), cudaMemcpyDeviceToHost) != cudaSuccess) {
      fprintf(stderr, "the kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
      return 3;
    }
  } else {
    convert_host(toUe4m3, in.data(), out.data(), count);
  }
  FILE *o = fopen(argv[4], "wb");
  if (!o || fwrite(out.data(), 1, out.size(), o) != out.size() || fclose(o)) { perror(argv[4]); return 3; }
  return 0;
}
#endif
