/// \file
/// Helpers shared by the arith tests: a few named variables and a table checker that prints the
/// input expression when a case fails.
#pragma once

#include "arith/Analyzer.h"
#include "ir/Op.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace bs::test {

/// Variables used across the tables; shapes (`n`, `m`) are size_vars where a test says so.
struct Vars {
    Var x{"x"}, y{"y"}, z{"z"}, i{"i"}, j{"j"}, k{"k"}, n{"n"}, m{"m"}, o{"o"};
    Var bx{"blockIdx.x"}, tx{"threadIdx.x"};
    Var sn = Var::sizeVar("sn");
};

/// One row of a table: an input and the text its result must print as.
struct ExprCase {
    Expr input;
    std::string expected;
};

/// Checks `fn(input)` prints as `expected` for every row, naming the row and its input.
template <typename Fn> void checkTable(const std::vector<ExprCase>& table, Fn fn) {
    for (size_t row = 0; row < table.size(); ++row) {
        const ExprCase& c = table[row];
        Expr out = fn(c.input);
        EXPECT_EQ(toString(out), c.expected) << "row " << row << ": input " << toString(c.input);
    }
}

} // namespace bs::test
