#include "pg/planning/leakproof.hpp"

extern "C" {
#include "nodes/nodeFuncs.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
}

#include "pg/base/node_kinds.hpp"
#include "pg/calls/aggregate_call.hpp"
#include "pg/planning/query_builder.hpp"
#include "pg/planning/row_safe_functions.hpp"

namespace pgdp::pg {
namespace {

// A role with DP-only access learns from a query only its releases: an expression evaluated on
// protected rows must not fail, wait or act depending on them (issue 20: an error on some rows and
// not others is an oracle). Accepted: constants, parameters, columns, a few constructs that cannot
// fail, and calls of functions on pgdp's allow-list (row_safe_functions.hpp) with a determined
// collation when an argument is collatable; everything else (a division, a cast that may fail,
// pg_sleep, a subquery, a user's function, a function an admin marked LEAKPROOF) is refused,
// naming the function.
struct LeakyFound {
    Oid function;       // the function found (InvalidOid for another construct)
    bool no_collation;  // the function is on the list but its collation is undetermined
};

bool leaky_function(Oid function, void* context) {
    if (row_safe_function(function)) return false;
    static_cast<LeakyFound*>(context)->function = function;
    return true;
}

// True if some argument of the call has a collatable type: its comparison needs a collation.
bool has_collatable_argument(List* arguments) {
    ListCell* cell;
    foreach (cell, arguments) {
        if (type_is_collatable(exprType(static_cast<Node*>(lfirst(cell))))) return true;
    }
    return false;
}

List* call_arguments(Node* node) {
    switch (nodeTag(node)) {
        case T_FuncExpr:
            return castNode(FuncExpr, node)->args;
        case T_OpExpr:
        case T_DistinctExpr:
        case T_NullIfExpr:
            return reinterpret_cast<OpExpr*>(node)->args;
        case T_ScalarArrayOpExpr:
            return castNode(ScalarArrayOpExpr, node)->args;
        default:
            return NIL;
    }
}

// Whether the expression reads a row's column or a parameter (a value the planner does not fold).
bool holds_var_or_param(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Var) || IsA(node, Param)) return true;
    return expression_tree_walker(node, walker_cast(holds_var_or_param), context);
}

// True if some element is a value of a variable-length type that the planner does not fold into a
// constant: it holds a column, or a parameter (a generic plan keeps ARRAY[$1, $1, ...] for run
// time, and CASE WHEN <row condition> THEN ARRAY[...] END builds it only when a row reaches it).
// Past 1 GB building the array or row raises an error, so its size must not depend on the rows
// or be built only for some. Elements of fixed length, or of constants only (x IN ('a', 'b'),
// folded while planning), have a size the query text decides.
bool copies_variable_length_values(List* elements) {
    ListCell* cell;
    foreach (cell, elements) {
        Node* element = static_cast<Node*>(lfirst(cell));
        if (get_typlen(exprType(element)) < 0 && holds_var_or_param(element, nullptr)) return true;
    }
    return false;
}

// The planner may replace a comparison by its operator's negator (NOT (a < b) becomes a >= b,
// NOT (a = ANY(...)) a <> ALL(...)) or commutator (an index or join clause) after this check:
// an analyst's operator whose own function was on the list had a NEGATOR that ran the analyst's
// function on every protected row (red team round 22). Every operator reachable through these
// links must call a function on the list (a shell operator, without one, fails closed); *function
// is set to the first that does not (InvalidOid for a shell).
bool has_unsafe_related_operator(Node* node, Oid* function) {
    Oid start = InvalidOid;
    if (IsA(node, OpExpr) && castNode(OpExpr, node)->opresulttype == BOOLOID)
        start = castNode(OpExpr, node)->opno;
    else if (IsA(node, ScalarArrayOpExpr))
        start = castNode(ScalarArrayOpExpr, node)->opno;
    if (!OidIsValid(start)) return false;
    constexpr int kMaxOperators = 8;  // a comparison, its negator, commutator and theirs: 4
    Oid seen[kMaxOperators] = {start};
    int count = 1;
    for (int i = 0; i < count; ++i) {
        const Oid related[2] = {get_negator(seen[i]), get_commutator(seen[i])};
        for (const Oid candidate : related) {
            if (!OidIsValid(candidate)) continue;
            bool known = false;
            for (int j = 0; j < count && !known; ++j) known = seen[j] == candidate;
            if (known) continue;
            *function = get_opcode(candidate);
            if (!row_safe_function(*function) || count == kMaxOperators) return true;
            seen[count++] = candidate;
        }
    }
    return false;
}

