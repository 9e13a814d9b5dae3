#!/bin/bash
# Khronos OpenCL-CTS beside convcert on an OpenCL implementation (the ICD's first platform and device:
# PoCL here): test_half (vload_half, vloada_half, vstore_half and vstorea_half in every rounding),
# test_basic's vload/vstore in the four address spaces and astype, and test_conversions on every
# name the opencl profile's conversions.csv certifies (dst[_sat][_rtX]_src). Wimpy mode (-w) unless
# CTS_FULL=1: the CTS's own reduced sampling, minutes instead of hours.
#
#   docs/peers/opencl-cts.sh CTS_SRC [OPENCL_HEADERS_SRC]
#
# CTS_SRC is a checkout of KhronosGroup/OpenCL-CTS (its large test_conformance/spir zips may be
# absent: they are not built). OPENCL_HEADERS_SRC, a checkout of KhronosGroup/OpenCL-Headers, for a
# CTS newer than the system's headers. Needs cmake, a C++ compiler, an OpenCL ICD loader and the
# SPIR-V headers (Debian: spirv-headers). Builds in a temporary folder, prints one line per CTS test
# and a verdict per family, and ends non-zero if any test fails.
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 CTS_SRC [OPENCL_HEADERS_SRC]" >&2; exit 2; }
cts=$(realpath "$1")
headers=$(realpath "${2:-/usr/include}")
[[ -f $cts/test_conformance/half/main.cpp ]] || { echo "$0: $1: not an OpenCL-CTS checkout" >&2; exit 2; }
[[ -f $headers/CL/cl.h ]] || { echo "$0: no CL/cl.h under $headers" >&2; exit 2; }
[[ -d /usr/include/spirv ]] || { echo "$0: the SPIR-V headers are missing (apt-get install spirv-headers)" >&2; exit 2; }
lib=$(dirname "$(ldconfig -p | awk '/libOpenCL.so[^.]/ {print $NF; exit}')")
[[ -n $lib && $lib != . ]] || { echo "$0: no OpenCL ICD loader (libOpenCL.so)" >&2; exit 2; }
home=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$cts" -B "$work/build" -DCL_INCLUDE_DIR="$headers" -DCL_LIB_DIR="$lib" -DOPENCL_LIBRARIES=OpenCL \
    -DSPIRV_INCLUDE_DIR=/usr -DCMAKE_BUILD_TYPE=Release >"$work/cmake.log" 2>&1 \
    || { tail -20 "$work/cmake.log" >&2; exit 1; }
make -s -j2 -C "$work/build" test_half test_basic test_conversions >"$work/make.log" 2>&1 \
    || { grep -m 10 error "$work/make.log" >&2; exit 1; }
bin=$work/build/test_conformance
wimpy=-w
[[ ${CTS_FULL:-0} == 1 ]] && wimpy=""

failed=0
run() { # family, binary, arguments...: one CTS run, its sub-tests' verdicts
    local family=$1 binary=$2
    shift 2
    local status=0
    "$bin/$binary" $wimpy "$@" >"$work/log" 2>&1 || status=$?
    local passed failing
    passed=$(grep -c " passed$" "$work/log" || true)
    failing=$(grep -E " failed$|FAILED test" "$work/log" | head -5 | tr '\n' ' ' || true)
    if [[ $status -ne 0 ]]; then
        failed=$((failed + 1))
        printf '%-44s FAIL (exit %d) %s\n' "$family" "$status" "$failing"
    else
        printf '%-44s pass (%d sub-tests)\n' "$family" "$passed"
    fi
}

run "vload_half, vloada_half, vstore(a)_half_rtX" half/test_half
run "vloadn, vstoren: __global" basic/test_basic vload_global vstore_global
run "vloadn, vstoren: __local" basic/test_basic vload_local vstore_local
run "vloadn, vstoren: __private" basic/test_basic vload_private vstore_private
run "vloadn: __constant" basic/test_basic vload_constant
run "as_type" basic/test_basic astype

declare -A cl=([int8]=char [uint8]=uchar [int16]=short [uint16]=ushort [int32]=int [uint32]=uint
    [int64]=long [uint64]=ulong [float]=float [double]=double [half]=half)
declare -A suffix=([rn]=_rte [rz]=_rtz [ru]=_rtp [rd]=_rtn)
declare -A names
while IFS=, read -r from to modes forms group _; do
    integers=$([[ $from != float && $from != double && $from != half && $to != float && $to != double \
        && $to != half ]] && echo 1 || echo 0)
    for form in $forms; do
        sat=$([[ $form == sat ]] && echo _sat || true)
        for m in $modes; do
            r=$([[ $integers == 1 ]] && true || echo "${suffix[$m]}")
            names[$group]+="${cl[$to]}$sat${r}_${cl[$from]} "
        done
    done
done < <(tail -n +2 "$home/spec-tables/opencl/conversions.csv")
for group in $(printf '%s\n' "${!names[@]}" | sort); do
    # shellcheck disable=SC2086 # one argument per CTS test name
    run "convert_*: group $group ($(wc -w <<<"${names[$group]}") names)" conversions/test_conversions ${names[$group]}
done
[[ $failed -eq 0 ]]
