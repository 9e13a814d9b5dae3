#!/usr/bin/env python3
"""The Ascend C SIMT conversion functions an asc-devkit checkout documents, against the ascend-c profile's tables.

Usage: docs/ascend/api-coverage.py ASC_DEVKIT_CHECKOUT
Each function's name (docs/zh/api/SIMT-API/..., one page a function) says its pair, rounding and saturation:
__float2half_rz_sat is float -> half in rz with _sat; a "2" after a type is its two-lane vector form, the same
conversion; __asc_cvt_float2_to_fp8x2 is four, E4M3 or E5M2, saturating or not. Prints each function the
tables do not cover and why, then a count; exit 1 where one is missing. Packing functions (__low2half, __halves2half2, ...) convert nothing and are left out."""
import csv
import pathlib
import re
import sys

TYPES = {"float": "float", "half": "half", "bfloat16": "bfloat16", "int": "int32", "uint": "uint32", "ll": "int64",
         "ull": "uint64", "hif8": "hifloat8", "e4m3": "fp8_e4m3fn", "e5m2": "fp8_e5m2"}
NAME = re.compile(r"^__(?P<src>[a-z0-9]+?)(?:x?2)?2(?P<dst>[a-z0-9]+?)(?:x?2)?(?:_(?P<mode>r[a-z]+))?(?P<sat>_sat)?$")
# __asc_cvt_float2_to_fp8x2(x, __ASC_NOSAT | __ASC_SATFINITE, __ASC_E4M3 | __ASC_E5M2): CAST_RINT, its page says
FP8X2 = re.compile(r"^__asc_cvt_(?P<src>[a-z0-9]+?)2?_to_fp8x2$")


def functions(checkout):
    for page in sorted(pathlib.Path(checkout, "docs/zh/api/SIMT-API").rglob("__*.md")):
        m = NAME.match(page.stem)
        if m and m["src"] in TYPES and m["dst"] in TYPES:
            yield page.stem, TYPES[m["src"]], TYPES[m["dst"]], m["mode"], bool(m["sat"])
        x2 = FP8X2.match(page.stem)
        if x2 and x2["src"] in TYPES:
            for dst in ("e4m3", "e5m2"):
                for sat in (False, True):
                    yield page.stem + f" ({dst}{' satfinite' if sat else ''})", TYPES[x2["src"]], TYPES[dst], "rn", sat


def main(checkout):
    home = pathlib.Path(__file__).resolve().parents[2]
    rows = {(r["from"], r["to"]): r for r in csv.DictReader(open(home / "spec-tables/ascend-c/conversions.csv"))}
    missing = checked = 0
    for name, src, dst, mode, sat in functions(checkout):
        checked += 1
        row = rows.get((src, dst))
        modes = row["modes"].split() if row else []
        mode = mode or (row["implicit"] if row and row["implicit"] else "rn")  # no suffix: the implicit mode, or exact
        why = ("no row " + src + " -> " + dst if row is None
               else "no " + mode + " (modes " + row["modes"] + ")" if mode not in modes
               else "no sat form (forms " + row["forms"] + ")" if sat and "sat" not in row["forms"].split() else None)
        if why:
            missing += 1
            print(f"{name}: {src} -> {dst} {mode}{' sat' if sat else ''}: {why}")
    print(f"{checked - missing} of {checked} conversion functions covered by spec-tables/ascend-c/conversions.csv")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
