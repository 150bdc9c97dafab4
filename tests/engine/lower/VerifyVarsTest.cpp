// The end-of-lowering check of free variables (TVM's MakeAPI "Not all Vars are passed in
// api_args"), on hand-written IR and on a schedule whose bounds keep a thread index free.
#include "lower/VerifyVars.h"
#include "ir/Op.h"
#include "lower/Lower.h"
#include "te/Compute.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

Stmt threadExtent(const IterVar& iv, Expr extent, Stmt body) {
    return AttrStmtNode::make(iv, attr::kThreadExtent, std::move(extent), std::move(body));
}

std::string errorOf(const Stmt& body, const std::vector<Var>& params = {}) {
    try {
        verifyDefinedVars(body, params);
    } catch (const UserError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(VerifyVars, LoopsLetsAndParametersDefineVariables) {
    Var c("C", DataType::handle()), i("i"), x("x"), n("n");
    Stmt body = ForNode::make(
        i, 0, n, ForKind::Serial,
        LetStmtNode::make(x, i * 2, StoreNode::make(c, makeConst(DataType::float32(), 1.0), x)));
    EXPECT_EQ(errorOf(body, {n}), "");
    EXPECT_NE(
        errorOf(body).find("variable 'n' is used where nothing defines it, at: for (i, 0, n)"),
        std::string::npos)
        << errorOf(body);
}

TEST(VerifyVars, ThreadIndexIsDefinedThroughoutItsKernelOnly) {
    Var c("C", DataType::handle());
    IterVar bx(Range(), Var("blockIdx.x"), IterVarType::ThreadIndex, "blockIdx.x");
    IterVar tx(Range(), Var("threadIdx.x"), IterVarType::ThreadIndex, "threadIdx.x");
    Expr one = makeConst(DataType::float32(), 1.0);
    // Used before its own nest but inside the kernel: defined, as CUDA's builtin.
    Stmt early = StoreNode::make(c, one, tx->var);
    Stmt kernel = threadExtent(bx, 2, SeqNode::make({early, threadExtent(tx, 4, early)}));
    EXPECT_EQ(errorOf(kernel), "");
    // Used by host code outside the kernel: free.
    Stmt host = SeqNode::make({StoreNode::make(c, one, tx->var + 8), kernel});
    EXPECT_NE(errorOf(host).find("variable 'threadIdx.x' is used where nothing defines it"),
              std::string::npos);
}

TEST(VerifyVars, LowerRejectsAScheduleThatLeavesAThreadIndexFree) {
    // B (local) at C's threadIdx.y keeps C's threadIdx.x symbolic in its region (local is below
    // the thread's rank, notes section 4), and that region reaches A2, computed at the root
    // outside C's kernel.
    Tensor A = placeholder({8, 8}, DataType::float32(), "A");
    Tensor A2 = compute(
        {8, 8},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) + 1;
        },
        "A2");
    Tensor B = compute(
        {8, 8},
        [&](const std::vector<Var>& v) {
            return A2({v[0], v[1]}) * 2;
        },
        "B");
    Tensor C = compute(
        {8, 8},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1]}) - 1;
        },
        "C");
    Schedule s = createSchedule(C.op);
    const auto* c = C.op.as<ComputeOpNode>();
    s[C].bind(c->axis[0], threadAxis("threadIdx.y"));
    s[C].bind(c->axis[1], threadAxis("threadIdx.x"));
    s[B].computeAt(s[C], c->axis[0]);
    s[B].setScope("local");
    try {
        lower(s, {A, C});
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_NE(
            std::string(e.what()).find("variable 'threadIdx.x' is used where nothing defines it"),
            std::string::npos)
            << e.what();
    }
}
