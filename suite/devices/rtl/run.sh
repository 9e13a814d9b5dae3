#!/usr/bin/env bash
# The example RTL under Verilator 5 (README.md beside this):
#   run.sh build DIR            builds DIR/Vtb (the $readmemh testbench) and DIR/Vharness (the process-protocol model)
#   run.sh record DIR VECTORS   simulates every float->bfloat16, float->fp8_e4m3fn and float->fp8_e5m2 case of the
#                               golden set VECTORS (its primary form and CTRL bits) with DIR/Vtb, writing the replay
#                               layout under DIR/recording
#   run.sh check DIR VECTORS    builds DIR/Vgolden (golden_tb.sv) and runs it on the same cases, comparing as certify
#                               does: the NaN rule of each case's manifest entry (read with python3), then says
#                               how many cases passed; exit 1 when one failed
# DEFINES="+define+PLANTED_TIES_AWAY" (or PLANTED_CANONICAL_NAN) builds a planted bug instead.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v verilator >/dev/null || { echo "run.sh: needs verilator 5 (apt-get install verilator)" >&2; exit 2; }
out="$(mkdir -p "$2" && cd "$2" && pwd)"
case "$1" in
  build)
    verilator --binary -j 2 -Wno-fatal ${DEFINES:-} -I"$here" --top-module tb -Mdir "$out/tb" -o Vtb \
      "$here/tb.sv" "$here/convert_unit.sv" "$here/float_to_bf16.sv" "$here/float_to_fp8.sv" >"$out/build-tb.log" 2>&1 || { cat "$out/build-tb.log" >&2; exit 1; }
    verilator --cc --exe --build -j 2 -Wno-fatal ${DEFINES:-} --top-module convert_unit -Mdir "$out/harness" \
      -o Vharness "$here/convert_unit.sv" "$here/float_to_bf16.sv" "$here/float_to_fp8.sv" "$here/harness.cpp" \
      >"$out/build-harness.log" 2>&1 \
      || { cat "$out/build-harness.log" >&2; exit 1; }
    ln -sf "$out/tb/Vtb" "$out/Vtb"
    ln -sf "$out/harness/Vharness" "$out/Vharness"
    ;;
  record)
    # every case of the three pairs, each with its primary variant: CTRL[60]=0 (the suffix decides), the
    # suffix, CTRL[48]=1 and CTRL[50] set only for the state that keeps NaN under saturation
    rec="$out/recording/ascend-c"
    for pair in float-bfloat16:0 float-fp8_e4m3fn:1 float-fp8_e5m2:2; do
      folder=${pair%%:*}
      dst=${pair##*:}
      mkdir -p "$rec/$folder"
      for inputs in "$3/ascend-c/$folder/"*.in.memh; do
        case=$(basename "$inputs" .in.memh)          # e.g. rn-sat-keepnan
        rounding=${case%%-*}
        state=${case#*-}
        mode=$(case $rounding in rn) echo 0 ;; rz) echo 1 ;; ru) echo 2 ;; rd) echo 3 ;; rna) echo 4 ;; esac)
        sat=$([ "$state" = nosat ] && echo 0 || echo 1)
        keepnan=$([ "$state" = sat-keepnan ] && echo 1 || echo 0)
        cp "$inputs" "$rec/$folder/$case.in.memh"
        "$out/Vtb" +in="$inputs" +out="$rec/$folder/$case.out.memh" +n="$(grep -c . "$inputs")" +dst="$dst" \
          +mode="$mode" +sat="$sat" +implicit=0 +ctrl60=0 +ctrl48=1 +ctrl50="$keepnan" >/dev/null
      done
    done
    ;;
  check)
    verilator --binary -j 2 -Wno-fatal ${DEFINES:-} -I"$here" --top-module golden_tb -Mdir "$out/golden" -o Vgolden \
      "$here/golden_tb.sv" "$here/convert_unit.sv" "$here/float_to_bf16.sv" "$here/float_to_fp8.sv" >"$out/build-golden.log" 2>&1 \
      || { cat "$out/build-golden.log" >&2; exit 1; }
    # one line per case: its files' base, then the bench's plusargs from the manifest entry (primary variant)
    cases=$(python3 - "$3" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1] + "/manifest.json"))
modes = {"rn": 0, "rz": 1, "ru": 2, "rd": 3, "rna": 4}
for e in manifest["cases"]:
    dst = {"float-bfloat16": 0, "float-fp8_e4m3fn": 1, "float-fp8_e5m2": 2}.get(e["name"].split("/")[1])
    if e["profile"] != "ascend-c" or dst is None:
        continue
    out, ctrl = e["elements"]["out"], e["ctrl"]
    nan = out.get("nan") or {"mask": "0", "equals": "1", "nonzero": "0"}
    print(sys.argv[1] + "/" + e["name"], "+n=%d +out_bits=%d +dst=%d +mode=%d +sat=%d +implicit=%d" % (
        e["count"], out["bits"], dst, modes[e["rounding"]], e["form"] == "sat", e["form"] == "implicit"),
        "+ctrl60=%d +ctrl48=%d +ctrl50=%d" % (ctrl.get("60", 1), ctrl.get("48", 0), ctrl.get("50", 0)),
        "+nan_mask=%s +nan_equals=%s +nan_nonzero=%s +any_nan=%d" % (nan["mask"][2:], nan["equals"][2:],
        nan["nonzero"][2:], e["decisions"].get("nan-comparison") == "any"))
PY
)
    passed=0 failed=0
    while read -r base args; do
      # shellcheck disable=SC2086 # args are the plusargs, one word each
      if "$out/golden/Vgolden" +in="$base.in.memh" +expected="$base.expected.memh" $args >"$out/check.log" 2>&1; then
        passed=$((passed + 1))
        echo "$(basename "$(dirname "$base")")/$(basename "$base"): $(grep -m1 PASS "$out/check.log")"
      else
        failed=$((failed + 1))
        echo "$(basename "$(dirname "$base")")/$(basename "$base"): $(grep -m1 FAIL "$out/check.log" || tail -1 "$out/check.log")"
      fi
    done <<<"$cases"
    echo "$passed cases passed, $failed failed"
    [ "$failed" = 0 ]
    ;;
  *) echo "usage: run.sh build DIR | run.sh record DIR VECTORS | run.sh check DIR VECTORS" >&2; exit 2 ;;
esac
