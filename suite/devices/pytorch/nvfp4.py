#!/usr/bin/env python3
"""torchao's and vLLM's NVFP4 quantization and dequantization on a CUDA GPU, recorded over convcert's NVFP4 vectors.

For every block of VECTORS/cuda/float-nvfp4/rn-block.in.bin (the tensor's largest magnitude A, then 16
floats) torchao's two-level nvfp4_quantize runs with per_tensor_scale = per_tensor_amax_to_scale(A) on the
GPU; for every block of VECTORS/cuda/nvfp4-float/rn-block.in.bin (A, the E4M3 scale, 16 packed E2M1
codes) NVFP4Tensor's dequantization (torchao's own f4_unpacked_to_f32 times per_tensor_scale x scale)
runs likewise. Outputs are written in the replay layout (suite/ADAPTERS.md) as
OUT/torchao-DEVICE/cuda/PAIR/rn-block.{in,out}.bin:
    python3 suite/devices/pytorch/nvfp4.py VECTORS OUT        (suite/devices/pytorch/README.md)
Without torchao, its steps restated in PyTorch operations (OUT/torch-ops-DEVICE): the binary32 arithmetic
and the float8_e4m3fn cast are still PyTorch's on the device; E2M1 rounds to nearest even by value list.
vLLM's reference recipe (tests/kernels/test_nvfp4_quant.py's ref_nvfp4_quant, nvfp4_utils.py's
dequantize_nvfp4_to_dtype, global scales made as its tests make them: (448 * 6) / amax) is restated in
PyTorch operations too (OUT/vllm-ref-DEVICE): vLLM is not installed where this runs.
"""
import pathlib
import sys

import numpy as np
import torch

E2M1 = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])


def f32_to_f4(x):
    """Nearest E2M1 code of x (already clamped to +-6), ties to the even code; a NaN (0 / 0 where T x S
    is 0: the CPU's NaN is negative, CUDA's positive) gives +6."""
    grid = E2M1.to(x.device)
    a = x.abs()
    lo = torch.searchsorted(grid, a, right=True) - 1
    hi = torch.clamp(lo + 1, max=7)
    mid = (grid[lo] + grid[hi]) / 2
    up = (a > mid) | ((a == mid) & (lo % 2 == 1))
    code = torch.where((lo < 7) & up, hi, lo) | torch.where(torch.signbit(x), 8, 0)
    return torch.where(torch.isnan(x), 7, code).to(torch.uint8)  # NaN: +6, whatever its sign (PTX satfinite)


try:
    import torchao
    from torchao.prototype.mx_formats.kernels import f4_unpacked_to_f32, unpack_uint4
    from torchao.prototype.mx_formats.nvfp4_tensor import nvfp4_quantize, per_tensor_amax_to_scale
    SOURCE = "torchao " + torchao.__version__
except ImportError as e:  # torchao's steps restated in PyTorch operations (nvfp4_tensor.py, two-level path)
    SOURCE = f"torchao's recipe in PyTorch ops (torchao absent: {e})"

    def per_tensor_amax_to_scale(amax):
        return amax.to(torch.float32) / (448.0 * 6.0)

    def nvfp4_quantize(x, block_size, per_tensor_scale):
        block_scale = torch.amax(torch.abs(x), dim=-1) / 6.0
        scaled = torch.clamp(block_scale / per_tensor_scale, min=torch.finfo(torch.float8_e4m3fn).tiny, max=448.0)
        scale_fp8 = scaled.to(torch.float8_e4m3fn)
        total = per_tensor_scale * scale_fp8.to(torch.float32)
        data = torch.clamp(x / total.unsqueeze(-1), -6.0, 6.0)
        return scale_fp8, f32_to_f4(data.flatten())

    def unpack_uint4(codes):
        return codes

    def f4_unpacked_to_f32(codes):
        v = E2M1.to(codes.device)[(codes & 7).long()]
        return torch.where((codes & 8) != 0, -v, v)


def low_nibble_first(codes):
    """16 E2M1 codes (uint8 tensor) -> 8 bytes, element 2i in the low nibble of byte i (blocks.csv 'packed')."""
    c = codes.to(torch.uint8).cpu().numpy().reshape(-1, 2)
    return (c[:, 0] | (c[:, 1] << 4)).astype(np.uint8).tobytes()


def quantize(blocks, device):
    out = bytearray()
    for b in blocks:
        amax = torch.from_numpy(b[:1].copy()).to(device)
        x = torch.from_numpy(b[1:].copy()).to(device).view(1, 16)
        scales, packed = nvfp4_quantize(x, 16, per_tensor_amax_to_scale(amax[0]))
        codes = unpack_uint4(packed.view(torch.uint8).contiguous()).flatten()  # torchao's own nibble order
        out += scales.view(torch.uint8).cpu().numpy().tobytes() + low_nibble_first(codes)
    return bytes(out)


