#!/usr/bin/env bash
# Regenerates screenshots/*.png: the main window of boundscope-gui on a few examples, rendered
# headless (QT_QPA_PLATFORM=offscreen) with the app's --screenshot mode. README.md shows them.
#
#   scripts/screenshots.sh [BUILD_DIR]     (default: build-gui; the app must be built there)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-${BUILD_DIR:-$root/build-gui}}"
app="$build/app/gui/boundscope-gui"
out="$root/screenshots"

if [[ ! -x "$app" ]]; then
    echo "screenshots.sh: $app not found; build it with: ninja -C $build boundscope-gui" >&2
    exit 1
fi
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen
# A private settings folder: the user's saved layout must not change the pictures.
XDG_CONFIG_HOME="$(mktemp -d)"
export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT

# shot NAME EXAMPLE STAGE [more app options]
shot() {
    local name="$1" example="$2" stage="$3"
    shift 3
    "$app" --screenshot "$out/$name.png" --example "$example" --select-stage "$stage" "$@"
    echo "screenshots/$name.png"
}

shot ex6_shared_scope ex6_shared_scope B --pass final
shot fuse_split_attach_tvm06 fuse_split_attach B --rules tvm-0.6 --pass simplify
shot blur_compute_at blur_compute_at Bx --show bounds
