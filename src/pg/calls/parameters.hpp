// The privacy parameters of one pgdp aggregate call (bounds, epsilon, delta, mechanism, alpha,
// min_units), read from the Aggref's argument expressions at the positions its row of kAggregates
// gives, once per execution before any row is read. Shared by the aggregates' support functions
// and by the ExecutorStart hook that charges the releases before the query runs (execution/charge.cpp).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/execnodes.h"
#include "nodes/plannodes.h"
#include "nodes/primnodes.h"
}

#include "core/aggregate_release.hpp"
#include "pg/calls/aggregate_identity.hpp"

namespace pgdp::pg {

// The call's constant parameters, validated.
struct Parameters {
    pgdp::AggregateParameters privacy;
    Oid value_type;  // of the value argument (dp_count: int8)
    // dp_quantile, dp_quantiles, dp_median: the levels asked, in the caller's order (palloc'd with
    // the parameters, for the execution); the release's, not the plan's.
    const double* quantile_levels;
    int quantile_count;
    // A person-level call (plan_marks.hpp marked_groups_per_unit): its release is over privacy
    // units, each bounded to privacy.groups_per_unit groups (and rows_per_unit rows per group).
    bool person_level;
};

// Where the argument expressions are evaluated: before execution (ExecutorStart), with the
// query's bind parameters.
struct ArgumentContext {
    ExprContext* econtext;
    ParamListInfo params;
};

// Reads and validates the parameters of the call (ereport on a non-deterministic or invalid
// argument: see not_deterministic in parameters.cpp).
Parameters read_parameters(Aggref* aggref, const AggregateIdentity& identity, const ArgumentContext& context);

// ereports (22023, as read_parameters would) if a privacy parameter of the call reads a column of
// the call's own query level: a query rewrite that moves the level's rows elsewhere must refuse it
// first (read_parameters, at executor start, would see a dangling reference).
void refuse_parameters_over_rows(const Aggref* aggref);

// The arguments the call was written with (without the partial totals the distributed rewrite
// appends: plan_marks.hpp reads_partial_totals).
int written_argument_count(const Aggref* aggref);
// How many arguments the distributed rewrite appends to a call of the kind (see parameters.cpp).
int partial_argument_count(AggregateKind kind);
// True for a distributed dp_sum, dp_mean, dp_variance or dp_stddev whose partials are grouped by
// the rows' log bins (its bin arguments are partials columns, not NULL constants).
bool reads_partial_bins(const Aggref* aggref);

bool is_integer_type(Oid type);
// The value types the aggregates read: the integer types, real, double precision and numeric.
bool is_value_type(Oid type);

// In a Finalize Aggregate (parallel plans) the call's argument is a reference to the partial
// aggregate's output; follows it down the plan from agg_plan (Gather, Sort, ... pass columns
// through) to the partial Aggref, which carries the original arguments. Returns aggref itself
// when it is not a combining call; ereports if the partial aggregate cannot be found.
Aggref* partial_origin(const Plan* agg_plan, Aggref* aggref);

}  // namespace pgdp::pg
