// The planner hook: refuses pgdp aggregates in other roles' views, rules and policies before
// anything runs (release_trust.hpp), and keeps pgdp's final functions out of parallel workers
// when force_parallel_mode puts the whole plan under a single-copy Gather.
#include "pg/plan_hook.hpp"

#include <cstring>

extern "C" {
#include "nodes/plannodes.h"
#include "optimizer/planner.h"
}

#include "pg/aggregate_call.hpp"
#include "pg/distributed_release.hpp"
#include "pg/person_level.hpp"
#include "pg/release_cache.hpp"
#include "pg/release_charge.hpp"
#include "pg/release_trust.hpp"
#include "pg/statement_seal.hpp"

namespace pgdp::pg {
namespace {

planner_hook_type previous_planner = nullptr;

// force_parallel_mode adds a single-copy Gather on top of a parallel-safe plan (standard_planner),
// so the whole query, final functions included, would run in a parallel worker, where pgdp never
// releases (release_charge.cpp). The Gather's child is the plan the planner had before it, so it
// is put back.
void remove_forced_gather(PlannedStmt* statement) {
    Plan* top = statement->planTree;
    if (top == nullptr || !IsA(top, Gather)) return;
    const Gather* gather = castNode(Gather, top);
    if (!gather->single_copy || top->initPlan != NIL || top->lefttree == nullptr) return;
    if (!plan_makes_releases(statement)) return;
    statement->planTree = top->lefttree;
}

PlannedStmt* plan_query(Query* parse, const char* query_string, int cursor_options,
                        ParamListInfo bound_params);

// Planning a statement that reads protected rows: from here on no notice reaches the client until
// it is ready for the next query (statement_seal.hpp). A planner hook installed after pgdp's runs
// before it and sees the query id before pgdp clears it; pg_stat_statements' would record the
// planning's block counts with track_planning on: refused then, before anything is read
// (docs/privacy.md "Server messages and statistics").
void seal_protected_planning() {
    seal_until_ready_for_query();
    if (planner_hook == plan_query) return;
    const char* track_planning = GetConfigOption("pg_stat_statements.track_planning", true, false);
    if (track_planning != nullptr && std::strcmp(track_planning, "on") == 0) {
        ereport(
            ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("pgdp cannot make person-level releases while pg_stat_statements.track_planning is on "
                    "and pg_stat_statements precedes pgdp in shared_preload_libraries"),
             errdetail("pg_stat_statements would record the block counts of planning, which follow the "
                       "protected rows, before pgdp can hide the statement from it."),
             errhint("List pgdp after pg_stat_statements in shared_preload_libraries, or turn "
                     "pg_stat_statements.track_planning off.")));
    }
}

PlannedStmt* plan_query(Query* parse, const char* query_string, int cursor_options,
                        ParamListInfo bound_params) {
    check_query_authors(parse);
    // Modules keyed by the query id (pg_stat_statements, ...) keep no counters of statements that
    // make releases: their blocks, rows and times follow the rows behind the releases. Cleared
    // before the planner hooks installed before pgdp's run, and in the plan (releases found only
    // after SQL functions are inlined).
    if (parse->queryId != UINT64CONST(0) && contains_release((Node*)parse)) parse->queryId = UINT64CONST(0);
    StatementFingerprint fingerprint;
    const bool fingerprinted = fingerprint_statement(parse, &fingerprint);
    rewrite_distributed_releases(parse);
    List* person_level_marks = rewrite_person_level_releases(parse);
    if (person_level_marks != NIL) seal_protected_planning();
    PlannedStmt* statement = previous_planner != nullptr
                                 ? previous_planner(parse, query_string, cursor_options, bound_params)
                                 : standard_planner(parse, query_string, cursor_options, bound_params);
    remove_forced_gather(statement);
    if (person_level_marks != NIL) mark_person_level_plan(statement, person_level_marks);
    if (person_level_marks != NIL || plan_makes_releases(statement)) {
        mark_release_plan(statement);
        statement->queryId = UINT64CONST(0);
        // Plan dumps (debug_print_plan) follow the planner: sealed now if the plan reads rows for
        // releases that the session user may not read (a view over a hidden table).
        seal_if_reading_hidden_rows(statement);
    }
    if (fingerprinted) mark_fingerprint(statement, fingerprint);
    return statement;
}

}  // namespace

void install_plan_hook() {
    previous_planner = planner_hook;
    planner_hook = plan_query;
}

}  // namespace pgdp::pg
