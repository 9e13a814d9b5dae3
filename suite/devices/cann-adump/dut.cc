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
#include <cstring>

#include "../common/batch_device.h"
#include "hifloat.h"

namespace {

template <typename T>
uint32_t decoded(uint32_t code) {
  float f = T(static_cast<uint8_t>(code)).GetValue();
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

const convcert_device::Op OPS[] = {
    {"hifloat8", "float", "rn", 1, 4, decoded<Adx::HiFloat8>},
    {"fp8_e4m3fn", "float", "rn", 1, 4, decoded<Adx::Fp8E4M3>},
    {"fp8_e5m2", "float", "rn", 1, 4, decoded<Adx::Fp8E5M2>},
    {"e8m0", "float", "rn", 1, 4, decoded<Adx::Fp8E8M0>},
};

}  // namespace

int main() { return convcert_device::serve(OPS); }
