#include "DiffPrograms.h"

#include "ir/Op.h"
#include "te/Compute.h"
#include "te/Reduce.h"

namespace bs::test {

namespace {

Expr f32(double v) { return makeConst(DataType::float32(), v); }

const char* kPrelude = "import tvm\nfrom tvm import te\n";

DiffProgram elementwiseChain() {
    Tensor a = placeholder({10, 12}, DataType::float32(), "A");
    Tensor b = compute(
        {10, 12},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * f32(2);
        },
        "B");
    Tensor c = compute(
        {10, 12},
        [&](const std::vector<Var>& v) {
            return b({v[0], v[1]}) + a({v[0], v[1]});
        },
        "C");
    Tensor d = compute(
        {10, 12},
        [&](const std::vector<Var>& v) {
            return c({v[0], v[1]}) - f32(1);
        },
        "D");
    std::string py = std::string(kPrelude) +
                     "A = te.placeholder((10, 12), name=\"A\")\n"
                     "B = te.compute((10, 12), lambda i, j: A[i, j] * 2.0, name=\"B\")\n"
                     "C = te.compute((10, 12), lambda i, j: B[i, j] + A[i, j], name=\"C\")\n"
                     "D = te.compute((10, 12), lambda i, j: C[i, j] - 1.0, name=\"D\")\n"
                     "s = te.create_schedule(D.op)\n";
    return {"elementwise", py, {a, d}, {}};
}

DiffProgram matmul() {
    Tensor a = placeholder({12, 9}, DataType::float32(), "A");
    Tensor b = placeholder({9, 10}, DataType::float32(), "B");
    IterVar k = reduceAxis(Range(0, 9), "k");
    Tensor c = compute(
        {12, 10},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k->var}) * b({k->var, v[1]}), k);
        },
        "C");
    std::string py =
        std::string(kPrelude) +
        "A = te.placeholder((12, 9), name=\"A\")\n"
        "B = te.placeholder((9, 10), name=\"B\")\n"
        "k = te.reduce_axis((0, 9), name=\"k\")\n"
        "C = te.compute((12, 10), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name=\"C\")\n"
        "s = te.create_schedule(C.op)\n";
    return {"matmul", py, {a, b, c}, {}};
}

DiffProgram stencil() {
    Tensor a = placeholder({14, 13}, DataType::float32(), "A");
    Tensor p = compute(
        {14, 13},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * f32(0.5);
        },
        "P");
    Tensor c = compute(
        {12, 11},
        [&](const std::vector<Var>& v) {
            Expr total;
            for (int di = 0; di < 3; ++di)
                for (int dj = 0; dj < 3; ++dj) {
                    Expr term = p({v[0] + di, v[1] + dj});
                    total = total.defined() ? total + term : term;
                }
            return total;
        },
        "C");
    std::string py = std::string(kPrelude) +
                     "A = te.placeholder((14, 13), name=\"A\")\n"
                     "P = te.compute((14, 13), lambda i, j: A[i, j] * 0.5, name=\"P\")\n"
                     "C = te.compute((12, 11), lambda i, j: P[i, j] + P[i, j + 1] + P[i, j + 2]"
                     " + P[i + 1, j] + P[i + 1, j + 1] + P[i + 1, j + 2]"
                     " + P[i + 2, j] + P[i + 2, j + 1] + P[i + 2, j + 2], name=\"C\")\n"
                     "s = te.create_schedule(C.op)\n";
    return {"stencil", py, {a, c}, {}};
}

DiffProgram reduction() {
    Tensor a = placeholder({6, 5, 7}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 5), "k"), l = reduceAxis(Range(0, 7), "l");
    Tensor r = compute(
        {6},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k->var, l->var}), {k, l});
        },
        "R");
    std::string py = std::string(kPrelude) +
                     "A = te.placeholder((6, 5, 7), name=\"A\")\n"
                     "k = te.reduce_axis((0, 5), name=\"k\")\n"
                     "l = te.reduce_axis((0, 7), name=\"l\")\n"
                     "R = te.compute((6,), lambda i: te.sum(A[i, k, l], axis=[k, l]), name=\"R\")\n"
                     "s = te.create_schedule(R.op)\n";
    return {"reduction", py, {a, r}, {}};
}

DiffProgram producerConsumer() {
    Tensor a = placeholder({16, 12}, DataType::float32(), "A");
    Tensor b = compute(
        {16, 12},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) + f32(1);
        },
        "B");
    Tensor c = compute(
        {16, 11},
        [&](const std::vector<Var>& v) {
            return b({v[0], v[1]}) * b({v[0], v[1] + 1});
        },
        "C");
    std::string py = std::string(kPrelude) +
                     "A = te.placeholder((16, 12), name=\"A\")\n"
                     "B = te.compute((16, 12), lambda i, j: A[i, j] + 1.0, name=\"B\")\n"
                     "C = te.compute((16, 11), lambda i, j: B[i, j] * B[i, j + 1], name=\"C\")\n"
                     "s = te.create_schedule(C.op)\n";
    return {"producer_consumer", py, {a, c}, {}};
}

