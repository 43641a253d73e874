#include "pg/execution/dry_run.hpp"

extern "C" {
#include "executor/executor.h"
#include "nodes/parsenodes.h"
#include "tcop/dest.h"
#include "tcop/tcopprot.h"
#include "utils/snapmgr.h"
}

#include <cmath>
#include <limits>

#include "pg/base/cpp_boundary.hpp"

namespace pgdp::pg {
namespace {

// The dry run in progress (at most one: a dry run refuses to start inside another).
struct DryRun {
    const QueryDesc* query;
    DryRunRelease* releases;
    int count;
    bool cached;
};
DryRun* current = nullptr;

[[noreturn]] void refuse_statement(const char* detail) {
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("pgdp.cost takes one SELECT statement"),
                    errdetail("%s", detail),
                    errhint("Pass the query alone, as you would run it: pgdp.cost('SELECT ...').")));
}

// The one SELECT of the text, analysed and rewritten as the query would be.
Query* analysed_select(const char* text) {
    List* statements = pg_parse_query(text);
    if (list_length(statements) != 1) refuse_statement("The text holds no statement or more than one.");
    RawStmt* raw = linitial_node(RawStmt, statements);
    if (!IsA(raw->stmt, SelectStmt) || castNode(SelectStmt, raw->stmt)->intoClause != nullptr) {
        refuse_statement("Only a query is planned: no other command, no SELECT INTO, EXPLAIN or EXECUTE.");
    }
    List* queries = pg_analyze_and_rewrite_fixedparams(raw, text, nullptr, 0, nullptr);
    if (list_length(queries) != 1) refuse_statement("A rule turned the query into several statements.");
    Query* query = linitial_node(Query, queries);
    if (query->commandType != CMD_SELECT || query->utilityStmt != nullptr || query->hasModifyingCTE) {
        refuse_statement(
            "A statement that changes data is not planned (a WITH clause holding INSERT, "
            "UPDATE or DELETE).");
    }
    return query;
}

// Errors raised while the statement is parsed, planned and started point into its own text (as
// SPI's do), not into the SQL that called pgdp.cost.
void dry_run_error_context(void* argument) {
    const char* statement_text = static_cast<const char*>(argument);
    const int position = geterrposition();
    if (position > 0) {
        errposition(0);
        internalerrposition(position);
        internalerrquery(statement_text);
    }
    errcontext("dry run of a statement (pgdp.cost)");
}

}  // namespace

DryRunResult dry_run(const char* statement_text) {
    if (current != nullptr) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("pgdp.cost cannot run inside another pgdp.cost"),
                        errhint("Call pgdp.cost directly.")));
    }
    ErrorContextCallback error_context{error_context_stack, dry_run_error_context,
                                       const_cast<char*>(statement_text)};
    error_context_stack = &error_context;
    Query* analysed = analysed_select(statement_text);
    PlannedStmt* statement = pg_plan_query(analysed, statement_text, CURSOR_OPT_PARALLEL_OK, nullptr);
    QueryDesc* query = CreateQueryDesc(statement, statement_text, GetActiveSnapshot(), InvalidSnapshot,
                                       None_Receiver, nullptr, nullptr, 0);
    DryRun run{query, static_cast<DryRunRelease*>(palloc0(sizeof(DryRunRelease) * kMaxReleasesPerQuery)), 0,
               false};
    current = &run;
    PG_TRY();
    {
        // Started as the query would be (PostgreSQL's permission checks, pgdp's refusals, the
        // parameters, the charge items), finished and ended without running a row.
        ExecutorStart(query, 0);
        ExecutorFinish(query);
        ExecutorEnd(query);
    }
    PG_FINALLY();
    { current = nullptr; }
    PG_END_TRY();
    FreeQueryDesc(query);
    error_context_stack = error_context.previous;
    return DryRunResult{run.releases, run.count, run.cached};
}

bool is_dry_run(const QueryDesc* query) { return current != nullptr && current->query == query; }

void note_dry_run_release(const ChargeItem& item, const pgdp::AggregateParameters& parameters,
                          const pgdp::AggregatePlan& plan, int multiplicity) {
    double half_width = std::numeric_limits<double>::quiet_NaN();
    PGDP_GUARDED(half_width = pgdp::value_half_width(parameters, plan, 0.05));
    // The charge refuses more than kMaxReleasesPerQuery releases before it gets here.
    for (int k = 0; k < multiplicity && current->count < kMaxReleasesPerQuery; ++k) {
        current->releases[current->count++] = DryRunRelease{item, half_width};
    }
}

void note_dry_run_cached() { current->cached = true; }

void refuse_charge_during_dry_run(const QueryDesc* query) {
    if (current == nullptr || current->query == query) return;
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("pgdp.cost cannot plan a statement that runs another release as it starts"),
                    errdetail("A function the statement runs before its rows are read makes a release; a dry "
                              "run charges nothing."),
                    errhint("Run the function's release on its own.")));
}

}  // namespace pgdp::pg