def dequantize(raw, device):
    out = bytearray()
    for k in range(len(raw) // 13):
        r = raw[13 * k:13 * (k + 1)]
        amax = torch.from_numpy(np.frombuffer(r[:4], dtype="<f4").copy()).to(device)
        scale = torch.tensor([r[4]], dtype=torch.uint8, device=device).view(torch.float8_e4m3fn).to(torch.float32)
        codes = torch.tensor([c for byte in r[5:] for c in (byte & 0xF, byte >> 4)], dtype=torch.uint8, device=device)
        values = f4_unpacked_to_f32(codes) * (per_tensor_amax_to_scale(amax[0]) * scale)
        out += values.to(torch.float32).cpu().numpy().astype("<f4").tobytes()
    return bytes(out)


def get_reciprocal(x):
    """vLLM's helper: 0 where x is 0, else 1 / x."""
    if isinstance(x, torch.Tensor):
        return torch.where(x == 0, torch.tensor(0.0, dtype=x.dtype, device=x.device), 1.0 / x)
    return 0.0 if x == 0 else 1.0 / x


def vllm_quantize(blocks, device):
    x = torch.from_numpy(blocks[:, 1:].copy()).to(device)
    global_scale = (448.0 * 6.0) / torch.from_numpy(blocks[:, :1].copy()).to(device)
    vec_max = torch.max(torch.abs(x), dim=-1, keepdim=True)[0].to(torch.float32)
    scale = global_scale * (vec_max * get_reciprocal(6.0))
    scale = torch.clamp(scale, max=448, min=-448)
    scale_fp8 = scale.to(torch.float8_e4m3fn)
    output_scale = get_reciprocal(scale_fp8.to(torch.float32) * get_reciprocal(global_scale))
    codes = f32_to_f4(torch.clamp(x * output_scale, -6.0, 6.0))
    out = bytearray()
    for k in range(len(blocks)):
        out += scale_fp8[k].view(torch.uint8).cpu().numpy().tobytes() + low_nibble_first(codes[k])
    return bytes(out)


def vllm_dequantize(raw, device):
    r = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 13)
    global_scale = (448.0 * 6.0) / torch.from_numpy(r[:, :4].copy().view("<f4")).to(device)
    tensor_sf = torch.from_numpy(r[:, 4:5].copy()).to(device).view(torch.float8_e4m3fn)
    packed = torch.from_numpy(r[:, 5:].copy()).to(device)
    codes = torch.stack(((packed & 0xF), (packed >> 4)), dim=-1).reshape(-1, 16)  # break_fp4_bytes: low nibble first
    values = E2M1.to(device)[(codes & 7).long()] * torch.where((codes & 8) != 0, -1.0, 1.0)
    out = values * (tensor_sf.to(torch.float32) / global_scale)
    return out.to(torch.float32).cpu().numpy().astype("<f4").tobytes()


def record(folder, q, d, quantized, dequantized):
    (folder / "float-nvfp4").mkdir(parents=True, exist_ok=True)
    (folder / "nvfp4-float").mkdir(parents=True, exist_ok=True)
    (folder / "float-nvfp4" / "rn-block.in.bin").write_bytes(q.read_bytes())
    (folder / "float-nvfp4" / "rn-block.out.bin").write_bytes(quantized)
    (folder / "nvfp4-float" / "rn-block.in.bin").write_bytes(d.read_bytes())
    (folder / "nvfp4-float" / "rn-block.out.bin").write_bytes(dequantized)


def main(vectors, out):
    q = vectors / "cuda" / "float-nvfp4" / "rn-block.in.bin"
    d = vectors / "cuda" / "nvfp4-float" / "rn-block.in.bin"
    blocks = np.fromfile(q, dtype="<f4").reshape(-1, 17)
    for device in ["cpu"] + (["cuda"] if torch.cuda.is_available() else []):
        folder = out / (("torchao-" if SOURCE.startswith("torchao ") else "torch-ops-") + device) / "cuda"
        record(folder, q, d, quantize(blocks, device), dequantize(d.read_bytes(), device))
        record(out / ("vllm-ref-" + device) / "cuda", q, d, vllm_quantize(blocks, device),
               vllm_dequantize(d.read_bytes(), device))
        print(f"{SOURCE}, torch {torch.__version__} on {device}"
              f"{' (' + torch.cuda.get_device_name() + ')' if device == 'cuda' else ''}: {len(blocks)} blocks quantized, "
              f"{len(d.read_bytes()) // 13} dequantized; float8_e4m3fn tiny = {torch.finfo(torch.float8_e4m3fn).tiny}")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
