/// \file
/// Pieces of the CUDA code generator shared by its files (not a public header): C type names
/// and literals, unique identifiers, and the expression printer. Expressions are printed in TVM's
/// CodeGenC/CodeGenCUDA form: every operation in parentheses with spaces around the operator,
/// `((int)threadIdx.x)` for thread indices, float literals as `3.140000e+00f`.
#pragma once

#include "ir/Functor.h"

#include <optional>
#include <set>
#include <string>
#include <unordered_set>

namespace bs::cuda {

/// The C dialect kernels are printed in: CUDA C, or OpenCL C (tvm.build's "opencl" target:
/// `__kernel`, `__global` and `__local` memory, `get_group_id(0)`, `barrier(...)`, the
/// overloaded math functions, `long` for 64 bits, and no vector accesses).
enum class Dialect { Cuda, OpenCl };

/// The C type of a scalar type (`float`, `int`, `long long`, `bool`); throws UserError for
/// types the backend does not support (float16).
std::string typeName(DataType type);
/// The same in `dialect` (OpenCL C: `long`, `ulong`, `char`, `uchar`, ...).
std::string typeName(DataType type, Dialect dialect);
/// CUDA's built-in vector type for `type` (`float4`, `int2`, `double2`), when there is one
/// whose alignment equals its size.
std::optional<std::string> vectorTypeName(DataType type);
/// A float constant in TVM's form (`3.140000e+00f`), with more digits when six would not give
/// the value back.
std::string floatLiteral(DataType type, double value, Dialect dialect = Dialect::Cuda);
/// An integer or bool constant of `type`.
std::string intLiteral(DataType type, int64_t value, Dialect dialect = Dialect::Cuda);
/// True when `e` is a multiple of `n` for every value of its variables; a variable in `lets`
/// stands for its value there.
bool isMultipleOf(const Expr& e, int64_t n, const VarMap<Expr>* lets = nullptr);
/// True when a load or store predicate is not constantly true (undefined means true).
bool hasPredicate(const Expr& predicate);
/// True when `text` is one parenthesised group, `(...)`.
bool isWrapped(const std::string& text);

/// Unique C identifiers made from IR names (`k.inner` becomes `k_inner`, a second `k` becomes
/// `k1`), never a C++ keyword or a CUDA built-in.
class NameTable {
public:
    std::string allocate(const std::string& hint);

private:
    std::unordered_set<std::string> m_used;
};

/// The helper functions a kernel may need, emitted once before the kernels of a module.
enum class Helper { FloorDivMod };
/// The source of a helper in `dialect`.
std::string helperSource(Helper helper, Dialect dialect = Dialect::Cuda);

/// Prints expressions as CUDA C. A vector expression is printed one lane at a time
/// (`printLane`); the statement printer first loads each of its unconditional loads from kernel
/// parameters with one aligned vector access (`float4 A_v = ((float4*)(A + base))[0];`, where
/// the base is provably a multiple of the lane count), and lanes read `A_v.y`. Other vector
/// loads read their lanes one element at a time.
class ExprPrinter : public ExprFunctor<std::string> {
public:
    explicit ExprPrinter(std::set<Helper>& helpers, Dialect dialect = Dialect::Cuda)
        : m_helpers(helpers), m_dialect(dialect) {}

    Dialect dialect() const { return m_dialect; }

    /// A scalar expression.
    std::string print(const Expr& e);
    /// Lane `lane` of a vector expression (a scalar one prints as itself).
    std::string printLane(const Expr& e, int lane);
    /// The aligned vector access `((float4*)(A + base))[0]` for a load or store of `lanes`
    /// elements at `index` (a ramp of stride 1), when the buffer is a kernel parameter and the
    /// base is a multiple of the lane count; nullopt otherwise.
    std::optional<std::string> vectorAccess(const Var& buffer, const Expr& index, DataType type);
    /// Hoists the aligned vector loads of `value` that run unconditionally: returns one
    /// `(load, access)` pair per distinct load, and prints each later as a lane of the variable
    /// the caller declares for it (`A_v.x`) until clearHoisted().
    std::vector<std::pair<Expr, std::string>> hoistableLoads(const Expr& value);
    void hoist(const Expr& load, std::string variable) { m_hoisted.emplace_back(load, variable); }
    void clearHoisted() { m_hoisted.clear(); }
    /// True when `e` is known to be at least 0.
    bool isNonNegative(const Expr& e) const;

