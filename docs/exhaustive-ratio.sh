#!/usr/bin/env bash
# Verified vectors/s of exhaustive float->half certification against the JDK intrinsic loop (issue 15),
# in one run: the anchor (Float.floatToFloat16 over all 2^32 floats, one thread, JMH), then the
# certify runs, each printed with its rate and its ratio to the anchor; then the example C device
# (suite/devices/example-c/dut.c) as a process over pipes, as a process over shared memory (--shared)
# and as a native library, each with --jobs 2, with its ratio to the reference-only run of the same
# case (issue 26). Then (issue 43) the expected-value cache: for the example C device over shared memory
# and as a native library, and for x86 F16C's vcvtps2ph as a native library, the device alone (its own
# conversion loop over all 2^32 inputs in 2 threads, docs/device-alone.c, no convcert), a certification
# without the cache (--no-cache, as before it), a first certification (an empty cache) and a repeated one, with their ratios to the device alone. About 5
# minutes on 2 cores; with the argument 'devices', only the example C device's transports; with 'cache',
# only the cache's part (about 1 minute).
# Run from the repository root after a build: bash docs/exhaustive-ratio.sh [devices|cache]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${1:-}" ]; then
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
fi

dut=$(mktemp -d)
gcc -O2 -o "$dut/dut" suite/devices/example-c/dut.c -lm
gcc -O2 -shared -fPIC -DCONVCERT_LIBRARY -Isuite/native -o "$dut/libdut.so" suite/devices/example-c/dut.c -lm
seconds_of() { # certify arguments...: the wall seconds of one run
  local start end
  start=$(date +%s.%N)
  ./convcert certify "$@" --out /tmp/convcert-ratio >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }'
}
case_args=(--exhaustive --pair float:half --only 'float->half/rn-nosat' --jobs 2)

if [ "${1:-}" != cache ]; then # the example C device through each transport, against the reference alone
reference=$(seconds_of --adapter reference "${case_args[@]}" --no-cache)
echo "reference alone, float->half rn, 2^32, --jobs 2: ${reference} s"
for adapter in "process:cmd=$dut/dut" "process:cmd=$dut/dut --shared" "native:lib=$dut/libdut.so"; do
  s=$(seconds_of --adapter "$adapter" "${case_args[@]}" --no-cache)
  echo "${adapter/$dut\//}, float->half rn, 2^32, --jobs 2: ${s} s, ratio to the reference alone $(awk -v r="$reference" -v s="$s" 'BEGIN { printf "%.2f", r / s }')"
done
fi

if [ "${1:-}" != devices ]; then # the expected-value cache: the device alone, a first and a repeated certification
gcc -O2 -mavx -mf16c -shared -fPIC -DCONVCERT_LIBRARY -Isuite/native -o "$dut/libf16c.so" suite/devices/x86-f16c/f16c_dut.c
gcc -O2 -pthread -Isuite/native -o "$dut/alone" docs/device-alone.c -ldl
./convcert --version >/dev/null # the launcher's build check and JVM class cache (convcert-aot), outside the timings
for device in "process:cmd=$dut/dut --shared|$dut/libdut.so" "native:lib=$dut/libdut.so|$dut/libdut.so" \
              "native:lib=$dut/libf16c.so|$dut/libf16c.so"; do
  adapter=${device%|*}
  alone=$("$dut/alone" "${device#*|}" float half rn nosat 2 2)
  none=$(seconds_of --adapter "$adapter" "${case_args[@]}" --no-cache)
  rm -rf "$dut/cache"
  first=$(seconds_of --adapter "$adapter" "${case_args[@]}" --cache "$dut/cache")
  again=$(seconds_of --adapter "$adapter" "${case_args[@]}" --cache "$dut/cache")
  ratio() { awk -v a="$1" -v b="$alone" 'BEGIN { printf "%.2f", a / b }'; }
  echo "${adapter/$dut\//}, float->half rn, 2^32, --jobs 2: device alone ${alone} s; without the cache ${none} s" \
    "($(ratio "$none")x); first certification ${first} s ($(ratio "$first")x); repeated ${again} s ($(ratio "$again")x)"
done
fi
rm -rf "$dut"
