#!/usr/bin/env python3
"""An example device under test in Python, written with the convcert-device helper (suite/python).

It certifies numpy's conversions: float32 -> float16 (round to nearest even, non-saturating),
float16 -> float32, int32 -> float32. Run by the suite as
    convcert certify --adapter process:cmd=python3 suite/devices/example-python/dut.py
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


@device.convert("float", "half", "rn", "nosat")
def float_to_half(x):
    return x.view(np.float32).astype(np.float16).view(np.uint16)


@device.convert("half", "float", "rn", "nosat")
def half_to_float(x):
    return x.view(np.float16).astype(np.float32).view(np.uint32)


@device.convert("int32", "float", "rn", "nosat")
def int32_to_float(x):
    return x.view(np.int32).astype(np.float32).view(np.uint32)


if __name__ == "__main__":
    device.run()
