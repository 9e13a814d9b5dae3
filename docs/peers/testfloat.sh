#!/bin/bash
# Berkeley TestFloat beside convcert, on the riscv profile's IEEE conversions: TestFloat generates its
# cases (testfloat_gen), convcert's reference answers them with fflags (convert --flags), and TestFloat
# judges the answers (testfloat_ver -checkAll) with SoftFloat's RISC-V specialization (canonical NaN,
# RISC-V's invalid integer results) and tininess after rounding, as the riscv profile reads the ISA.
#
#   docs/peers/testfloat.sh SOFTFLOAT_SRC TESTFLOAT_SRC [LEVEL [CONVERT_OPTION...]]
#   docs/peers/testfloat.sh SOFTFLOAT_SRC TESTFLOAT_SRC LEVEL --device 'CMD' PAIR...
#
# SOFTFLOAT_SRC and TESTFLOAT_SRC are checkouts of berkeley-softfloat-3 and berkeley-testfloat-3 (they
# are copied and built in a temporary folder; the checkouts are not written). LEVEL is TestFloat's
# -level, 1 (default) or 2; options after it go to convcert convert (e.g. --decision
# tininess=before-rounding, to see TestFloat catch the other reading). Prints one row per function and
# rounding mode and ends non-zero if any case differs. With --device, an implementation answers
# instead of convcert's reference, for the pairs named (FROM:TO, e.g. float:half): CMD --testfloat MODE
# reads TestFloat's cases on stdin and writes "INPUT RESULT FLAGS" lines (suite/devices/x86-f16c
# does), so TestFloat's verdict on it can be set beside convcert's. bfloat16 and OFP8 have no TestFloat function and are left out.
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 SOFTFLOAT_SRC TESTFLOAT_SRC [LEVEL [CONVERT_OPTION...]]" >&2; exit 2; }
softfloat=$(realpath "$1") testfloat=$(realpath "$2") level=${3:-1}
shift $(($# < 3 ? $# : 3))
device="" pairs=""
if [[ ${1:-} == --device ]]; then
    [[ $# -ge 3 ]] || { echo "$0: --device takes a command and at least one pair FROM:TO" >&2; exit 2; }
    device=$2
    shift 2
    pairs=" $* "
    set --
fi
# the reference claims RISC-V's canonical NaN and invalid integer results; a device is judged as
# convcert judges it by default (nan-comparison=any: any NaN for a NaN)
checks=-checkAll
[[ -z $device ]] || checks=-checkInvInts
[[ -f $softfloat/source/include/softfloat.h ]] || { echo "$0: $1: not a berkeley-softfloat-3 checkout" >&2; exit 2; }
[[ -f $testfloat/source/testfloat_gen.c ]] || { echo "$0: $2: not a berkeley-testfloat-3 checkout" >&2; exit 2; }
[[ $level == 1 || $level == 2 ]] || { echo "$0: LEVEL is 1 or 2, not '$level'" >&2; exit 2; }
home=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$softfloat" "$work/softfloat" && cp -r "$testfloat" "$work/testfloat"
make -s -j2 -C "$work/softfloat/build/Linux-x86_64-GCC" SPECIALIZE_TYPE=RISCV >"$work/build.log" 2>&1 \
    || { echo "$0: building SoftFloat failed (log: $work/build.log)" >&2; cat "$work/build.log" >&2; exit 1; }
make -s -j2 -C "$work/testfloat/build/Linux-x86_64-GCC" SOFTFLOAT_DIR="$work/softfloat" testfloat_gen testfloat_ver \
    >>"$work/build.log" 2>&1 || { echo "$0: building TestFloat failed" >&2; cat "$work/build.log" >&2; exit 1; }
bin=$work/testfloat/build/Linux-x86_64-GCC

declare -A name=([half]=f16 [float]=f32 [double]=f64 [int32]=i32 [uint32]=ui32 [int64]=i64 [uint64]=ui64)
declare -A mode=([rn]=-rnear_even [rz]=-rminMag [rd]=-rmin [ru]=-rmax [rna]=-rnear_maxMag)
printf '%-14s %-5s %8s %7s\n' function mode cases differ
total=0 differing=0
while IFS=, read -r from to modes _; do
    [[ -n ${name[$from]:-} && -n ${name[$to]:-} ]] || continue
    [[ -z $device || $pairs == *" $from:$to "* ]] || continue
    function=${name[$from]}_to_${name[$to]}
    exact=""
    [[ $to == *int* ]] && exact=-exact # RISC-V's fcvt to an integer raises NX when it rounds
    for m in $modes; do
        "$bin/testfloat_gen" -level "$level" "${mode[$m]}" -tininessafter $exact "$function" >"$work/cases"
        if [[ -n $device ]]; then
            status=0
            $device --testfloat "$m" <"$work/cases" >"$work/judged" 2>"$work/device.err" || status=$?
            if [[ $status -eq 2 && ! -s $work/judged ]]; then # the device offers no such mode
                printf '%-14s %-5s %8s %7s\n' "$function" "$m" "-" "n/a"
                continue
            fi
            [[ $status -eq 0 ]] || { echo "$0: the device failed ($status): $(head -c 300 "$work/device.err")" >&2; exit 1; }
        else
            cut -d' ' -f1 "$work/cases" | "$home/convcert" convert --profile riscv --from "$from" --to "$to" \
                --rounding "$m" --saturation "$([[ $to == *int* ]] && echo sat || echo nosat)" --flags "$@" \
                >"$work/answers"
            paste -d' ' <(cut -d' ' -f1 "$work/cases") <(sed 's/^0x//' "$work/answers") >"$work/judged"
        fi
        cases=$(wc -l <"$work/cases")
        "$bin/testfloat_ver" $checks -errors 1000000 "${mode[$m]}" -tininessafter $exact "$function" \
            <"$work/judged" >"$work/verdict" 2>&1 || true
        bad=$(sed -n 's/.*tests performed; \([0-9]*\) errors\{0,1\} found.*/\1/p' "$work/verdict")
        grep -q "\b$cases tests performed" "$work/verdict" || bad=${bad:-"?"} # TestFloat judged fewer: a broken answer
        if [[ -n $bad ]]; then
            grep -m 5 -e '=>' "$work/verdict" | sed "s/^/    $function $m: /" >&2 || true
            differing=$((differing + 1))
        else
            bad=0
        fi
        printf '%-14s %-5s %8d %7s\n' "$function" "$m" "$cases" "$bad"
        total=$((total + cases))
    done
done < <(tail -n +2 "$home/spec-tables/riscv/conversions.csv")
echo "$total cases at level $level; $differing function-mode pairs with differences"
[[ $differing -eq 0 ]]
