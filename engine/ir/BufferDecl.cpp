/// TVM's tir.Buffer (BufferDecl here): the checks of `decl_buffer`.

#include "ir/BufferDecl.h"

#include "ir/Printer.h"
#include "support/Diagnostic.h"

namespace bs {

BufferDecl BufferDecl::make(std::string name, Var data, DataType dtype, std::vector<Expr> shape,
                            std::vector<Expr> strides, Expr elemOffset, std::string scope,
                            int offsetFactor) {
    if (!data.defined() || !data.type().isHandle())
        throw UserError("buffer '" + name + "' has no data handle");
    for (const Expr& extent : shape)
        if (!extent.defined() || !extent.type().isIntegral())
            throw UserError("buffer '" + name + "': an extent is not an integer expression");
    if (!strides.empty() && strides.size() != shape.size())
        throw UserError("buffer '" + name + "' has " + std::to_string(shape.size()) +
                        " dimensions but " + std::to_string(strides.size()) + " strides");
    if (offsetFactor < 0)
        throw UserError("buffer '" + name + "': offset_factor is negative");
    auto* node = new BufferDeclNode();
    node->name = std::move(name);
    node->data = std::move(data);
    node->dtype = dtype;
    node->shape = std::move(shape);
    node->strides = std::move(strides);
    node->elemOffset = elemOffset.defined() ? std::move(elemOffset) : Expr(0);
    node->scope = std::move(scope);
    node->offsetFactor = offsetFactor;
    return BufferDecl(node);
}

} // namespace bs
