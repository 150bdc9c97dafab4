#include "runtime/Interpreter.h"

#include "ir/Op.h"
#include "runtime/InterpreterCompiler.h"
#include "runtime/InterpreterExecutor.h"

#include <algorithm>

namespace bs {

int64_t BufferTrace::totalTouched() const {
    return int64_t(std::count_if(flags.begin(), flags.end(), [](uint8_t f) { return f != 0; }));
}

int64_t BufferTrace::readElements() const {
    return int64_t(std::count_if(flags.begin(), flags.end(),
                                 [](uint8_t f) { return (f & kElementRead) != 0; }));
}

int64_t BufferTrace::writtenElements() const {
    return int64_t(std::count_if(flags.begin(), flags.end(),
                                 [](uint8_t f) { return (f & kElementWritten) != 0; }));
}

const BufferTrace* RunResult::find(const std::string& name) const {
    for (const BufferTrace& b : buffers) {
        if (b.name == name)
            return &b;
    }
    return nullptr;
}

const BufferTrace* RunResult::find(const Var& bufferVar) const {
    for (const BufferTrace& b : buffers) {
        if (b.bufferVar.defined() && b.bufferVar.same_as(bufferVar))
            return &b;
    }
    return nullptr;
}

const BufferTrace* RunResult::find(const Tensor& tensor) const {
    for (const BufferTrace& b : buffers) {
        if (b.tensor.defined() && b.tensor.same_as(tensor))
            return &b;
    }
    return nullptr;
}

struct Interpreter::Bindings {
    std::vector<std::pair<Var, Buffer*>> buffers;
    std::vector<std::pair<Tensor, Buffer*>> tensors;
    std::vector<std::pair<Var, interp::Value>> scalars;
};

Interpreter::Interpreter(InterpreterOptions options)
    : m_options(options), m_bindings(std::make_unique<Bindings>()) {}

Interpreter::~Interpreter() = default;

namespace {

/// Replaces the value bound to `key` or appends it, keeping binding order.
template <typename K, typename V, typename Same>
void rebind(std::vector<std::pair<K, V>>& list, const K& key, V value, Same same) {
    for (auto& [k, v] : list) {
        if (same(k, key)) {
            v = value;
            return;
        }
    }
    list.emplace_back(key, value);
}

/// Checks a bound buffer against its tensor's shape, where the shape is known: constants, and
/// variables bound as scalars.
void checkTensorShape(const Tensor& tensor, const Buffer& buffer,
                      const std::vector<std::pair<Var, interp::Value>>& scalars) {
    const std::vector<Expr>& shape = tensor.shape();
    auto mismatch = [&](const std::string& why) {
        throw UserError("buffer '" + buffer.name() + "' bound to tensor '" + tensor.name() +
                        "': " + why);
    };
    if (shape.size() != buffer.shape().size())
        mismatch("rank " + std::to_string(buffer.shape().size()) + ", the tensor has rank " +
                 std::to_string(shape.size()));
    for (size_t d = 0; d < shape.size(); ++d) {
        std::optional<int64_t> extent = asConstInt(shape[d]);
        if (const auto* v = shape[d].as<VarNode>()) {
            for (const auto& [var, value] : scalars) {
                if (var.get() == v)
                    extent = value.i;
            }
        }
        if (extent && *extent != buffer.shape()[d])
            mismatch("extent " + std::to_string(buffer.shape()[d]) + " in dimension " +
                     std::to_string(d) + ", the tensor has " + std::to_string(*extent));
    }
}

} // namespace

void Interpreter::bindBuffer(const Var& bufferVar, Buffer& buffer) {
    rebind(m_bindings->buffers, bufferVar, &buffer,
           [](const Var& a, const Var& b) { return a.same_as(b); });
}

void Interpreter::bindTensor(const Tensor& tensor, Buffer& buffer) {
    if (tensor.ndim() > size_t(interp::kMaxRank))
        throw UserError("tensor '" + tensor.name() + "' has rank " + std::to_string(tensor.ndim()) +
                        ", the interpreter handles at most " + std::to_string(interp::kMaxRank));
    rebind(m_bindings->tensors, tensor, &buffer,
           [](const Tensor& a, const Tensor& b) { return a.same_as(b); });
}

void Interpreter::bindScalar(const Var& var, int64_t value) {
    if (var.type().isFloat()) {
        bindScalarFloat(var, double(value));
        return;
    }
    rebind(m_bindings->scalars, var, interp::intValue(value),
           [](const Var& a, const Var& b) { return a.same_as(b); });
}

void Interpreter::bindScalarFloat(const Var& var, double value) {
    interp::Value v =
        var.type().isFloat() ? interp::floatValue(value) : interp::intValue(doubleToInt(value));
    rebind(m_bindings->scalars, var, v, [](const Var& a, const Var& b) { return a.same_as(b); });
}

RunResult Interpreter::run(const Stmt& stmt) {
    if (!stmt.defined())
        throw UserError("nothing to run: the statement is undefined");
    for (const auto& [tensor, buffer] : m_bindings->tensors)
        checkTensorShape(tensor, *buffer, m_bindings->scalars);
    interp::CompileInputs inputs{m_bindings->buffers, m_bindings->tensors, m_bindings->scalars};
    interp::Program program = interp::compileProgram(stmt, inputs);
    interp::Executor executor(program, m_options);
    executor.run();
    return executor.takeResult();
}

} // namespace bs
