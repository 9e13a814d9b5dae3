/*
 * convcert process device: the HiFloat8 type of Huawei's graph engine, ge::HiF8 (hicann/ge,
 * base/common/math/hif8_t.{h,cc}), which GE uses to convert HiFloat8 constants and weights on the host.
 * float -> hifloat8 is HiF8::BitsFromFp32, half -> hifloat8 HiF8::BitsFromFp16 (a half's bits), hifloat8 ->
 * float HiF8's float operator. GE's sources are the user's checkout, compiled beside this file; stubs/ stands
 * in for the three headers they include from outside GE's tree (securec, GE's assert, fp16_t). Build
 * (README.md beside this):
 *   c++ -std=c++17 -O2 -I suite/devices/ge-hif8/stubs -I "$GE/base" -o ge_hif8_dut \
 *       suite/devices/ge-hif8/dut.cc "$GE/base/common/math/hif8_t.cc"
 *
 * hif8_t.cc rounds "TA" (ties away from zero: rna) and does not saturate: it claims float and half ->
 * hifloat8 rna nosat, and hifloat8 -> float rn nosat (exact).
 */
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "common/math/hif8_t.h"

namespace {

struct Op {
  const char *from, *to, *rounding;
  int in_bytes, out_bytes;
  uint32_t (*convert)(uint32_t);
};

uint32_t hif8_to_float(uint32_t code) {
  float f = static_cast<float>(ge::HiF8::FromRawBits(static_cast<uint8_t>(code)));
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

const Op OPS[] = {
    {"float", "hifloat8", "rna", 4, 1, [](uint32_t x) -> uint32_t { return ge::HiF8::BitsFromFp32(x); }},
    {"half", "hifloat8", "rna", 2, 1, [](uint32_t x) -> uint32_t { return ge::HiF8::BitsFromFp16(static_cast<uint16_t>(x)); }},
    {"hifloat8", "float", "rn", 1, 4, hif8_to_float},
};

const Op *find(const char *from, const char *to, const char *rounding) {
  for (const Op &op : OPS) {
    if (!std::strcmp(op.from, from) && !std::strcmp(op.to, to) && !std::strcmp(op.rounding, rounding)) return &op;
  }
  return nullptr;
}

}  // namespace

int main() {
  char line[256];
  if (!std::fgets(line, sizeof line, stdin) || std::strncmp(line, "CONVCERT 1", 10) != 0) return 2;
  for (const Op &op : OPS) std::printf("CAP %s %s %s nosat\n", op.from, op.to, op.rounding);
  std::printf("READY\n");
  std::fflush(stdout);
  static uint8_t in[4 * 65536], out[4 * 65536];
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
    const Op *op = find(from, to, rounding);
    if (!op) {
      std::printf("ERR not claimed: %s %s %s\n", from, to, rounding);
      std::fflush(stdout);
      return 2;
    }
    if (count && std::fread(in, op->in_bytes, count, stdin) != count) return 3;
    for (unsigned long long i = 0; i < count; i++) {
      uint32_t x = 0;
      std::memcpy(&x, in + op->in_bytes * i, op->in_bytes);
      uint32_t r = op->convert(x);
      std::memcpy(out + op->out_bytes * i, &r, op->out_bytes);
    }
    std::printf("OK %llu\n", count);
    std::fwrite(out, op->out_bytes, count, stdout);
    std::fflush(stdout);
  }
  return 0;
}