    /// Names a variable (a parameter, loop or let variable, buffer) in the printed code.
    void bind(const Var& var, std::string text) { m_names[var] = std::move(text); }
    /// Declares `var` (a vector let variable) as a local array: lane k prints as `name[k]`.
    void bindArray(const Var& var, std::string name);
    void markNonNegative(const Var& var) { m_nonNegative.insert(var); }
    /// Records the value of a scalar let variable, for the alignment of vector accesses.
    void recordLetValue(const Var& var, const Expr& value) { m_letValues[var] = value; }
    void markGlobalBuffer(const Var& var) { m_globalBuffers.insert(var); }
    /// The name of a buffer or variable bound earlier.
    const std::string& nameOf(const Var& var) const;

protected:
    using ExprFunctor<std::string>::visit;

    std::string visit(const IntImmNode* op) override;
    std::string visit(const FloatImmNode* op) override;
    std::string visit(const StringImmNode* op) override;
    std::string visit(const VarNode* op) override;
    std::string visit(const AddNode* op) override { return commutative(op->a, "+", op->b); }
    std::string visit(const SubNode* op) override { return binary(op->a, "-", op->b); }
    std::string visit(const MulNode* op) override { return commutative(op->a, "*", op->b); }
    std::string visit(const DivNode* op) override { return binary(op->a, "/", op->b); }
    std::string visit(const ModNode* op) override;
    std::string visit(const FloorDivNode* op) override;
    std::string visit(const FloorModNode* op) override;
    std::string visit(const MinNode* op) override { return function("min", op->a, op->b); }
    std::string visit(const MaxNode* op) override { return function("max", op->a, op->b); }
    std::string visit(const EQNode* op) override { return binary(op->a, "==", op->b); }
    std::string visit(const NENode* op) override { return binary(op->a, "!=", op->b); }
    std::string visit(const LTNode* op) override { return binary(op->a, "<", op->b); }
    std::string visit(const LENode* op) override { return binary(op->a, "<=", op->b); }
    std::string visit(const GTNode* op) override { return binary(op->a, ">", op->b); }
    std::string visit(const GENode* op) override { return binary(op->a, ">=", op->b); }
    std::string visit(const AndNode* op) override { return binary(op->a, "&&", op->b); }
    std::string visit(const OrNode* op) override { return binary(op->a, "||", op->b); }
    std::string visit(const NotNode* op) override { return "(!" + visitExpr(op->a) + ")"; }
    std::string visit(const SelectNode* op) override;
    std::string visit(const CastNode* op) override;
    std::string visit(const CallNode* op) override;
    std::string visit(const LoadNode* op) override;
    std::string visit(const RampNode* op) override;
    std::string visit(const BroadcastNode* op) override;
    std::string visit(const LetNode* op) override;
    std::string visitExprDefault(const ExprNode* op) override;

private:
    std::string binary(const Expr& a, const char* op, const Expr& b);
    /// `a op b` with a constant `a` printed on the right, as TVM's simplifier orders operands.
    std::string commutative(const Expr& a, const char* op, const Expr& b);
    std::string function(const char* name, const Expr& a, const Expr& b);
    std::string conditional(const Expr& condition, const Expr& t, const Expr& f);
    std::string intrinsic(const CallNode* op);
    std::string mathCall(const CallNode* op);
    /// `callee(args...)`; throws UserError naming `name` when `callee` is not a C identifier.
    std::string externCall(const std::string& name, const std::string& callee,
                           const std::vector<Expr>& args);
    /// "CUDA" or "OpenCL", for messages.
    std::string backend() const;
    /// Lane `m_lane` of a vector, or the scalar itself.
    int lane(const ExprNode* op) const;

    std::set<Helper>& m_helpers;
    Dialect m_dialect;
    VarMap<std::string> m_names;
    VarSet m_arrays;
    VarSet m_nonNegative;
    VarSet m_globalBuffers;
    VarMap<Expr> m_letValues;
    std::vector<std::pair<Expr, std::string>> m_hoisted;
    int m_lane = -1;
};

} // namespace bs::cuda
