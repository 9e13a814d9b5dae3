#!/usr/bin/env python3
"""ml_dtypes as a device under test, speaking convcert's batch protocol (suite/ADAPTERS.md).

Certifies the casts of ml_dtypes (pip install ml_dtypes) between float32 and the OCP MX element and
scale types, against the ocp-mx profile:
    convcert certify --profile ocp-mx --level ci --adapter "process:cmd=python3 suite/devices/ml-dtypes/dut.py"
ml_dtypes casts round to nearest even; FP8 overflows to NaN or infinity (non-saturating), FP6/FP4
have no infinity and clamp (saturating), E8M0 overflows to NaN. Elements narrower than a byte
travel one per byte, as numpy stores them.
"""
import sys

import ml_dtypes
import numpy as np

TYPES = {
    "fp8_e4m3fn": (ml_dtypes.float8_e4m3fn, "nosat"),
    "fp8_e5m2": (ml_dtypes.float8_e5m2, "nosat"),
    "fp6_e2m3": (ml_dtypes.float6_e2m3fn, "sat"),
    "fp6_e3m2": (ml_dtypes.float6_e3m2fn, "sat"),
    "fp4_e2m1": (ml_dtypes.float4_e2m1fn, "sat"),
    "e8m0": (ml_dtypes.float8_e8m0fnu, "nosat"),
}


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    if not stdin.readline().startswith(b"CONVCERT 1"):
        sys.exit("bad hello")
    for name, (_, state) in TYPES.items():
        stdout.write(("CAP float %s rn %s\nCAP %s float rn nosat\n" % (name, state, name)).encode())
    stdout.write(b"READY\n")
    stdout.flush()
    for line in iter(stdin.readline, b""):
        words = line.decode().split()
        if words[0] == "QUIT":
            return
        count = int(words[-1])
        if words[0] != "BATCH":
            stdout.write(b"ERR only BATCH\n")
            stdout.flush()
            continue
        src, dst = words[1], words[2]
        with np.errstate(all="ignore"):
            if src == "float":
                data = np.frombuffer(stdin.read(4 * count), dtype="<u4").view(np.float32)
                result = data.astype(TYPES[dst][0]).view(np.uint8)
            else:
                data = np.frombuffer(stdin.read(count), dtype=np.uint8).view(TYPES[src][0])
                result = data.astype(np.float32).view("<u4")
        stdout.write(b"OK %d\n" % count)
        stdout.write(result.tobytes())
        stdout.flush()


if __name__ == "__main__":
    main()
