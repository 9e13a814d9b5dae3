"""gfloat beside convcert on the p3109 and ocp-mx profiles' golden vectors.

Reads a folder that `convcert generate --profile p3109|ocp-mx --format csv` wrote and, for every case
converting binary32, binary16 or bfloat16 to a P3109 format or an OCP element format (FP8, FP6,
FP4), or such a format to binary32, asks gfloat (graphcore-research/gfloat, importable from
PYTHONPATH) for each vector's answer and compares it with convcert's. E8M0 is left out: where OCP MX
leaves its conversion open, the ocp-mx profile reads CUDA's (decisions e8m0-range, exponent-zero,
exponent-ties, unsigned-negative), which gfloat does not claim to follow. Prints one row per destination width, rounding mode and saturation
mode, the first differences of each, and exits 1 if any vector differs or gfloat refuses one,
beyond the known differences (odd_overflow: the draft's text decides it, gfloat is older;
nan_to_finite: the text leaves it open and gfloat refuses).

gfloat's round_float takes saturation as a flag: SatFinite is sat=True and SatNone sat=False;
Negative inputs to unsigned formats are left out and counted: gfloat
takes their magnitude's path or refuses them ("No -Inf"), while the draft gives them a reading
(decision p3109-unsigned-negative). SatPropagate (finite values clamp, an infinity stays where the format has one) is sat=True for a
finite input and, in an extended format, sat=False for an infinite one. Its stochastic modes are
the draft's three: StochasticFastest is StochasticA, StochasticFast B, Stochastic C.
"""

import collections
import csv
import json
import math
import pathlib
import re
import sys

import numpy as np
from gfloat import RoundMode, decode_float, encode_float, round_float
from gfloat.formats import (format_info_ocp_e2m1, format_info_ocp_e2m3, format_info_ocp_e3m2,
                            format_info_ocp_e4m3, format_info_ocp_e5m2, format_info_p3109)
from gfloat.types import Domain, Signedness

MODES = {
    "rn": RoundMode.TiesToEven, "rna": RoundMode.TiesToAway, "ru": RoundMode.TowardPositive,
    "rd": RoundMode.TowardNegative, "rz": RoundMode.TowardZero, "ro": RoundMode.ToOdd,
    "rsa": RoundMode.StochasticFastest, "rsb": RoundMode.StochasticFast, "rsc": RoundMode.Stochastic,
}
P3109 = re.compile(r"binary(\d+)p(\d+)([su])([ef])")
OCP = {"fp8_e4m3fn": format_info_ocp_e4m3, "fp8_e5m2": format_info_ocp_e5m2, "fp6_e2m3": format_info_ocp_e2m3,
       "fp6_e3m2": format_info_ocp_e3m2, "fp4_e2m1": format_info_ocp_e2m1}


def gformat(name):
    """gfloat's FormatInfo of a convcert format name, or None."""
    m = P3109.fullmatch(name)
    if not m:
        return OCP.get(name)
    k, p, s, d = m.groups()
    return format_info_p3109(int(k), int(p), Signedness.Signed if s == "s" else Signedness.Unsigned,
                             Domain.Extended if d == "e" else Domain.Finite)


def ieee_value(name, bits):
    """The exact value of an IEEE pattern as a Python float (binary64 holds all three exactly)."""
    if name == "float":
        return float(np.array([bits], dtype=np.uint32).view(np.float32)[0])
    if name == "half":
        return float(np.array([bits], dtype=np.uint16).view(np.float16)[0])
    if name == "bfloat16":
        return float(np.array([bits << 16], dtype=np.uint32).view(np.float32)[0])
    return None


def from_ieee(fi, value, mode, state, random):
    sat = state in ("satfinite", "sat") or (state == "satpropagate"
                                   and not (math.isinf(value) and fi.domain == Domain.Extended))
    srbits, srnumbits = (-1, 0) if random is None else random
    return encode_float(fi, round_float(fi, value, MODES[mode], sat, srbits, srnumbits))


def odd_overflow(fi, mode, state, expected, actual):
    """A known difference: the draft's Interim Report v4.0 Saturate has
    "Saturate(SatNone, ToOdd, X, Unsigned, Extended) if X > M_hi -> M_hi", where gfloat gives +inf."""
    return (mode == "ro" and state == "satnone" and not fi.is_signed and fi.domain == Domain.Extended
            and expected == fi.code_of_max and actual == fi.code_of_posinf)


