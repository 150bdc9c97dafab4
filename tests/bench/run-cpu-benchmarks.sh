#!/usr/bin/env bash
# Builds and runs the CPU benchmarks behind BENCHMARKS.md, printing each program's table, then
# the lowering + JIT compile time of every example; the analysis benchmarks' pairs again in
# instructions (scripts/count-instructions.sh, which installs valgrind when it is missing).
#
#   tests/bench/run-cpu-benchmarks.sh [BUILD_DIR]      (default: build-bench)
#
# Release build with LLVM, without the GUI. The matmul runs twice: with the OpenBLAS kernel
# OpenBLAS picks itself, and with OPENBLAS_CORETYPE=SkylakeX (its AVX-512 kernels), since
# OpenBLAS 0.3.21 picks its AVX2 kernel on AMD CPUs it does not know.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build-bench}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBOUNDSCOPE_WITH_GUI=OFF \
    -DBOUNDSCOPE_WITH_LLVM=ON >/dev/null
ninja -C "$build" bench_llvm_matmul bench_llvm_blur bench_llvm_compile bench_llvm_compact bench_inferbound bench_emulation _boundscope >/dev/null
run() {
    echo "== $* (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
    "$@" --benchmark_counters_tabular=true 2>&1 | grep -v '^\*\*\*WARNING'
}
run "$build/tests/bench/bench_llvm_matmul"
OPENBLAS_CORETYPE=SkylakeX run "$build/tests/bench/bench_llvm_matmul"
run "$build/tests/bench/bench_llvm_blur"
run "$build/tests/bench/bench_llvm_compile"
run "$build/tests/bench/bench_llvm_compact"
run "$build/tests/bench/bench_inferbound"
echo "== the same analysis in instructions (callgrind)"
BUILD_DIR="$build" bash "$root/scripts/count-instructions.sh"
run "$build/tests/bench/bench_emulation"
echo "== lowering + JIT compile time of the examples"
PYTHONPATH="$build/python" /usr/bin/python3 "$root/tests/bench/example_compile_times.py"
