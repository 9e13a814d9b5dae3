#!/usr/bin/env python3
"""numpy's own float16 and float32 casts as a device under test (the convcert-device helper, suite/python).

numpy converts float32 and float64 to float16 in its own C code (npy_floatbits_to_halfbits,
npy_doublebits_to_halfbits: round to nearest even, overflow to infinity, subnormals kept), float64 to
float32 with the CPU's conversion, and float16 back exactly. Certify it against the cuda profile, which
has all four in rn:
    convcert certify --profile cuda --level ci --adapter "process:cmd=python3 suite/devices/numpy/dut.py"
"""
import pathlib
import sys

import numpy as np

try:
    from convcert_device import Device
except ImportError:  # not installed (pip install ./suite/python): the checkout's copy
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
    from convcert_device import Device

device = Device()
device.convert("float", "half", "rn", "nosat")(lambda x: x.view(np.float32).astype(np.float16).view(np.uint16))
device.convert("double", "half", "rn", "nosat")(lambda x: x.view(np.float64).astype(np.float16).view(np.uint16))
device.convert("double", "float", "rn", "nosat")(lambda x: x.view(np.float64).astype(np.float32).view(np.uint32))
device.convert("half", "float", "rn", "nosat")(lambda x: x.astype(np.uint16).view(np.float16).astype(np.float32)
                                               .view(np.uint32))
device.convert("float", "double", "rn", "nosat")(lambda x: x.view(np.float32).astype(np.float64).view(np.uint64))

if __name__ == "__main__":
    device.run()
