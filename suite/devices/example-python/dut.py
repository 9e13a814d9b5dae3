#!/usr/bin/env python3
"""An example device under test in Python, speaking convcert's batch protocol (suite/ADAPTERS.md).

It certifies numpy's conversions: float32 -> float16 (round to nearest even, non-saturating),
float16 -> float32, int32 -> float32. Run by the suite as
    convcert certify --adapter process:cmd=python3 suite/devices/example-python/dut.py
"""
import sys

import numpy as np

OPS = {
    ("float", "half", "rn", "nosat"): (np.uint32, lambda x: x.view(np.float32).astype(np.float16).view(np.uint16)),
    ("half", "float", "rn", "nosat"): (np.uint16, lambda x: x.view(np.float16).astype(np.float32).view(np.uint32)),
    ("int32", "float", "rn", "nosat"): (np.uint32, lambda x: x.view(np.int32).astype(np.float32).view(np.uint32)),
}


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    if not stdin.readline().startswith(b"CONVCERT 1"):
        sys.exit("bad hello")
    for key in OPS:
        stdout.write(("CAP %s %s %s %s\n" % key).encode())
    stdout.write(b"READY\n")
    stdout.flush()
    for line in iter(stdin.readline, b""):
        words = line.decode().split()
        if words[0] == "QUIT":
            return
        src, dst, rounding, state, _form, _ctrl, count = words[1:8]
        dtype, fn = OPS.get((src, dst, rounding, state), (None, None))
        count = int(count)
        if fn is None:
            stdout.write(b"ERR not implemented\n")
        else:
            data = np.frombuffer(stdin.read(count * np.dtype(dtype).itemsize), dtype=np.dtype(dtype).newbyteorder("<"))
            with np.errstate(all="ignore"):
                result = fn(data.astype(dtype))
            stdout.write(b"OK %d\n" % count)
            stdout.write(result.astype(result.dtype.newbyteorder("<")).tobytes())
        stdout.flush()


if __name__ == "__main__":
    main()
