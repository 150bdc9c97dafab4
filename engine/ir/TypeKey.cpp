#include "ir/TypeKey.h"

#include "ir/Expr.h"
#include "support/Check.h"

namespace bs {

namespace {

struct KindKey {
    NodeKind kind;
    const char* key;
};

constexpr KindKey kKindKeys[] = {
    {NodeKind::IntImm, "IntImm"},
    {NodeKind::FloatImm, "FloatImm"},
    {NodeKind::StringImm, "tir.StringImm"},
    {NodeKind::Var, "tir.Var"},
    {NodeKind::Var, "tir.SizeVar"},
    {NodeKind::Add, "tir.Add"},
    {NodeKind::Sub, "tir.Sub"},
    {NodeKind::Mul, "tir.Mul"},
    {NodeKind::Div, "tir.Div"},
    {NodeKind::Mod, "tir.Mod"},
    {NodeKind::FloorDiv, "tir.FloorDiv"},
    {NodeKind::FloorMod, "tir.FloorMod"},
    {NodeKind::Min, "tir.Min"},
    {NodeKind::Max, "tir.Max"},
    {NodeKind::EQ, "tir.EQ"},
    {NodeKind::NE, "tir.NE"},
    {NodeKind::LT, "tir.LT"},
    {NodeKind::LE, "tir.LE"},
    {NodeKind::GT, "tir.GT"},
    {NodeKind::GE, "tir.GE"},
    {NodeKind::And, "tir.And"},
    {NodeKind::Or, "tir.Or"},
    {NodeKind::Not, "tir.Not"},
    {NodeKind::Select, "tir.Select"},
    {NodeKind::Cast, "tir.Cast"},
    {NodeKind::Call, "tir.Call"},
    {NodeKind::ProducerLoad, "tir.ProducerLoad"},
    {NodeKind::Load, "tir.Load"},
    {NodeKind::Ramp, "tir.Ramp"},
    {NodeKind::Broadcast, "tir.Broadcast"},
    {NodeKind::Let, "tir.Let"},
    {NodeKind::Reduce, "tir.Reduce"},
    {NodeKind::LetStmt, "tir.LetStmt"},
    {NodeKind::AttrStmt, "tir.AttrStmt"},
    {NodeKind::AssertStmt, "tir.AssertStmt"},
    {NodeKind::For, "tir.For"},
    {NodeKind::ProducerRealize, "tir.ProducerRealize"},
    {NodeKind::ProducerStore, "tir.ProducerStore"},
    {NodeKind::ProducerConsumer, "tir.ProducerConsumer"},
    {NodeKind::Allocate, "tir.Allocate"},
    {NodeKind::Store, "tir.Store"},
    {NodeKind::Seq, "tir.SeqStmt"},
    {NodeKind::IfThenElse, "tir.IfThenElse"},
    {NodeKind::Evaluate, "tir.Evaluate"},
    {NodeKind::IterVar, "tir.IterVar"},
    {NodeKind::CommReducer, "tir.CommReducer"},
    {NodeKind::PlaceholderOp, "te.PlaceholderOp"},
    {NodeKind::ComputeOp, "te.ComputeOp"},
    {NodeKind::ScanOp, "te.ScanOp"},
    {NodeKind::ExternOp, "te.ExternOp"},
    {NodeKind::TensorComputeOp, "te.TensorComputeOp"},
    {NodeKind::BufferDecl, "tir.Buffer"},
    {NodeKind::TensorIntrin, "te.TensorIntrin"},
};

} // namespace

const char* typeKeyOf(const NodeRef& node) {
    if (const auto* var = node.as<VarNode>(); var && var->isSizeVar)
        return "tir.SizeVar";
    for (const KindKey& k : kKindKeys)
        if (k.kind == node.kind())
            return k.key;
    BS_UNREACHABLE("a node kind without a type key");
    return "";
}

std::optional<NodeKind> nodeKindOfTypeKey(const std::string& key) {
    for (const KindKey& k : kKindKeys)
        if (key == k.key)
            return k.kind;
    return std::nullopt;
}

} // namespace bs
