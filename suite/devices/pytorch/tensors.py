#!/usr/bin/env python3
"""torchao's whole-tensor quantizers recorded over convcert's tensor vectors (tensors.csv).

    python3 suite/devices/pytorch/tensors.py VECTORS SPEC_TABLES OUT

Runs torchao's own code, not a restatement: MXTensor's `to_mx` in each of its four scale modes (FLOOR,
RCEIL, CEIL, EVEN) for MXFP8 and MXFP4, NVFP4Tensor's `to_nvfp4` with the per-tensor scale its linear layer
makes (amax = torch.max(torch.abs(x))), and their dequantization (`to_dtype`, `NVFP4Tensor.dequantize`).
Each runs eagerly on the CPU and on the GPU, and the quantizers once more compiled by torch.compile
(Inductor: a generated Triton kernel on the GPU, C++ on the CPU). torchao needs a tensor whose blocked
dimension is a multiple of the block size, so only those rows of tensors.csv are recorded; a column-wise
tensor is quantized as torchao's dim1 cast does it (to_mx of the transpose), and its plain scales are
transposed back to tensors.csv's [blocks][columns]. Nothing else is adapted: bytes are torchao's.

Writes OUT/tensors.tar.gz holding one replay folder per run (suite/ADAPTERS.md, "replay"):
    torchao-mx-MODE-DEVICE[-compiled]/ocp-mx/float-NAME/rn-tensor.out.bin     quantized MX tensors
    torchao-nvfp4-DEVICE[-compiled]/cuda/float-NAME/rn-tensor.out.bin         quantized NVFP4 tensors
    torchao-dequant-DEVICE/{ocp-mx,cuda}/NAME-float/rn-tensor.out.bin         dequantized tensors
and prints the version of torch and torchao and the device. A recording holds no inputs: it answers the
ci-level vector set's inputs in order.
"""
import csv
import io
import math
import pathlib
import sys
import tarfile

import numpy as np
import torch

import torchao
from torchao.prototype.mx_formats.config import ScaleCalculationMode
from torchao.prototype.mx_formats.mx_tensor import to_dtype, to_mx
from torchao.prototype.mx_formats.nvfp4_tensor import NVFP4Tensor, per_tensor_amax_to_scale
from torchao.prototype.mx_formats.utils import from_blocked

ELEMENTS = {"mxfp8_e4m3": torch.float8_e4m3fn, "mxfp4_e2m1": torch.float4_e2m1fn_x2}
BLOCK = {"mxfp8_e4m3": 32, "mxfp4_e2m1": 32, "nvfp4": 16}


class Tensor:
    """One row of tensors.csv, with the sizes its vectors take."""

    def __init__(self, profile, row):
        self.profile, self.name, self.block = profile, row["name"], row["block"]
        self.rows, self.columns = int(row["rows"]), int(row["columns"])
        self.column_wise = row["along"] == "column"
        self.layout = row["layout"]
        self.swizzled = self.layout == "swizzled-128x4"
        self.packed = row["storage"] == "packed"
        self.size = BLOCK[self.block]
        # torchao's orientation: blocks along the last dimension
        self.m, self.k = (self.columns, self.rows) if self.column_wise else (self.rows, self.columns)
        self.blocks = self.k // self.size
        self.slots = (math.ceil(self.m / 128) * 128 * math.ceil(self.blocks / 4) * 4 if self.swizzled
                      else self.m * self.blocks)
        self.element_bytes = self.rows * self.columns // (2 if self.packed else 1)

    def fits_torchao(self):
        return (self.block in BLOCK and self.k % self.size == 0 and not (self.packed and self.column_wise)
                and self.layout in ("plain", "swizzled-128x4"))  # torchao writes no other scale layout

    def inputs(self, vectors, pair):
        return (vectors / self.profile / pair / "rn-tensor.in.bin").read_bytes()


def tensors(spec_tables):
    for profile in ("ocp-mx", "cuda"):
        with open(spec_tables / profile / "tensors.csv", newline="") as f:
            for row in csv.DictReader(f):
                t = Tensor(profile, row)
                if t.fits_torchao():
                    yield t


def values(raw, t, device):
    """The rows x columns floats of each tensor, in torchao's orientation."""
    x = torch.from_numpy(np.frombuffer(raw, dtype="<f4").copy()).view(-1, t.rows, t.columns)
    return [(v.t() if t.column_wise else v).contiguous().to(device) for v in x]


def u8(x):
    return x.contiguous().view(torch.uint8).cpu().numpy().tobytes()


def mx_quantize(t, x, mode, fn):
    scale, data = fn(x, ELEMENTS[t.block], t.size, mode, t.swizzled)
    scale = scale.view(torch.uint8).reshape(-1) if t.swizzled else scale.view(torch.uint8).view(t.m, t.blocks)
    data = data.view(torch.uint8)
    if t.column_wise:
        scale, data = (scale if t.swizzled else scale.t()), data.t()
    return u8(scale) + u8(data)


def nvfp4_quantize(t, x, fn):
    amax = torch.max(torch.abs(x))
    scale, data = fn(x, per_tensor_amax_to_scale(amax), t.swizzled)
    return u8(amax.to(torch.float32).reshape(1)) + u8(scale.view(torch.uint8)) + u8(data.view(torch.uint8))


