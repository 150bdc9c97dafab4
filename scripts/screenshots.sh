#!/usr/bin/env bash
# Regenerates screenshots/*.png: the main window of boundscope-gui on a few examples, rendered
# headless (QT_QPA_PLATFORM=offscreen) with the app's --screenshot mode. README.md shows them.
#
#   scripts/screenshots.sh [BUILD_DIR]     (default: $BUILD_DIR, else build/, as scripts/test.sh;
#                                           the app must be built there)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-${BUILD_DIR:-$root/build}}"
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
    "$app" --screenshot "$out/$name.png" --size 1600x1000 --example "$example" \
        --select-stage "$stage" "$@"
    echo "screenshots/$name.png"
}

# Ex. 6: what C requests of the shared stage B, and why threadIdx.x was relaxed.
shot ex6_shared_scope ex6_shared_scope B --show dag,ir --pass final
# The same request as a graph: C's request per axis, the relax decisions, the union, the range.
shot ex6_requests_graph ex6_shared_scope B --show requests,bounds
# B's attach path (at C's blockIdx.x loop) and the CUDA kernel with B in __shared__ memory.
shot ex6_attach_tree_cuda ex6_shared_scope B --show attach,code
# The kernel run and checked: a GPU schedule cannot run on the CPU, so the Run panel takes GPU
# emulation (the interpreter runs every block and thread; no GPU needed).
shot ex6_run_emulation ex6_shared_scope B --show itervar,run --run check
# The seed's fuse example under the 2019 rules: C's axes fused then split; B needs 4096 elements.
shot fuse_split_attach_itervars fuse_split_attach C --select-itervar i.j.fused.outer \
    --rules tvm-0.5 --show itervar,ir --pass simplify
# The same schedule's allocations: B needs 8 elements, but TVM 0.5 allocates 4096 (fuse-fallback).
shot fuse_split_attach_allocations fuse_split_attach B --show attach,allocations
# The GatherBound example's heatmap: CA and CB read two 2x2 corners of T; the other 8 elements
# are computed for no one.
shot gather_disjoint_heatmap gather_disjoint T --show heatmap,dag
# The fuse example under the seed's rules and under tvm, side by side: 4096 against 8.
shot fuse_split_attach_compare fuse_split_attach B --show compare,dag
# The loop nest played (Ex. 3): at step 40, C's row 1 is being computed (half of it live), the
# row 0 that D's first row read has been freed.
shot ex3_loop_nest ex3_attach_outer C --show loopnest,attach --frame 40
# A GPU kernel with barriers: every thread of block 0 has loaded its elements of both shared
# tiles before the first multiply-add reads them.
shot gpu_matmul_shared_loop_nest gpu_matmul_shared C --show loopnest,dag --frame 900
# A 50-stage pipeline: the stage DAG draws the chain as one node, the text stays readable.
shot long_pipeline_collapsed long_pipeline S1 --show dag,inspector
# The dark theme: the same views, their colours adapted to the palette.
shot ex6_dark_theme ex6_shared_scope B --show dag,ir --pass final --theme dark
# The Step-through (issue 13) on the same example, stepped to the moment B's request passes up
# through C's fuse: under the seed's rules the 8-element segment falls back to the whole ranges
# (i, j = [0, 63] along the fuse's edges); under tvm it stays in one row: the 8-element box.
shot fuse_split_stepper_seed_rules fuse_split_attach B --rules tvm-0.5 --step pass-up:fuse \
    --show steps,itervar,ir
shot fuse_split_stepper_tvm fuse_split_attach B --step pass-up:fuse --show steps,itervar,ir
# A schedule that fails (issue 13): C computed at a loop of B, but read by R outside it. The
# views show the program up to the failing line with the compute_at edge and the read that no
# iteration can serve marked, and the message at line 10 gives the fix.
"$app" --screenshot "$out/failed_compute_at_no_path.png" --size 1600x1000 \
    "$root/tests/app/cli/scripts/attach_no_path.py" --show dag,ir
echo "screenshots/failed_compute_at_no_path.png"
# A tiled GPU matrix multiply staging A and B through shared memory.
shot gpu_matmul_shared gpu_matmul_shared A.shared --show dag,code
# A Tensor Comprehensions file: TC's input-driven ranges beside InferBound's for its stages.
shot tc_matmul_ranges tc_matmul.tc C --select-itervar r_k --show dag,tc
# A scan: its body in a box computed in every step, the back edge to its state, and the
# bound inference step by step (the scan rules: one row of the update per step).
shot scan_cumsum scan_cumsum s_update --show dag,steps
# An extern stage calling OpenBLAS: its input P is computed whole.
shot extern_cblas extern_cblas P --show dag,steps --step request:extern-input
# Double-buffered shared tiles: the DAG says so, the allocations count two halves.
shot gpu_matmul_double_buffer gpu_matmul_double_buffer A.shared --show dag,allocations
# Tensorize: the tensorized loop in the IterVar graph, the steps binding the intrinsic's buffers.
shot tensorize_gemv tensorize_gemv C --show itervar,steps --step tensorize
# Compact storage: the strided local cache under the compact rules, its allocation beside the
# rectangle rules' and the compaction step with its index map.
shot strided_cache_compact strided_cache B --rules compact --show allocations,steps --step compact
