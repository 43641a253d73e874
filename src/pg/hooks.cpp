// Every PostgreSQL hook of pgdp, one function per hook point, installed by install_hooks(). Each
// body is the list of the release pipeline's stages at that point, in order; the stages live in
// the folders named in docs/architecture.md ("Life of a query"). Each hook calls the hook that was
// installed before pgdp (another module's) or PostgreSQL's standard function, never both.
// Every statement-level hook first refreshes whether the session can be charged
// (trust/chargeable_session.hpp), which the statistics and the seal stages ask.
//
//   post_parse_analyze  statistics: clear the query id in sessions that could be charged
//   planner             trust: refuse other roles' code that reaches releases; planning: the one
//                       analysis (no pgdp call: the plan and the seal only), the fingerprint,
//                       the distributed and person-level rewrites; the plan; plan marks; the seal
//   ExecutorStart       (the previous ExecutorStart inside the statement: running or starting inert)
//                       an inert execution (no pgdp mark, a session that cannot be charged):
//                       nothing more, and Run, Finish and End pass through too; otherwise
//                       seal; statistics; the executor state; a refused read under DP-only access
//                       explained; a release in a session that missed
//                       its budget refused; DP-only access, EXPLAIN refusals;
//                       the cache's answer or the charge (each authorized by execution/authorize)
//   ExecutorRun         running statement; seal; cache serve, re-checks, copy for the cache; run
//   ExecutorFinish      running statement (AFTER triggers run here)
//   ExecutorEnd         seal; store a completed release in the cache
//   ProcessUtility      running statement for utilities that run code; trust refusals and frames;
//                       afterwards the creator of a trigger it created
//   needs_fmgr, fmgr    trust: frames of functions the session does not trust
//   relation info, relation and index statistics, column widths
//                       planning: a protected relation the user may not read is planned from public
//                       facts only (its declared size, no statistics of its rows)
#include "pg/hooks.hpp"

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "access/parallel.h"
#include "executor/executor.h"
#include "fmgr.h"
#include "nodes/plannodes.h"
#include "optimizer/plancat.h"
#include "optimizer/planner.h"
#include "parser/analyze.h"
#include "tcop/utility.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
}

#include "pg/base/pg_compat.hpp"
#include "pg/channels/statement_seal.hpp"
#include "pg/channels/statement_statistics.hpp"
#include "pg/execution/release_cache.hpp"
#include "pg/planning/fingerprint.hpp"
#include "pg/planning/float_values.hpp"
#include "pg/execution/authorize.hpp"
#include "pg/execution/cache_store.hpp"
#include "pg/execution/charge.hpp"
#include "pg/execution/dp_only_refusals.hpp"
#include "pg/execution/empty_selection.hpp"
#include "pg/execution/inert_executions.hpp"
#include "pg/execution/release_execution.hpp"
#include "pg/execution/release_sites.hpp"
#include "pg/planning/distributed_release.hpp"
#include "pg/planning/person_level.hpp"
#include "pg/planning/planner_statistics.hpp"
#include "pg/planning/release_query.hpp"
#include "pg/trust/chargeable_session.hpp"
#include "pg/trust/function_frames.hpp"
#include "pg/trust/release_trust.hpp"
#include "pg/trust/trigger_authors.hpp"
#include "pg/trust/utility_trust.hpp"
#include "pg/trust/running_statements.hpp"

