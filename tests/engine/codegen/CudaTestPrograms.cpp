#include "CudaTestPrograms.h"

#include "ir/Op.h"
#include "te/Operation.h"

namespace bs::test {

namespace {

Var buffer(const std::string& name) { return Var(name, DataType::handle()); }

IterVar threadAxis(const std::string& tag) {
    return IterVar(Range(), Var(tag), IterVarType::ThreadIndex, tag);
}

Stmt threadExtent(const IterVar& iv, Expr extent, Stmt body) {
    return AttrStmtNode::make(iv, attr::kThreadExtent, std::move(extent), std::move(body));
}

/// `// attr [buf] storage_scope = "scope"` over `allocate buf[type * size]`, as StorageFlatten
/// makes them.
Stmt allocate(const Var& buf, const std::string& scope, int size, Stmt body,
              DataType type = DataType::float32()) {
    Stmt alloc = AllocateNode::make(buf, type, {Expr(size)}, Expr(), std::move(body));
    return AttrStmtNode::make(buf, attr::kStorageScope, StringImmNode::make(scope), alloc);
}

Expr load(const Var& buf, Expr index, DataType type = DataType::float32()) {
    return LoadNode::make(type, buf, std::move(index));
}

Stmt store(const Var& buf, Expr value, Expr index) {
    return StoreNode::make(buf, std::move(value), std::move(index));
}

/// `produce name { body }` for a stage of that name and shape.
Stmt produce(const std::string& name, std::vector<Expr> shape, Stmt body) {
    Operation op = PlaceholderOpNode::make(name, std::move(shape), DataType::float32());
    return ProducerConsumerNode::make(op, true, std::move(body));
}

Expr ramp(Expr base, int lanes, int stride = 1) {
    return RampNode::make(std::move(base), Expr(stride), lanes);
}

} // namespace

GpuProgram seedExample6() {
    Var a = buffer("A"), b = buffer("B"), c = buffer("C");
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    Expr i = bx->var, j = tx->var;
    // Simplify puts constants on the right: TVM prints `(A[...] * 3.140000e+00f)`.
    Stmt storeB = store(b, MulNode::make(load(a, i * 400 + j), Expr(3.14f)), j);
    Stmt storeC = store(c, MulNode::make(load(b, j), Expr(2.72f)), i * 200 + j);
    Stmt produceB = produce("B", {200, 400}, threadExtent(tx, 200, storeB));
    Stmt seq = SeqNode::make({produceB, threadExtent(tx, 200, storeC)});
    Stmt blocks = threadExtent(bx, 100, allocate(b, "shared", 200, seq));
    return {"test", produce("C", {100, 200}, blocks), {a, c}};
}

GpuProgram tiledMatmul() {
    Var a = buffer("A"), b = buffer("B"), c = buffer("C");
    Var cl = buffer("C.local"), as = buffer("A.shared"), bs = buffer("B.shared");
    IterVar by = threadAxis("blockIdx.y"), bx = threadAxis("blockIdx.x");
    IterVar ty = threadAxis("threadIdx.y"), tx = threadAxis("threadIdx.x");
    Var ko("k.outer"), ki("k.inner");
    Expr row = by->var * 16 + ty->var, col = bx->var * 16 + tx->var;
    Expr tile = ty->var * 16 + tx->var;
    Stmt loadA = store(as, load(a, row * 64 + ko * 16 + tx->var), tile);
    Stmt loadB = store(bs, load(b, (ko * 16 + ty->var) * 64 + col), tile);
    Expr product = load(as, ty->var * 16 + ki) * load(bs, ki * 16 + tx->var);
    Stmt accumulate = store(cl, load(cl, Expr(0)) + product, Expr(0));
    Stmt inner = ForNode::make(ki, 0, 16, ForKind::Serial, accumulate);
    Stmt outer = ForNode::make(ko, 0, 4, ForKind::Serial, SeqNode::make({loadA, loadB, inner}));
    Stmt compute = SeqNode::make(
        {store(cl, Expr(0.0f), Expr(0)), outer, store(c, load(cl, Expr(0)), row * 64 + col)});
    Stmt threads = threadExtent(bx, 4, threadExtent(ty, 16, threadExtent(tx, 16, compute)));
    Stmt allocs =
        allocate(cl, "local", 1, allocate(as, "shared", 256, allocate(bs, "shared", 256, threads)));
    return {"matmul", threadExtent(by, 4, allocs), {a, b, c}};
}

GpuProgram rowMax() {
    Var a = buffer("A"), c = buffer("C"), local = buffer("C.local");
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    Var k("k");
    Expr i = bx->var * 64 + tx->var;
    Stmt update = store(local, max(load(local, Expr(0)), load(a, i * 64 + k)), Expr(0));
    Stmt compute = SeqNode::make({store(local, minValue(DataType::float32()), Expr(0)),
                                  ForNode::make(k, 0, 64, ForKind::Serial, update),
                                  store(c, load(local, Expr(0)), i)});
    Stmt body = allocate(local, "local", 1, threadExtent(tx, 64, compute));
    return {"rowmax", threadExtent(bx, 4, body), {a, c}};
}

GpuProgram vectorAxpy() {
    Var a = buffer("A"), b = buffer("B"), c = buffer("C");
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    Expr index = ramp(bx->var * 128 + tx->var * 4, 4);
    DataType f4 = DataType::float32().withLanes(4);
    Expr value = load(a, index, f4) * BroadcastNode::make(Expr(2.0f), 4) + load(b, index, f4);
    Stmt body = threadExtent(tx, 32, store(c, value, index));
    return {"axpy", threadExtent(bx, 8, body), {a, b, c}};
}

GpuProgram sharedReverse() {
    Var a = buffer("A"), c = buffer("C"), s = buffer("S");
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    DataType f4 = DataType::float32().withLanes(4);
    Expr global = ramp(bx->var * 128 + tx->var * 4, 4);
    Stmt fill = store(s, load(a, global, f4), ramp(tx->var * 4, 4));
    Stmt drain = store(c, load(s, ramp(124 - tx->var * 4, 4), f4), global);
    Stmt body = threadExtent(tx, 32, SeqNode::make({fill, drain}));
    return {"reverse", threadExtent(bx, 8, allocate(s, "shared", 128, body)), {a, c}};
}

GpuProgram symbolicAddOne() {
    Var a = buffer("A"), c = buffer("C");
    Var n = Var::sizeVar("n");
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    Expr i = bx->var * 64 + tx->var;
    Stmt guarded = IfThenElseNode::make(likely(i < n), store(c, load(a, i) + Expr(1.0f), i));
    Stmt body = threadExtent(tx, 64, guarded);
    return {"addone", threadExtent(bx, floordiv(n + 63, 64), body), {a, c, n}};
}

GpuProgram floorDivision() {
    Var a = buffer("A"), c = buffer("C");
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    Expr i = bx->var * 64 + tx->var;
    Expr x = load(a, i, DataType::int32());
    Expr value = floordiv(x, 7) * 100 + floormod(x, 7) + floordiv(tx->var - 32, 8);
    Stmt body = threadExtent(tx, 64, store(c, value, i));
    return {"floordiv", threadExtent(bx, 4, body), {a, c}};
}

GpuProgram mathFunctions() {
    Var a = buffer("A"), c = buffer("C");
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    Expr i = bx->var * 64 + tx->var;
    Expr x = load(a, i);
    Expr value = mathCall("exp", {x}) + mathCall("sqrt", {mathCall("fabs", {x})}) +
                 max(x, Expr(0.0f)) + mathCall("tanh", {x}) + mathCall("sigmoid", {x});
    Stmt body = threadExtent(tx, 64, store(c, value, i));
    return {"math", threadExtent(bx, 4, body), {a, c}};
}

GpuProgram inverseMath() {
    // The inverse and binary functions and the float classes of TVM's te (issue 16, item 3).
    Var a = buffer("A"), c = buffer("C");
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    Expr i = bx->var * 64 + tx->var;
    Expr x = load(a, i);
    Expr isNan = CallNode::make(DataType::boolean(), "isnan", {x}, CallKind::Intrinsic);
    Expr value = mathCall("asinh", {x}) + mathCall("atan2", {x, Expr(2.0f)}) +
                 select(isNan, Expr(0.0f), mathCall("log1p", {mathCall("fabs", {x})}));
    Stmt body = threadExtent(tx, 64, store(c, value, i));
    return {"inverse_math", threadExtent(bx, 4, body), {a, c}};
}

GpuProgram twoKernels() {
    Var a = buffer("A"), c = buffer("C"), t = buffer("T");
    IterVar bx0 = threadAxis("blockIdx.x"), tx0 = threadAxis("threadIdx.x");
    IterVar bx1 = threadAxis("blockIdx.x"), tx1 = threadAxis("threadIdx.x");
    Expr i0 = bx0->var * 128 + tx0->var, i1 = bx1->var * 256 + tx1->var;
    Stmt first =
        threadExtent(bx0, 4, threadExtent(tx0, 128, store(t, load(a, i0) + Expr(1.0f), i0)));
    Stmt second =
        threadExtent(bx1, 2, threadExtent(tx1, 256, store(c, load(t, i1) * Expr(2.0f), i1)));
    return {"twostage", allocate(t, "global", 512, SeqNode::make({first, second})), {a, c}};
}

GpuProgram statementKinds() {
    Var c = buffer("C");
    IterVar tx = threadAxis("threadIdx.x");
    Var base("base"), k("k.inner"), wide("w", DataType::int64());
    Expr t = tx->var;
    Stmt thenCase = store(c, cast(DataType::float32(), k), base + k);
    Stmt elseCase = store(c, select(t > 3, Expr(1.5f), Expr(-2.0f)), base);
    Stmt branch = IfThenElseNode::make(eq(floormod(t, 2), 0), thenCase, elseCase);
    Stmt loop = ForNode::make(k, 2, 3, ForKind::Unrolled, branch);
    Stmt first = LetStmtNode::make(base, t * 8, loop);
    Expr big = cast(DataType::int64(), t) * makeConst(DataType::int64(), int64_t(1) << 40);
    Stmt second = LetStmtNode::make(wide, big, store(c, cast(DataType::float32(), wide), t));
    return {"stmts", threadExtent(tx, 16, SeqNode::make({first, second})), {c}};
}

GpuProgram stridedVectors() {
    Var a = buffer("A"), c = buffer("C");
    IterVar tx = threadAxis("threadIdx.x");
    DataType f4 = DataType::float32().withLanes(4);
    Expr value = load(a, ramp(tx->var * 4 + 1, 4), f4);
    Stmt body = threadExtent(tx, 8, store(c, value, ramp(tx->var, 4, 2)));
    return {"strided", body, {a, c}};
}

GpuProgram vectorOverwrite() {
    Var c = buffer("C");
    IterVar tx = threadAxis("threadIdx.x");
    DataType f2 = DataType::float32().withLanes(2);
    Expr value = load(c, ramp(tx->var + 2, 2, -2), f2);
    return {"overwrite", threadExtent(tx, 8, store(c, value, ramp(tx->var, 2, 2))), {c}};
}

GpuProgram guardedThreadNest() {
    Var c = buffer("C");
    IterVar tx = threadAxis("threadIdx.x"), tx2 = threadAxis("threadIdx.x");
    Stmt small = threadExtent(tx, 32, store(c, Expr(1.0f), tx->var));
    Stmt large = threadExtent(tx2, 64, store(c, Expr(2.0f), tx2->var + 32));
    IterVar bx = threadAxis("blockIdx.x");
    return {"guarded", threadExtent(bx, 1, SeqNode::make({small, large})), {c}};
}

GpuProgram predicatedStore() {
    Var a = buffer("A"), c = buffer("C");
    IterVar tx = threadAxis("threadIdx.x");
    Stmt body = StoreNode::make(c, load(a, tx->var), tx->var, tx->var < 10);
    return {"predicated", threadExtent(tx, 16, body), {a, c}};
}

std::vector<GpuProgram> allGpuPrograms() {
    return {seedExample6(),    tiledMatmul(),       rowMax(),         vectorAxpy(),
            sharedReverse(),   symbolicAddOne(),    floorDivision(),  mathFunctions(),
            inverseMath(),     twoKernels(),        statementKinds(), stridedVectors(),
            vectorOverwrite(), guardedThreadNest(), predicatedStore()};
}

} // namespace bs::test
