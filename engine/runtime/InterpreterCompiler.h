/// \file
/// Compiles IR into the interpreter's compact Program (private to engine/runtime). It resolves
/// every Var to a frame slot and every buffer Var or tensor to a buffer slot, checks scoping
/// (an unbound variable or an access to a buffer that is neither allocated around it nor bound
/// is a UserError naming the statement), splits vector expressions into lanes, and gathers the
/// allocation sites and kernels that the executor manages.
#pragma once

#include "runtime/InterpreterProgram.h"

#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace bs::interp {

/// What the caller bound before run().
struct CompileInputs {
    std::vector<std::pair<Var, Buffer*>> buffers;
    std::vector<std::pair<Tensor, Buffer*>> tensors;
    std::vector<std::pair<Var, Value>> scalars;
};

Program compileProgram(const Stmt& stmt, const CompileInputs& inputs);

class Compiler {
public:
    explicit Compiler(Program& program) : m_p(program) {}

    void bindInputs(const CompileInputs& inputs);
    int32_t stmt(const Stmt& s);

private:
    // Expressions (InterpreterCompileExpr.cpp). `lane` selects one lane of a vector; scalars
    // ignore it.
    int32_t expr(const Expr& e, int lane);
    int32_t emit(XNode node);
    int32_t constInt(int64_t value, DataType type, const ExprNode* source);
    int32_t constFloat(double value, const ExprNode* source);
    int32_t var(const VarNode* op, int lane);
    int32_t binary(const ExprNode* op, const Expr& a, const Expr& b, int lane);
    int32_t arith(NodeKind kind, DataType type, int32_t a, int32_t b, const ExprNode* source);
    int32_t compare(NodeKind kind, DataType operandType, int32_t a, int32_t b,
                    const ExprNode* source);
    int32_t castTo(DataType to, DataType from, int32_t value, const ExprNode* source);
    int32_t ramp(const RampNode* op, int lane);
    int32_t let(const LetNode* op, int lane);
    int32_t load(const LoadNode* op, int lane);
    int32_t producerLoad(const ProducerLoadNode* op, int lane);
    int32_t call(const CallNode* op, int lane);
    int32_t intrinsic(const CallNode* op, int lane);
    int32_t mathCall(const CallNode* op, int lane);

    // Statements (InterpreterCompileStmt.cpp).
    int32_t emitStmt(SNode node);
    int32_t seq(const std::vector<Stmt>& parts);
    int32_t forLoop(const Var& var, const Expr& min, const Expr& extent, const Stmt& body);
    int32_t letStmt(const LetStmtNode* op);
    int32_t assertStmt(const AssertStmtNode* op);
    int32_t ifThenElse(const IfThenElseNode* op);
    int32_t attrStmt(const AttrStmtNode* op);
    int32_t threadExtent(const AttrStmtNode* op);
    int32_t launch(const AttrStmtNode* op);
    int32_t allocate(const AllocateNode* op);
    int32_t realize(const ProducerRealizeNode* op);
    int32_t store(const StoreNode* op);
    int32_t producerStore(const ProducerStoreNode* op);
    int32_t evaluate(const EvaluateNode* op);
    int32_t callPacked(const EvaluateNode* op, const CallNode* call);
    int32_t newSite(AllocSite site);
    int32_t pushList(const std::vector<int32_t>& ids);
    /// Compiles a `produce` block, its loads attributed to its stage.
    int32_t producerConsumer(const ProducerConsumerNode* op);

    // Scopes.
    int32_t slotOf(const Var& v);
    void enter(const Var& v) { ++m_live[v]; }
    void leave(const Var& v) { --m_live[v]; }
    /// The buffer slot of `v`, which must be allocated around the use or bound.
    int32_t bufferSlotOf(const Var& v);
    /// The buffer slot of `v`, made on first use.
    int32_t assignBufferSlot(const Var& v);
    int32_t tensorSlotOf(const Tensor& t);
    std::string scopeOfRealize(const ProducerRealizeNode* op) const;
    [[noreturn]] void fail(const std::string& message) const;

    Program& m_p;
    VarMap<int32_t> m_slots;
    VarMap<int> m_live;
    VarMap<int32_t> m_bufferSlots;
    VarMap<int> m_liveBuffers;
    std::unordered_map<Tensor, int32_t, TensorHash, TensorEqual> m_tensorSlots;
    std::unordered_map<Tensor, int, TensorHash, TensorEqual> m_liveTensors;
    std::unordered_set<Tensor, TensorHash, TensorEqual> m_argTensors;
    VarMap<std::string> m_storageScopes;
    std::unordered_map<const Node*, std::string> m_realizeScopes;
    /// Thread ranks of the enclosing thread attributes (0 block, 1 thread), for the default
    /// scope of a realize as StorageFlatten infers it.
    std::vector<int> m_threadRanks;
    /// The kernel being compiled, -1 outside kernels.
    int32_t m_kernel = -1;
    /// The reader number (Program::readers) of the innermost `produce` block, -1 outside.
    int32_t m_reader = -1;
    /// Program::readers' numbers by stage name.
    std::unordered_map<std::string, int32_t> m_readerIds;
    /// The statement being compiled, for messages.
    const StmtNode* m_stmt = nullptr;
};

} // namespace bs::interp
