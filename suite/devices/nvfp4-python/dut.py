#!/usr/bin/env python3
"""NVFP4 quantization and dequantization in numpy binary32, a process device speaking the BLOCKS batch.

Written from the recipes' sources, not from convcert's reference: TransformerEngine's (core_nvfp4.cuh,
dequantize_nvfp4.cuh; the default), with --recipe torchao torchao's two-level nvfp4_quantize
(nvfp4_tensor.py), or with --recipe vllm vLLM's reference (tests/kernels/test_nvfp4_quant.py's
ref_nvfp4_quant, nvfp4_utils.py's dequantize_nvfp4_to_dtype). Every arithmetic step is a numpy float32 operation (IEEE binary32, nearest even);
E4M3 and E2M1 round to nearest even from their value lists. Blocks (suite/ADAPTERS.md, spec-tables
README "Two-level blocks"): float -> nvfp4 takes the tensor's largest magnitude A and 16 floats and
gives the E4M3 scale and 16 E2M1 codes, two per byte, the first in the low nibble (the high one with
--nibbles high-first); nvfp4 -> float takes A, the scale and the packed elements and gives 16 floats.
With --scale ue5m3 the block scale is NVIDIA's UE5M3 (bias 15, NaN 0xFF, largest 114688; the cuda profile's
nvfp4_ue5m3 row, --name nvfp4_ue5m3), TransformerEngine's CUDA 13.4 option.
Whole tensors (the TENSORS batch, tensors.csv): the quantizer finds A itself (torch.amax for torchao and
vLLM, an fmaxf reduction that leaves NaN out for TransformerEngine) and gives it, the scales in their
layout, then the elements.
Stochastic rounding (rs, TransformerEngine's NVFP4 gradients): each value comes with 8 random bits after the
block's (or tensor's) values, and its element rounds as PTX's cvt.rs.satfinite.e2m1x4.f32 says: the random bits
added to the most significant bits the conversion discards, a carry out rounding the magnitude up. With
--random-order reversed each four elements take their bits last to first (a harness bug, to be diagnosed).
A rotated tensor (tensors.csv's rotation, the TENSORS line's hadamard-16:SIGNS word) is TransformerEngine's RHT:
each block's values times diag(signs) @ H / 4 in a float32 matmul before anything else; --rht-signs outputs
multiplies by H @ diag(signs) instead (decision rotation-signs=outputs).

    ./convcert certify --profile cuda --only '*nvfp4*' --adapter 'process:cmd=python3 suite/devices/nvfp4-python/dut.py'
    ./convcert certify --profile cuda --only '*nvfp4*' --decision tensor-scale-arithmetic=divide \\
        --decision block-scale-minimum=smallest-normal --decision block-scale-sign=signed \\
        --adapter 'process:cmd=python3 suite/devices/nvfp4-python/dut.py --recipe torchao'
"""
import sys

import numpy as np

f32 = np.float32
def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


RECIPE = option("--recipe", "transformer-engine")
TORCHAO = RECIPE == "torchao"
VLLM = RECIPE == "vllm"
NAME = option("--name", "nvfp4")  # another row of blocks.csv with the same element and scales (--size N)
SIZE = int(option("--size", "16"))
HIGH_FIRST = option("--nibbles", "low-first") == "high-first"  # the first element in bits 7:4
REVERSED = option("--random-order", "first-to-first") == "reversed"
SIGNS_AFTER = option("--rht-signs", "inputs") == "outputs"  # x @ (H @ D): the signs on the rotated values
E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
E4M3 = [(m / 8) * 2.0 ** -6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7) for e in range(16) for m in range(8)][:127]
# --scale ue5m3: NVIDIA's unsigned E5M3 (bias 15, NaN only 0xFF, largest 114688), TransformerEngine's other NVFP4
# scale type; E4M3's codes carry a sign bit (0x80) and its NaN is 0x7F.
if option("--scale", "e4m3") == "ue5m3":
    SCALES = [(m / 8) * 2.0 ** -14 if e == 0 else (1 + m / 8) * 2.0 ** (e - 15) for e in range(32) for m in range(8)][:255]
    SCALE_NAN, SIGN = 0xFF, 0