DiffProgram symbolicChain() {
    Var n = var("n");
    Tensor a = placeholder({n, 6}, DataType::float32(), "A");
    Tensor b = compute(
        {n, 6},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * f32(3);
        },
        "B");
    Tensor c = compute(
        {n, 6},
        [&](const std::vector<Var>& v) {
            return b({v[0], v[1]}) + f32(1);
        },
        "C");
    std::string py = std::string(kPrelude) +
                     "n = te.var(\"n\")\n"
                     "A = te.placeholder((n, 6), name=\"A\")\n"
                     "B = te.compute((n, 6), lambda i, j: A[i, j] * 3.0, name=\"B\")\n"
                     "C = te.compute((n, 6), lambda i, j: B[i, j] + 1.0, name=\"C\")\n"
                     "s = te.create_schedule(C.op)\n";
    return {"symbolic", py, {a, c}, {{n, 13}}};
}

DiffProgram integerReversed() {
    DataType i32 = DataType::int32();
    Tensor a = placeholder({9, 7}, i32, "A");
    Tensor b = compute(
        {9, 7},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * 3 - 1;
        },
        "B");
    Tensor c = compute(
        {9, 7},
        [&](const std::vector<Var>& v) {
            return floordiv(b({v[0], v[1]}), 4) + floormod(b({v[0], 6 - v[1]}), 3);
        },
        "C");
    std::string py = std::string(kPrelude) +
                     "A = te.placeholder((9, 7), dtype=\"int32\", name=\"A\")\n"
                     "B = te.compute((9, 7), lambda i, j: A[i, j] * 3 - 1, name=\"B\")\n"
                     "C = te.compute((9, 7), lambda i, j: te.floordiv(B[i, j], 4)"
                     " + te.floormod(B[i, 6 - j], 3), name=\"C\")\n"
                     "s = te.create_schedule(C.op)\n";
    return {"integer_reversed", py, {a, c}, {}};
}

} // namespace

/// Reads of every other row and column: a lattice no rectangle holds (issue 20).
DiffProgram stridedReads() {
    Tensor a = placeholder({16, 12}, DataType::float32(), "A");
    Tensor b = compute(
        {16, 12},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * f32(2) + f32(1);
        },
        "B");
    Tensor c = compute(
        {7, 6},
        [&](const std::vector<Var>& v) {
            return b({v[0] * 2, v[1] * 2}) + b({v[0] * 2 + 2, v[1] * 2}) * f32(3);
        },
        "C");
    std::string py =
        std::string(kPrelude) +
        "A = te.placeholder((16, 12), name=\"A\")\n"
        "B = te.compute((16, 12), lambda i, j: A[i, j] * 2.0 + 1.0, name=\"B\")\n"
        "C = te.compute((7, 6), lambda i, j: B[i * 2, j * 2] + B[i * 2 + 2, j * 2] * 3.0, "
        "name=\"C\")\n"
        "s = te.create_schedule(C.op)\n";
    return {"strided_reads", py, {a, c}, {}};
}

/// Two reads far apart: disjoint boxes no rectangle holds (issue 20).
DiffProgram disjointReads() {
    Tensor a = placeholder({9, 9}, DataType::float32(), "A");
    Tensor t = compute(
        {9, 9},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) - f32(1);
        },
        "T");
    Tensor c = compute(
        {3, 4},
        [&](const std::vector<Var>& v) {
            return t({v[0], v[1]}) * f32(2) + t({v[0] + 6, v[1] + 5});
        },
        "C");
    std::string py =
        std::string(kPrelude) +
        "A = te.placeholder((9, 9), name=\"A\")\n"
        "T = te.compute((9, 9), lambda i, j: A[i, j] - 1.0, name=\"T\")\n"
        "C = te.compute((3, 4), lambda i, j: T[i, j] * 2.0 + T[i + 6, j + 5], name=\"C\")\n"
        "s = te.create_schedule(C.op)\n";
    return {"disjoint_reads", py, {a, c}, {}};
}

std::vector<DiffProgram> makeDiffPrograms() {
    return {elementwiseChain(), matmul(),           stencil(),
            reduction(),        producerConsumer(), symbolicChain(),
            integerReversed(),  stridedReads(),     disjointReads()};
}

} // namespace bs::test