// The function of a call node (its operator's), for naming it in the refusal.
Oid call_function(Node* node) {
    Oid found = InvalidOid;
    (void)check_functions_in_node(
        node,
        +[](Oid function, void* context) {
            *static_cast<Oid*>(context) = function;
            return true;
        },
        &found);
    return found;
}

bool leaky_node(Node* node, void* context) {
    if (node == nullptr) return false;
    auto* found = static_cast<LeakyFound*>(context);
    switch (expression_kind(node)) {
        case ExpressionKind::CombinesValues:
            break;
        case ExpressionKind::CallsFunctions:
            // Every function the node calls (an operator's function, the I/O functions of a cast)
            // must be on the allow-list.
            if (check_functions_in_node(node, leaky_function, context)) return true;
            if (has_unsafe_related_operator(node, &found->function)) return true;
            // texteq raises "could not determine which collation to use" when the parser left the
            // collation undetermined (two columns of different implicit collations): at run time,
            // and only if some row reaches it (issue 20). Refused here, before any row is read.
            if (!OidIsValid(exprInputCollation(node)) && has_collatable_argument(call_arguments(node))) {
                found->function = call_function(node);
                found->no_collation = true;
                return true;
            }
            break;
        case ExpressionKind::Other:
            switch (nodeTag(node)) {
                case T_Var:
                case T_Const:
                case T_Param:
                case T_List:
                case T_CollateExpr:  // a label the planner removes; nothing runs
                case T_TargetEntry:
                    break;
                case T_RowExpr:
                    if (copies_variable_length_values(castNode(RowExpr, node)->args)) {
                        found->function = InvalidOid;
                        return true;
                    }
                    break;
                case T_SQLValueFunction:
                    // current_date, current_timestamp, localtimestamp: the transaction's start
                    // time, the same for every row (its conversion fails only for a clock outside
                    // the timestamp range). Others (current_user, ...) are refused: not needed.
                    switch (castNode(SQLValueFunction, node)->op) {
                        case SVFOP_CURRENT_DATE:
                        case SVFOP_CURRENT_TIMESTAMP:
                        case SVFOP_CURRENT_TIMESTAMP_N:
                        case SVFOP_LOCALTIMESTAMP:
                        case SVFOP_LOCALTIMESTAMP_N:
                            break;
                        default:
                            found->function = InvalidOid;
                            return true;
                    }
                    break;
                case T_ArrayExpr:
                    // ARRAY[ARRAY[1], CASE WHEN customer = 777 THEN ARRAY[1, 2] ELSE ARRAY[1] END]
                    // failed ("matching dimensions") exactly when one person's row was present
                    // (review4 red team): a multidimensional array fails on sub-arrays of unequal
                    // dimensions.
                    // ARRAY[note, note, ...] (or ROW(note, ...)) fails with "array size exceeds
                    // the maximum allowed" ("tuple is too big") once the copies of a row's text
                    // pass 1 GB: which rows are long enough was an oracle (red team round 22).
                    if (castNode(ArrayExpr, node)->multidims ||
                        copies_variable_length_values(castNode(ArrayExpr, node)->elements)) {
                        found->function = InvalidOid;
                        return true;
                    }
                    break;
                default:
                    // A subquery, an aggregate, a window function, a domain check, GREATEST/LEAST,
                    // a row comparison, array subscripting, an array cast, ...
                    found->function = InvalidOid;
                    return true;
            }
            break;
    }
    return expression_tree_walker(node, walker_cast(leaky_node), context);
}

