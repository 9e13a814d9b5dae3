/*
 * convcert process device: MindSpore's host number types, mindspore::HiFloat8, Float8_e4m3fn and Float8_e5m2
 * (mindspore/core/include/base/{hifloat8,float8_e4m3fn,float8_e5m2}.h), the classes MindSpore's CPU kernels
 * and its tensor conversions on the host use. Each conversion is the class's own: its float constructor
 * (float -> HiFloat8, float -> FP8) and its float operator (HiFloat8, FP8 -> float). The headers are
 * MindSpore's, from the user's checkout; nothing of them is copied here. Build (README.md beside this):
 *   c++ -std=c++17 -O2 -I "$MINDSPORE/mindspore/core/include" -o mindspore_dut dut.cc
 *
 * The classes name no rounding mode or saturation. HiFloat8 cites the HiF8 paper, whose default rounding is
 * ties away from zero (rna), and does not saturate (above 2^15 it gives infinity): it claims float ->
 * hifloat8 rna nosat. The FP8 classes round to nearest even and do not saturate: rn nosat. The reverse
 * conversions are exact: rn nosat.
 */
#include <cstdint>
#include <cstring>

#include "../common/batch_device.h"
#include "base/float8_e4m3fn.h"
#include "base/float8_e5m2.h"
#include "base/hifloat8.h"

namespace {

float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint32_t to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// A byte's value in one of the 8-bit types, widened to float by the class's own operator.
template <typename T>
uint32_t widened(uint8_t code) {
  return to_bits(static_cast<float>(T::FromRaw(code)));
}

const convcert_device::Op OPS[] = {
    {"float", "hifloat8", "rna", 4, 1, [](uint32_t x) -> uint32_t { return mindspore::HiFloat8(from_bits(x)).int_value(); }},
    {"hifloat8", "float", "rn", 1, 4, [](uint32_t x) { return widened<mindspore::HiFloat8>(static_cast<uint8_t>(x)); }},
    {"float", "fp8_e4m3fn", "rn", 4, 1, [](uint32_t x) -> uint32_t { return mindspore::Float8_e4m3fn(from_bits(x)).int_value(); }},
    {"fp8_e4m3fn", "float", "rn", 1, 4, [](uint32_t x) { return widened<mindspore::Float8_e4m3fn>(static_cast<uint8_t>(x)); }},
    {"float", "fp8_e5m2", "rn", 4, 1, [](uint32_t x) -> uint32_t { return mindspore::Float8_e5m2(from_bits(x)).int_value(); }},
    {"fp8_e5m2", "float", "rn", 1, 4, [](uint32_t x) { return widened<mindspore::Float8_e5m2>(static_cast<uint8_t>(x)); }},
};

}  // namespace

int main() { return convcert_device::serve(OPS); }
