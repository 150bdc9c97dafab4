/// \file
/// The visitor that turns flattened IR into LLVM IR (internal to engine/codegen/llvm), after
/// TVM's CodeGenLLVM/CodeGenCPU. Split by concern: CodeGenLlvm.cpp (functions, statements,
/// loops), CodeGenLlvmExpr.cpp (arithmetic, comparisons, casts), CodeGenLlvmMemory.cpp
/// (loads, stores, vectors, allocations), CodeGenLlvmCall.cpp (intrinsics and math),
/// CodeGenLlvmParallel.cpp (parallel loops outlined into closures).
///
/// Values live in registers as their IR type (bool is i1, a vector of n lanes is <n x T>,
/// a buffer is an i8*); in memory a bool takes one byte.
#pragma once

#include "codegen/llvm/LlvmCodegen.h"
#include "codegen/llvm/LlvmHost.h"
// GCC does not see that BS_UNREACHABLE throws in ExprFunctor<R> for a pointer R, and warns that
// control reaches the end of its non-void functions.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wreturn-type"
#include "ir/Functor.h"
#pragma GCC diagnostic pop

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <string>
#include <vector>

namespace bs::llvmgen {

class CodeGenLlvm : public ExprFunctor<llvm::Value*>, public StmtFunctor<void> {
public:
    CodeGenLlvm(llvm::Module& module, const HostTarget& host, const LlvmCodegenOptions& options);

    /// Emits the packed entry point `kernel.name`, the function with the kernel's body it
    /// calls, and the closures of its parallel loops.
    void generate(const CpuKernel& kernel);
    /// The messages of the status codes the kernel may return (index k - 1 for code k).
    const std::vector<std::string>& failureMessages() const { return m_failureMessages; }

    using ExprFunctor<llvm::Value*>::visitExpr;
    using StmtFunctor<void>::visitStmt;

protected:
    using ExprFunctor<llvm::Value*>::visit;
    using StmtFunctor<void>::visit;

    // Expressions (CodeGenLlvmExpr.cpp)
    llvm::Value* visit(const IntImmNode* op) override;
    llvm::Value* visit(const FloatImmNode* op) override;
    llvm::Value* visit(const StringImmNode* op) override;
    llvm::Value* visit(const VarNode* op) override;
    llvm::Value* visit(const AddNode* op) override;
    llvm::Value* visit(const SubNode* op) override;
    llvm::Value* visit(const MulNode* op) override;
    llvm::Value* visit(const DivNode* op) override;
    llvm::Value* visit(const ModNode* op) override;
    llvm::Value* visit(const FloorDivNode* op) override;
    llvm::Value* visit(const FloorModNode* op) override;
    llvm::Value* visit(const MinNode* op) override;
    llvm::Value* visit(const MaxNode* op) override;
    llvm::Value* visit(const EQNode* op) override;
    llvm::Value* visit(const NENode* op) override;
    llvm::Value* visit(const LTNode* op) override;
    llvm::Value* visit(const LENode* op) override;
    llvm::Value* visit(const GTNode* op) override;
    llvm::Value* visit(const GENode* op) override;
    llvm::Value* visit(const AndNode* op) override;
    llvm::Value* visit(const OrNode* op) override;
    llvm::Value* visit(const NotNode* op) override;
    llvm::Value* visit(const SelectNode* op) override;
    llvm::Value* visit(const CastNode* op) override;
    llvm::Value* visit(const LetNode* op) override;
    llvm::Value* visitExprDefault(const ExprNode* op) override;

    // Memory and vectors (CodeGenLlvmMemory.cpp)
    llvm::Value* visit(const LoadNode* op) override;
    llvm::Value* visit(const RampNode* op) override;
    llvm::Value* visit(const BroadcastNode* op) override;
    void visit(const StoreNode* op) override;
    void visit(const AllocateNode* op) override;

    // Calls (CodeGenLlvmCall.cpp)
    llvm::Value* visit(const CallNode* op) override;

    // Statements (CodeGenLlvm.cpp)
    void visit(const LetStmtNode* op) override;
    void visit(const AttrStmtNode* op) override;
    void visit(const AssertStmtNode* op) override;
    void visit(const ForNode* op) override;
    void visit(const ProducerConsumerNode* op) override;
    void visit(const SeqNode* op) override;
    void visit(const IfThenElseNode* op) override;
    void visit(const EvaluateNode* op) override;
    void visitStmtDefault(const StmtNode* op) override;

private:
    /// The function being emitted: its heap buffers still live at the insertion point are
    /// freed on every early return.
    struct FunctionState {
        llvm::Function* function = nullptr;
        llvm::BasicBlock* entry = nullptr;
        std::vector<llvm::Value*> heapBuffers;
    };

    /// Binds a Var to a value for a scope and restores what it was bound to before (the same
    /// Var may be bound again inside, e.g. in the copies of an unrolled body).
    class ScopedBinding {
    public:
        ScopedBinding(CodeGenLlvm& codegen, const Var& var, llvm::Value* value);
        ~ScopedBinding();
        ScopedBinding(const ScopedBinding&) = delete;
        ScopedBinding& operator=(const ScopedBinding&) = delete;

    private:
        CodeGenLlvm& m_codegen;
        Var m_var;
        llvm::Value* m_previous;
    };

