"""scripts/check_layers.py: the tree follows its module graph, and each kind of forbidden
include is caught (a deliberate one in a copy of the layout)."""
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECK = ROOT / "scripts" / "check_layers.py"


def run(root):
    return subprocess.run([sys.executable, str(CHECK), str(root)], capture_output=True, text=True)


def test_the_tree_follows_its_layers():
    result = run(ROOT)
    assert result.returncode == 0, result.stdout


def test_forbidden_includes_are_named():
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "engine" / "schedule").mkdir(parents=True)
        (root / "engine" / "ir").mkdir()
        (root / "app" / "cli").mkdir(parents=True)
        shutil.copy(ROOT / "engine" / "CMakeLists.txt", root / "engine" / "CMakeLists.txt")
        (root / "engine" / "schedule" / "Upward.cpp").write_text(
            '#include "schedule/Schedule.h"\n#include "te/Tensor.h"\n#include "lower/Lower.h"\n')
        (root / "engine" / "ir" / "Bad.h").write_text(
            "#include <QString>\n#include <llvm/IR/Module.h>\n#include \"app/gui/X.h\"\n")
        (root / "app" / "cli" / "Main.cpp").write_text("#include <QObject>\n")
        result = run(root)
        assert result.returncode == 1
        lines = result.stdout.splitlines()
        assert any(l.startswith("engine/schedule/Upward.cpp:3: engine/schedule includes "
                                "engine/lower (lower/Lower.h)") for l in lines), lines
        assert "engine/ir/Bad.h:1: the engine includes Qt (QString)" in lines
        assert "engine/ir/Bad.h:2: LLVM headers belong in engine/codegen/llvm (llvm/IR/Module.h)" in lines
        assert "engine/ir/Bad.h:3: the engine includes the app (app/gui/X.h)" in lines
        assert "app/cli/Main.cpp:1: the CLI includes Qt" in lines
        assert len(lines) == 5, lines  # schedule's own and te's headers are allowed


def test_code_generation_never_links_what_runs_kernels():
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "engine" / "codegen" / "llvm").mkdir(parents=True)
        text = (ROOT / "engine" / "CMakeLists.txt").read_text()
        (root / "engine" / "CMakeLists.txt").write_text(
            text.replace("boundscope_module(codegen DEPS bs_lower)",
                         "boundscope_module(codegen DEPS bs_lower bs_runtime)"))
        (root / "engine" / "codegen" / "llvm" / "CMakeLists.txt").write_text(
            "target_link_libraries(bs_codegen_llvm PUBLIC bs_codegen boundscope::run PRIVATE LLVM)\n")
        (root / "engine" / "codegen" / "Runs.cpp").write_text('#include "runtime/Buffer.h"\n')
        (root / "engine" / "script").mkdir()
        (root / "engine" / "script" / "Jit.cpp").write_text(
            '#include "codegen/llvm/LlvmJit.h"\n')
        (root / "app" / "cli").mkdir(parents=True)
        (root / "app" / "gui").mkdir(parents=True)
        (root / "app" / "gui" / "Runs.cpp").write_text('#include "codegen/llvm/LlvmJit.h"\n')
        result = run(root)
        assert result.returncode == 1
        lines = result.stdout.splitlines()
        assert ("app/gui/Runs.cpp:1: the app includes codegen/llvm/LlvmJit.h: kernels run "
                "through run/CpuExecutable.h") in lines, lines
        assert ("engine/CMakeLists.txt: engine/codegen links engine/runtime (code generation "
                "runs nothing)") in lines, lines
        assert ("engine/CMakeLists.txt: engine/codegen links engine/run (code generation "
                "runs nothing)") in lines, lines
        assert ("engine/codegen/Runs.cpp:1: engine/codegen includes engine/runtime "
                "(runtime/Buffer.h): code generation runs nothing") in lines, lines
        assert ("engine/script/Jit.cpp:1: engine/script includes codegen/llvm/LlvmJit.h: "
                "kernels run through run/CpuExecutable.h") in lines, lines


if __name__ == "__main__":
    test_the_tree_follows_its_layers()
    test_forbidden_includes_are_named()
    test_code_generation_never_links_what_runs_kernels()
    print("ok")
