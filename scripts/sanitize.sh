#!/usr/bin/env bash
# CI's sanitizer job (.ci/run runs it after the test command): the engine, the CLI and the
# tests built with AddressSanitizer and UndefinedBehaviorSanitizer, unoptimized (-O0, which
# compiles fastest), then every test of that build. GUI, Python, LLVM and benchmarks are off:
# without Python the script-driven CLI tests and the Python tests are not built, without LLVM
# the CPU JIT's tests (LLVM's own code is not instrumented either); the random differential
# test runs a shorter campaign (BS_DIFF_CASES, default 400) since instrumented code runs
# several times slower.
#
#   bash scripts/sanitize.sh
#
# Environment: SANITIZE_BUILD_DIR (default build-sanitize/), BS_DIFF_CASES, and scripts/common.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
BUILD_DIR=${SANITIZE_BUILD_DIR:-$root/build-sanitize}
BUILD_TYPE=Debug
CMAKE_ARGS="-DBOUNDSCOPE_WITH_GUI=OFF -DBOUNDSCOPE_WITH_PYTHON=OFF -DBOUNDSCOPE_WITH_LLVM=OFF \
-DBOUNDSCOPE_BUILD_BENCHMARKS=OFF -DBOUNDSCOPE_SANITIZE=address,undefined ${CMAKE_ARGS:-}"

step "dependencies"
bash "$root/scripts/setup-deps.sh" --test
setup_ccache
configure
build

step "tests under ASan and UBSan (ctest)"
# Leak checking is off: the embedded libraries (LLVM's JIT, ISL's context caches) keep memory
# for the process's lifetime by design.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0:detect_stack_use_after_return=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export BS_DIFF_CASES=${BS_DIFF_CASES:-400}
status=0
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$JOBS" --timeout 900 || status=$?
ccache_stats
[ "$status" -eq 0 ] || echo "sanitize.sh: tests failed under the sanitizers (ctest exit status $status)" >&2
exit "$status"