    // Types and constants (CodeGenLlvmExpr.cpp)
    llvm::Type* valueType(DataType type);
    /// The type of one element in memory: bool is i8.
    llvm::Type* storageType(DataType type);
    llvm::Value* constInt(DataType type, int64_t value);
    llvm::Value* emitCast(DataType from, DataType to, llvm::Value* value);
    llvm::Value* emitFloorDiv(DataType type, llvm::Value* a, llvm::Value* b);
    llvm::Value* emitFloorMod(DataType type, llvm::Value* a, llvm::Value* b);
    llvm::Value* emitMinMax(bool isMin, DataType type, llvm::Value* a, llvm::Value* b);
    llvm::Value* emitCompare(NodeKind kind, DataType operandType, llvm::Value* a, llvm::Value* b);
    llvm::Value* emitArith(NodeKind kind, DataType type, llvm::Value* a, llvm::Value* b);
    llvm::Value* splat(llvm::Value* value, int lanes);

    // Memory (CodeGenLlvmMemory.cpp)
    llvm::Value* bufferValue(const Var& buffer);
    llvm::Value* elementPointer(const Var& buffer, DataType element, llvm::Value* index);
    llvm::Value* emitIndex(const Expr& index);
    llvm::Value* emitScalarLoad(const LoadNode* op);
    llvm::Value* emitVectorLoad(const LoadNode* op);
    void emitVectorStore(const StoreNode* op, llvm::Value* value);
    llvm::Value* vectorMask(const Expr& predicate, int lanes);
    llvm::Value* toStorage(DataType type, llvm::Value* value);
    llvm::Value* fromStorage(DataType type, llvm::Value* value);
    llvm::Value* emitHeapAllocation(const AllocateNode* op, llvm::Value* bytes);

    // Calls (CodeGenLlvmCall.cpp)
    llvm::Value* emitIntrinsicCall(const CallNode* op);
    llvm::Value* emitMathCall(const CallNode* op);
    llvm::Value* emitExternCall(const CallNode* op);
    llvm::Value* emitPrefetch(const CallNode* op);
    llvm::Value* emitFloatClass(const CallNode* op);
    llvm::Value* emitIfThenElse(const CallNode* op);
    /// `tvm_call_packed("name", args...)`: the arguments packed on the stack as
    /// runtime/PackedFunctions.h lays them out, `bs_call_packed`, and an early return when it
    /// failed. `tvm_stack_make_array` / `tvm_stack_make_shape` build its array arguments.
    llvm::Value* emitCallPacked(const CallNode* op);
    llvm::Value* emitStackArray(const CallNode* op);
    llvm::Value* emitStackShape(const CallNode* op);
    llvm::Value* emitLibmCall(const std::string& name, DataType type,
                              const std::vector<llvm::Value*>& args);
    llvm::FunctionCallee runtimeFunction(const char* name, llvm::Type* result,
                                         std::vector<llvm::Type*> params);

    // Functions and control flow (CodeGenLlvm.cpp)
    using BodyEmitter = std::function<void(llvm::Function*)>;
    /// Emits an internal function returning an i32 status: `leading` unnamed parameters first,
    /// then one per Var of `params` (bound to it, buffers `noalias`). Inside, only `params`
    /// are visible.
    llvm::Function* emitFunction(const std::string& name, const std::vector<llvm::Type*>& leading,
                                 const std::vector<Var>& params, const BodyEmitter& emitBody);
    void emitEntry(const CpuKernel& kernel, llvm::Function* body);
    /// The host's CPU and features, so LLVM generates code for them, and nounwind.
    void setTargetAttributes(llvm::Function* function);
    llvm::Value* unpackScalar(const Var& var, llvm::Value* slot);
    void emitLoop(const Var& var, llvm::Value* begin, llvm::Value* end, const Stmt& body,
                  llvm::MDNode* hints);
    llvm::MDNode* loopHint(const char* key);
    /// The i1 of an if's or an assert's condition; throws UserError unless a scalar bool.
    llvm::Value* emitBranchCondition(const Expr& condition, const char* statement);
    llvm::Value* lookupVar(const Var& var);
    /// Frees the live heap buffers and returns `code` (terminates the current block).
    void emitReturn(llvm::Value* code);
    /// Returns `status` from the current function when it is non-zero.
    void emitReturnOnFailure(llvm::Value* status);
    int addFailureMessage(std::string message);
    llvm::AllocaInst* entryAlloca(llvm::Type* type, uint64_t count, const std::string& name);
    llvm::BasicBlock* newBlock(const char* name);
    bool blockTerminated() const;

    // Parallel loops (CodeGenLlvmParallel.cpp)
    void emitParallelLoop(const ForNode* op);

    llvm::LLVMContext& m_context;
    llvm::Module& m_module;
    llvm::IRBuilder<> m_builder;
    llvm::MDBuilder m_mdBuilder;
    const HostTarget& m_host;
    LlvmCodegenOptions m_options;
    std::string m_kernelName;
    VarMap<llvm::Value*> m_vars;
    FunctionState* m_function = nullptr;
    std::vector<std::string> m_failureMessages;
    int m_parallelCount = 0;
};

} // namespace bs::llvmgen
