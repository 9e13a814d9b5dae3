#!/usr/bin/env python3
"""The NVFP4 device of suite/devices/nvfp4-python (TransformerEngine's recipe in numpy) with one bug planted
(--bug NAME), for the diagnosis benchmark (docs/diagnosis.md). Its other options pass through (--recipe ...).

    ./convcert certify --profile cuda --only '*nvfp4*' \\
        --adapter 'process:cmd=python3 suite/devices/planted/nvfp4_quantizer.py --bug E2M1_TIES_AWAY'
"""
import importlib.util
import pathlib
import sys

BUG = sys.argv[sys.argv.index("--bug") + 1] if "--bug" in sys.argv else "NONE"
_path = pathlib.Path(__file__).resolve().parents[1] / "nvfp4-python" / "dut.py"
_spec = importlib.util.spec_from_file_location("nvfp4_dut", _path)
nv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nv)


def nearest(values, a, away):
    """The index of the value nearest a (ascending values, a within them): ties away from zero, or toward zero."""
    lo = max(i for i, v in enumerate(values) if v <= a)
    if values[lo] == a or lo == len(values) - 1:
        return lo
    mid = (values[lo] + values[lo + 1]) / 2
    return lo + 1 if a > mid or (a == mid and away) else lo


def to_e2m1(q):
    """The element conversion with the planted bug: ties away (rounding half up), or truncation."""
    if nv.np.isnan(q):
        return 7
    sign = 8 if nv.np.signbit(q) else 0
    a = min(abs(float(q)), 6.0)
    if BUG == "E2M1_TRUNCATE":
        return sign | max(i for i, v in enumerate(nv.E2M1) if v <= a)
    return sign | nearest(nv.E2M1, a, True)


def to_scale_up(s):
    """The block scale rounded up into E4M3 (saturating), where the recipe rounds to nearest."""
    if nv.np.isnan(s):
        return nv.SCALE_NAN
    a = min(float(s), nv.SCALES[-1])
    return min(i for i, v in enumerate(nv.SCALES) if v >= a)


if BUG in ("E2M1_TIES_AWAY", "E2M1_TRUNCATE"):
    nv.to_e2m1 = to_e2m1
elif BUG == "SCALE_UP":
    nv.to_scale = to_scale_up
elif BUG == "SCALES_ROW_MAJOR":  # the swizzled layout written row-major
    _layout = nv.layout
    nv.layout = lambda rows, cols, swizzled, column=False: (
        (lambda plain, count: (plain, _layout(rows, cols, True, column)[1]))(*_layout(rows, cols, False, column))
        if swizzled else _layout(rows, cols, swizzled, column))
elif BUG != "NONE":
    raise SystemExit("unknown --bug " + BUG)

if __name__ == "__main__":
    nv.main()
