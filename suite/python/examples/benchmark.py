"""The Python oracle's speed: seconds from import to the first result, then float -> fp8_e4m3fn on 2^24 floats.

    python3 suite/python/examples/benchmark.py        (docs/performance.md records a run)
"""
import time

start = time.perf_counter()
import numpy as np  # noqa: E402

import convcert  # noqa: E402

first = convcert.convert(np.float32([1.0]), "fp8_e4m3fn", profile="ocp-mx", rounding="rn", saturation="sat")
print("import to first result: %.2f s" % (time.perf_counter() - start))
x = np.random.default_rng(1).integers(0, 1 << 32, size=1 << 24, dtype=np.uint64).astype(np.uint32).view(np.float32)
times = []
for _ in range(6):
    t = time.perf_counter()
    convcert.convert(x, "fp8_e4m3fn", profile="ocp-mx", rounding="rn", saturation="sat")
    times.append(time.perf_counter() - t)
print("float -> fp8_e4m3fn, 2^24 values: first call %.0f M values/s, best of the next five %.0f M values/s"
      % (x.size / times[0] / 1e6, x.size / min(times[1:]) / 1e6))
