# Optional parts of Boundscope. Each is on by default where its packages are found, so the
# engine and the CLI build on a machine with only a compiler, CMake and Python.

include(CheckIncludeFileCXX)

find_package(LLVM 14 CONFIG QUIET)
find_package(Qt6 COMPONENTS Widgets Svg QUIET)
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
    pkg_check_modules(GRAPHVIZ QUIET IMPORTED_TARGET libgvc libcgraph)
    # The integer set library (libisl-dev): exact integer reasoning for the tight InferBound rules.
    pkg_check_modules(ISL QUIET IMPORTED_TARGET isl)
endif()
if(EXISTS /usr/bin/python3 AND NOT Python3_EXECUTABLE)
    # python3 on PATH may be a pyenv build; embed Debian's.
    set(Python3_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python3 COMPONENTS Interpreter Development.Embed QUIET)
find_package(pybind11 CONFIG QUIET)
if(NOT pybind11_FOUND AND Python3_Interpreter_FOUND)
    execute_process(COMMAND ${Python3_EXECUTABLE} -m pybind11 --cmakedir
                    OUTPUT_VARIABLE _pybind11_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_pybind11_dir)
        find_package(pybind11 CONFIG QUIET PATHS ${_pybind11_dir} NO_DEFAULT_PATH)
    endif()
endif()
find_package(GTest QUIET)
find_package(benchmark QUIET)

set(_llvm_default OFF)
if(LLVM_FOUND)
    set(_llvm_default ON)
endif()
set(_gui_default OFF)
if(Qt6_FOUND)
    set(_gui_default ON)
endif()
set(_graphviz_default OFF)
if(GRAPHVIZ_FOUND)
    set(_graphviz_default ON)
endif()
set(_isl_default OFF)
if(ISL_FOUND)
    set(_isl_default ON)
endif()
set(_python_default OFF)
if(Python3_Development.Embed_FOUND AND pybind11_FOUND)
    set(_python_default ON)
endif()

option(BOUNDSCOPE_WITH_LLVM "CPU code generation with LLVM 14 (ORC JIT)" ${_llvm_default})
option(BOUNDSCOPE_WITH_GUI "The Qt 6 desktop app" ${_gui_default})
option(BOUNDSCOPE_WITH_GRAPHVIZ "Graph layout with Graphviz (cgraph/gvc)" ${_graphviz_default})
option(BOUNDSCOPE_WITH_ISL "Exact integer sets with ISL (the tight InferBound rules)" ${_isl_default})
option(BOUNDSCOPE_WITH_PYTHON "The embedded Python front end (pybind11)" ${_python_default})
option(BOUNDSCOPE_BUILD_TESTS "Build the GoogleTest suites" ON)
# scripts/sanitize.sh: e.g. "address,undefined" instruments every target (CI's sanitizer job).
set(BOUNDSCOPE_SANITIZE "" CACHE STRING "Sanitizers to build with (-fsanitize=...), empty for none")
if(BOUNDSCOPE_SANITIZE)
    add_compile_options(-fsanitize=${BOUNDSCOPE_SANITIZE} -fno-omit-frame-pointer
                        -fno-sanitize-recover=all)
    add_link_options(-fsanitize=${BOUNDSCOPE_SANITIZE})
endif()
option(BOUNDSCOPE_BUILD_BENCHMARKS "Build the Google Benchmark programs" ${benchmark_FOUND})

if(BOUNDSCOPE_WITH_ISL AND NOT ISL_FOUND)
    message(FATAL_ERROR "BOUNDSCOPE_WITH_ISL is on but ISL was not found: install libisl-dev "
                        "(and pkg-config) or configure with -DBOUNDSCOPE_WITH_ISL=OFF")
endif()
if(NOT BOUNDSCOPE_WITH_ISL)
    message(STATUS "Boundscope: building without ISL (libisl-dev): the tight InferBound rules "
                   "and the exact counts of the allocation report are unavailable")
endif()

message(STATUS "Boundscope: LLVM=${BOUNDSCOPE_WITH_LLVM} GUI=${BOUNDSCOPE_WITH_GUI} ISL=${BOUNDSCOPE_WITH_ISL} "
               "Graphviz=${BOUNDSCOPE_WITH_GRAPHVIZ} Python=${BOUNDSCOPE_WITH_PYTHON} "
               "tests=${BOUNDSCOPE_BUILD_TESTS} benchmarks=${BOUNDSCOPE_BUILD_BENCHMARKS}")
