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
// 2.5e-324 THEN 0 ELSE float8(v) END (numeric comparisons cannot fail; the values it changes are
// beyond every bound or below the smallest float8, so no bin and no clamped value changes).
void make_float_values_safe(const ReleaseQuery& analysis);

}  // namespace pgdp::pg
