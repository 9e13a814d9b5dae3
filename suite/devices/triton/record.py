#!/usr/bin/env python3
"""Triton's in-kernel casts on a CUDA GPU, recorded over golden-vector inputs in the replay layout.

A Triton kernel loads each input's bits, bitcasts them to the source type and converts with `.to(dst)`
(`fp_downcast_rounding="rtne"` or `"rtz"` for the rn and rz cases of float -> half and bfloat16), then
stores the result's bits. The cases: float to half and bfloat16 (rn, rz), float to fp8_e4m3fn and fp8_e5m2
(rn, answered for the nosat and sat cases alike so certification shows which one Triton implements), and
half and bfloat16 back to float. Results go to OUT/triton-cuda/cuda/FROM-TO/ROUNDING-STATE.{in,out}.bin:
    python3 suite/devices/triton/record.py VECTORS OUT      (suite/devices/triton/README.md)
"""
import pathlib
import sys

import numpy as np
import torch
import triton
import triton.language as tl

TYPES = {"float": (tl.float32, tl.int32, torch.int32, np.int32), "half": (tl.float16, tl.int16, torch.int16, np.int16),
         "bfloat16": (tl.bfloat16, tl.int16, torch.int16, np.int16),
         "fp8_e4m3fn": (tl.float8e4nv, tl.int8, torch.int8, np.int8), "fp8_e5m2": (tl.float8e5, tl.int8, torch.int8, np.int8)}
# (from, to, rounding, states): what is recorded.
CASES = [("float", "half", "rn", ["nosat"]), ("float", "half", "rz", ["nosat"]),
         ("float", "bfloat16", "rn", ["nosat"]), ("float", "bfloat16", "rz", ["nosat"]),
         ("float", "fp8_e4m3fn", "rn", ["nosat", "sat"]), ("float", "fp8_e5m2", "rn", ["nosat", "sat"]),
         ("half", "float", "rn", ["nosat"]), ("bfloat16", "float", "rn", ["nosat"])]


@triton.jit
def convert(x_ptr, y_ptr, n, SRC: tl.constexpr, SRC_INT: tl.constexpr, DST: tl.constexpr, DST_INT: tl.constexpr,
            ROUNDING: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    bits = tl.load(x_ptr + offsets, mask=mask)
    value = bits.to(SRC, bitcast=True)
    if ROUNDING == "rtz":
        result = value.to(DST, fp_downcast_rounding="rtz")
    elif SRC == tl.float32 and (DST == tl.float16 or DST == tl.bfloat16):
        result = value.to(DST, fp_downcast_rounding="rtne")
    else:
        result = value.to(DST)
    tl.store(y_ptr + offsets, result.to(DST_INT, bitcast=True), mask=mask)


def main(vectors, out):
    recorded = 0
    for src, dst, rounding, states in CASES:
        pair = vectors / "cuda" / f"{src}-{dst}"
        s, d = TYPES[src], TYPES[dst]
        bits = np.fromfile(pair / "rn-nosat.in.bin", dtype=s[3])  # a pair's cases share their inputs
        x = torch.from_numpy(bits.copy()).cuda()
        y = torch.empty(len(bits), dtype=d[2], device="cuda")
        grid = (triton.cdiv(len(bits), 1024),)
        convert[grid](x, y, len(bits), s[0], s[1], d[0], d[1], "rtz" if rounding == "rz" else "rtne", 1024)
        folder = out / "triton-cuda" / "cuda" / pair.name
        folder.mkdir(parents=True, exist_ok=True)
        for state in states:
            bits.tofile(folder / f"{rounding}-{state}.in.bin")
            y.cpu().numpy().tofile(folder / f"{rounding}-{state}.out.bin")
            recorded += 1
    print(f"triton {triton.__version__}, torch {torch.__version__} ({torch.cuda.get_device_name()}): {recorded} recordings")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
