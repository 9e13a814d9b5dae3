// Stand-in for GE's fp16_t, whose header needs metadef's graph/ headers: a half's 16 bits, as much as hif8_t.h
// and hif8_t.cc use. hif8_t's BitsFromFp16 takes those bits itself; the device does not claim hifloat8 -> half,
// the one path that would convert a float to fp16_t here.
#ifndef CONVCERT_STUB_FP16_T_FP16_T_H
#define CONVCERT_STUB_FP16_T_FP16_T_H
#include <cstdint>
#include <cstdlib>
namespace ge {
constexpr uint16_t kFp16MaxExp = 0x001FU;
inline uint16_t Fp16Constructor(uint16_t s, uint16_t e, uint16_t m) {
  return static_cast<uint16_t>((s << 15) | (e << 10) | m);
}
struct fp16_t {
  uint16_t val = 0;
  fp16_t() = default;
  explicit fp16_t(uint16_t bits) : val(bits) {}
  fp16_t &operator=(float) { std::abort(); }
};
}  // namespace ge
#endif
