# Saving and loading built modules as TVM's tensor_expr_get_started tutorial does:
# Module.save (an object file), tvm.contrib.cc.create_shared, tvm.runtime.load_module,
# Module.export_library, tvm.contrib.utils.tempdir.
import os

import numpy as np
import pytest

import tvm
import tvm.testing
from tvm import te
from tvm.contrib import cc, utils


def _vector_add(name="myadd"):
    n = te.var("n")
    A = te.placeholder((n,), name="A")
    B = te.placeholder((n,), name="B")
    C = te.compute(A.shape, lambda i: A[i] + B[i], name="C")
    s = te.create_schedule(C.op)
    return tvm.build(s, [A, B, C], tvm.target.Target("llvm", host="llvm"), name=name)


def _arrays(n=1024):
    a = tvm.nd.array(np.random.uniform(size=n).astype("float32"))
    b = tvm.nd.array(np.random.uniform(size=n).astype("float32"))
    return a, b, tvm.nd.array(np.zeros(n, dtype="float32"))


def test_the_tutorials_save_link_and_load():
    fadd = _vector_add()
    temp = utils.tempdir()
    fadd.save(temp.relpath("myadd.o"))
    cc.create_shared(temp.relpath("myadd.so"), [temp.relpath("myadd.o")])
    assert sorted(temp.listdir()) == ["myadd.o", "myadd.so"]
    fadd1 = tvm.runtime.load_module(temp.relpath("myadd.so"))
    assert fadd1.entry_name == "myadd" and fadd1.imported_modules == []
    a, b, c = _arrays()
    fadd1(a, b, c)
    tvm.testing.assert_allclose(c.numpy(), a.numpy() + b.numpy())

    fadd.export_library(temp.relpath("myadd_pack.so"))
    fadd2 = tvm.runtime.load_module(temp.relpath("myadd_pack.so"))
    a, b, c = _arrays(37)
    fadd2(a, b, c)
    tvm.testing.assert_allclose(c.numpy(), a.numpy() + b.numpy())
    assert fadd2.time_evaluator(fadd2.entry_name, tvm.cpu(0), number=3)(a, b, c).mean > 0
    temp.remove()


def test_a_loaded_kernel_checks_its_arguments_as_a_built_one():
    temp = utils.tempdir()
    _vector_add().export_library(temp.relpath("lib.so"))
    f = tvm.runtime.load_module(temp.relpath("lib.so"))
    a, b, c = _arrays(16)
    with pytest.raises(tvm.TVMError, match=r"myadd takes 3 arguments \(A, B, C\), got 2"):
        f(a, b)
    with pytest.raises(tvm.TVMError, match="expects dtype float32, got float64"):
        f(a, b, np.zeros(16))
    with pytest.raises(tvm.TVMError, match="'n' is 8 here but 16"):
        f(a, b, np.zeros(8, "float32"))


def test_scalars_and_fixed_shapes_survive_the_metadata():
    alpha = te.var("alpha", "float32")
    A = te.placeholder((4, 8), name="A")
    B = te.compute((4, 8), lambda i, j: A[i, j] * alpha, name="B")
    f = tvm.build(te.create_schedule(B.op), [A, alpha, B], name="scale")
    temp = utils.tempdir()
    f.export_library(temp.relpath("scale.so"))
    g = tvm.runtime.load_module(temp.relpath("scale.so"))
    a = np.arange(32, dtype="float32").reshape(4, 8)
    b = np.zeros((4, 8), "float32")
    g(a, 0.5, b)
    np.testing.assert_allclose(b, a * 0.5)
    with pytest.raises(tvm.TVMError, match=r"expects shape \(4, 8\)"):
        g(np.zeros((4, 4), "float32"), 0.5, np.zeros((4, 4), "float32"))


def test_llvm_ir_is_saved_as_text():
    temp = utils.tempdir()
    _vector_add().save(temp.relpath("myadd.ll"))
    with open(temp.relpath("myadd.ll")) as ir:
        assert "define" in ir.read()


