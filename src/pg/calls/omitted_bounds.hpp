// The forms without bounds: dp_sum(value, epsilon [, delta]) and likewise dp_mean, dp_variance,
// dp_stddev, dp_median, dp_quantile(value, q, ...) and dp_quantiles(value, q[], ...) (issue 24
// part 5: bounds "may be omitted (or NULL)"). Each is its NULL-bound form: the planner's analysis
// rewrites the call into it, two NULL float8 bounds after the value, before anything else reads
// the call, so every later stage (parameters, the charge, person level, Citus, the cache) sees
// only the NULL-bound call. Their own transition and final functions raise: a call no pgdp planner
// rewrote never runs. Only these arities: a 4-argument dp_sum(value, epsilon, delta, mechanism)
// would capture dp_sum(value, 0, 10, '1') (an untyped literal prefers text), and *_ci's trailing
// alpha would make (value, epsilon, delta) and (value, lower, upper, epsilon) collide.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/primnodes.h"
}

namespace pgdp::pg {

// Rewrites a call of a form without bounds, in place, into its NULL-bound aggregate (same name and
// schema, two float8 arguments more after the value); ERROR if that aggregate is missing or is not
// pgdp's form of the same statistic and result type.
void insert_null_bounds(Aggref* call);

}  // namespace pgdp::pg
