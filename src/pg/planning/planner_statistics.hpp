// What the planner may know of a protected relation (docs/privacy.md "Plans independent of hidden
// rows"). A plan is observable without EXPLAIN: plan-cache counters, the locks it takes, a cursor's
// options, pgdp's refusals decided on the plan, whether JIT compiles it. So a statement over a
// protected relation that its user may not read (DP-only access, no access at all) is planned
// from public facts only: no statistics of the rows (pg_statistic, extended statistics, index
// metapages, hence no actual min/max probes) and, for the size, the rows declared public with
// pgdp.set_planning_rows, else the setting pgdp.planning_rows. Relations the user may read are
// planned as without pgdp.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/pathnodes.h"
#include "nodes/plannodes.h"
#include "utils/selfuncs.h"
}

namespace pgdp::pg {

// get_relation_info_hook's stage (after PostgreSQL filled `rel`): for a hidden relation, the
// declared size, indexes whose costs read only that size, no extended statistics.
void plan_hidden_relation_from_public_facts(PlannerInfo* root, Oid relation, bool inheritance_parent,
                                            RelOptInfo* rel);

// get_relation_stats_hook, get_index_stats_hook: true (statistics taken over: none) for a column
// of a hidden relation, or of an index on one.
bool hide_column_statistics(Oid relation, VariableStatData* statistics);
bool hide_index_statistics(Oid index, VariableStatData* statistics);

// get_attavgwidth_hook: the column type's typical width for a hidden relation, 0 (ask
// pg_statistic) otherwise.
int32 public_column_width(Oid relation, AttrNumber column);

// ExecutorStart of a plan that makes releases: every index of a hidden relation the plan reads is
// locked, as planning it would have, so the locks an execution holds do not tell a plan reused
// from one made again (after the owner's ANALYZE or autovacuum invalidated it).
void lock_indexes_of_hidden_relations(const PlannedStmt* statement);

// pgdp.planning_rows.
void define_planner_statistics_settings();

}  // namespace pgdp::pg
