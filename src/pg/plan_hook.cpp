// The planner hook: refuses pgdp aggregates in other roles' views, rules and policies before
// anything runs (release_trust.hpp), and keeps pgdp's final functions out of parallel workers
// when force_parallel_mode puts the whole plan under a single-copy Gather.
#include "pg/plan_hook.hpp"

extern "C" {
#include "nodes/plannodes.h"
#include "optimizer/planner.h"
}

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

PlannedStmt* plan_query(Query* parse, const char* query_string, int cursor_options,
                        ParamListInfo bound_params) {
    check_query_authors(parse);
    restore_size_limits();
    StatementFingerprint fingerprint;
    const bool fingerprinted = fingerprint_statement(parse, &fingerprint);
    rewrite_distributed_releases(parse);
    List* person_level_marks = rewrite_person_level_releases(parse);
    // Planning a statement that reads protected rows: from here on no notice reaches the client
    // (statement_seal.hpp).
    if (person_level_marks != NIL) seal_until_ready_for_query();
    PlannedStmt* statement = previous_planner != nullptr
                                 ? previous_planner(parse, query_string, cursor_options, bound_params)
                                 : standard_planner(parse, query_string, cursor_options, bound_params);
    remove_forced_gather(statement);
    if (person_level_marks != NIL) mark_person_level_plan(statement, person_level_marks);
    if (person_level_marks != NIL || plan_makes_releases(statement)) {
        mark_release_plan(statement);
        // No statistics keyed by the query id (statement_statistics.hpp): a release inlined from a
        // SQL function is found only here.
        statement->queryId = UINT64CONST(0);
    }
    // Plan dumps (debug_print_plan, log_planner_stats) follow the planner: sealed now if the plan
    // reads rows the session user may not read (protected relations, a view over a hidden table),
    // with or without releases (a plain query over a protected relation is refused only when it
    // starts).
    seal_if_reading_hidden_rows(statement, true);
    if (fingerprinted) mark_fingerprint(statement, fingerprint);
    return statement;
}

}  // namespace

void install_plan_hook() {
    previous_planner = planner_hook;
    planner_hook = plan_query;
}

}  // namespace pgdp::pg
