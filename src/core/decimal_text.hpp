// The one printer of a float8 as text: the shortest decimal that reads back as the same double.
// The ledger charges these decimals (budget_accounting.hpp, shortest_decimal) and messages show
// arguments with them (validate.hpp), so a value reads the same in a refusal and in the ledger.
#pragma once

#include <cstddef>
#include <string>

namespace pgdp {

// Longest text shown() returns: a sign, 17 digits, a point and a 5-character exponent
// ("-2.2250738585072014e-308").
constexpr std::size_t kMaxDecimalTextLength = 24;

// The shortest decimal that reads back as the same double (std::to_chars: 0.7, 5e-324, -0,
// 1e+300), or NaN, Infinity, -Infinity as PostgreSQL spells them.
std::string shown(double value);

}  // namespace pgdp
