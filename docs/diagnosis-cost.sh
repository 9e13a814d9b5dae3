#!/usr/bin/env bash
# What an exhaustive diagnosis costs beside the certification it explains, in the same run: planted bugs
# (suite/devices/planted) certified over all 2^32 float inputs, the case's time and its diagnosis' time read from
# conformance.json. Each case runs twice: the first fills the expected-value cache, the second is timed.
# Usage: docs/diagnosis-cost.sh [OUT]   (from the checkout's root; about 10 minutes on 2 cores)
set -euo pipefail
out=${1:-$(mktemp -d)}
mkdir -p "$out"
rows=(
  "CARRY_INTO_NEXT_CODE float:fp8_e4m3fn float->fp8_e4m3fn/rn-sat"
  "TIES_AWAY_SUBNORMAL float:fp8_e4m3fn float->fp8_e4m3fn/rn-nosat"
  "FTZ float:half float->half/rn-nosat"
  "STICKY_IGNORED float:half float->half/rn-nosat"
  "TIES_AWAY float:bfloat16 float->bfloat16/rn-nosat"
)
printf '%-22s %-28s %10s %12s %6s  %s\n' bug case "case (s)" "diagnosis (s)" ratio cause
for row in "${rows[@]}"; do
  read -r bug pair only <<<"$row"
  lib="$out/libplanted-$bug.so"
  gcc -O2 -shared -fPIC -DBUG="$bug" -I suite/native -o "$lib" suite/devices/planted/planted.c
  for run in fill timed; do
    ./convcert certify --profile cuda --exhaustive --pair "$pair" --only "$only" --adapter "native:lib=$lib" \
      --out "$out/$bug-$run" >/dev/null 2>&1 || true
  done
  python3 - "$out/$bug-timed/conformance.json" "$bug" "$only" <<'PY'
import json, sys
report, bug, only = sys.argv[1:]
case = next(c for c in json.load(open(report))["cases"] if c["name"] == only)
d = case["diagnosisData"]
causes = " or ".join(f["fault"] for f in d["faults"]) or "none (findings only)"
print(f"{bug:22s} {only:28s} {case['millis'] / 1000:10.1f} {d['millis'] / 1000:12.1f} {d['millis'] / case['millis']:6.2f}  {causes}")
PY
done
