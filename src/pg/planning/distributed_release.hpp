// Releases over Citus distributed tables (docs/architecture.md "Distributed tables (Citus)").
//
// Before Citus plans a query (pgdp's planner hook runs first: shared_preload_libraries =
// 'citus,pgdp'), each query level that computes pgdp aggregates over distributed tables is split:
// - the partials query: the level's FROM, WHERE and GROUP BY with, per call, the exact totals
//   sum(pgdp.clamped_units(value, lower, upper)) and the row count: built-in aggregates that Citus
//   pushes down to the workers, whatever the grouping; for dp_histogram, the quantiles and
//   dp_count_distinct the rows are also grouped by the row's bin, leaf or value hash and counted
//   (one such key per level);
// - the level itself, now over pgdp.distributed_partials(<partials query>): the same calls, marked
//   to add those totals (plan_marks.hpp reads_partial_totals), charged and noised once, on the
//   node the analyst is connected to.
// The partials query runs only inside a plan pgdp built, for an execution whose releases are
// charged (execution/partials.cpp plans it and checks its permissions before the charge), so its exact
// totals never reach a user.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/parsenodes.h"
#include "nodes/primnodes.h"
}

#include "pg/planning/release_query.hpp"

namespace pgdp::pg {

// The planner hook's step: rewrites in place each level with pgdp aggregates over Citus tables;
// ereports (0A000) for what it cannot rewrite, and if the statement still reads a distributed
// table beside its releases. The analysis is walked again when a level was rewritten.
void rewrite_distributed_releases(Query* parse, ReleaseQuery* analysis);

// True for the pgdp.distributed_partials(...) call a rewrite wrote (the function of the pgdp
// extension, at the location only the rewrite sets).
bool is_distributed_partials_call(const Node* expression);

// The partials query a rewrite stored in that call (a copy, ready to plan).
Query* distributed_partials_query(const FuncExpr* call);

// Settings the partials query is planned and run under, whatever the session set: Citus writes
// the shard queries as text, and the bounds must reach the workers exactly (extra_float_digits
// below 1 would round them). Returns the GUC nest level to close with AtEOXact_GUC(true, level).
int pin_partials_settings();

// ereports (0A000) if the planned partials query reads a Citus table with another role's
// privileges (a view's owner): Citus runs the shard queries as the current user, whose refusal on
// a worker would come after the charge.
void refuse_citus_reads_as_another_role(const PlannedStmt* partials);
// The same over a list of permission entries (compat::Permission: a partials query's, on a
// release cache hit).
void refuse_citus_reads_as_another_role(const List* permissions);

// ereports (0A000) in a backend Citus opened for its own work (a worker's shard query, the
// rebalancer): releases happen on the node the analyst is connected to.
void refuse_in_citus_backend(const char* aggregate);

}  // namespace pgdp::pg