namespace pgdp::pg {
namespace {

post_parse_analyze_hook_type previous_post_parse_analyze = nullptr;
planner_hook_type previous_planner = nullptr;
ExecutorStart_hook_type previous_executor_start = nullptr;
ExecutorRun_hook_type previous_executor_run = nullptr;
ExecutorFinish_hook_type previous_executor_finish = nullptr;
ExecutorEnd_hook_type previous_executor_end = nullptr;
ProcessUtility_hook_type previous_process_utility = nullptr;
needs_fmgr_hook_type previous_needs_fmgr = nullptr;
fmgr_hook_type previous_fmgr = nullptr;
get_relation_info_hook_type previous_relation_info = nullptr;
get_relation_stats_hook_type previous_relation_stats = nullptr;
get_index_stats_hook_type previous_index_stats = nullptr;
get_attavgwidth_hook_type previous_column_width = nullptr;

void analyze_statement(ParseState* state, Query* query, JumbleState* jumble) {
    if (previous_post_parse_analyze != nullptr) previous_post_parse_analyze(state, query, jumble);
    refresh_chargeable_session();
    restore_size_limits();
    clear_query_id_of_chargeable_session(query);
}

// force_parallel_mode adds a single-copy Gather on top of a parallel-safe plan (standard_planner),
// so the whole query, final functions included, would run in a parallel worker, where pgdp never
// releases (execution/charge.cpp). The Gather's child is the plan the planner had before it, so it
// is put back.
void remove_forced_gather(PlannedStmt* statement) {
    Plan* top = statement->planTree;
    if (top == nullptr || !IsA(top, Gather)) return;
    const Gather* gather = castNode(Gather, top);
    if (!gather->single_copy || top->initPlan != NIL || top->lefttree == nullptr) return;
    if (!plan_makes_releases(statement)) return;
    statement->planTree = top->lefttree;
}

// Planners running now under the release-authority rules (nested: a function folded at plan time
// plans its own queries). Only such sessions ask (function_needs_frame); one that turns chargeable
// while planning counts fewer, so frames more functions.
int planning_depth = 0;

PlannedStmt* call_previous_planner(Query* parse, const char* query_string, int cursor_options,
                                   ParamListInfo bound_params) {
    return previous_planner != nullptr ? previous_planner(parse, query_string, cursor_options, bound_params)
                                       : standard_planner(parse, query_string, cursor_options, bound_params);
}

PlannedStmt* plan_with_previous_planner(Query* parse, const char* query_string, int cursor_options,
                                        ParamListInfo bound_params, bool under_rules) {
    if (!under_rules) return call_previous_planner(parse, query_string, cursor_options, bound_params);
    PlannedStmt* statement = nullptr;
    ++planning_depth;
    PG_TRY();
    { statement = call_previous_planner(parse, query_string, cursor_options, bound_params); }
    PG_FINALLY();
    { --planning_depth; }
    PG_END_TRY();
    return statement;
}

PlannedStmt* plan_query(Query* parse, const char* query_string, int cursor_options,
                        ParamListInfo bound_params) {
    // A session that cannot be charged plans as without the rules; a release plan made so is
    // marked and refused if it runs once the session can be charged (chargeable_session.hpp).
    const bool under_rules = refresh_chargeable_session();
    if (under_rules) check_query_authors(parse);
    restore_size_limits();
    ReleaseQuery releases = analyze_release_query(parse);
    if (releases.empty() && !releases.may_inline_releases()) {
        // No pgdp call, none the planner could inline: planned as without pgdp. Plan dumps of a
        // plain query over a table the session user may not read are sealed all the same.
        PlannedStmt* statement =
            plan_with_previous_planner(parse, query_string, cursor_options, bound_params, under_rules);
        seal_if_reading_hidden_rows(statement, true);
        return statement;
    }
    StatementFingerprint fingerprint;
    const bool fingerprinted = fingerprint_statement(parse, releases, &fingerprint);
    // Before the rewrites, which copy the calls' values into their levels (person level, Citus).
    make_float_values_safe(releases);
    rewrite_distributed_releases(parse, &releases);
    List* person_level_marks = rewrite_person_level_releases(releases);
    // Planning a statement that reads protected rows: from here on no notice reaches the client
    // (statement_seal.hpp).
    if (person_level_marks != NIL) seal_until_ready_for_query();
    PlannedStmt* statement =
        plan_with_previous_planner(parse, query_string, cursor_options, bound_params, under_rules);
    remove_forced_gather(statement);
    if (person_level_marks != NIL) mark_person_level_plan(statement, person_level_marks);
    if (person_level_marks != NIL || plan_makes_releases(statement)) {
        mark_release_plan(statement, under_rules);
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

void start_with_previous(QueryDesc* query, int eflags) {
    if (previous_executor_start != nullptr) {
        previous_executor_start(query, eflags);
    } else {
        standard_ExecutorStart(query, eflags);
    }
}

void start_execution(QueryDesc* query, int eflags) {
    // Before any module's executor code runs: a cached plan is not planned again.
    refresh_chargeable_session();
    restore_size_limits();
    const bool inert = may_run_inert(query, eflags);
    if (!inert) {
        seal_if_reading_hidden_rows(query->plannedstmt);
        clear_statistics_of_execution(query->plannedstmt, is_release_plan(query->plannedstmt));
        lock_indexes_of_hidden_relations(query->plannedstmt);
        // PostgreSQL's permission refusal of a relation read under DP-only access, with a hint.
        refuse_reads_under_dp_only_access(query->plannedstmt);
    }
    // ExecutorStart runs code of the statement too (initial partition pruning evaluates stable
    // expressions, a domain's CHECK among them): inside the statement, as Run and Finish do (red
    // team round 17).
    if (inert) {
        begin_inert_start();
    } else {
        enter_running_statement(query->plannedstmt);
    }
    PG_TRY();
    { start_with_previous(query, eflags); }
    PG_FINALLY();
    {
        if (inert) {
            end_inert_start();
        } else {
            leave_running_statement();
        }
    }
    PG_END_TRY();
    if (inert) {
        note_inert_execution(query);
        return;
    }
    if ((eflags & EXEC_FLAG_EXPLAIN_ONLY) == 0 && is_release_plan(query->plannedstmt))
        require_rules_for_release(query->plannedstmt);
    // DP-only access still granted, EXPLAIN refusals; plain EXPLAIN runs nothing.
    if (!authorize_execution(query, eflags)) return;
    // A repeated release over unchanged data: the stored answer, nothing charged.
    if (answer_from_release_cache(query)) return;
    charge_releases(query);
}

void run_execution(QueryDesc* query, ScanDirection direction, uint64 count, bool execute_once) {
    if (inert_execution(query)) {
        compat::run_previous_executor(previous_executor_run, query, direction, count, execute_once);
        return;
    }
    enter_running_statement(query->plannedstmt);
    PG_TRY();
    {
        // A cursor over protected rows fetched in a later command seals that command too.
        seal_if_reading_hidden_rows(query->plannedstmt);
        // An answer from the release cache: the stored rows, the plan is not run.
        if (!run_from_release_cache(query, direction, count)) {
            recheck_releases_before_run(query);
            copy_rows_for_release_cache(query, direction, count);
            compat::run_previous_executor(previous_executor_run, query, direction, count, execute_once);
            restore_destination(query);
            note_run(query, direction, count);
        }
    }
    PG_FINALLY();
    { leave_running_statement(); }
    PG_END_TRY();
}

void finish_with_previous(QueryDesc* query) {
    if (previous_executor_finish != nullptr) {
        previous_executor_finish(query);
    } else {
        standard_ExecutorFinish(query);
    }
}

void finish_execution(QueryDesc* query) {
    if (inert_execution(query)) {
        finish_with_previous(query);
        return;
    }
    enter_running_statement(query->plannedstmt);
    PG_TRY();
    { finish_with_previous(query); }
    PG_FINALLY();
    { leave_running_statement(); }
    PG_END_TRY();
}

void end_execution(QueryDesc* query) {
    if (!inert_execution(query)) {
        // Modules that report at the end of a plan (auto_explain) report into a sealed connection.
        seal_if_reading_hidden_rows(query->plannedstmt);
        report_empty_selection(query);
        store_release_if_complete(query);
    }
    if (previous_executor_end != nullptr) {
        previous_executor_end(query);
    } else {
        standard_ExecutorEnd(query);
    }
}

void run_utility(PlannedStmt* statement, const char* query_string, bool read_only_tree,
                 ProcessUtilityContext context, ParamListInfo params, QueryEnvironment* environment,
                 DestReceiver* destination, QueryCompletion* completion, bool nested) {
    const UtilityTrust trust = enter_utility_trust(statement, context, nested);
    PG_TRY();
    {
        if (previous_process_utility != nullptr) {
            previous_process_utility(statement, query_string, read_only_tree, context, params, environment,
                                     destination, completion);
        } else {
            standard_ProcessUtility(statement, query_string, read_only_tree, context, params, environment,
                                    destination, completion);
        }
        // Who wrote a trigger it created (PostgreSQL records no creator).
        record_trigger_creator(statement);
    }
    PG_FINALLY();
    { leave_utility_trust(trust); }
    PG_END_TRY();
}

void process_utility(PlannedStmt* statement, const char* query_string, bool read_only_tree,
                     ProcessUtilityContext context, ParamListInfo params, QueryEnvironment* environment,
                     DestReceiver* destination, QueryCompletion* completion) {
    refresh_chargeable_session();
    // Run by code (a function, a procedure, a DO block), not typed by the client: decided before
    // this utility counts as a running statement itself.
    const bool nested =
        running_depth() > 0 || (context != PROCESS_UTILITY_TOPLEVEL && context != PROCESS_UTILITY_SUBCOMMAND);
    // The running statement encloses the trust checks: a refusal leaves it too.
    const RunningUtility running = enter_running_utility(statement);
    PG_TRY();
    {
        run_utility(statement, query_string, read_only_tree, context, params, environment, destination,
                    completion, nested);
    }
    PG_FINALLY();
    { leave_running_utility(running); }
    PG_END_TRY();
}

bool needs_function_hook(Oid function) {
    if (previous_needs_fmgr != nullptr && previous_needs_fmgr(function)) return true;
    return function_needs_frame(function, planning_depth > 0);
}

void on_function_event(FmgrHookEventType event, FmgrInfo* flinfo, Datum* arg) {
    if (previous_fmgr != nullptr) previous_fmgr(event, flinfo, arg);
    track_function_frame(event, flinfo);
}

void describe_relation(PlannerInfo* root, Oid relation, bool inheritance_parent, RelOptInfo* rel) {
    if (previous_relation_info != nullptr) previous_relation_info(root, relation, inheritance_parent, rel);
    plan_hidden_relation_from_public_facts(root, relation, inheritance_parent, rel);
}

bool relation_statistics(PlannerInfo* root, RangeTblEntry* entry, AttrNumber column,
                         VariableStatData* statistics) {
    if (hide_column_statistics(entry->relid, statistics)) return true;
    return previous_relation_stats != nullptr && previous_relation_stats(root, entry, column, statistics);
}

bool index_statistics(PlannerInfo* root, Oid index, AttrNumber column, VariableStatData* statistics) {
    if (hide_index_statistics(index, statistics)) return true;
    return previous_index_stats != nullptr && previous_index_stats(root, index, column, statistics);
}

int32 column_width(Oid relation, AttrNumber column) {
    const int32 width = public_column_width(relation, column);
    if (width > 0) return width;
    return previous_column_width != nullptr ? previous_column_width(relation, column) : 0;
}

}  // namespace

void install_hooks() {
    previous_post_parse_analyze = post_parse_analyze_hook;
    post_parse_analyze_hook = analyze_statement;
    previous_planner = planner_hook;
    planner_hook = plan_query;
    previous_executor_start = ExecutorStart_hook;
    ExecutorStart_hook = start_execution;
    previous_executor_run = ExecutorRun_hook;
    ExecutorRun_hook = compat::executor_run_hook<run_execution>;
    previous_executor_finish = ExecutorFinish_hook;
    ExecutorFinish_hook = finish_execution;
    previous_executor_end = ExecutorEnd_hook;
    ExecutorEnd_hook = end_execution;
    previous_process_utility = ProcessUtility_hook;
    ProcessUtility_hook = process_utility;
    previous_needs_fmgr = needs_fmgr_hook;
    needs_fmgr_hook = needs_function_hook;
    previous_fmgr = fmgr_hook;
    fmgr_hook = on_function_event;
    previous_relation_info = get_relation_info_hook;
    get_relation_info_hook = describe_relation;
    previous_relation_stats = get_relation_stats_hook;
    get_relation_stats_hook = relation_statistics;
    previous_index_stats = get_index_stats_hook;
    get_index_stats_hook = index_statistics;
    previous_column_width = get_attavgwidth_hook;
    get_attavgwidth_hook = column_width;
}

}  // namespace pgdp::pg