[[noreturn]] void refuse_leaky(const char* relation, const char* where, const LeakyFound& found) {
    if (found.no_collation) {
        ereport(ERROR,
                (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                 errmsg("with DP-only access to \"%s\", the %s calls %s without a determined collation",
                        relation, where, format_procedure(found.function)),
                 errdetail("Its arguments have different implicit collations: the call would raise an error "
                           "on the rows that reach it, which would show them beside the release."),
                 errhint("Name the collation (COLLATE \"C\") on one of its arguments.")));
    }
    ereport(
        ERROR,
        (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
         errmsg("with DP-only access to \"%s\", the %s may use only functions that cannot fail", relation,
                where),
         OidIsValid(found.function)
             ? errdetail(
                   "%s is not on pgdp's list of functions that cannot raise an error for any input "
                   "(pgdp.row_safe_functions()): it may fail, wait or act depending on a person's values, "
                   "which would show them beside the release. A LEAKPROOF label is not enough.",
                   format_procedure(found.function))
             : errdetail("It holds a construct that may fail or read other data depending on a person's "
                         "values (a subquery, a domain check, GREATEST or LEAST, a row comparison, array "
                         "subscripting, a nested aggregate, an SQL value function other than current_date "
                         "and current_timestamp)."),
         errhint(
             "Use comparisons, numeric casts, integer, float and numeric + - * / and abs, round and trunc, "
             "lower "
             "and upper, CASE, COALESCE, date_trunc, extract and date_part with a constant unit, date +- "
             "days, "
             "timestamp +- interval, current_date and pgdp's safe functions "
             "(pgdp.row_safe_functions(), docs/privacy.md \"What a DP-only analyst may compute\"); compute "
             "anything else from the releases.")));
}

// leaky_node over a whole query tree beside the protected rows (a subquery or view in FROM, a
// function in FROM, row-security policies): every expression of every level, the range table
// entries' functions, VALUES and policies included. Join alias lists are skipped (the columns of
// a JOIN ... USING, not code the plan runs beyond the join's own condition, which is walked).
bool leaky_in_query(Node* node, void* context) {
    if (node == nullptr) return false;
    switch (nodeTag(node)) {
        case T_Query:
            return query_tree_walker(castNode(Query, node), walker_cast(leaky_in_query), context,
                                     QTW_IGNORE_JOINALIASES);
        case T_FromExpr:
        case T_JoinExpr:
        case T_RangeTblRef:
        case T_SetOperationStmt:
        case T_CommonTableExpr:
        case T_RangeTblFunction:
        case T_TableFunc:
            return expression_tree_walker(node, walker_cast(leaky_in_query), context);
        case T_List: {
            ListCell* cell;
            foreach (cell, castNode(List, node)) {
                if (leaky_in_query(static_cast<Node*>(lfirst(cell)), context)) return true;
            }
            return false;
        }
        default:
            return leaky_node(node, context);
    }
}

// The ON conditions of a join tree (plain recursion: ereport must unwind no C++ object).
void check_leakproof_joins(Node* item, const char* name) {
    if (item == nullptr || !IsA(item, JoinExpr)) return;
    const JoinExpr* join = castNode(JoinExpr, item);
    LeakyFound function{InvalidOid, false};
    if (leaky_node(join->quals, &function)) refuse_leaky(name, "join condition", function);
    check_leakproof_joins(join->larg, name);
    check_leakproof_joins(join->rarg, name);
}

}  // namespace

