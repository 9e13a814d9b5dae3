#!/usr/bin/env bash
# What an exhaustive diagnosis costs beside the certification it explains, in the same run: planted bugs
# (suite/devices/planted) certified over all 2^32 float inputs, the case's time and its diagnosis' time read from
# conformance.json. Each case runs twice: the first fills the expected-value cache, the second is timed.
# Usage: docs/diagnosis-cost.sh [OUT]   (from the checkout's root; about 15 minutes on 2 cores)
set -euo pipefail
out=${1:-$(mktemp -d)}
mkdir -p "$out"
# planted.c converts generically (about 10 ns an input); fast_e4m3.c, written for speed, 1 to 2 ns: the ratio is the
# diagnosis' cost beside what the device itself costs
rows=(
  "planted.c CARRY_INTO_NEXT_CODE float:fp8_e4m3fn float->fp8_e4m3fn/rn-sat"
  "planted.c TIES_AWAY_SUBNORMAL float:fp8_e4m3fn float->fp8_e4m3fn/rn-nosat"
  "planted.c FTZ float:half float->half/rn-nosat"
  "planted.c STICKY_IGNORED float:half float->half/rn-nosat"
  "planted.c TIES_AWAY float:bfloat16 float->bfloat16/rn-nosat"
  "fast_e4m3.c 1 float:fp8_e4m3fn float->fp8_e4m3fn/rn-sat"
  "fast_e4m3.c 2 float:fp8_e4m3fn float->fp8_e4m3fn/rn-nosat"
)
printf '%-12s %-22s %-28s %10s %12s %6s  %s\n' device bug case "case (s)" "diagnosis (s)" ratio cause
for row in "${rows[@]}"; do
  read -r device bug pair only <<<"$row"
  lib="$out/lib-${device%.c}-$bug.so"
  gcc -O2 -shared -fPIC -DBUG="$bug" -I suite/native -o "$lib" "suite/devices/planted/$device"
  for run in fill timed; do
    ./convcert certify --profile cuda --exhaustive --pair "$pair" --only "$only" --adapter "native:lib=$lib" \
      --out "$out/${device%.c}-$bug-$run" >/dev/null 2>&1 || true
  done
  python3 - "$out/${device%.c}-$bug-timed/conformance.json" "$device" "$bug" "$only" <<'PY'
import json, sys
report, device, bug, only = sys.argv[1:]
case = next(c for c in json.load(open(report))["cases"] if c["name"] == only)
d = case["diagnosisData"]
causes = " or ".join(f["fault"] for f in d["faults"]) or "none (findings only)"
print(f"{device:12s} {bug:22s} {only:28s} {case['millis'] / 1000:10.1f} {d['millis'] / 1000:12.1f} {d['millis'] / case['millis']:6.2f}  {causes}")
PY
done
