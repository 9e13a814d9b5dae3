/*
 * convcert process device: the decoders CANN's runtime uses to print HiFloat8, FP8 and E8M0 values of a device's
 * printf and tensor dumps (hicann/runtime, src/dfx/adump/adump/printf/hifloat.{h,cpp}: Adx::HiFloat8,
 * Adx::Fp8E4M3, Adx::Fp8E5M2, Adx::Fp8E8M0, each GetValue()). The runtime's sources are the user's checkout,
 * compiled beside this file; stubs/ stands in for log/hdc_log.h, the one header they include from outside.
 * Build (README.md beside this):
 *   c++ -std=c++17 -O2 -I suite/devices/cann-adump/stubs -I "$RUNTIME/src/dfx/adump/adump/printf" \
 *       -o adump_dut suite/devices/cann-adump/dut.cc "$RUNTIME/src/dfx/adump/adump/printf/hifloat.cpp"
 *
 * Every conversion is a decoding, exact: each 8-bit format to float, rn nosat.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "hifloat.h"

namespace {

template <typename T>
uint32_t decoded(uint32_t code) {
  float f = T(static_cast<uint8_t>(code)).GetValue();
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

struct Op {
  const char *from;
  uint32_t (*convert)(uint32_t);
};

const Op OPS[] = {
    {"hifloat8", decoded<Adx::HiFloat8>},
    {"fp8_e4m3fn", decoded<Adx::Fp8E4M3>},
    {"fp8_e5m2", decoded<Adx::Fp8E5M2>},
    {"e8m0", decoded<Adx::Fp8E8M0>},
};

}  // namespace

int main() {
  char line[256];
  if (!std::fgets(line, sizeof line, stdin) || std::strncmp(line, "CONVCERT 1", 10) != 0) return 2;
  for (const Op &op : OPS) std::printf("CAP %s float rn nosat\n", op.from);
  std::printf("READY\n");
  std::fflush(stdout);
  static uint8_t in[65536];
  static uint32_t out[65536];
  while (std::fgets(line, sizeof line, stdin)) {
    if (!std::strncmp(line, "QUIT", 4)) return 0;
    char from[32], to[32], rounding[8], state[16], form[16], ctrl[64];
    unsigned long long count;
    if (std::sscanf(line, "BATCH %31s %31s %7s %15s %15s %63s %llu", from, to, rounding, state, form, ctrl, &count) != 7
        || count > 65536) {
      std::printf("ERR malformed batch\n");
      std::fflush(stdout);
      return 2;
    }
    const Op *op = nullptr;
    for (const Op &o : OPS) {
      if (!std::strcmp(o.from, from) && !std::strcmp(to, "float") && !std::strcmp(rounding, "rn")) op = &o;
    }
    if (!op) {
      std::printf("ERR not claimed: %s %s %s\n", from, to, rounding);
      std::fflush(stdout);
      return 2;
    }
    if (count && std::fread(in, 1, count, stdin) != count) return 3;
    for (unsigned long long i = 0; i < count; i++) out[i] = op->convert(in[i]);
    std::printf("OK %llu\n", count);
    std::fwrite(out, 4, count, stdout);
    std::fflush(stdout);
  }
  return 0;
}
