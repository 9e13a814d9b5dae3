// Stand-in for Huawei's securec (libboundscheck), which GE links: the one function hif8_t.cc calls.
#ifndef CONVCERT_STUB_SECUREC_H
#define CONVCERT_STUB_SECUREC_H
#include <cstring>
#include <sys/types.h>
inline int memcpy_s(void *dest, size_t destMax, const void *src, size_t count) {
  if (count > destMax) return -1;
  std::memcpy(dest, src, count);
  return 0;
}
#endif