def both_nan(fi, expected, actual):
    return math.isnan(decode_float(fi, expected).fval) and math.isnan(decode_float(fi, actual).fval)


def nan_to_finite(fi, value, actual):
    """NaN into a format without NaN (OCP FP6, FP4): OCP MX v1.0 leaves it to the implementation, the
    ocp-mx profile reads CUDA's (decision finite-nan), gfloat refuses ("No NaN in format")."""
    return math.isnan(value) and fi.num_nans == 0 and isinstance(actual, str)


def to_float(fi, code, state):
    """The code's value as binary32: exact, an infinity the largest finite float under SatFinite."""
    value = decode_float(fi, code).fval
    if state == "satfinite" and math.isinf(value):
        value = math.copysign(float(np.finfo(np.float32).max), value)
    return int(np.array([value], dtype=np.float32).view(np.uint32)[0])


def main(folder):
    folder = pathlib.Path(folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    rows = collections.OrderedDict()
    examples = collections.defaultdict(list)
    negative = collections.Counter()
    known = collections.Counter()
    for case in manifest["cases"]:
        source, target, mode, state = case["from"], case["to"], case["rounding"], case["state"]
        fi_to, fi_from = gformat(target), gformat(source)
        forward = fi_to is not None and ieee_value(source, 0) is not None
        backward = fi_from is not None and target == "float" and mode == "rn"
        if not (forward or backward):
            continue
        fi = fi_to if forward else fi_from
        name = f"K{fi.bits}" if P3109.fullmatch(target if forward else source) else (target if forward else source)
        key = (f"{source}->{name}" if forward else f"{name}->float", mode, state)
        tally = rows.setdefault(key, [0, 0, 0])
        with open(folder / case["files"][".csv"]["path"], newline="") as f:
            for row in csv.DictReader(f):
                bits, expected = int(row["input"], 16), int(row["expected"], 16)
                random = None
                if "random" in row:
                    random = (int(row["random"], 16), min(fi.precision, 16))
                if forward and not fi.is_signed and math.copysign(1.0, ieee_value(source, bits)) < 0 \
                        and not math.isnan(ieee_value(source, bits)):
                    negative[key] += 1  # gfloat models no negative input to an unsigned format
                    continue
                try:
                    if forward:
                        actual = from_ieee(fi, ieee_value(source, bits), mode, state, random)
                    else:
                        actual = to_float(fi, bits, state)
                        if math.isnan(decode_float(fi, bits).fval):
                            actual = expected if expected & 0x7FC00000 == 0x7FC00000 else actual
                except (ValueError, OverflowError) as e:
                    actual = f"refused ({e})"
                tally[0] += 1
                if forward and isinstance(actual, int) and actual != expected and both_nan(fi, expected, actual):
                    actual = expected  # any NaN for a NaN, as convcert judges by default (nan-comparison=any)
                if forward and actual != expected and (odd_overflow(fi, mode, state, expected, actual)
                                                       or nan_to_finite(fi, ieee_value(source, bits), actual)):
                    known[key] += 1
                elif actual != expected:
                    tally[1 if isinstance(actual, int) else 2] += 1
                    if len(examples[key]) < 3:
                        shown = actual if isinstance(actual, str) else hex(actual)
                        examples[key].append(f"{case['name']}: input {row['input']}: convcert {row['expected']}, "
                                             f"gfloat {shown}")
    print(f"{'conversion':<20} {'mode':<5} {'saturation':<13} {'vectors':>8} {'differ':>7} {'refused':>8} {'known':>6}")
    for key, (n, differ, refused) in rows.items():
        pair, mode, state = key
        print(f"{pair:<20} {mode:<5} {state:<13} {n:>8} {differ:>7} {refused:>8} {known[key]:>6}")
    for key, lines in examples.items():
        for line in lines:
            print("  " + line, file=sys.stderr)
    total = sum(t[0] for t in rows.values())
    bad = sum(t[1] + t[2] for t in rows.values())
    print(f"{total} vectors in {len(rows)} rows; {bad} differ or refused; {sum(known.values())} known differences "
          f"(ToOdd overflow into unsigned extended formats under SatNone; NaN into FP6/FP4); "
          f"{sum(negative.values())} negative inputs to "
          "unsigned formats left out (gfloat does not model them)")
    return 0 if bad == 0 and total > 0 else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: gfloat_p3109.py VECTOR_FOLDER", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
