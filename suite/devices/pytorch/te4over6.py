#!/usr/bin/env python3
"""TransformerEngine's NVFP4 reference quantizer, "4over6" included, recorded over convcert's NVFP4 vectors.

TE_REFERENCE names TransformerEngine's transformer_engine/pytorch/custom_recipes/reference_nvfp4.py, which is
loaded unchanged; the three TransformerEngine modules it imports (gemm, reference_utils, quantized_tensor) are
stand-ins, as the quantization path never calls them. For every block of VECTORS/cuda/float-nvfp4/rn-block.in.bin
(the tensor's largest magnitude A, then 16 floats) NVFP4QuantizerRef._quantize_blockwise_reference runs with
1x16 tiles and global_amax = A for the block's own row (row_scaled_nvfp4=True), under
    te-ref-default        TE's default recipe (nvfp4_use_4over6=False: E4M3 maximum 448)
    te-ref-4over6-mae     nvfp4_use_4over6=True, nvfp4_e4m3_max=256, error mode MAE (TE's default)
    te-ref-4over6-mse     the same with error mode MSE
on the CPU and, where there is one, a CUDA GPU. TE has no reference dequantization (its GEMM applies the scales),
so only quantization is recorded, as OUT/te-ref-RECIPE-DEVICE/cuda/float-nvfp4/rn-block.{in,out}.bin:
    TE_REFERENCE=reference_nvfp4.py python3 suite/devices/pytorch/te4over6.py VECTORS OUT
"""
import importlib.util
import os
import pathlib
import sys
import types

import numpy as np
import torch

RECIPES = {
    "default": dict(nvfp4_use_4over6=False),
    "4over6-mae": dict(nvfp4_use_4over6=True, nvfp4_e4m3_max=256, nvfp4_4over6_err_mode="MAE"),
    "4over6-mse": dict(nvfp4_use_4over6=True, nvfp4_e4m3_max=256, nvfp4_4over6_err_mode="MSE"),
}


class Named(type):
    """A stand-in class whose every attribute is its name (gemm.GEMMType.FPROP, used as a default argument)."""

    def __getattr__(cls, name):
        return name


def load_reference(path):
    """reference_nvfp4.py as a module, with stand-ins for the TransformerEngine modules it imports."""
    package = "transformer_engine.pytorch.custom_recipes"
    for name in ("transformer_engine", "transformer_engine.pytorch", package):
        sys.modules.setdefault(name, types.ModuleType(name))
    utils = types.ModuleType(package + ".reference_utils")
    utils.Fp4Formats = type("Fp4Formats", (), {"E2M1": "E2M1"})
    quantized = types.ModuleType("transformer_engine.pytorch.quantized_tensor")
    quantized.QuantizedTensorStorage = type("QuantizedTensorStorage", (), {})
    quantized.Quantizer = type("Quantizer", (), {"__init__": lambda self, **kwargs: None})
    gemm = types.ModuleType(package + ".gemm")
    gemm.__getattr__ = lambda name: Named(name, (), {})  # annotations and default arguments only
    for name, module in ((package + ".gemm", gemm),
                         (package + ".reference_utils", utils),
                         ("transformer_engine.pytorch.quantized_tensor", quantized)):
        sys.modules[name] = module
        setattr(sys.modules[name.rsplit(".", 1)[0]], name.rsplit(".", 1)[1], module)
    spec = importlib.util.spec_from_file_location("reference_nvfp4", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def quantize(ref, blocks, device, recipe):
    """Each block its own row: the E4M3 scale byte, then 8 bytes of E2M1 codes (TE packs the first in the low nibble)."""
    x = torch.from_numpy(blocks[:, 1:].copy()).to(device)
    amax = torch.from_numpy(blocks[:, 0].copy()).to(device)
    packed, scales = ref.NVFP4QuantizerRef._quantize_blockwise_reference(
        x, amax, 16, 1, pow_2_scales=False, row_scaled_nvfp4=True, eps=0.0, **RECIPES[recipe])
    scale_bytes = scales.reshape(-1, 1).view(torch.uint8).cpu().numpy()
    return np.concatenate([scale_bytes, packed.cpu().numpy().astype(np.uint8)], axis=1).tobytes()


def main(vectors, out):
    ref = load_reference(os.environ["TE_REFERENCE"])
    q = vectors / "cuda" / "float-nvfp4" / "rn-block.in.bin"
    blocks = np.fromfile(q, dtype="<f4").reshape(-1, 17)
    for device in ["cpu"] + (["cuda"] if torch.cuda.is_available() else []):
        for recipe in RECIPES:
            folder = out / f"te-ref-{recipe}-{device}" / "cuda" / "float-nvfp4"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "rn-block.in.bin").write_bytes(q.read_bytes())
            (folder / "rn-block.out.bin").write_bytes(quantize(ref, blocks, device, recipe))
        print(f"TransformerEngine reference_nvfp4.py, torch {torch.__version__} on {device}"
              f"{' (' + torch.cuda.get_device_name() + ')' if device == 'cuda' else ''}: {len(blocks)} blocks x {len(RECIPES)} recipes")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
