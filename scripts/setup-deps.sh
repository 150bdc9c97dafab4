#!/usr/bin/env bash
# Installs the Debian 12 packages Boundscope's build needs, those that are missing only.
#
#   scripts/setup-deps.sh          the engine, the CLI, the Python front end, LLVM, Graphviz, ISL
#   scripts/setup-deps.sh --gui    and the Qt 6 app
#   scripts/setup-deps.sh --test   and the app and the test tools (GoogleTest, Google Benchmark,
#                                  Xvfb, clang-format 14 for the format check)
#
# Runs apt-get (with sudo when not root) only when a package is missing.
set -euo pipefail

base=(cmake ninja-build ccache g++ pkg-config python3-dev python3-numpy pybind11-dev libcli11-dev
      nlohmann-json3-dev libisl-dev llvm-14-dev libgraphviz-dev libopenblas-dev)
gui=(qt6-base-dev qt6-svg-dev qt6-qpa-plugins)
test=(libgtest-dev libbenchmark-dev xvfb python3-pytest clang-format-14)

wanted=("${base[@]}")
for arg in "$@"; do
    case "$arg" in
    --gui) wanted+=("${gui[@]}") ;;
    --test) wanted+=("${gui[@]}" "${test[@]}") ;;
    -h | --help)
        sed -n '2,10p' "$0"
        exit 0
        ;;
    *)
        echo "setup-deps.sh: unknown option '$arg' (use --gui or --test)" >&2
        exit 2
        ;;
    esac
done

missing=()
for package in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "setup-deps: all ${#wanted[@]} packages are installed"
    exit 0
fi

if ! command -v apt-get >/dev/null; then
    echo "setup-deps: this is not a Debian system; install these packages: ${missing[*]}" >&2
    exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null; then
        echo "setup-deps: run as root or install sudo; missing packages: ${missing[*]}" >&2
        exit 1
    fi
    sudo=(sudo)
fi
echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
