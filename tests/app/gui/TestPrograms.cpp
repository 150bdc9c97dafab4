#include "TestPrograms.h"

#include "ir/Op.h"
#include "te/Compute.h"
#include "te/Reduce.h"

namespace bs::gui::test {

namespace {

const char* const kScriptName = "ex6_shared_scope.py";

Expr f32(double v) { return makeConst(DataType::float32(), v); }

SourceLocation line(int n) { return SourceLocation{kScriptName, n}; }

} // namespace

Program fuseExample() {
    ScopedSourceLocation at(SourceLocation{"fuse.py", 1});
    Tensor B = compute({64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B", "",
                       {"i", "j"});
    Tensor C = compute({64, 64},
                       [&](const std::vector<Var>& v) {
                           return B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    const auto* c = C.op.as<ComputeOpNode>();
    IterVar fused = s[C].fuse(c->axis[0], c->axis[1]);
    auto [outer, inner] = s[C].splitByNParts(fused, 512);
    (void)inner;
    s[B].computeAt(s[C], outer);
    return Program{s, {C}, true};
}

Program sharedScopeExample() {
    Tensor A, B, C;
    {
        ScopedSourceLocation at(line(6));
        A = placeholder({200, 400}, DataType::float32(), "A");
    }
    {
        ScopedSourceLocation at(line(kSharedScopeLineOfB));
        B = compute({200, 400},
                    [&](const std::vector<Var>& v) {
                        return f32(3.14) * A({v[0], v[1]});
                    },
                    "B", "", {"i", "j"});
    }
    {
        ScopedSourceLocation at(line(kSharedScopeLineOfC));
        C = compute({100, 200},
                    [&](const std::vector<Var>& v) {
                        return f32(2.72) * B({v[0], v[1]});
                    },
                    "C", "", {"i", "j"});
    }
    ScopedSourceLocation at(line(13));
    IterVar blockX = threadAxis("blockIdx.x"), threadX = threadAxis("threadIdx.x");
    Schedule s = createSchedule(C.op);
    const auto* c = C.op.as<ComputeOpNode>();
    s[C].bind(c->axis[0], blockX);
    s[C].bind(c->axis[1], threadX);
    s[B].setScope("shared");
    s[B].computeAt(s[C], c->axis[0]);
    s[B].bind(B.op.as<ComputeOpNode>()->axis[1], threadX);
    return Program{s, {A, C}, true};
}

Program largeGpuMatmul() {
    constexpr int n = 512;
    Tensor A = placeholder({n, n}, DataType::float32(), "A");
    Tensor B = placeholder({n, n}, DataType::float32(), "B");
    IterVar k = reduceAxis(Range(0, n), "k");
    Tensor C = compute({n, n},
                       [&](const std::vector<Var>& v) {
                           return sum(A({v[0], k->var}) * B({k->var, v[1]}), k);
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    const auto* c = C.op.as<ComputeOpNode>();
    auto [jo, ji] = s[C].split(c->axis[1], 64);
    s[C].bind(c->axis[0], threadAxis("blockIdx.x"));
    s[C].bind(jo, threadAxis("blockIdx.y"));
    s[C].bind(ji, threadAxis("threadIdx.x"));
    return Program{s, {A, B, C}, true};
}

QString sharedScopeScript() {
    return QStringLiteral(R"(# Ex. 6 built in C++ by the tests.
import tvm


# placeholder, compute x2 below
A = tvm.placeholder((200, 400), name='A')
B = tvm.compute((200, 400), lambda i, j: 3.14 * A[i, j], name='B')
C = tvm.compute((100, 200), lambda i, j: 2.72 * B[i, j], name='C')

block_x = tvm.thread_axis("blockIdx.x")
thread_x = tvm.thread_axis("threadIdx.x")

s = tvm.create_schedule(C.op)
)");
}

} // namespace bs::gui::test
