#!/usr/bin/env python3
"""PyTorch's dtype casts on the CPU and on a CUDA GPU, recorded over golden-vector inputs in the replay layout.

For every case of the profiles in VECTORS (cuda, rocm, ocp-mx) that a plain `tensor.to(dtype)` implements (round to nearest
even; PyTorch's casts do not saturate), the inputs of VECTORS/PROFILE/FROM-TO/*.in.bin go through the cast on
each device and the results are written as OUT/torch-DEVICE/PROFILE/FROM-TO/rn-STATE.{in,out}.bin, which
`convcert certify --adapter replay:dir=OUT/torch-DEVICE` checks offline:
    python3 suite/devices/pytorch/record.py VECTORS OUT        (suite/devices/pytorch/README.md)
"""
import pathlib
import sys

import numpy as np
import torch

# convcert's format names -> (torch dtype, bytes); bit patterns travel as signed integers of that size.
DTYPES = {
    "float": (torch.float32, 4), "double": (torch.float64, 8), "half": (torch.float16, 2),
    "bfloat16": (torch.bfloat16, 2), "fp8_e4m3fn": (torch.float8_e4m3fn, 1), "fp8_e5m2": (torch.float8_e5m2, 1),
    "fp8_e4m3fnuz": (torch.float8_e4m3fnuz, 1), "fp8_e5m2fnuz": (torch.float8_e5m2fnuz, 1),
    "e8m0": (torch.float8_e8m0fnu, 1),
}
BITS = {1: (torch.int8, np.int8), 2: (torch.int16, np.int16), 4: (torch.int32, np.int32), 8: (torch.int64, np.int64)}


def cast(bits, src, dst, device):
    """bits (numpy, the source's width) -> the destination's bit patterns after tensor.to(dst) on device."""
    (sdt, sbytes), (ddt, dbytes) = DTYPES[src], DTYPES[dst]
    t = torch.from_numpy(bits.view(BITS[sbytes][1]).copy()).to(device).view(sdt)
    return t.to(ddt).view(BITS[dbytes][0]).cpu().numpy()


def main(vectors, out):
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    cases = 0
    for profile in sorted(p.name for p in vectors.iterdir() if p.is_dir()):
        for pair in sorted((vectors / profile).glob("*-*")):
            src, dst = pair.name.split("-", 1)
            if src not in DTYPES or dst not in DTYPES or src == dst:
                continue
            for inputs in sorted(pair.glob("rn-*.in.bin")):
                state = inputs.name[len("rn-"):-len(".in.bin")]
                if state != "nosat":  # torch's casts have no saturating form
                    continue
                bits = np.fromfile(inputs, dtype=np.uint8).view(BITS[DTYPES[src][1]][1])
                for device in devices:
                    folder = out / ("torch-" + device) / profile / pair.name
                    folder.mkdir(parents=True, exist_ok=True)
                    bits.tofile(folder / inputs.name)
                    cast(bits, src, dst, device).tofile(folder / ("rn-" + state + ".out.bin"))
                    cases += 1
    print(f"torch {torch.__version__} ({', '.join(devices)}"
          f"{'; ' + torch.cuda.get_device_name() if 'cuda' in devices else ''}): {cases} recordings")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
