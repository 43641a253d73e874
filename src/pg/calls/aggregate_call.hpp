// One call of a pgdp aggregate (dp_sum, dp_mean, dp_count and the *_ci forms) as written in a
// query: its kind, its constant privacy parameters read from the Aggref's argument expressions,
// and the release plans they determine. Shared by the aggregates' support functions and by the
// ExecutorStart hook that charges the releases before the query runs (release_charge.cpp).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/execnodes.h"
#include "nodes/plannodes.h"
#include "nodes/primnodes.h"
}

#include "core/aggregate_release.hpp"

namespace pgdp::pg {

using pgdp::AggregateKind;

// What a pgdp aggregate is, identified by its final function (C symbol in the pgdp library).
struct AggregateIdentity {
    bool is_pgdp;
    AggregateKind kind;
    bool with_interval;  // the *_ci forms: a dp_release record with an interval
    const char* name;    // "dp_sum", "dp_mean_ci", ... (static storage)
};
// Looked up once per aggregate OID per backend (pg_aggregate -> final function -> pg_proc).
AggregateIdentity identify_aggregate(Oid aggfnoid);

// The six pgdp aggregates (one identity each; their final functions are listed in aggregate_call.cpp).
inline constexpr AggregateIdentity kDpSum{true, AggregateKind::Sum, false, "dp_sum"};
inline constexpr AggregateIdentity kDpMean{true, AggregateKind::Mean, false, "dp_mean"};
inline constexpr AggregateIdentity kDpCount{true, AggregateKind::Count, false, "dp_count"};
inline constexpr AggregateIdentity kDpSumCi{true, AggregateKind::Sum, true, "dp_sum_ci"};
inline constexpr AggregateIdentity kDpMeanCi{true, AggregateKind::Mean, true, "dp_mean_ci"};
inline constexpr AggregateIdentity kDpCountCi{true, AggregateKind::Count, true, "dp_count_ci"};
// Private group selection: dp_groups(epsilon, delta [, mechanism [, min_units]]) -> boolean.
inline constexpr AggregateIdentity kDpGroups{true, AggregateKind::Selection, false, "dp_groups"};

// pgdp's query rewrites mark the calls they write through the Aggref's parse location, which only
// they set below -1 (the parser writes -1 or an offset, the planner copies it, stored rules read
// back -1): code = -1 - location holds
// - m, the groups per unit of a person-level rewrite (person_level.cpp): the call calibrates every
//   release over m groups. A mark can only raise m above 1 (more noise), never lower it;
// - kReadsPartialTotals, set by the distributed rewrite (distributed_release.hpp): the call's last
//   two arguments are exact partial totals (units, rows) computed by Citus workers, which its
//   transition function adds instead of reading a value.
constexpr int kReadsPartialTotals = 1 << 20;
constexpr int call_location(int groups_per_unit, bool reads_partial_totals) {
    return -1 - (groups_per_unit + (reads_partial_totals ? kReadsPartialTotals : 0));
}
constexpr int groups_per_unit_location(int groups_per_unit) { return call_location(groups_per_unit, false); }
inline int call_marks(const Aggref* aggref) { return aggref->location <= -2 ? -1 - aggref->location : 0; }
inline int groups_per_unit_of(const Aggref* aggref) {
    const int m = call_marks(aggref) % kReadsPartialTotals;
    return m >= 1 ? m : 1;
}
inline bool reads_partial_totals(const Aggref* aggref) {
    return call_marks(aggref) >= kReadsPartialTotals && call_marks(aggref) < 2 * kReadsPartialTotals;
}
// The arguments the call was written with (without the partial totals the rewrite appends).
inline int written_argument_count(const Aggref* aggref) {
    return list_length(aggref->args) - (reads_partial_totals(aggref) ? 2 : 0);
}

// The call's constant parameters, validated.
struct Parameters {
    pgdp::AggregateParameters privacy;
    Oid value_type;  // of the value argument (dp_count: int8)
};

// Where the argument expressions are evaluated: before execution (ExecutorStart), with the
// query's bind parameters.
struct ArgumentContext {
    ExprContext* econtext;
    ParamListInfo params;
};

// Reads and validates the parameters of the call (ereport on a non-deterministic or invalid
// argument: see not_deterministic in aggregate_call.cpp).
Parameters read_parameters(Aggref* aggref, const AggregateIdentity& identity, const ArgumentContext& context);

// ereports (22023, as read_parameters would) if a privacy parameter of the call reads a column of
// the call's own query level: a query rewrite that moves the level's rows elsewhere must refuse it
// first (read_parameters, at executor start, would see a dangling reference).
void refuse_parameters_over_rows(const Aggref* aggref);

bool is_integer_type(Oid type);
// The value types the aggregates read: the integer types, real, double precision and numeric.
bool is_value_type(Oid type);

// In a Finalize Aggregate (parallel plans) the call's argument is a reference to the partial
// aggregate's output; follows it down the plan from agg_plan (Gather, Sort, ... pass columns
// through) to the partial Aggref, which carries the original arguments. Returns aggref itself
// when it is not a combining call; ereports if the partial aggregate cannot be found.
Aggref* partial_origin(const Plan* agg_plan, Aggref* aggref);

// True if an expression or query tree (subqueries included) contains a pgdp aggregate call.
bool contains_release(Node* node);

}  // namespace pgdp::pg
