#!/usr/bin/env bash
# README command 2: installs what is missing, builds everything and runs every test with CTest.
#
#   bash scripts/test.sh
#
# Exits non-zero when the build or a test fails. Environment: see scripts/common.sh (BUILD_DIR,
# BUILD_TYPE, CCACHE_DIR, JOBS, CMAKE_ARGS).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

step "dependencies"
bash "$root/scripts/setup-deps.sh" --test
setup_ccache
configure
build

step "tests (ctest)"
# The app's tests draw off screen unless a platform is chosen.
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
status=0
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$JOBS" --timeout 600 || status=$?
ccache_stats
if [ "$status" -ne 0 ]; then
    echo "test.sh: tests failed (ctest exit status $status)" >&2
fi
exit "$status"
