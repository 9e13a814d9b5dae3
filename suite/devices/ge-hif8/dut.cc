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
#include <cstring>

#include "../common/batch_device.h"
#include "common/math/hif8_t.h"

namespace {

uint32_t hif8_to_float(uint32_t code) {
  float f = static_cast<float>(ge::HiF8::FromRawBits(static_cast<uint8_t>(code)));
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

const convcert_device::Op OPS[] = {
    {"float", "hifloat8", "rna", 4, 1, [](uint32_t x) -> uint32_t { return ge::HiF8::BitsFromFp32(x); }},
    {"half", "hifloat8", "rna", 2, 1, [](uint32_t x) -> uint32_t { return ge::HiF8::BitsFromFp16(static_cast<uint16_t>(x)); }},
    {"hifloat8", "float", "rn", 1, 4, hif8_to_float},
};

}  // namespace

int main() { return convcert_device::serve(OPS); }