def nvfp4_eager(x, per_tensor_scale, swizzled):
    q = NVFP4Tensor.to_nvfp4(x, 16, per_tensor_scale=per_tensor_scale, is_swizzled_scales=swizzled)
    return q.scale, q.qdata


def split(raw, t, lead):
    """Each stored tensor's (A or None, scale slots, element bytes)."""
    one = lead + t.slots + t.element_bytes
    for i in range(0, len(raw), one):
        r = raw[i:i + one]
        yield (np.frombuffer(r[:lead], dtype="<f4")[0] if lead else None,
               np.frombuffer(r[lead:lead + t.slots], dtype=np.uint8), np.frombuffer(r[lead + t.slots:], dtype=np.uint8))


def dequantize(t, raw, device):
    out = bytearray()
    lead = 4 if t.block == "nvfp4" else 0
    for amax, slots, elements in split(raw, t, lead):
        s = torch.from_numpy(slots.copy()).to(device)
        e = torch.from_numpy(elements.copy()).to(device).view(t.rows, -1)
        if t.column_wise:
            e = e.t().contiguous()
        if t.block == "nvfp4":
            # NVFP4Tensor's scale shape: swizzled, 32 x 16 per 128 x 64 tile of values
            scale = s.view(torch.float8_e4m3fn).view(-1, math.ceil(t.k / 64) * 16 if t.swizzled else t.blocks)
            pts = per_tensor_amax_to_scale(torch.tensor(amax, device=device))
            v = NVFP4Tensor(e, scale, 16, torch.float32, pts, None, t.swizzled).dequantize(torch.float32)
        else:
            scale = from_blocked(s, t.m, t.blocks) if t.swizzled else s.view(t.blocks, t.m).t() if t.column_wise \
                else s.view(t.m, t.blocks)
            data = e if t.packed else e.view(ELEMENTS[t.block])  # FP4 stays packed bytes, as MXTensor holds it
            v = to_dtype(data, scale.contiguous().view(torch.float8_e8m0fnu), ELEMENTS[t.block], t.size, torch.float32)
        out += u8((v.t() if t.column_wise else v).to(torch.float32))
    return bytes(out)


def record(files, folder, t, pair, data):
    files[f"{folder}/{t.profile}/{pair}/rn-tensor.out.bin"] = data


def run(vectors, spec_tables, device, compiled, files):
    suffix = device + ("-compiled" if compiled else "")
    mx_fn = torch.compile(to_mx) if compiled else to_mx
    nv_fn = torch.compile(nvfp4_eager) if compiled else nvfp4_eager
    for t in tensors(spec_tables):
        try:
            run_one(vectors, t, device, compiled, suffix, mx_fn, nv_fn, files)
        except Exception as e:  # a compiler's failure on one tensor: the others still count
            print(f"  {suffix}: {t.profile} {t.name}: not recorded: {type(e).__name__}: {e}".splitlines()[0][:300])


def run_one(vectors, t, device, compiled, suffix, mx_fn, nv_fn, files):
    xs = values(t.inputs(vectors, "float-" + t.name), t, device)
    if t.block == "nvfp4":
        record(files, "torchao-nvfp4-" + suffix, t, "float-" + t.name,
               b"".join(nvfp4_quantize(t, x, nv_fn) for x in xs))
    else:
        for mode in ScaleCalculationMode:
            try:
                record(files, f"torchao-mx-{mode.name.lower()}-{suffix}", t, "float-" + t.name,
                       b"".join(mx_quantize(t, x, mode, mx_fn) for x in xs))
            except Exception as e:  # one mode the compiler cannot take: the others still count
                print(f"  {suffix}: {t.profile} {t.name} {mode.name}: not recorded: {type(e).__name__}: {e}"
                      .splitlines()[0][:300])
    if not compiled:
        record(files, "torchao-dequant-" + device, t, t.name + "-float",
               dequantize(t, t.inputs(vectors, t.name + "-float"), device))
    print(f"  {suffix}: {t.profile} {t.name}, {len(xs)} tensors", flush=True)


def main(vectors, spec_tables, out):
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    name = torch.cuda.get_device_name() if torch.cuda.is_available() else "no GPU"
    source = pathlib.Path(torchao.__file__).parent
    version = (source.parent / "version.txt").read_text().strip() if (source.parent / "version.txt").exists() \
        else torchao.__version__
    print(f"torch {torch.__version__}, torchao {version} from {source}, {name}", flush=True)
    # every mode and shape compiles on its own; a recompile limit would fall back to eager without a word
    torch._dynamo.config.recompile_limit = 256
    torch._dynamo.config.fail_on_recompile_limit_hit = True
    files = {}
    for device in devices:
        for compiled in (False, True):
            run(vectors, spec_tables, device, compiled, files)
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(out / "tensors.tar.gz", "w:gz") as tar:
        for path, data in sorted(files.items()):
            info = tarfile.TarInfo(path)
            info.size, info.mtime = len(data), 0
            tar.addfile(info, io.BytesIO(data))
    print(f"{len(files)} recordings written to {out / 'tensors.tar.gz'}")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]))
