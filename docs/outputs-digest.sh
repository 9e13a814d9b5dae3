#!/usr/bin/env bash
# One digest per user-visible output of convcert, for a refactoring that must change none of them:
#   docs/outputs-digest.sh > before.txt; (change the code); docs/outputs-digest.sh > after.txt; diff before.txt after.txt
# Covered: `tables check` of every profile; the ci golden set of every profile in every layout; certifications
# through a process (values, scale lanes, random-bit lanes, blocks and two-level blocks, a planted fault and
# its diagnosis), a replayed recording, PoCL when it is installed (conversions and memory functions), a refuting
# prove when Yosys is, the fault score, and `convert --explain`. Reports are compared without what changes from
# run to run or with the code's commit (date, commit, host, paths, durations, the diagnosis' own, the report's
# own digest). About 5 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
profiles=$(ls spec-tables | while read -r p; do [ -f "spec-tables/$p/formats.csv" ] && echo "$p"; done)

emit() { printf '%s %s\n' "$(sha256sum | cut -c1-16)" "$1"; }

# A report's JSON without the fields that differ between two runs of the same code.
report() {
  python3 - "$1/conformance.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
for k in ("provenance", "digest", "tool", "source"):
    r.pop(k, None)
for c in r.get("cases", []):
    c.pop("millis", None)
    (c.get("diagnosisData") or {}).pop("millis", None)  # what the diagnosis took
print(json.dumps(r, sort_keys=True))
EOF
}

# certify NAME ARGS...: the console (its report paths and timings removed) and the report
certify() {
  local name=$1; shift
  local out="$work/$name"
  local rc=0
  ./convcert certify --out "$out" "$@" > "$work/console" 2>&1 || rc=$?
  grep -v '^reports: \|^generate: \|elapsed\|M/s' "$work/console" | sed "s#$work#WORK#g" | emit "certify $name (exit $rc) console"
  report "$out" | sed "s#$work#WORK#g" | emit "certify $name report"
}

# The first run after a build builds, the second makes the JVM's class cache: neither message enters an output.
./convcert --version > /dev/null 2>&1
./convcert --version > /dev/null 2>&1
for p in $profiles; do
  ./convcert tables check --profile "$p" 2>&1 | sed "s#$PWD#HOME#g" | emit "tables check $p"
  ./convcert generate --profile "$p" --level ci --format csv,bin,memh --out "$work/g-$p" > /dev/null 2>&1
  (cd "$work/g-$p" && find . -type f | LC_ALL=C sort | xargs sha256sum) | emit "generate $p"
done

cc -O2 -o "$work/dut" suite/devices/example-c/dut.c
cc -O2 -o "$work/fp8" suite/devices/arm-fp8-c/fp8_dut.c
cc -O2 -o "$work/rs" suite/devices/stochastic-c/rs_dut.c
certify example-c --profile ascend-c --level ci --adapter "process:cmd=$work/dut"
certify arm-fp8 --profile arm --level ci --adapter "process:cmd=$work/fp8"
certify arm-fp8-fault --profile arm --level ci --adapter "process:cmd=$work/fp8 --fault scale-after-rounding"
certify stochastic --profile cuda --level ci --only 'float->*/rs-*' --adapter "process:cmd=$work/rs"
certify nvfp4 --profile cuda --vectors "$work/g-cuda" --only '*nvfp4*' --adapter 'process:cmd=python3 suite/devices/nvfp4-python/dut.py'
certify replay-h200 --profile cuda --level ci --adapter replay:dir=reports/devices/nvidia-h200/recording
if ./convcert certify --profile opencl --adapter opencl --only 'int->vload/x2-memory' --out "$work/probe" > /dev/null 2>&1; then
  certify pocl --profile opencl --level ci --adapter opencl:widths=1 --only '*half*'
fi
# command NAME ARGS...: a command's output (paths of this run removed) and exit status
command() {
  local name=$1; shift
  local rc=0
  ./convcert "$@" > "$work/console" 2>&1 || rc=$?
  grep -v 'elapsed' "$work/console" | sed "s#$work#WORK#g" | emit "$name (exit $rc)"
}
# prove, where Yosys is installed: a planted bug refuted, its counterexamples certified as a recording (the engines'
# own lines, with their timings, left out)
if command -v yosys > /dev/null; then
  rtl=suite/devices/rtl
  rc=0
  ./convcert prove --profile ascend-c --from float --to bfloat16 --rounding rn --saturation nosat --ctrl 60=0,48=1 \
    --rtl $rtl/convert_unit.sv --rtl $rtl/float_to_bf16.sv --rtl $rtl/float_to_fp8.sv --top convert_unit --set dst=0 \
    --set mode=0 --set sat_suffix=0 --set implicit=0 --set ctrl60=0 --set ctrl48=1 --set ctrl50=0 \
    --define PLANTED_TIES_AWAY --out "$work/prove" > "$work/console" 2>&1 || rc=$?
  grep -v '^engine\|^reports: \|elapsed' "$work/console" | sed "s#$work#WORK#g" | emit "prove planted (exit $rc)"
  report "$work/prove/report" | sed "s#$work#WORK#g" | emit "prove planted report"
fi
command "score cuda" score --profile cuda --vectors "$work/g-cuda" --out "$work/score"
# the vectors' path is written relative to the working directory, which differs between checkouts
sed 's#"vectors" : ".*"#"vectors" : "-"#' "$work/score/score.json" | emit "score cuda score.json"
sed 's#vectors <code>[^<]*</code>#vectors -#' "$work/score/score.html" | emit "score cuda score.html"
command "convert --explain" convert --profile cuda --from float --to bfloat16 --rounding rn --explain 0x3F808000 \
  0x000AE398 7FC00001