else:
    SCALES, SCALE_NAN, SIGN = E4M3, 0x7F, 0x80
M = f32(SCALES[-1]) * f32(6.0)


def nearest_even(values, a):
    """The index of the value nearest a (ascending values, a within them), ties to the even index."""
    lo = max(i for i, v in enumerate(values) if v <= a)
    if values[lo] == a or lo == len(values) - 1:
        return lo
    mid = (values[lo] + values[lo + 1]) / 2
    return lo + 1 if a > mid or (a == mid and lo % 2 == 1) else lo


def to_scale(s):
    """A block scale: NaN stays NaN, the rest saturates to the largest scale (__NV_SATFINITE)."""
    return SCALE_NAN if np.isnan(s) else nearest_even(SCALES, min(float(s), SCALES[-1]))


def to_e2m1(q):
    """cvt.rn.satfinite.e2m1: NaN gives +6, the rest saturates to 6 keeping its sign."""
    if np.isnan(q):
        return 7
    sign = 8 if np.signbit(q) else 0
    return sign | nearest_even(E2M1, min(abs(float(q)), 6.0))


def to_e2m1_rs(q, r):
    """cvt.rs.satfinite.e2m1 with random bits r: the float's integer significand split at E2M1's quantum there
    (0.5 below 2, half the binade above), r added to the top 8 discarded bits; a carry out rounds up."""
    if np.isnan(q):
        return 7
    sign = 8 if np.signbit(q) else 0
    bits = int(np.array([abs(q)], dtype=f32).view(np.uint32)[0])
    field, fraction = bits >> 23, bits & 0x7FFFFF
    significand, exponent = (fraction | 1 << 23, field - 150) if field else (fraction, -149)
    if field == 255:  # infinity saturates
        return sign | 7
    quantum = max(significand.bit_length() + exponent - 2, -1)  # log2 of the step: 2^(e-1), at least 0.5
    shift = quantum - exponent
    kept, dropped = (significand >> shift, significand & ((1 << shift) - 1)) if shift > 0 else (significand << -shift, 0)
    top = dropped >> (shift - 8) if shift >= 8 else dropped << (8 - max(shift, 0))
    magnitude = min((kept + ((top + r) >> 8)) * 2.0 ** quantum, 6.0)
    return sign | E2M1.index(magnitude)


def scale_value(code):
    magnitude = code & ~SIGN
    return f32("nan") if magnitude == SCALE_NAN else f32(SCALES[magnitude])


def quantize(amax, x, rbits=None):
    with np.errstate(all="ignore"):
        if np.isnan(x).any():  # the maximum propagates NaN (torch.amax): a NaN scale (decision mx-nan=nan-scale)
            return [SCALE_NAN] + [0] * SIZE
        a = np.max(np.abs(x))
        if VLLM:  # ref_nvfp4_quant with global_scale = 2688.0 / amax (PyTorch: amax.reciprocal() * 2688.0)
            g = (f32(1.0) / amax) * M
            s = g * (a * (f32(1.0) / f32(6.0)))
            scale = to_scale(s)  # clamp(max=448) then the float8_e4m3fn cast
            if scale == SCALE_NAN:
                return [SCALE_NAN] + [0] * SIZE
            d = f32(SCALES[scale]) * (f32(1.0) / g)
            q = x * (f32(0.0) if d == 0 else f32(1.0) / d)  # get_reciprocal: 0 for 0
        elif TORCHAO:
            t = amax / M
            s = (a / f32(6.0)) / t
            s = max(s, f32(2.0 ** -6)) if not np.isnan(s) else s  # clamp(min=finfo(float8_e4m3fn).tiny)
            scale = to_scale(s)
            if scale == SCALE_NAN:
                return [SCALE_NAN] + [0] * SIZE
            q = x / (t * f32(SCALES[scale]))
        else:
            g = min(M / amax, f32(np.finfo(f32).max)) if amax != 0 else f32(1.0)
            g = f32(1.0) if g == 0 else g
            scale = to_scale(a * (g * (f32(1.0) / f32(6.0))))
            s_dec = f32(1.0) / g
            r = f32(1.0) / (f32(SCALES[scale]) * s_dec)
            r = f32(np.finfo(f32).max) if np.isnan(r) or r > np.finfo(f32).max else r
            q = x * r
        if rbits is not None:
            order = [j ^ 3 for j in range(SIZE)] if REVERSED else range(SIZE)
            return [scale] + [to_e2m1_rs(v, int(rbits[j])) for v, j in zip(q, order)]
        return [scale] + [to_e2m1(v) for v in q]


