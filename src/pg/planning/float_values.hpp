// The float8 values of dp_histogram, dp_quantile, dp_quantiles and dp_median read from a numeric
// expression: the parser's implicit cast float8(numeric) raises for a value beyond float8's range
// (or one that rounds to 0), per row and after the charge (red team round 18). The planner hook
// replaces that cast by one that cannot fail, in the value of every pgdp call (a numeric money
// column in dp_sum, dp_mean, dp_median, ...).
#pragma once

#include "pg/planning/release_query.hpp"

namespace pgdp::pg {

// In every pgdp call of the analysis: an implicit float8(numeric) value argument becomes
// pgdp.total_float8(v) (the cast's value, or +-Infinity and 0 where the cast raises). With an
// extension too old to have it, for dp_histogram and the quantiles only, and without volatile
// functions: CASE WHEN v = 'NaN' THEN 'NaN' WHEN v > 1.7976931348623157e308 THEN 'Infinity' WHEN
// v < -1.7976931348623157e308 THEN '-Infinity' WHEN v > -2.5e-324 AND v < 2.5e-324 THEN 0 ELSE
// float8(v) END (numeric comparisons cannot fail).
void make_float_values_safe(const ReleaseQuery& analysis);

}  // namespace pgdp::pg
