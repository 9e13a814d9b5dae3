// Stand-in for GE's common/checker.h: GE_ASSERT logs and returns a failure there; the device stops instead,
// which certify reports as an adapter error (hif8_t.cc asserts only what its callers already ensure).
#ifndef CONVCERT_STUB_CHECKER_H
#define CONVCERT_STUB_CHECKER_H
#include <cstdlib>
#define GE_ASSERT(condition) \
  do {                       \
    if (!(condition)) std::abort(); \
  } while (0)
#endif
