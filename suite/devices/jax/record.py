#!/usr/bin/env python3
"""JAX/XLA's astype casts on the CPU and on a CUDA GPU, recorded over golden-vector inputs in the replay layout.

For every case of the cuda and rocm profiles between types JAX has as whole bytes (float32, float64, float16,
bfloat16, the FP8 types and E8M0), the inputs of VECTORS/PROFILE/FROM-TO/rn-STATE.in.bin go through
`lax.bitcast_convert_type(bits, src).astype(dst)` jitted on each backend and the results are written as
OUT/jax-BACKEND/PROFILE/FROM-TO/rn-STATE.{in,out}.bin, which `convcert certify --adapter replay:dir=...`
checks offline (suite/devices/jax/README.md):
    python3 suite/devices/jax/record.py VECTORS OUT
JAX's casts round to nearest even and do not saturate: they answer each pair's rn-nosat case.
"""
import pathlib
import sys

import jax

jax.config.update("jax_enable_x64", True)  # float64 sources stay float64
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

DTYPES = {"float": (jnp.float32, 4), "double": (jnp.float64, 8), "half": (jnp.float16, 2), "bfloat16": (jnp.bfloat16, 2),
          "fp8_e4m3fn": (jnp.float8_e4m3fn, 1), "fp8_e5m2": (jnp.float8_e5m2, 1),
          "fp8_e4m3fnuz": (jnp.float8_e4m3fnuz, 1), "fp8_e5m2fnuz": (jnp.float8_e5m2fnuz, 1)}
if hasattr(jnp, "float8_e8m0fnu"):
    DTYPES["e8m0"] = (jnp.float8_e8m0fnu, 1)
INTS = {1: (jnp.uint8, np.uint8), 2: (jnp.uint16, np.uint16), 4: (jnp.uint32, np.uint32), 8: (jnp.uint64, np.uint64)}


def caster(src, dst):
    """Jitted bits -> bits; it runs where its input was put (jax.device_put), so on each backend in turn."""
    (sdt, _), (ddt, dbytes) = DTYPES[src], DTYPES[dst]
    return jax.jit(lambda b: lax.bitcast_convert_type(lax.bitcast_convert_type(b, sdt).astype(ddt), INTS[dbytes][0]))


def main(vectors, out):
    backends = [("cpu", jax.devices("cpu")[0])]
    try:
        backends.append(("cuda", jax.devices("gpu")[0]))
    except RuntimeError:
        pass
    cases = 0
    for profile in ("cuda", "rocm"):
        for pair in sorted((vectors / profile).glob("*-*")):
            src, dst = pair.name.split("-", 1)
            if src not in DTYPES or dst not in DTYPES or src == dst:
                continue
            for inputs in sorted(pair.glob("rn-nosat.in.bin")):
                bits = np.fromfile(inputs, dtype=INTS[DTYPES[src][1]][1])
                for name, device in backends:
                    folder = out / ("jax-" + name) / profile / pair.name
                    folder.mkdir(parents=True, exist_ok=True)
                    bits.tofile(folder / inputs.name)
                    result = caster(src, dst)(jax.device_put(bits, device))
                    np.asarray(result).astype(INTS[DTYPES[dst][1]][1]).tofile(folder / "rn-nosat.out.bin")
                    cases += 1
    print(f"jax {jax.__version__} ({', '.join(f'{n}: {d.device_kind}' for n, d in backends)}): {cases} recordings")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
