#!/usr/bin/env python3
"""The layering of the engine, checked on the sources (issue 21; DESIGN.md, "Layers").

Each engine module (a folder of engine/) may include its own headers and those of the modules it
links, directly or through them, as engine/CMakeLists.txt declares them
(`boundscope_module(NAME DEPS bs_a bs_b)`); engine/script, the top of the engine, may include
any of them. Besides: no Qt header anywhere in engine/ or app/cli, LLVM headers only in
engine/codegen/llvm, and nothing in engine/ includes the app. Some links are forbidden
whatever the CMake files declare (FORBIDDEN): code generation (engine/codegen and
engine/codegen/llvm) runs nothing, so it links neither runtime nor run; and only engine/run
includes the JIT (ONLY_IN), so the CLI, the app and tvm.build run kernels one way.

The build enforces the same graph (engine/CMakeLists.txt, each module's own include root);
this check names every problem at once and also covers what a compiler does not see.

    scripts/check_layers.py [ROOT]      prints each forbidden include as FILE:LINE: ... and
                                        exits 1 when there is one
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
MODULE = re.compile(r"boundscope_module\((\w+)(?:\s+DEPS\s+([^)]*))?\)")
LINK = re.compile(r"target_link_libraries\((?:bs_|boundscope::)(\w+)\s+([^)]*)\)")


def module_names(listed):
    """The engine modules a DEPS or link list names, as bs_x or boundscope::x."""
    names = []
    for item in listed.split():
        for prefix in ("bs_", "boundscope::"):
            if item.startswith(prefix):
                names.append(item[len(prefix):])
    return names
# Headers that only some modules may include (besides their own module): kernels are compiled
# and run one way, through engine/run (run/CpuExecutable.h, run/CudaExecutor.h).
ONLY_IN = {
    "codegen/llvm/LlvmJit.h": ({"run"}, "kernels run through run/CpuExecutable.h"),
}
# (module, module it must never link or include, why)
FORBIDDEN = [
    ("codegen", "runtime", "code generation runs nothing"),
    ("codegen", "run", "code generation runs nothing"),
]


def module_graph(root):
    text = (root / "engine" / "CMakeLists.txt").read_text()
    deps = {}
    for name, listed in MODULE.findall(text):
        deps[name] = module_names(listed)
    # Links added after the module is declared, here and in engine/codegen/llvm (part of
    # codegen); engine/script is the top and may link anything.
    llvm = root / "engine" / "codegen" / "llvm" / "CMakeLists.txt"
    for cmake in [text] + ([llvm.read_text()] if llvm.exists() else []):
        for name, listed in LINK.findall(cmake):
            name = "codegen" if name == "codegen_llvm" else name
            if name in deps:
                deps[name] += [d for d in module_names(listed) if d != "codegen_llvm"]
    closure = {}

    def reach(name):
        if name not in closure:
            closure[name] = {name}
            for dep in deps.get(name, []):
                closure[name] |= reach(dep)
        return closure[name]

    for name in deps:
        reach(name)
    return closure


def sources(folder):
    for path in sorted(folder.rglob("*")):
        if path.suffix in (".h", ".cpp") and path.is_file():
            yield path


def check(root):
    allowed = module_graph(root)
    modules = set(allowed) | {"script"}
    problems = []
    for module, target, why in FORBIDDEN:
        if target in allowed.get(module, set()):
            problems.append(f"engine/CMakeLists.txt: engine/{module} links engine/{target} "
                            f"({why})")
    engine = root / "engine"
    for path in sources(engine):
        relative = path.relative_to(engine)
        module = relative.parts[0]
        in_llvm = relative.parts[:2] == ("codegen", "llvm")
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            kind, header = match.groups()
            where = f"{path.relative_to(root)}:{number}"
            top = header.split("/")[0]
            if kind == "<" and re.match(r"Q[A-Za-z]", top):
                problems.append(f"{where}: the engine includes Qt ({header})")
            elif top in ("llvm", "llvm-c") and not in_llvm:
                problems.append(f"{where}: LLVM headers belong in engine/codegen/llvm ({header})")
            elif kind == '"' and top in ("app", "gui", "cli"):
                problems.append(f"{where}: the engine includes the app ({header})")
            elif kind == '"' and header in ONLY_IN and module != top and \
                    module not in ONLY_IN[header][0]:
                problems.append(f"{where}: engine/{module} includes {header}: "
                                f"{ONLY_IN[header][1]}")
            elif kind == '"' and any(module == m and top == f for m, f, _ in FORBIDDEN):
                why = next(w for m, f, w in FORBIDDEN if m == module and f == top)
                problems.append(f"{where}: engine/{module} includes engine/{top} ({header}): {why}")
            elif kind == '"' and top in modules and module != "script":
                if module in allowed and top not in allowed[module]:
                    problems.append(
                        f"{where}: engine/{module} includes engine/{top} ({header}), which it "
                        f"does not link (it links {', '.join(sorted(allowed[module] - {module})) or 'nothing'})")
    for path in sources(root / "app"):
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if match and match.group(1) == '"' and match.group(2) in ONLY_IN:
                problems.append(f"{path.relative_to(root)}:{number}: the app includes "
                                f"{match.group(2)}: {ONLY_IN[match.group(2)][1]}")
    for path in sources(root / "app" / "cli"):
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if match and match.group(1) == "<" and re.match(r"Q[A-Za-z]", match.group(2)):
                problems.append(f"{path.relative_to(root)}:{number}: the CLI includes Qt")
    return problems


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    problems = check(root.resolve())
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