def dequantize(amax, scale, elements):
    signed = TORCHAO or VLLM  # cuBLASLt reads UE4M3; torchao and vLLM view the code as float8_e4m3fn
    s = scale_value(scale if signed else scale & ~SIGN)
    if scale & SIGN and signed:
        s = -s
    with np.errstate(all="ignore"):
        if VLLM:  # tensor_sf.to(float32) / global_scale
            factor = s / ((f32(1.0) / amax) * M)
        else:
            factor = (amax / M) * s if TORCHAO else (s * amax) * f32(1.0 / float(M))
        return np.array([(-1 if c & 8 else 1) * E2M1[c & 7] for c in elements], dtype=f32) * factor


def pack(codes):
    return bytes(a << 4 | b if HIGH_FIRST else a | b << 4 for a, b in zip(codes[0::2], codes[1::2]))


def unpack(raw):
    return [c for b in raw for c in ((b >> 4, b & 0xF) if HIGH_FIRST else (b & 0xF, b >> 4))]


def layout(rows, cols, swizzled, column=False):
    """The slot of each block's scale (blocks of SIZE along each row of a rows x cols grid; for a tensor blocked down
    its columns, the grid is its transpose) and the number of slots: row-major in the data's orientation, or cuBLAS's
    128x4 tiles (cuBLASLt's block scaling factors layout)."""
    inner = (cols + SIZE - 1) // SIZE
    if not swizzled:
        return {(o, i): i * rows + o if column else o * inner + i for o in range(rows) for i in range(inner)}, rows * inner
    up = lambda n, m: (n + m - 1) // m * m
    slots = {(o, i): ((o // 128) * (up(inner, 4) // 4) + i // 4) * 512 + (o % 32) * 16 + (o // 32 % 4) * 4 + i % 4
             for o in range(rows) for i in range(inner)}
    return slots, up(rows, 128) * up(inner, 4)


def hadamard(word):
    """TransformerEngine's RHT matrix from a rotation word (hadamard-16:+++-...): diag(signs) @ H / sqrt(16), float32."""
    size, signs = word.split(b":")
    n = int(size.split(b"-")[1])
    h = np.ones((1, 1), dtype=f32)
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    d = np.diag(np.array([1 if c == ord("+") else -1 for c in signs], dtype=f32))
    return ((h @ d if SIGNS_AFTER else d @ h) * f32(1 / np.sqrt(n))).astype(f32)


def tensor_amax(x):
    """The per-tensor amax: torch.amax (torchao, vLLM) propagates NaN; an fmaxf reduction (TransformerEngine)
    leaves it out."""
    with np.errstate(all="ignore"):
        a = np.abs(x)
        return f32(np.max(a)) if TORCHAO or VLLM else f32(np.max(np.where(np.isnan(a), f32(0), a)))


def tensors(w, n):
    """TENSORS batch: whole tensors of blocks along rows (or down columns: the transpose's rows), A first on the block
    side. A rotated tensor (the line's rotation word) goes through TransformerEngine's RHT first, a float32 matmul of
    each block's 16 values (the transpose's rows, viewed (-1, 16)) by diag(signs) @ H / 4, and A is the rotated one's."""
    height, width, swizzled, column = int(w[4]), int(w[5]), w[7] == b"swizzled-128x4", w[6] == b"column"
    rows, cols = (width, height) if column else (height, width)
    slots, count = layout(rows, cols, swizzled, column)
    stochastic = w[3] == b"rs"
    rotation = hadamard(w[11]) if len(w) == 13 else None
    grid = (lambda a: a.T) if column else (lambda a: a)  # the tensor as rows of blocks, and back
    reply = bytearray()
    for _ in range(n):
        if w[1] == b"float":
            x = grid(np.frombuffer(sys.stdin.buffer.read(4 * rows * cols), dtype="<f4").reshape(height, width))
            rbits = grid(np.frombuffer(sys.stdin.buffer.read(rows * cols), dtype=np.uint8).reshape(height, width)) if stochastic else None
            if rotation is not None:
                x = (np.ascontiguousarray(x).reshape(-1, SIZE) @ rotation).astype(f32).reshape(rows, cols)
            amax = tensor_amax(x)
            scales, codes = [0] * count, np.zeros((rows, cols), dtype=int)
            for (o, i), slot in slots.items():
                block = np.zeros(SIZE, dtype=f32)
                part = x[o, i * SIZE:(i + 1) * SIZE]
                block[:len(part)] = part
                bits = None
                if stochastic:
                    bits = np.zeros(SIZE, dtype=np.uint8)
                    bits[:len(part)] = rbits[o, i * SIZE:(i + 1) * SIZE]
                out = quantize(amax, block, bits)
                scales[slot] = out[0]
                codes[o, i * SIZE:(i + 1) * SIZE] = out[1:1 + len(part)]
            reply += np.array([amax], dtype="<f4").tobytes() + bytes(scales) + pack(list(grid(codes).flatten()))
        else:
            raw = sys.stdin.buffer.read(4 + count + rows * cols // 2)
            amax = np.frombuffer(raw[:4], dtype="<f4")[0]
            codes = grid(np.array(unpack(raw[4 + count:])).reshape(height, width))
            values = np.zeros((rows, cols), dtype=f32)
            for (o, i), slot in slots.items():
                block = list(codes[o, i * SIZE:(i + 1) * SIZE])
                values[o, i * SIZE:(i + 1) * SIZE] = dequantize(amax, raw[4 + slot], block + [0] * (SIZE - len(block)))[:len(block)]
            reply += grid(values).astype("<f4").tobytes()
    return reply


TENSORS = ["nvfp4_t5x40", "nvfp4_t130x64_sw", "nvfp4_t64x24_col_rht"]  # the cuda profile's tensors.csv


def main():
    recipe = RECIPE
    sys.stdin.buffer.readline()
    caps = "".join(f"CAP float {t} rn tensor\nCAP float {t} rs tensor\nCAP {t} float rn tensor\n" for t in TENSORS)
    sys.stdout.write(f"CAP float {NAME} rn block\nCAP float {NAME} rs block\nCAP {NAME} float rn block\n{caps}READY\n")
    sys.stdout.flush()
    print("nvfp4 device: recipe " + recipe, file=sys.stderr)
    for line in iter(sys.stdin.buffer.readline, b""):
        w = line.split()
        if w[0] == b"QUIT":
            break
        n = int(w[-1])
        if w[0] == b"TENSORS":
            sys.stdout.buffer.write(b"OK %d\n" % n + bytes(tensors(w, n)))
            sys.stdout.flush()
            continue
        if w[0] != b"BLOCKS":
            sys.stdout.write("ERR not implemented\n")
            sys.stdout.flush()
            continue
        reply = bytearray()
        for _ in range(n):
            if w[1] == b"float":
                block = np.frombuffer(sys.stdin.buffer.read(4 * (SIZE + 1)), dtype="<f4")
                rbits = sys.stdin.buffer.read(SIZE) if w[3] == b"rs" else None
                out = quantize(block[0], block[1:], rbits)
                pairs = [(out[1 + 2 * i], out[2 + 2 * i]) for i in range(SIZE // 2)]
                reply += bytes([out[0]]) + bytes(a << 4 | b if HIGH_FIRST else a | b << 4 for a, b in pairs)
            else:
                raw = sys.stdin.buffer.read(5 + SIZE // 2)
                amax = np.frombuffer(raw[:4], dtype="<f4")[0]
                elements = [c for b in raw[5:] for c in ((b >> 4, b & 0xF) if HIGH_FIRST else (b & 0xF, b >> 4))]
                reply += dequantize(amax, raw[4], elements).astype("<f4").tobytes()
        sys.stdout.buffer.write(b"OK %d\n" % n + bytes(reply))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
