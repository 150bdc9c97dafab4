/// \file
/// The programs of the randomized differential test (issue 4, item 5): an elementwise chain, a
/// matmul, a 3x3 stencil over a computed input, a two-axis reduction, a producer/consumer pair
/// with a shifted read, an elementwise chain over a symbolic extent, and an int32 pair with a
/// reversed read and floor division, strided reads (a lattice) and reads of two disjoint boxes
/// (compact storage, issue 20). Each carries the same program as Python (`te` calls), so
/// a failing schedule can be replayed with `boundscope script`.
#pragma once

#include "DiffTestUtil.h"

#include <string>

namespace bs::test {

struct DiffProgram {
    std::string name;
    /// `import tvm` ... `s = te.create_schedule(Out.op)`; schedule lines follow it.
    std::string python;
    /// The inputs, then the output; the Python names of the tensors are their names.
    std::vector<Tensor> args;
    SizeBindings sizes;

    const Tensor& output() const { return args.back(); }
};

/// Fresh tensors for every program, in a fixed order.
std::vector<DiffProgram> makeDiffPrograms();

} // namespace bs::test
