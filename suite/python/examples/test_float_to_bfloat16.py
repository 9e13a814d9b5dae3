"""A numpy float -> bfloat16 converter (round to nearest even) certified against convcert's reference with pytest.

    CONVCERT_HOME=/path/to/convcert python3 -m pytest suite/python/examples   (or run this file with python3)
"""
import numpy as np

import convcert


def float_to_bfloat16(x):
    """The converter under test: float32 values in, bfloat16 bit patterns (uint16) out."""
    bits = x.view(np.uint32)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # ties to even
    nan = (bits & 0x7FFFFFFF) > 0x7F800000
    return np.where(nan, (bits >> 16) | 0x0040, rounded).astype(np.uint16)


def inputs():
    """Every sign and exponent with random mantissas, the ties and their neighbours, and the specials."""
    rng = np.random.default_rng(2026)
    random = rng.integers(0, 1 << 32, size=1 << 20, dtype=np.uint64).astype(np.uint32)
    high = np.arange(1 << 16, dtype=np.uint32) << 16
    edges = np.concatenate([high | 0x7FFF, high | 0x8000, high | 0x8001, high])
    return np.concatenate([random, edges]).view(np.float32)


def test_float_to_bfloat16_matches_the_reference():
    x = inputs()
    got = float_to_bfloat16(x)
    want = convcert.convert(x, "bfloat16", profile="ieee754", rounding="rn", bits=True)
    nan = lambda b: (b & 0x7FFF) > 0x7F80  # any NaN for a NaN, as certify compares them
    wrong = np.flatnonzero((got != want) & ~(nan(got) & nan(want)))
    assert wrong.size == 0, "%d of %d differ; first: input 0x%08x gave 0x%04x, the reference 0x%04x" % (
        wrong.size, x.size, x.view(np.uint32)[wrong[0]], got[wrong[0]], want[wrong[0]])


if __name__ == "__main__":  # without pytest: python3 test_float_to_bfloat16.py
    test_float_to_bfloat16_matches_the_reference()
    print("float -> bfloat16 rn: every input agrees with the reference")
