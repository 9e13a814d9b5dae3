#!/bin/bash
# gfloat beside convcert on the p3109 or ocp-mx profile: generates the profile's golden vectors
# (level ci by default, CSV) and asks gfloat for every conversion from binary32, binary16 and bfloat16
# to the 44 P3109 formats or OCP's FP8, FP6 and FP4 (every rounding and saturation mode, the three
# stochastic ones with the vectors' random bits) and for every code back to binary32
# (gfloat_peer.py). gfloat is read from its source folder; it needs numpy, more_itertools and
# array_api_compat.
#
#   docs/peers/gfloat.sh GFLOAT_SRC [PROFILE [LEVEL [GENERATE_OPTION...]]]      (p3109, ci by default)
#
# Prints one row per conversion, mode and saturation mode and the first differences of each; ends
# non-zero if any vector differs (docs/peers/README.md says which differences are known and why).
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 GFLOAT_SRC [PROFILE [LEVEL [GENERATE_OPTION...]]]" >&2; exit 2; }
src=$(realpath "$1") profile=${2:-p3109} level=${3:-ci}
shift $(($# < 3 ? $# : 3))
[[ $profile == p3109 || $profile == ocp-mx ]] || { echo "$0: PROFILE is p3109 or ocp-mx, not '$profile'" >&2; exit 2; }
[[ -f $src/src/gfloat/round.py ]] || { echo "$0: $src: not a gfloat checkout (no src/gfloat/round.py)" >&2; exit 2; }
PYTHONPATH=$src/src python3 -c "import gfloat" 2>/dev/null \
    || { echo "$0: gfloat does not import: install numpy, more_itertools and array_api_compat" >&2; exit 2; }
home=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$home/convcert" generate --profile "$profile" --level "$level" --format csv --out "$work/vectors" "$@" >/dev/null
PYTHONPATH=$src/src python3 "$home/docs/peers/gfloat_peer.py" "$work/vectors"
