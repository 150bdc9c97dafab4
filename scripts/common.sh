# Shared by run-app.sh and test.sh (sourced, not run): where to build and how.
#
# Environment: BUILD_DIR (default build/ in the repository), BUILD_TYPE (default RelWithDebInfo),
# CCACHE_DIR (default ~/.ccache), CCACHE_MAXSIZE (default 5G), JOBS (default: all cores),
# CMAKE_ARGS (extra arguments for the configure step, e.g. "-DBOUNDSCOPE_WITH_GUI=OFF").

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$root/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$root/$BUILD_DIR ;; esac
BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo}
JOBS=${JOBS:-$(nproc)}

step() { printf '\n== %s\n' "$*"; }

setup_ccache() {
    export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
    # Paths relative to the checkout, so another clone or build folder reuses the cache (a CI
    # run on a fresh clone hits what an earlier run compiled).
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}
    export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
    mkdir -p "$CCACHE_DIR"
    ccache --max-size="${CCACHE_MAXSIZE:-5G}" >/dev/null
    ccache --zero-stats >/dev/null
}

configure() {
    step "configure $BUILD_DIR ($BUILD_TYPE, Ninja, ccache)"
    # shellcheck disable=SC2086 # CMAKE_ARGS is a list of arguments
    cmake -S "$root" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
        -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache ${CMAKE_ARGS:-}
}

# build [TARGET...]: everything when no target is named.
build() {
    step "build ${*:-everything} (ninja -j$JOBS)"
    ninja -C "$BUILD_DIR" -j"$JOBS" "$@"
}

ccache_stats() {
    step "ccache statistics ($CCACHE_DIR)"
    ccache -s || true
}