// Refuses leaky expressions evaluated on the rows of a level read with DP-only access: join and
// WHERE conditions, group keys, and the values of the calls.
void check_leakproof_level(Query* level, const LevelShape& shape, List* calls, const char* name) {
    LeakyFound function{InvalidOid, false};
    // A LATERAL item of FROM (a function, subquery or table function; the parser marks every one
    // that names the level's columns) runs its code on each row: `FROM sales, LATERAL f(sales.note)`
    // handed every row to the analyst's function, and `LATERAL generate_series(1, 1 / (x - 777))`
    // failed on one person's value (access11 red team).
    ListCell* entry_cell;
    foreach (entry_cell, level->rtable) {
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, entry_cell);
        if (!entry->lateral) continue;
        ereport(
            ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
             errmsg("with DP-only access to \"%s\", FROM may not hold LATERAL items", name),
             errdetail("A LATERAL function, subquery or table function runs on each row; its code, "
                       "errors and timing would show a person's values beside the release."),
             errhint("Join other relations on conditions with comparisons and pgdp's safe functions "
                     "(docs/privacy.md \"Untrusted analysts\"); compute anything else from the releases.")));
    }
    // The other items of FROM run as the plan joins them to the protected rows: a function in FROM
    // runs only if some protected row passes WHERE, a view's condition or a row-security policy of
    // the analyst's own table runs on the rows a parameterized scan fetches for each protected row
    // (its values are the units present). Their code must be leakproof too (access11 red team:
    // RAISE NOTICE in each showed that a person exists, and which units sales holds).
    foreach (entry_cell, level->rtable) {
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, entry_cell);
        if (leaky_in_query((Node*)entry->securityQuals, &function))
            refuse_leaky(name, "row-security policy of a relation in FROM", function);
        switch (entry->rtekind) {
            case RTE_SUBQUERY:
                if (leaky_in_query((Node*)entry->subquery, &function))
                    refuse_leaky(name, "subquery or view in FROM", function);
                break;
            case RTE_FUNCTION:
            case RTE_TABLEFUNC:
            case RTE_VALUES:
                if (leaky_in_query((Node*)entry->functions, &function) ||
                    leaky_in_query((Node*)entry->tablefunc, &function) ||
                    leaky_in_query((Node*)entry->values_lists, &function))
                    refuse_leaky(name, "function or VALUES in FROM", function);
                break;
            default:
                break;
        }
    }
    if (leaky_node(level->jointree->quals, &function)) refuse_leaky(name, "WHERE condition", function);
    ListCell* cell;
    foreach (cell, level->jointree->fromlist) check_leakproof_joins(static_cast<Node*>(lfirst(cell)), name);
    foreach (cell, shape.keys) {
        Node* key = static_cast<Node*>(lfirst(cell));
        if (leaky_node(key, &function)) refuse_leaky(name, "GROUP BY key", function);
        // Grouping hashes and compares the key with its collation: undetermined, the first row
        // raises an error (and no row none).
        if (type_is_collatable(exprType(key)) && !OidIsValid(exprCollation(key))) {
            ereport(
                ERROR,
                (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                 errmsg("with DP-only access to \"%s\", a GROUP BY key has no determined collation", name),
                 errdetail("Grouping by it would raise an error on the first row, which would show "
                           "that rows exist beside the release."),
                 errhint("Name the key's collation (COLLATE \"C\").")));
        }
    }
    foreach (cell, calls) {
        const Aggref* call = static_cast<const Aggref*>(lfirst(cell));
        const AggregateKind kind = identify_aggregate(call->aggfnoid).kind;
        // Every call with a value: the row-capped statistics (histogram, quantiles, distinct count)
        // read theirs as the bounded ones do (red team of 0.13: a leaky value function ran on the
        // protected rows of a DP-only dp_median).
        if (!pgdp::reads_bounded_value(kind) && !pgdp::has_row_capped_person_form(kind)) continue;
        if (leaky_node((Node*)linitial_node(TargetEntry, call->args)->expr, &function))
            refuse_leaky(name, "aggregated value", function);
    }
}

}  // namespace pgdp::pg
