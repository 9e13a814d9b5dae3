#!/usr/bin/env bash
# Writes gpu_convert's replay job list: for each row of ops.csv and each saturation state it answers in
# each profile, the vector set's inputs of that pair and the recording's base name.
# Usage: jobs.sh RECORDING_ROOT VECTORS_ROOT... > jobs.txt   (a VECTORS_ROOT holds PROFILE/FROM-TO/*.in.bin)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
recording="$1"; shift
tail -n +2 "$here/ops.csv" | while IFS=, read -r op from to rounding ascend cuda mx; do
  for profile in ascend-c cuda ocp-mx; do
    case "$profile" in ascend-c) states="$ascend" ;; cuda) states="$cuda" ;; *) states="$mx" ;; esac
    input=""
    for vectors in "$@"; do
      [ -n "$input" ] || input=$(ls "$vectors/$profile/$from-$to/"*.in.bin 2>/dev/null | head -n1 || true)
    done
    [ -n "$input" ] || continue                      # the profile offers no such pair
    mkdir -p "$recording/$profile/$from-$to"
    for state in $states; do
      echo "$op $input $recording/$profile/$from-$to/$rounding-$state"
    done
  done
done
