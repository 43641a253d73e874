// The float8 values of dp_histogram, dp_quantile, dp_quantiles and dp_median read from a numeric
// expression: the parser's implicit cast float8(numeric) raises for a value beyond float8's range
// (or one that rounds to 0), per row and after the charge (red team round 18). Until these
// statistics take numeric values themselves, the planner hook replaces that cast by one that
// cannot fail.
#pragma once

#include "pg/planning/release_query.hpp"

namespace pgdp::pg {

// In every call of the analysis: an implicit float8(numeric) value argument without volatile
// functions becomes CASE WHEN v = 'NaN' THEN 'NaN' WHEN v > 1.7976931348623157e308 THEN
// 'Infinity' WHEN v < -1.7976931348623157e308 THEN '-Infinity' WHEN v > -2.5e-324 AND v <
// 2.5e-324 THEN 0 ELSE float8(v) END (numeric comparisons cannot fail). It changes what the cast
// would raise on, and reads the values between half the smallest subnormal (2.47e-324) and 2.5e-324
// as 0 instead of +-4.9e-324: a bin or a clamp moves only for bounds near 1e-308 in magnitude.
void make_float_values_safe(const ReleaseQuery& analysis);

}  // namespace pgdp::pg
