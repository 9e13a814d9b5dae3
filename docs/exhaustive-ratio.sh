#!/usr/bin/env bash
# Verified vectors/s of exhaustive float->half certification against the JDK intrinsic loop (issue 15),
# in one run: the anchor (Float.floatToFloat16 over all 2^32 floats, one thread, JMH), then the
# certify runs, each printed with its rate and its ratio to the anchor. About 3 minutes on 2 cores.
# Run from the repository root after a build: bash docs/exhaustive-ratio.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -Pbench package -DskipTests >/dev/null
anchor=$(java --sun-misc-unsafe-memory-access=allow -Dconvcert.home=. -jar bench/target/benchmarks.jar 'ExhaustiveBenchmark.jdkAnchor' -p mode=rn -rf csv \
  -rff /tmp/convcert-anchor.csv >/dev/null && tail -n1 /tmp/convcert-anchor.csv | cut -d, -f5)
rate() { awk -v v="$1" -v s="$2" 'BEGIN { printf "%.0f", v / s / 1e6 }'; }
anchor_rate=$(rate 4294967296 "$anchor")
echo "anchor: Float.floatToFloat16 over 2^32 floats, one thread: ${anchor} s, ${anchor_rate} M/s"
run() { # label, vectors, certify arguments...
  local label=$1 vectors=$2; shift 2
  local start end seconds
  start=$(date +%s.%N)
  ./convcert certify "$@" --out /tmp/convcert-ratio >/dev/null 2>&1
  end=$(date +%s.%N)
  seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  local r
  r=$(rate "$vectors" "$seconds")
  echo "$label: ${seconds} s, ${r} M verified vectors/s, ratio $(awk -v r="$r" -v a="$anchor_rate" 'BEGIN { printf "%.2f", r / a }')"
}
run "jdk adapter, float->half rn, 2^32" 4294967296 --adapter jdk --exhaustive --pair float:half --only 'float->half/rn-nosat'
run "jdk adapter, float->half rn, 2^32, --jobs $(nproc)" 4294967296 --adapter jdk --exhaustive --pair float:half \
  --only 'float->half/rn-nosat' --jobs "$(nproc)"
run "reference, float->half all 6 modes, 6 x 2^32" 25769803776 --adapter reference --exhaustive --pair float:half \
  --only 'float->half/*-nosat'
