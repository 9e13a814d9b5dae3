#!/usr/bin/env python3
"""ml_dtypes as a device under test, written with the convcert-device helper (suite/python).

Certifies the casts of ml_dtypes (pip install ml_dtypes) between float32 and the OCP MX element and
scale types, against the ocp-mx profile; between float32 and AMD's FNUZ FP8 types (with OCP's FP8
again) against the rocm profile; and from float32 and float64 to FP8, FP6, FP4 and bfloat16 against
the cuda profile, whose double sources round once; and float32, float16 and bfloat16 to and from the
FNUZ types read as IEEE P3109's binary8p4sf and binary8p3sf against the p3109 profile (rn, SatNone); and
the IEEE-like FP8 types that LLVM's APFloat names (E4M3 and E3M4 with infinities, E4M3B11FNUZ) against the llvm
profile:
    convcert certify --profile ocp-mx --level ci --adapter "process:cmd=python3 suite/devices/ml-dtypes/dut.py"
    convcert certify --profile rocm --level ci --adapter "process:cmd=python3 suite/devices/ml-dtypes/dut.py"
    convcert certify --profile cuda --level ci --adapter "process:cmd=python3 suite/devices/ml-dtypes/dut.py"
    convcert certify --profile p3109 --level ci --adapter "process:cmd=python3 suite/devices/ml-dtypes/dut.py"
    convcert certify --profile llvm --level ci --adapter "process:cmd=python3 suite/devices/ml-dtypes/dut.py"
Each profile has only some of the types: the others' capabilities match no case there (a warning).
ml_dtypes casts round to nearest even; FP8 overflows to NaN or infinity (non-saturating; FNUZ: 0x80), FP6/FP4
have no infinity and clamp (saturating), E8M0 overflows to NaN. Elements narrower than a byte
travel one per byte, as numpy stores them.
"""
import pathlib
import sys

import ml_dtypes
import numpy as np

try:
    from convcert_device import Device
except ImportError:  # not installed (pip install ./suite/python): the checkout's copy
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
    from convcert_device import Device

TYPES = {
    "fp8_e4m3fnuz": (ml_dtypes.float8_e4m3fnuz, "nosat"),
    "fp8_e5m2fnuz": (ml_dtypes.float8_e5m2fnuz, "nosat"),
    "fp8_e4m3fn": (ml_dtypes.float8_e4m3fn, "nosat"),
    "fp8_e5m2": (ml_dtypes.float8_e5m2, "nosat"),
    "fp6_e2m3": (ml_dtypes.float6_e2m3fn, "sat"),
    "fp6_e3m2": (ml_dtypes.float6_e3m2fn, "sat"),
    "fp4_e2m1": (ml_dtypes.float4_e2m1fn, "sat"),
    "e8m0": (ml_dtypes.float8_e8m0fnu, "nosat"),
}

device = Device()

for name, (dtype, state) in TYPES.items():
    device.convert("float", name, "rn", state)(lambda x, t=dtype: x.view(np.float32).astype(t).view(np.uint8))
    device.convert("double", name, "rn", state)(lambda x, t=dtype: x.view(np.float64).astype(t).view(np.uint8))
    device.convert(name, "float", "rn", "nosat")(lambda x, t=dtype: x.astype(np.uint8).view(t).astype(np.float32)
                                                 .view(np.uint32))

# IEEE P3109's finite signed 8-bit formats binary8p4sf and binary8p3sf are the FNUZ encodings (bias 8 and
# 16, NaN 0x80, no infinity, no -0), and ml_dtypes' casts round to nearest even with overflow and infinity
# to NaN: the p3109 profile's (rn, SatNone) projection. From float, half and bfloat16, and back.
P3109 = {"binary8p4sf": ml_dtypes.float8_e4m3fnuz, "binary8p3sf": ml_dtypes.float8_e5m2fnuz}
SOURCES = {"float": (np.float32, np.uint32), "half": (np.float16, np.uint16), "bfloat16": (ml_dtypes.bfloat16, np.uint16)}
for name, dtype in P3109.items():
    for source, (ftype, itype) in SOURCES.items():
        width = np.dtype(itype).itemsize  # the helper knows the profiles' widths, not P3109's generated names
        device.convert(source, name, "rn", "satnone", in_bytes=width, out_bytes=1)(
            lambda x, t=dtype, f=ftype, i=itype: x.astype(i).view(f).astype(t).view(np.uint8))
        device.convert(name, source, "rn", "satnone", in_bytes=1, out_bytes=width)(
            lambda x, t=dtype, f=ftype, i=itype: x.astype(np.uint8).view(t).astype(f).view(i))

# bfloat16, from float32 and float64 (the cuda profile has both), and back
device.convert("float", "bfloat16", "rn", "nosat")(lambda x: x.view(np.float32).astype(ml_dtypes.bfloat16).view(np.uint16))
device.convert("double", "bfloat16", "rn", "nosat")(lambda x: x.view(np.float64).astype(ml_dtypes.bfloat16).view(np.uint16))
device.convert("bfloat16", "float", "rn", "nosat")(lambda x: x.astype(np.uint16).view(ml_dtypes.bfloat16)
                                                  .astype(np.float32).view(np.uint32))

# APFloat's Float8E4M3 and Float8E3M4 (IEEE-like: infinity and NaNs) and Float8E4M3B11FNUZ, from and to the
# natives of LLVM's arbitrary-FP intrinsics. FNUZ overflows to NaN, which is no form LLVM allows (its finite
# destinations saturate): only its from-conversions match a case.
LLVM = {"fp8_e4m3": ml_dtypes.float8_e4m3, "fp8_e3m4": ml_dtypes.float8_e3m4,
        "fp8_e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz}
NATIVES = dict(SOURCES, double=(np.float64, np.uint64))
for name, dtype in LLVM.items():
    for native, (ftype, itype) in NATIVES.items():
        device.convert(native, name, "rn", "nosat")(
            lambda x, t=dtype, f=ftype, i=itype: x.astype(i).view(f).astype(t).view(np.uint8))
        device.convert(name, native, "rn", "nosat")(
            lambda x, t=dtype, f=ftype, i=itype: x.astype(np.uint8).view(t).astype(f).view(i))

if __name__ == "__main__":
    device.run()