def test_what_cannot_be_saved_or_loaded_says_why():
    n = 1 << 16
    A = te.placeholder((n,), name="A")
    B = te.compute((n,), lambda i: A[i] * 2, name="B")
    s = te.create_schedule(B.op)
    s[B].parallel(B.op.axis[0])
    temp = utils.tempdir()
    with pytest.raises(tvm.TVMError, match="calls Boundscope's runtime"):
        tvm.build(s, [A, B]).save(temp.relpath("p.o"))
    assert not os.path.exists(temp.relpath("p.o"))
    with pytest.raises(tvm.TVMError, match="cannot save a module as 'txt'"):
        _vector_add().save(temp.relpath("f.txt"))
    with pytest.raises(tvm.TVMError, match="cannot load '.*missing.so'"):
        tvm.runtime.load_module(temp.relpath("missing.so"))
    with open(temp.relpath("empty.c"), "w") as src:
        src.write("int nothing(void) { return 0; }\n")
    cc.create_shared(temp.relpath("other.so"), [temp.relpath("empty.c")])
    with pytest.raises(tvm.TVMError, match="holds no Boundscope kernel"):
        tvm.runtime.load_module(temp.relpath("other.so"))
    with pytest.raises(tvm.TVMError, match="exports a shared library"):
        _vector_add().export_library(temp.relpath("f.tar"))
    with pytest.raises(RuntimeError, match="Compilation error"):
        cc.create_shared(temp.relpath("bad.so"), [temp.relpath("missing.o")])


def test_names_a_library_cannot_keep_are_refused_when_saving():
    A = te.placeholder((4,), name="my A")
    B = te.compute((4,), lambda i: A[i] + 1, name="B")
    temp = utils.tempdir()
    with pytest.raises(tvm.TVMError, match="the tensor 'my A' is not a name a saved kernel can keep"):
        tvm.build(te.create_schedule(B.op), [A, B], name="f").save(temp.relpath("f.o"))


def _library_with_metadata(temp, name, lines):
    # A shared library as Module.save's would be, with the given metadata lines.
    text = "\\n".join(["boundscope-kernel 1", "entry k"] + lines) + "\\n"
    with open(temp.relpath(name + ".cc"), "w") as src:
        src.write('extern "C" { extern const char boundscope_kernel_metadata[] = "%s";\n'
                  "int k(void** b, long* s) { return 0; } }\n" % text)
    cc.create_shared(temp.relpath(name + ".so"), [temp.relpath(name + ".cc")])
    return temp.relpath(name + ".so")


def test_malformed_metadata_is_one_error_naming_the_file():
    temp = utils.tempdir()
    good = _library_with_metadata(temp, "good", ["param array in float32 A 4",
                                                 "param array out float32 B 3000000000"])
    f = tvm.runtime.load_module(good)
    assert f.entry_name == "k"
    for name, lines, message in (
            ("huge", ["param array in float32 A 99999999999999999999999"], "too large"),
            ("negative", ["param array in float32 A -4"], "has the extent '-4'"),
            ("dtype", ["param array in floaty A 4"], "floaty"),
            ("twice", ["param scalar int32 n", "param scalar int64 n"], "two types"),
            ("unknown", ["frobnicate 1"], "does not read: 'frobnicate...'"),
            ("dangling", ["kernel-scalar m"], "names the scalar 'm'")):
        path = _library_with_metadata(temp, name, lines)
        with pytest.raises(tvm.TVMError, match="cannot load '.*%s.so': .*%s" % (name, message)):
            tvm.runtime.load_module(path)


def test_a_custom_temporary_directory_must_be_new():
    temp = utils.tempdir()
    existing = temp.relpath("existing")
    os.mkdir(existing)
    with pytest.raises(FileExistsError):
        utils.tempdir(existing)
    assert os.path.isdir(existing)
    fresh = utils.tempdir(temp.relpath("fresh"))
    assert os.path.isdir(fresh.temp_dir)
    fresh.remove()
    assert not os.path.exists(temp.relpath("fresh"))


if __name__ == "__main__":
    tvm.testing.main()
