#!/usr/bin/env python3
"""TransformerEngine's NVFP4 reference quantizer with its random Hadamard transform, recorded over convcert's
rotated tensors.

TE_REFERENCE names TransformerEngine's transformer_engine/pytorch/custom_recipes/reference_nvfp4.py, loaded
unchanged as te4over6.py loads it. For every tensor of VECTORS/cuda/float-nvfp4_t64x24_col_rht/rn-tensor.in.bin
(64 x 24 floats, row-major) NVFP4QuantizerRef(quant_tile_shape=(1, 16), with_rht=True) quantizes the columnwise
copy only (`_quantize`: the transpose rotated by `_apply_rht`, its amax, 1x16 blocks along the transpose's rows),
    te-rht-signs        with_random_sign_mask=True (TE's default: get_wgrad_sign_vector's signs)
    te-rht-no-signs     with_random_sign_mask=False
on the CPU and, where there is one, a CUDA GPU. The output is laid out as convcert's tensor case stores it: the
rotated tensor's amax A (global_amax_col), the E4M3 scales in the plain layout of blocks down the columns (slot
block x 24 + column: TE's sx_t transposed), then the elements of the original 64 x 24 positions, row-major, two
a byte, the first in the low nibble (TE's qx_t transposed back). Written as
OUT/te-rht-MASK-DEVICE/cuda/float-nvfp4_t64x24_col_rht/rn-tensor.{in,out}.bin:
    TE_REFERENCE=reference_nvfp4.py python3 suite/devices/pytorch/te_rht.py VECTORS OUT
"""
import os
import pathlib
import sys

import numpy as np
import torch

from te4over6 import load_reference

CASE = "float-nvfp4_t64x24_col_rht"
ROWS, COLUMNS = 64, 24
MASKS = {"signs": True, "no-signs": False}


def quantize(ref, x, device, mask):
    q = ref.NVFP4QuantizerRef(dtype="E2M1", rowwise=False, columnwise=True, quant_tile_shape=(1, 16),
                              with_rht=True, with_random_sign_mask=mask)
    q.rowwise_usage, q.columnwise_usage = False, True  # what the stand-in Quantizer base leaves unset
    _, _, qx_t, sx_t, _, amax = q._quantize(torch.from_numpy(x.copy()).to(device))
    packed = qx_t.cpu().numpy().astype(np.uint8)  # (COLUMNS, ROWS / 2): the transpose's codes, low nibble first
    codes = np.stack([packed & 0xF, packed >> 4], axis=-1).reshape(COLUMNS, ROWS).T
    elements = (codes[:, 0::2] | codes[:, 1::2] << 4).astype(np.uint8)
    scales = sx_t.view(torch.uint8).cpu().numpy().reshape(COLUMNS, ROWS // 16).T  # [block][column]
    return amax.cpu().numpy().astype("<f4").tobytes() + scales.tobytes() + elements.tobytes()


def main(vectors, out):
    ref = load_reference(os.environ["TE_REFERENCE"])
    q = vectors / "cuda" / CASE / "rn-tensor.in.bin"
    tensors = np.fromfile(q, dtype="<f4").reshape(-1, ROWS, COLUMNS)
    for device in ["cpu"] + (["cuda"] if torch.cuda.is_available() else []):
        for name, mask in MASKS.items():
            folder = out / f"te-rht-{name}-{device}" / "cuda" / CASE
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "rn-tensor.in.bin").write_bytes(q.read_bytes())
            (folder / "rn-tensor.out.bin").write_bytes(b"".join(quantize(ref, t, device, mask) for t in tensors))
        print(f"TransformerEngine reference_nvfp4.py with_rht, torch {torch.__version__} on {device}"
              f"{' (' + torch.cuda.get_device_name() + ')' if device == 'cuda' else ''}: {len(tensors)} tensors x {len(MASKS)}")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
