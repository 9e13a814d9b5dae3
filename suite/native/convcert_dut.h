/*
 * convcert native adapter ABI: a device under test as a shared library, called through Java's FFM API
 * (convcert certify --adapter native:lib=path/to/libdut.so). See suite/ADAPTERS.md.
 */
#ifndef CONVCERT_DUT_H
#define CONVCERT_DUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the library implements: lines "FROM TO ROUNDING STATE\n" (names as in spec-tables, '*' for any).
   The string stays valid for the life of the library. */
const char *convcert_capabilities(void);

/* Converts count elements. in and out are packed little-endian elements of the source's and the
   destination's widths (1, 2, 4 or 8 bytes). form is "nosat" (no _sat suffix), "sat" (_sat) or "implicit" (a C++
   implicit conversion); ctrl is "60=0,59=0,50=0,48=1", or "-" under a profile without CTRL bits. count may be 0:
   convcert calls once with 0 after each case; return 0 and write nothing.
   Returns 0 on success; otherwise nonzero, and convcert_last_error() says why. */
int convcert_convert(const char *from, const char *to, const char *rounding, const char *state,
                     const char *form, const char *ctrl, const void *in, void *out, uint64_t count);

/* The reason of the last nonzero convcert_convert, or "". */
const char *convcert_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
