#!/usr/bin/env python3
"""An OCP MX quantizer in numpy with one bug planted (--bug NAME; NAME+NAME plants two), for the diagnosis benchmark (docs/diagnosis.md).

Written from OCP MX v1.0 section 6.3, not from convcert's reference: a block's shared scale is
2^(floor(log2(max |x|)) - emax) as an E8M0 code, NaN (0xFF) where a value is NaN or infinite; each element is the
value divided by the scale, rounded to nearest even (or toward zero under rz) and saturated to the largest element.
Blocks of mxfp8_e4m3 and mxfp4_e2m1, and whole tensors of mxfp8_e4m3 along rows (a plain and a swizzled layout).

    ./convcert certify --profile ocp-mx --adapter 'process:cmd=python3 suite/devices/planted/mx_quantizer.py --bug NONE'
"""
import pathlib
import sys

import numpy as np

try:
    from convcert_device import Device
except ImportError:  # not installed: the checkout's copy
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
    from convcert_device import Device

BUG = sys.argv[sys.argv.index("--bug") + 1] if "--bug" in sys.argv else "NONE"
BUGS = set(BUG.split("+"))  # A+B plants two bugs
f32 = np.float32


def grid(ebits, mbits, bias, finite_only):
    """The non-negative values of an element format, in code order (code = index)."""
    values = []
    for e in range(1 << ebits):
        for m in range(1 << mbits):
            values.append(m / (1 << mbits) * 2.0 ** (1 - bias) if e == 0 else (1 + m / (1 << mbits)) * 2.0 ** (e - bias))
    return np.array(values[:-1] if not finite_only else values)  # E4M3FN: S.1111.111 is NaN


ELEMENTS = {"mxfp8_e4m3": (grid(4, 3, 7, False), 8, 0x80), "mxfp4_e2m1": (grid(2, 1, 1, True), 2, 0x8)}


def element(q, table, rz):
    """Values (already divided by the scale) to element codes: nearest even, or toward zero; saturated."""
    sign = np.signbit(q)
    a = np.minimum(np.abs(q).astype(np.float64), table[-1])
    lo = np.clip(np.searchsorted(table, a, side="right") - 1, 0, len(table) - 1)
    hi = np.minimum(lo + 1, len(table) - 1)
    below, above = a - table[lo], table[hi] - a
    if rz or "ELEM_TRUNCATE" in BUGS:
        up = np.zeros(a.shape, dtype=bool)
    elif "ELEM_TIES_AWAY" in BUGS:
        up = above <= below
    else:
        up = (above < below) | ((above == below) & (lo % 2 == 1))
    codes = np.where(up & (hi > lo), hi, lo)
    if "ELEM_FTZ" in BUGS:
        codes = np.where(table[codes] < 2.0 ** (1 - (7 if len(table) > 16 else 1)), 0, codes)
    return codes, sign


def quantize(x, name, rz, following=None):
    """One block's scale code and element codes; following: what lies after a partial block in memory."""
    table, emax, sign_bit = ELEMENTS[name]
    x = np.asarray(x, dtype=f32)
    reach = x if following is None else np.concatenate([x, following])
    with np.errstate(invalid="ignore"):
        if "SIGNED_MAX" in BUGS:
            amax = np.max(reach)  # max(x): NaN propagates, -inf never wins
        elif "SKIP_LAST" in BUGS:
            amax = np.max(np.abs(reach[:-1]))
        elif "NAN_IGNORED" in BUGS:
            amax = np.nanmax(np.abs(reach)) if not np.isnan(reach).all() else np.float32("nan")
        else:
            amax = np.max(np.abs(reach))
    amax = float(max(amax, 0.0)) if not np.isnan(amax) else float("nan")
    if np.isnan(amax) or np.isinf(amax) and "INF_LARGEST" not in BUGS:
        return 0xFF, np.zeros(len(x), dtype=np.uint8)
    if np.isinf(amax):  # INF_LARGEST: an infinity takes the largest scale
        exponent = 127
    elif amax == 0:
        exponent = -127
    else:
        e = int(np.floor(np.log2(amax)))
        e = e - 1 if 2.0 ** e > amax else e + 1 if 2.0 ** (e + 1) <= amax else e  # log2's rounding
        exponent = e - emax
        if "SCALE_RCEIL" in BUGS:
            exponent += 0 if amax <= table[-1] * 2.0 ** exponent else 1
        if "SCALE_PLUS_ONE" in BUGS and exponent < 127:
            exponent += 1
    exponent = min(max(exponent, -127), 127)
    q = np.where(np.isfinite(x), x.astype(np.float64) / 2.0 ** exponent, np.where(np.isnan(x), 0, x))
    codes, sign = element(q, table, rz)
    codes = codes | np.where(sign & ("ELEM_ZERO_SIGN" not in BUGS) | sign & (codes != 0), sign_bit, 0)
    # a NaN value that reaches the elements (a bug let it past the scale): E4M3's NaN, FP4's largest positive
    codes = np.where(np.isnan(x), 0x7F if sign_bit == 0x80 else len(table) - 1, codes)
    return exponent + 127, codes.astype(np.uint8)


device = Device()
for name in ELEMENTS:
    for mode in ("rn", "rz"):
        @device.blocks("float", name, mode)
        def blocks(x, name=name, rz=(mode == "rz")):
            out = np.zeros((x.shape[0], x.shape[1] + 1), dtype=np.uint8)
            for k in range(x.shape[0]):
                scale, codes = quantize(x[k], name, rz)
                out[k, 0], out[k, 1:] = scale, codes
            return out


def slot(o, i, inner, swizzled):
    """Where block (row o, block i) keeps its scale: row-major, or cuBLAS's 128x4 tiles."""
    if not swizzled or "ROW_MAJOR" in BUGS:
        return o * inner + i
    tiles = (inner + 3) // 4
    if "SWIZZLE_ROWS" in BUGS:
        return ((o // 128) * tiles + i // 4) * 512 + (o % 32) * 4 + (o // 32 % 4) * 128 + i % 4
    return ((o // 128) * tiles + i // 4) * 512 + (o % 32) * 16 + (o // 32 % 4) * 4 + i % 4


def tensors(x, shape):
    rows, cols, size = shape["rows"], shape["columns"], shape["size"]
    inner = (cols + size - 1) // size
    scales = np.zeros(shape["slots"], dtype=np.uint8)
    elements = np.zeros((rows, cols), dtype=np.uint8)
    flat = x.reshape(-1)
    for o in range(rows):
        for i in range(inner):
            part = x[o, i * size:(i + 1) * size]
            start = o * cols + i * size + len(part)
            following = None
            if "PARTIAL_READS_ON" in BUGS and len(part) < size:  # a whole block's width read from memory
                following = np.concatenate([flat[start:start + size - len(part)], np.zeros(size, dtype=f32)])[:size - len(part)]
            s, codes = quantize(part, "mxfp8_e4m3", False, following)
            scales[slot(o, i, inner, shape["layout"] == "swizzled-128x4")] = s
            elements[o, i * size:i * size + len(part)] = codes
    return scales, elements


for tensor in ("mxfp8_e4m3_t1x32", "mxfp8_e4m3_t5x72", "mxfp8_e4m3_t130x136_sw"):  # ocp-mx's tensors along rows
    device.tensors("float", tensor, "rn")(tensors)

if __name__ == "__main__":
    device.run()
