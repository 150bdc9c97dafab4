#!/usr/bin/env bash
# Runs ON THE GPU MACHINE (the device tool's `run`), from the repository root: builds the CUDA
# code generator's tests with only a compiler, CMake and the .deb packages that
# scripts/fetch-device-deps.sh downloaded into .device-deps/ (unpacked into a private prefix,
# nothing installed), runs them (the CudaGpu and CudaLowered tests then compile with NVRTC,
# launch on the GPU and compare with a CPU reference), and writes the logs into $OUT.
#
#   here:    scripts/fetch-device-deps.sh
#   device:  run(command="bash scripts/gpu-check.sh", carry=[".device-deps"])
#
# Files in $OUT: summary.txt (one line per step, then the test verdicts), machine.txt,
# configure.log, build.log, tests.log, and with GPU_CHECK_FULL=1 (the default) build-all.log and
# ctest.log for the whole project. Exit status: 0 when the CUDA tests pass and none was skipped
# for want of a GPU on a machine where nvidia-smi sees one.
#
# Environment: OUT (default build-gpu/out), GPU_CHECK_BUILD_DIR (default build-gpu),
# GPU_CHECK_JOBS (default: all cores), GPU_CHECK_FULL (0 skips the whole-project build),
# GPU_CHECK_DEADLINE (seconds after which the whole-project steps stop, default 540).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${GPU_CHECK_BUILD_DIR:-$root/build-gpu}
out=${OUT:-$build/out}
jobs=${GPU_CHECK_JOBS:-$(nproc)}
full=${GPU_CHECK_FULL:-1}
prefix="$build/deps"
mkdir -p "$out" "$prefix"
rm -f "$out"/*.log
summary="$out/summary.txt"
: >"$summary"

note() { echo "$*" | tee -a "$summary"; }
fail() {
    note "FAILED: $*"
    exit 1
}
# Runs a step with its output in a log; notes how it went and how long it took.
step() {
    local name=$1 logfile=$2
    shift 2
    local start=$SECONDS
    if "$@" >>"$logfile" 2>&1; then
        note "ok: $name ($((SECONDS - start)) s)"
        return 0
    fi
    note "error: $name ($((SECONDS - start)) s), see $(basename "$logfile")"
    return 1
}

# 1. The machine.
{
    uname -a
    nvidia-smi || echo "nvidia-smi: not available"
    command -v nvcc && nvcc --version
    ls /usr/local/cuda/bin/nvcc 2>/dev/null
    cmake --version | head -1
    c++ --version | head -1
    ldconfig -p | grep -E 'libcuda\.so|libnvrtc\.so' || echo "ldconfig: no libcuda/libnvrtc"
} >"$out/machine.txt" 2>&1
gpu_visible=0
nvidia-smi -L >/dev/null 2>&1 && gpu_visible=1
note "GPU visible to nvidia-smi: $gpu_visible"

# 2. Build dependencies from the carried .deb files, unpacked into a prefix.
shopt -s nullglob
debs=("$root"/.device-deps/*.deb)
[ ${#debs[@]} -gt 0 ] ||
    fail "no .deb files in .device-deps: run scripts/fetch-device-deps.sh and carry .device-deps"
# dpkg-deb -x where dpkg exists, else by hand: a .deb is an ar archive holding data.tar.*.
unpack() {
    if command -v dpkg-deb >/dev/null; then
        dpkg-deb -x "$1" "$prefix"
        return
    fi
    local member
    member=$(ar t "$1" | grep '^data\.tar') || return 1
    case "$member" in
    *.xz) ar p "$1" "$member" | xz -dc | tar -x -C "$prefix" ;;
    *.zst) ar p "$1" "$member" | zstd -dc | tar -x -C "$prefix" ;;
    *.gz) ar p "$1" "$member" | gzip -dc | tar -x -C "$prefix" ;;
    *) ar p "$1" "$member" | tar -x -C "$prefix" ;;
    esac
}
for deb in "${debs[@]}"; do
    unpack "$deb" || fail "cannot unpack $(basename "$deb")"
done
gtest_dir=$(dirname "$(find "$prefix" -name GTestConfig.cmake | head -1)")
json_dir=$(dirname "$(find "$prefix" -name nlohmann_jsonConfig.cmake | head -1)")
cli11_dir=$(dirname "$(find "$prefix" -name CLI11Config.cmake | head -1)")
benchmark_dir=$(dirname "$(find "$prefix" -name benchmarkConfig.cmake | head -1)")
note "deps: GTest_DIR=$gtest_dir nlohmann_json_DIR=$json_dir CLI11_DIR=$cli11_dir benchmark_DIR=$benchmark_dir"
# The unpacked shared libraries (libbenchmark) are found at run time from the prefix.
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bench=OFF
[ "$benchmark_dir" != "." ] && bench=ON

# 3. Configure: no GUI, LLVM, Graphviz or Python (the GPU machine has none of them).
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
step configure "$out/configure.log" cmake -S "$root" -B "$build" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DBOUNDSCOPE_WITH_GUI=OFF -DBOUNDSCOPE_WITH_LLVM=OFF \
    -DBOUNDSCOPE_WITH_GRAPHVIZ=OFF -DBOUNDSCOPE_WITH_PYTHON=OFF \
    -DBOUNDSCOPE_BUILD_BENCHMARKS=$bench -Dbenchmark_DIR="$benchmark_dir" \
    -DCMAKE_PREFIX_PATH="$prefix/usr" -DGTest_ROOT="$prefix/usr" \
    -DGTest_DIR="$gtest_dir" -Dnlohmann_json_DIR="$json_dir" -DCLI11_DIR="$cli11_dir" ||
    fail "configure"

# 4. Build and run the CUDA tests (codegen, and the lowering passes they rest on).
step "build CUDA tests" "$out/build.log" \
    cmake --build "$build" --target test_engine_codegen test_engine_lower test_engine_run -j "$jobs" ||
    fail "build"
tests_ok=1
step "test_engine_codegen" "$out/tests.log" "$build/tests/test_engine_codegen" || tests_ok=0
step "SplitHostDevice and ThreadSync tests" "$out/tests.log" "$build/tests/test_engine_lower" \
    --gtest_filter='SplitHostDevice*:ThreadSync*' || tests_ok=0
step "cross-thread reductions and runs on the cuda target" "$out/tests.log" \
    "$build/tests/test_engine_run" --gtest_filter='CrossThreadReduction*:RunKernel*' || tests_ok=0
passed=$(grep -cE '^\[       OK \] (Cuda|SplitHostDevice|ThreadSync|CrossThreadReduction|RunKernel)' "$out/tests.log")
# Each skipped test once (gtest lists them again at the end, without a time).
skipped=$(grep -cE '^\[  SKIPPED \] (Cuda(Gpu|Lowered)|CrossThreadReduction)\..* \([0-9]+ ms\)$' "$out/tests.log")
note "CUDA tests passed: $passed, GPU tests skipped: $skipped"
grep -E '^(GPU:|tiled 64x64)' "$out/tests.log" | tee -a "$summary"
if [ "$gpu_visible" = 1 ] && [ "$skipped" -gt 0 ]; then
    grep -m1 -A1 'Skipped' "$out/tests.log" | tee -a "$summary"
    tests_ok=0
    note "a GPU is visible but the GPU tests were skipped"
fi

# 5. The GPU benchmark (tests/bench/CudaMatmulBench.cpp): figures for BENCHMARKS.md.
if [ "$bench" = ON ] && [ "$gpu_visible" = 1 ]; then
    step "build bench_cuda_matmul" "$out/bench.log" cmake --build "$build" --target bench_cuda_matmul -j "$jobs" &&
        step "bench_cuda_matmul" "$out/bench.log" "$build/tests/bench/bench_cuda_matmul" \
            --benchmark_counters_tabular=true --benchmark_out="$out/bench.json" --benchmark_out_format=json
    grep -E '^BM_' "$out/bench.log" | tee -a "$summary"
fi

# 6. The whole project (engine, CLI, every test), as a CPU machine builds it: informative only,
# and only in the time left before GPU_CHECK_DEADLINE seconds (the device allows 600 a command).
deadline=${GPU_CHECK_DEADLINE:-540}
if [ "$full" = 1 ] && [ $((deadline - SECONDS)) -gt 60 ]; then
    if step "build everything" "$out/build-all.log" \
        timeout $((deadline - SECONDS - 30)) cmake --build "$build" -j "$jobs"; then
        step "ctest" "$out/ctest.log" timeout $((deadline - SECONDS)) \
            ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 120
        tail -n 3 "$out/ctest.log" | tee -a "$summary"
    fi
elif [ "$full" = 1 ]; then
    note "skipped the whole-project build: less than a minute left"
fi

[ "$tests_ok" = 1 ] && note "RESULT: CUDA checks passed" && exit 0
fail "CUDA checks, see tests.log"
