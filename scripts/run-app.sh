#!/usr/bin/env bash
# README command 1: installs what is missing, builds, and opens Boundscope on an example.
#
#   bash scripts/run-app.sh [EXAMPLE.py]     (default resources/examples/default.py)
#
# Opens the Qt app (boundscope-gui) when it is built and a display is available; otherwise runs
# the example with the command line, `boundscope script EXAMPLE.py`, and prints its output.
# Environment: see scripts/common.sh (BUILD_DIR, BUILD_TYPE, CCACHE_DIR, JOBS, CMAKE_ARGS).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

example=${1:-$root/resources/examples/default.py}

step "dependencies"
bash "$root/scripts/setup-deps.sh" --gui
setup_ccache
configure

targets=(boundscope)
if ninja -C "$BUILD_DIR" -t targets all | grep -q '^boundscope-gui:'; then
    targets+=(boundscope-gui)
fi
build "${targets[@]}"
ccache_stats

gui=$BUILD_DIR/app/gui/boundscope-gui
if [ -x "$gui" ]; then
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        step "open $example in the app"
        exec "$gui" "$example"
    fi
    echo "run-app: no display (DISPLAY is not set), so the example runs in the command line" \
         "instead; xvfb-run -a bash scripts/run-app.sh opens the app on a virtual display"
fi
step "boundscope script $example"
exec "$BUILD_DIR/app/cli/boundscope" script "$example"
