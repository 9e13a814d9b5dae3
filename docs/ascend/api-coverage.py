#!/usr/bin/env python3
"""The Ascend C SIMT conversion functions an asc-devkit checkout documents, against the ascend-c profile's tables.

Usage: docs/ascend/api-coverage.py ASC_DEVKIT_CHECKOUT
Each function's name (docs/zh/api/SIMT-API/..., one page a function) says its pair, rounding and saturation:
__float2half_rz_sat is float -> half in rz with _sat; a "2" after a type is its two-lane vector form, the same
conversion; __asc_cvt_float2_to_fp8x2 is four, E4M3 or E5M2, saturating or not. Prints each function the
tables do not cover, once a pair and mode, then a count; exit 1 where one is missing. Packing functions
(__low2half, __halves2half2, ...) convert nothing and are left out."""
import csv
import pathlib
import re
import sys

TYPES = {"float": "float", "half": "half", "bfloat16": "bfloat16", "int": "int32", "uint": "uint32", "ll": "int64",
         "ull": "uint64", "hif8": "hifloat8", "e4m3": "fp8_e4m3fn", "e5m2": "fp8_e5m2"}
# The SIMD API's C++ types (its Cast tables: Reg, Memory and scalar), by the profile's names where it has them.
CPP_TYPES = {"float": "float", "half": "half", "bfloat16_t": "bfloat16", "int8_t": "int8", "uint8_t": "uint8",
             "int16_t": "int16", "uint16_t": "uint16", "int32_t": "int32", "uint32_t": "uint32", "int64_t": "int64",
             "uint64_t": "uint64", "hifloat8_t": "hifloat8", "fp8_e4m3fn_t": "fp8_e4m3fn", "fp8_e5m2_t": "fp8_e5m2"}
ROUND_MODES = {"CAST_RINT": "rn", "CAST_ROUND": "rna", "CAST_FLOOR": "rd", "CAST_CEIL": "ru", "CAST_TRUNC": "rz",
               "CAST_ODD": "ro", "HYBRID": "rh", "CAST_HYBRID": "rh", "UNKNOWN": None, "CAST_NONE": None}
CAST_PAGES = ["docs/zh/api/SIMD-API/基础API/Reg矢量计算/类型转换/Cast.md",
              "docs/zh/api/SIMD-API/基础API/Memory矢量计算/类型转换/Cast.md"]
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


def cast_rows(checkout):
    """The SIMD Cast tables' rows: | source | destination | ... SatMode ... | ... RoundMode ... |, each mode with and
    without saturation as the row allows; a type the profile lacks keeps its C++ name."""
    pages = CAST_PAGES + [str(p.relative_to(checkout)) for p in
                          sorted(pathlib.Path(checkout, "docs/zh/api/SIMD-API/基础API/标量计算").glob("Cast*.md"))]
    for page in pages:
        path = pathlib.Path(checkout, page)
        if not path.is_file():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = [c.strip().replace("\\_", "_") for c in line.strip().strip("|").split("|")]
            modes = re.findall(r"(?:RoundMode::)?\b(CAST_[A-Z]+|HYBRID|UNKNOWN)\b", line)
            if len(cells) < 3 or not modes or not re.fullmatch(r"[a-z0-9_]+", cells[0] + cells[1]):
                continue
            sats = [False, True] if "SatMode::SAT" in line else [False]
            for mode in dict.fromkeys(modes):
                for sat in sats:
                    where = f"{path.parent.parent.name}/{path.parent.name}/{path.name}"
                    yield (f"Cast<{cells[0]}, {cells[1]}, {mode}>{' SAT' if sat else ''} ({where})",
                           CPP_TYPES.get(cells[0], cells[0]), CPP_TYPES.get(cells[1], cells[1]), ROUND_MODES.get(mode), sat)


def main(checkout):
    home = pathlib.Path(__file__).resolve().parents[2]
    rows = {(r["from"], r["to"]): r for r in csv.DictReader(open(home / "spec-tables/ascend-c/conversions.csv"))}
    missing = {}  # (source, destination) -> what the tables lack, each once
    cases = set()
    for name, src, dst, mode, sat in list(functions(checkout)) + list(cast_rows(checkout)):
        row = rows.get((src, dst))
        mode = mode or (row["implicit"] if row and row["implicit"] else "rn")  # no suffix: the implicit mode, or exact
        cases.add((src, dst, mode, sat))
        why = ("no row" if row is None
               else mode if mode not in row["modes"].split()
               else mode + " sat" if sat and "sat" not in row["forms"].split() else None)
        if why:
            missing.setdefault((src, dst), {}).setdefault(why, name)
    for (src, dst), whys in sorted(missing.items()):
        print(f"{src} -> {dst}: " + ", ".join(f"{why} (as {name})" for why, name in whys.items()))
    lacking = sum(len(w) for w in missing.values())
    print(f"{len(cases)} conversions (pair, rounding, saturation) in the API; the tables lack {len(missing)} pairs "
          f"and modes of others, {lacking} in all")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
