#!/usr/bin/env bash
# Instructions per stage of the analysis, counted by callgrind, for the pairs of programs whose
# time per stage the InferBound benchmark compares (issue 19: 1,000 stages at most 1.5 x 100 per
# stage). A count does not depend on the machine's speed, which on a shared virtual machine
# drifts by 2 to 3 x within a run (caches, page faults): a ratio near 1 here and well above 1 in
# the benchmark means that the time grows from the memory system, not from the algorithm.
#
#   bash scripts/count-instructions.sh                    every pair below
#   bash scripts/count-instructions.sh Lower/nested1000   one pair (the 100-stage one is its base)
#
# Needs a build with the benchmarks (bash scripts/test.sh makes one) and valgrind, which it
# installs when it is missing. Environment: BUILD_DIR (default build/). Takes a few minutes:
# callgrind runs the program about 50 times slower.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

bench=$BUILD_DIR/tests/bench/bench_inferbound
if [ ! -x "$bench" ]; then
    echo "count-instructions: $bench is not built (run bash scripts/test.sh first)" >&2
    exit 1
fi
if ! command -v valgrind >/dev/null; then
    step "install valgrind"
    sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    "${sudo[@]}" apt-get update -q && "${sudo[@]}" apt-get install -y -q valgrind
fi

pairs=("$@")
if [ ${#pairs[@]} -eq 0 ]; then
    pairs=(Lower/nested1000 LowerTight/nested1000 Alloc/nested1000 Lower/chain2000
           Lower/depth4000 Lower/repeat1000)
fi

# count GROUP/NAME: the instructions of the work alone (the program is built outside it).
count() {
    # The whole signature: a pattern ending in `*` also matches the lambdas inside the function,
    # and entering one would toggle the count off.
    local collect='bs::lower(bs::Schedule const&, *, bs::LowerOptions const&)'
    [ "${1%%/*}" = Alloc ] && collect='bs::allocReport(bs::Schedule const&, bs::AllocReportOptions const&)'
    local out collected
    out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$collect" \
        "$bench" --once="$1" 2>&1) || {
        echo "count-instructions: $1 failed:" >&2
        echo "$out" >&2
        exit 1
    }
    collected=$(echo "$out" | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    if [ -z "$collected" ] || [ "$collected" = 0 ]; then
        echo "count-instructions: $1: callgrind counted nothing in $collect" >&2
        exit 1
    fi
    echo "$collected"
}

stages() { echo "${1##*[!0-9]}"; }

printf '%-24s %16s %16s %12s\n' program instructions "per stage" "x 100"
for large in "${pairs[@]}"; do
    base=${large%%[0-9]*}100
    n=$(stages "$large")
    if [ -z "$n" ] || [ "$n" = 0 ]; then
        echo "count-instructions: '$large' names no program size (e.g. Lower/nested1000)" >&2
        exit 2
    fi
    base_count=$(count "$base")
    large_count=$(count "$large")
    awk -v b="$base" -v bc="$base_count" -v l="$large" -v lc="$large_count" -v n="$n" 'BEGIN {
        printf "%-24s %16.0f %16.0f %12s\n", b, bc, bc / 100, "1"
        printf "%-24s %16.0f %16.0f %12.3f\n", l, lc, lc / n, (lc / n) / (bc / 100)
    }'
done
