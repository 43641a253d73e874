#include "pg/execution/dry_run.hpp"

extern "C" {
#include "commands/prepare.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "nodes/parsenodes.h"
#include "parser/parse_coerce.h"
#include "parser/parse_collate.h"
#include "parser/parse_expr.h"
#include "utils/builtins.h"
#include "utils/plancache.h"
#include "utils/resowner.h"
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
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("pgdp.cost takes one SELECT or EXECUTE statement"), errdetail("%s", detail),
                    errhint("Pass the query alone, as you would run it: pgdp.cost('SELECT ...').")));
}

void require_select(CmdType command, const Node* utility, bool modifying_cte) {
    if (command != CMD_SELECT || utility != nullptr || modifying_cte) {
        refuse_statement(
            "A statement that changes data is not planned (a WITH clause holding INSERT, "
            "UPDATE or DELETE).");
    }
}

// The one SELECT of the text, analysed, rewritten and planned as the query would be.
PlannedStmt* planned_select(RawStmt* raw, const char* text) {
    List* queries = pg_analyze_and_rewrite_fixedparams(raw, text, nullptr, 0, nullptr);
    if (list_length(queries) != 1) refuse_statement("A rule turned the query into several statements.");
    Query* query = linitial_node(Query, queries);
    require_select(query->commandType, query->utilityStmt, query->hasModifyingCTE);
    return pg_plan_query(query, text, CURSOR_OPT_PARALLEL_OK, nullptr);
}

// EXECUTE's arguments, evaluated as EXECUTE evaluates them (commands/prepare.c EvaluateParams):
// each coerced to its parameter's type, in `estate`'s memory.
ParamListInfo evaluated_arguments(const CachedPlanSource* source, const char* name, List* arguments,
                                  const char* text, EState* estate) {
    if (source->num_params != list_length(arguments)) {
        ereport(ERROR, (errcode(ERRCODE_SYNTAX_ERROR),
                        errmsg("wrong number of parameters for prepared statement \"%s\"", name),
                        errdetail("Expected %d parameters but got %d.", source->num_params,
                                  list_length(arguments))));
    }
    if (source->num_params == 0) return nullptr;
    ParseState* parse = make_parsestate(nullptr);
    parse->p_sourcetext = text;
    List* expressions = NIL;
    int i = 0;
    ListCell* cell;
    foreach (cell, static_cast<List*>(copyObjectImpl(arguments))) {
        Node* expression =
            transformExpr(parse, static_cast<Node*>(lfirst(cell)), EXPR_KIND_EXECUTE_PARAMETER);
        const Oid given = exprType(expression);
        expression = coerce_to_target_type(parse, expression, given, source->param_types[i], -1,
                                           COERCION_ASSIGNMENT, COERCE_IMPLICIT_CAST, -1);
        if (expression == nullptr) {
            ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                            errmsg("parameter $%d of type %s cannot be coerced to the expected type %s",
                                   i + 1, format_type_be(given), format_type_be(source->param_types[i])),
                            errhint("You will need to rewrite or cast the expression.")));
        }
        assign_expr_collations(parse, expression);
        expressions = lappend(expressions, expression);
        ++i;
    }
    ParamListInfo params = makeParamList(source->num_params);
    i = 0;
    foreach (cell, ExecPrepareExprList(expressions, estate)) {
        ParamExternData* parameter = &params->params[i];
        parameter->ptype = source->param_types[i];
        parameter->pflags = PARAM_FLAG_CONST;
        parameter->value = ExecEvalExprSwitchContext(static_cast<ExprState*>(lfirst(cell)),
                                                     GetPerTupleExprContext(estate), &parameter->isnull);
        ++i;
    }
    return params;
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

namespace {

// Parses, plans, starts and ends the statement of `run` (run.query is set once it exists).
void plan_and_start(const char* statement_text, DryRun& run) {
    List* statements = pg_parse_query(statement_text);
    if (list_length(statements) != 1) refuse_statement("The text holds no statement or more than one.");
    RawStmt* raw = linitial_node(RawStmt, statements);
    PlannedStmt* statement = nullptr;
    ParamListInfo params = nullptr;
    CachedPlan* cached_plan = nullptr;
    EState* arguments = nullptr;
    if (IsA(raw->stmt, ExecuteStmt)) {
        // A prepared statement: its plan for these arguments, as EXECUTE gets it.
        const ExecuteStmt* execute = castNode(ExecuteStmt, raw->stmt);
        PreparedStatement* prepared = FetchPreparedStatement(execute->name, true);
        arguments = CreateExecutorState();
        params = evaluated_arguments(prepared->plansource, execute->name, execute->params, statement_text,
                                     arguments);
        cached_plan = GetCachedPlan(prepared->plansource, params, CurrentResourceOwner, nullptr);
        if (list_length(cached_plan->stmt_list) != 1)
            refuse_statement("A rule turned the query into several statements.");
        statement = linitial_node(PlannedStmt, cached_plan->stmt_list);
        require_select(statement->commandType, statement->utilityStmt, statement->hasModifyingCTE);
    } else if (IsA(raw->stmt, SelectStmt) && castNode(SelectStmt, raw->stmt)->intoClause == nullptr) {
        statement = planned_select(raw, statement_text);
    } else {
        refuse_statement(
            "Only a query or EXECUTE of a prepared query is planned: no other command, no "
            "SELECT INTO or EXPLAIN.");
    }
    QueryDesc* query = CreateQueryDesc(statement, statement_text, GetActiveSnapshot(), InvalidSnapshot,
                                       None_Receiver, params, nullptr, 0);
    run.query = query;
    // Started as the query would be (PostgreSQL's permission checks, pgdp's refusals, the
    // parameters, the charge items), finished and ended without running a row.
    ExecutorStart(query, 0);
    ExecutorFinish(query);
    ExecutorEnd(query);
    FreeQueryDesc(query);
    if (cached_plan != nullptr) ReleaseCachedPlan(cached_plan, CurrentResourceOwner);
    if (arguments != nullptr) FreeExecutorState(arguments);
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
    DryRun run{nullptr, static_cast<DryRunRelease*>(palloc0(sizeof(DryRunRelease) * kMaxReleasesPerQuery)), 0,
               false};
    // From the parse on: functions that parsing, planning (constant folding, estimates) or starting
    // run may make no charge while the dry run is in progress.
    current = &run;
    PG_TRY();
    { plan_and_start(statement_text, run); }
    PG_FINALLY();
    { current = nullptr; }
    PG_END_TRY();
    error_context_stack = error_context.previous;
    return DryRunResult{run.releases, run.count, run.cached};
}

bool is_dry_run(const QueryDesc* query) {
    return current != nullptr && current->query != nullptr && current->query == query;
}

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

void refuse_charge_during_dry_run(const QueryDesc* query, const char* aggregate_name) {
    if (current == nullptr || is_dry_run(query)) return;
    if (current->query == nullptr) {
        // Parsing or planning the statement ran it: the query's own refusal (release_trust.cpp
        // require_release_context), since the query would plan it with no statement running.
        ereport(ERROR,
                (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                 errmsg("%s cannot be computed while a statement is parsed, planned or its parameters bound",
                        aggregate_name),
                 errdetail("Only statements that run make releases; a dry run charges nothing."),
                 errhint("Make the release in a statement of its own.")));
    }
    ereport(ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("pgdp.cost cannot plan a statement that runs another release before its rows"),
             errdetail("A function that starting the statement runs (initial partition pruning) makes a "
                       "release; a dry run charges nothing."),
             errhint("Run the function's release on its own.")));
}

}  // namespace pgdp::pg
