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

/* Optional. The lanes the library takes beside each value, separated by spaces: "random" (stochastic
   rounding's random bits, rounding "rs"), "scale" (a scaled conversion's scale field, as the pair's scale
   column in conversions.csv lays it out). A library without this symbol takes none, and convcert sends it
   no case with a lane (not applicable to it). */
const char *convcert_lanes(void);

/* Optional, with convcert_lanes: converts count elements of a case with a lane; lane is "random" or
   "scale" and lane_values holds a uint32 per element (its random bits, or its scale field in the low bits,
   two's complement where signed). Otherwise as convcert_convert. */
int convcert_convert_lane(const char *from, const char *to, const char *rounding, const char *state,
                          const char *form, const char *ctrl, const char *lane, const uint32_t *lane_values,
                          const void *in, void *out, uint64_t count);

/* Optional. A library that reports IEEE exception flags (profiles with flags.csv) exports this: as
   convcert_convert, and flags[i] gets element i's flags in Berkeley SoftFloat's bits (0x01 inexact,
   0x02 underflow, 0x04 overflow, 0x08 infinite, 0x10 invalid). convcert then calls it for every case
   without a lane, and certifies the flags where the profile has them. */
int convcert_convert_flags(const char *from, const char *to, const char *rounding, const char *state,
                           const char *form, const char *ctrl, const void *in, void *out, uint8_t *flags,
                           uint64_t count);

/* Optional. Returns 0 for a library that reads only the state argument (not form and ctrl): convcert then
   runs each saturation state once instead of once per API form and CTRL setting that selects it. Without
   this symbol, or returning non-zero, the library is certified on every such variant. */
int convcert_programs_saturation(void);

#ifdef __cplusplus
}
#endif

#endif
