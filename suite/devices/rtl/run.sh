#!/usr/bin/env bash
# The example RTL under Verilator 5 (README.md beside this):
#   run.sh build DIR            builds DIR/Vtb (the $readmemh testbench) and DIR/Vharness (the process-protocol model)
#   run.sh record DIR VECTORS   simulates every float->bfloat16 case of the golden set VECTORS (its primary form and
#                               CTRL bits) with DIR/Vtb, writing the replay layout under DIR/recording
# DEFINES="+define+PLANTED_TIES_AWAY" builds the planted bug instead.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v verilator >/dev/null || { echo "run.sh: needs verilator 5 (apt-get install verilator)" >&2; exit 2; }
out="$(mkdir -p "$2" && cd "$2" && pwd)"
case "$1" in
  build)
    verilator --binary -j 2 -Wno-fatal ${DEFINES:-} --top-module tb -Mdir "$out/tb" -o Vtb \
      "$here/tb.sv" "$here/float_to_bf16.sv" >"$out/build-tb.log" 2>&1 || { cat "$out/build-tb.log" >&2; exit 1; }
    verilator --cc --exe --build -j 2 -Wno-fatal ${DEFINES:-} --top-module float_to_bf16 -Mdir "$out/harness" \
      -o Vharness "$here/float_to_bf16.sv" "$here/harness.cpp" >"$out/build-harness.log" 2>&1 \
      || { cat "$out/build-harness.log" >&2; exit 1; }
    ln -sf "$out/tb/Vtb" "$out/Vtb"
    ln -sf "$out/harness/Vharness" "$out/Vharness"
    ;;
  record)
    vectors="$3/ascend-c/float-bfloat16"
    rec="$out/recording/ascend-c/float-bfloat16"
    mkdir -p "$rec"
    mode=0
    for rounding in rn rz ru rd rna; do
      for state in nosat sat; do # the primary variant of each state: CTRL[60]=0 (the suffix decides), the suffix
        sat=$([ "$state" = sat ] && echo 1 || echo 0)
        n=$(grep -c . "$vectors/$rounding-$state.in.memh")
        cp "$vectors/$rounding-$state.in.memh" "$rec/$rounding-$state.in.memh"
        "$out/Vtb" +in="$rec/$rounding-$state.in.memh" +out="$rec/$rounding-$state.out.memh" +n="$n" \
          +mode=$mode +sat="$sat" +implicit=0 +ctrl60=0 +ctrl48=1 >/dev/null
      done
      mode=$((mode + 1))
    done
    ;;
  *) echo "usage: run.sh build DIR | run.sh record DIR VECTORS" >&2; exit 2 ;;
esac
