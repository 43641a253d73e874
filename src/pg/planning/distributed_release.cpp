#include "pg/planning/distributed_release.hpp"

extern "C" {
#include "access/genam.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "nodes/makefuncs.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "optimizer/optimizer.h"
#include "parser/parse_coerce.h"
#include "parser/parse_func.h"
#include "parser/parse_oper.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "libpq/libpq-be.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"
}

#include <cstring>

#include "pg/base/pg_compat.hpp"
#include "pg/calls/aggregate_identity.hpp"
#include "pg/calls/parameters.hpp"
#include "pg/catalog/protected_relations.hpp"
#include "pg/planning/plan_marks.hpp"
#include "pg/planning/query_builder.hpp"

namespace pgdp::pg {
namespace {

[[noreturn]] void refuse_distributed_release(const char* what, const char* hint) {
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("pgdp releases over distributed tables cannot use %s", what),
                    errdetail("The level computing the releases is split into exact totals that Citus "
                              "computes on the workers and the releases made from them here."),
                    errhint("%s", hint)));
}

// ---- Citus tables ---------------------------------------------------------------------------

// A relation Citus distributes (pg_dist_partition lists distributed, reference and Citus local
// tables). False when Citus is not installed in this database.
bool is_citus_table(Oid relation) {
    const Oid catalog = get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE);
    if (!OidIsValid(catalog)) return false;
    const Oid index = get_relname_relid("pg_dist_partition_logical_relid_index", PG_CATALOG_NAMESPACE);
    Relation table = table_open(catalog, AccessShareLock);
    ScanKeyData key;
    ScanKeyInit(&key, 1 /* logicalrelid */, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(relation));
    SysScanDesc scan = systable_beginscan(table, index, OidIsValid(index), nullptr, 1, &key);
    const bool found = HeapTupleIsValid(systable_getnext(scan));
    systable_endscan(scan);
    table_close(table, AccessShareLock);
    return found;
}

// True if a query tree (every level, sublinks included) reads a Citus table.
bool reads_citus_table(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, RangeTblEntry)) {
        const auto* entry = castNode(RangeTblEntry, node);
        return entry->rtekind == RTE_RELATION && is_citus_table(entry->relid);
    }
    if (IsA(node, Query)) {
        return query_tree_walker(castNode(Query, node), walker_cast(reads_citus_table), context,
                                 QTW_EXAMINE_RTES_BEFORE);
    }
    return expression_tree_walker(node, walker_cast(reads_citus_table), context);
}

// True if a level's tree refers to a level above it (depth counts the levels entered).
bool refers_outside(Node* node, void* context) {
    if (node == nullptr) return false;
    const int depth = *static_cast<int*>(context);
    if (IsA(node, Var)) return static_cast<int>(castNode(Var, node)->varlevelsup) > depth;
    if (IsA(node, Aggref)) {
        if (static_cast<int>(castNode(Aggref, node)->agglevelsup) > depth) return true;
    }
    if (IsA(node, GroupingFunc)) return static_cast<int>(castNode(GroupingFunc, node)->agglevelsup) > depth;
    if (IsA(node, PlaceHolderVar))
        return static_cast<int>(castNode(PlaceHolderVar, node)->phlevelsup) > depth;
    if (IsA(node, RangeTblEntry)) {
        const auto* entry = castNode(RangeTblEntry, node);
        return entry->rtekind == RTE_CTE && static_cast<int>(entry->ctelevelsup) > depth;
    }
    if (IsA(node, Query)) {
        int inner = depth + 1;
        return query_tree_walker(castNode(Query, node), walker_cast(refers_outside), &inner,
                                 QTW_EXAMINE_RTES_BEFORE);
    }
    return expression_tree_walker(node, walker_cast(refers_outside), context);
}

// ---- pgdp's functions -----------------------------------------------------------------------

Oid partials_function() {
    const Oid argument = TEXTOID;
    return pgdp_extension_function("distributed_partials", 1, &argument, "0.8");
}

// ---- the rewrite of one level ---------------------------------------------------------------

struct Column {
    Oid type;
    int32 typmod;
    Oid collation;
};

struct LevelRewrite {
    Query* level;     // being rewritten into the level over the partials
    Query* partials;  // the partials query (its target list grows)
    List* keys;       // the grouping expressions, in partials column order
    List* columns;    // Column* per partials column
    List* calls;      // the pgdp calls rewritten so far and (next) their rewrites
    // The state key the partials also group by (a histogram bin, a quantile leaf, a hash: see
    // state_key_call), nullptr until a call needs one, and its partials column.
    Expr* state_key;
    Var* state_key_column;
    // The log-bin key of the level's dp_sum, dp_mean, dp_variance and dp_stddev calls that bin
    // their rows (choose_bin_key), nullptr if none does.
    Expr* bin_key;
};

Var* partials_column(LevelRewrite& rewrite, Expr* expression, const char* name) {
    auto* column = static_cast<Column*>(palloc(sizeof(Column)));
    *column =
        Column{exprType((Node*)expression), exprTypmod((Node*)expression), exprCollation((Node*)expression)};
    rewrite.columns = lappend(rewrite.columns, column);
    const int number = list_length(rewrite.columns);
    TargetEntry* entry = makeTargetEntry(expression, static_cast<AttrNumber>(number), pstrdup(name), false);
    rewrite.partials->targetList = lappend(rewrite.partials->targetList, entry);
    return makeVar(1, static_cast<AttrNumber>(number), column->type, column->typmod, column->collation, 0);
}

// The per-row key of a call whose state is counts per key (core/aggregate_release.hpp
// DistributedForm): pgdp.histogram_bin(value, lower, upper, bins), pgdp.quantile_leaf(value,
// lower, upper) (either bound may be NULL), or the value type's extended hash function with seed 0 under the
// call's collation (what the single-node transition hashes with, call_site.cpp). Each is a public,
// deterministic function of one row's value and the call's constants.
Expr* state_key_of(const Aggref* call, const AggregateIdentity& identity, pgdp::DistributedForm form) {
    Expr* value = (Expr*)copyObjectImpl(linitial_node(TargetEntry, call->args)->expr);
    if (form == pgdp::DistributedForm::DistinctHashes) {
        const Oid type = exprType((Node*)value);
        const Oid hash = lookup_type_cache(type, TYPECACHE_HASH_EXTENDED_PROC)->hash_extended_proc;
        if (!OidIsValid(hash)) {
            ereport(ERROR, (errcode(ERRCODE_UNDEFINED_FUNCTION),
                            errmsg("dp_count_distinct cannot count values of type %s", format_type_be(type)),
                            errdetail("The type has no extended hash function."),
                            errhint("Cast the value to a type that can be hashed, such as text.")));
        }
        Const* seed = makeConst(INT8OID, -1, InvalidOid, sizeof(int64), Int64GetDatum(0), false, true);
        return (Expr*)makeFuncExpr(hash, INT8OID, list_make2(value, seed), InvalidOid, call->inputcollid,
                                   COERCE_EXPLICIT_CALL);
    }
    // The bounds (and bins) by the aggregate's argument positions. A form without them, or a NULL
    // bound of a histogram, would ask for bounds estimated from the rows, which the split does not
    // compute; a NULL quantile bound selects the log-linear leaf map, which pgdp.quantile_leaf
    // computes per row (0.14: distributes_null_bounds).
    const ArgumentPositions& at = identity.at;
    const int needed = form == pgdp::DistributedForm::BinCounts ? at.shape : at.upper;
    if (at.lower < 0 || at.upper < 0 || needed < 0 || needed >= list_length(call->args)) {
        refuse_distributed_release("a call without its bounds", "Pass lower and upper.");
    }
    Expr* lower = (Expr*)copyObjectImpl(list_nth_node(TargetEntry, call->args, at.lower)->expr);
    Expr* upper = (Expr*)copyObjectImpl(list_nth_node(TargetEntry, call->args, at.upper)->expr);
    if (!pgdp::distributes_null_bounds(identity.kind) &&
        ((IsA(lower, Const) && castNode(Const, lower)->constisnull) ||
         (IsA(upper, Const) && castNode(Const, upper)->constisnull))) {
        refuse_distributed_release("NULL bounds", "Pass lower and upper.");
    }
    if (form == pgdp::DistributedForm::BinCounts) {
        Expr* bins = (Expr*)copyObjectImpl(list_nth_node(TargetEntry, call->args, at.shape)->expr);
        const Oid types[4] = {FLOAT8OID, FLOAT8OID, FLOAT8OID, INT4OID};
        return (Expr*)makeFuncExpr(pgdp_extension_function("histogram_bin", 4, types, "0.12"), INT4OID,
                                   list_make4(value, lower, upper, bins), InvalidOid, InvalidOid,
                                   COERCE_EXPLICIT_CALL);
    }
    const Oid types[3] = {FLOAT8OID, FLOAT8OID, FLOAT8OID};
    return (Expr*)makeFuncExpr(pgdp_extension_function("quantile_leaf", 3, types, "0.12"), INT4OID,
                               list_make3(value, lower, upper), InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

// The partials' one state key (none before): a partials column and one more grouping key of the
// partials query.
void group_by_state_key(LevelRewrite& rewrite, Expr* key) {
    Index reference = 0;
    ListCell* cell;
    foreach (cell, rewrite.level->targetList)
        reference = Max(reference, lfirst_node(TargetEntry, cell)->ressortgroupref);
    ++reference;
    rewrite.state_key_column = partials_column(rewrite, key, "state_key");
    llast_node(TargetEntry, rewrite.partials->targetList)->ressortgroupref = reference;
    const Oid type = exprType((Node*)key);
    Oid sort = InvalidOid;
    Oid equality = InvalidOid;
    bool hashable = false;
    get_sort_group_operators(type, true, true, false, &sort, &equality, nullptr, &hashable);
    auto* clause = makeNode(SortGroupClause);
    clause->tleSortGroupRef = reference;
    clause->eqop = equality;
    clause->sortop = sort;
    clause->nulls_first = false;
    clause->hashable = hashable;
    rewrite.partials->groupClause = lappend(rewrite.partials->groupClause, clause);
    rewrite.state_key = key;
}

// A histogram, quantile or distinct-count call: the partials also group by its state key and
// count the call's rows per key (count(key): a NULL key, a NULL or, for quantiles, NaN value, is
// no row; the call's FILTER on the count, so a key of filtered rows only counts 0). The call adds
// the counts per key (its transition's partial mode). One state key per level: the partials'
// rows per group are the distinct keys, and two keys would multiply them.
Aggref* state_key_call(LevelRewrite& rewrite, const Aggref* call, const AggregateIdentity& identity,
                       pgdp::DistributedForm form) {
    Expr* key = state_key_of(call, identity, form);
    if (rewrite.state_key == nullptr) {
        group_by_state_key(rewrite, key);
    } else if (!equal(rewrite.state_key, key)) {
        refuse_distributed_release(
            "two histograms, quantile trees or distinct counts of different values or parameters in one "
            "level",
            "Release each in its own query (calls of the same value and bounds may share a level).");
    }
    Aggref* rewritten = static_cast<Aggref*>(copyObjectImpl(call));
    rewritten->aggfilter = nullptr;
    TargetEntry* value_entry = linitial_node(TargetEntry, rewritten->args);
    Expr* value = value_entry->expr;
    // The value is not read any more: a NULL of its type keeps the call's types.
    value_entry->expr =
        (Expr*)makeNullConst(exprType((Node*)value), exprTypmod((Node*)value), exprCollation((Node*)value));
    char name[32];
    snprintf(name, sizeof(name), "rows_%d", list_length(rewrite.columns) + 1);
    Expr* rows = (Expr*)builtin_aggregate(F_COUNT_ANY, INT8OID, (Expr*)copyObjectImpl(rewrite.state_key),
                                          (Expr*)copyObjectImpl(call->aggfilter));
    Var* rows_column = partials_column(rewrite, rows, name);
    const int nargs = list_length(rewritten->args);
    // The key, then the rows counted with it (written_argument_count: two arguments appended).
    rewritten->args =
        lappend(rewritten->args,
                makeTargetEntry((Expr*)copyObjectImpl(rewrite.state_key_column), nargs + 1, nullptr, false));
    rewritten->args =
        lappend(rewritten->args, makeTargetEntry((Expr*)rows_column, nargs + 2, nullptr, false));
    rewritten->aggargtypes = lappend_oid(
        lappend_oid(list_copy(rewritten->aggargtypes), exprType((Node*)rewrite.state_key)), INT8OID);
    rewritten->location = call_location(marked_groups_per_unit(call), true);
    return rewritten;
}

// Whether a bound is known at planning: a non-NULL constant (after folding casts), NULL, or a
// bind parameter (or another expression) whose value the execution gives.
enum class BoundKnown { Given, Null, Parameter };
BoundKnown bound_known(Expr* bound) {
    Node* folded = eval_const_expressions(nullptr, (Node*)copyObjectImpl(bound));
    if (IsA(folded, Const))
        return castNode(Const, folded)->constisnull ? BoundKnown::Null : BoundKnown::Given;
    return BoundKnown::Parameter;
}

// A dp_sum, dp_mean, dp_variance or dp_stddev call's value as the workers' functions read it:
// numeric as numeric, every other value type through its implicit (exact; for bigint the
// transition's own rounding) cast to float8. nullptr for other types (refused later).
Node* value_as_number(const Aggref* call) {
    Expr* value = linitial_node(TargetEntry, call->args)->expr;
    const Oid value_type = exprType((Node*)value);
    if (!is_value_type(value_type)) return nullptr;
    const Oid numeric_value = value_type == NUMERICOID ? NUMERICOID : FLOAT8OID;
    return coerce_to_target_type(nullptr, (Node*)copyObjectImpl(value), value_type, numeric_value, -1,
                                 COERCION_IMPLICIT, COERCE_IMPLICIT_CAST, -1);
}

// pgdp.log_bin(value, lower, upper): the row's log bin (core binned_units, the single-node map), a
// public deterministic function of one row's value and the call's bounds.
Expr* log_bin_key(const Aggref* call, Node* as_number) {
    const Oid types[3] = {exprType(as_number), FLOAT8OID, FLOAT8OID};
    return (Expr*)makeFuncExpr(
        pgdp_extension_function("log_bin", 3, types, "0.14"), INT4OID,
        list_make3(copyObjectImpl(as_number), copyObjectImpl(lsecond_node(TargetEntry, call->args)->expr),
                   copyObjectImpl(lthird_node(TargetEntry, call->args)->expr)),
        InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

// What a level's calls need of the state key: whether a histogram, quantile or distinct count
// groups by its own, and the log-bin keys of the calls with a NULL bound and of those with a bound
// that is a bind parameter (and none NULL).
struct BinKeys {
    bool keyed_statistic;
    List* null_bound_keys;
    List* parameter_keys;
};

bool collect_bin_keys(Node* node, void* context) {
    if (node == nullptr) return false;
    auto& keys = *static_cast<BinKeys*>(context);
    if (IsA(node, Aggref) && castNode(Aggref, node)->agglevelsup == 0) {
        const auto* call = castNode(Aggref, node);
        const AggregateIdentity identity = identify_aggregate(call->aggfnoid);
        if (identity.is_pgdp && pgdp::groups_by_state_key(pgdp::distributed_form(identity.kind)))
            keys.keyed_statistic = true;
        if (identity.is_pgdp && pgdp::reads_bounded_value(identity.kind) && !reads_partial_totals(call) &&
            list_length(call->args) >= 3) {
            const BoundKnown lower = bound_known(lsecond_node(TargetEntry, call->args)->expr);
            const BoundKnown upper = bound_known(lthird_node(TargetEntry, call->args)->expr);
            Node* as_number = value_as_number(call);
            if (as_number != nullptr && (lower == BoundKnown::Null || upper == BoundKnown::Null)) {
                keys.null_bound_keys = lappend(keys.null_bound_keys, log_bin_key(call, as_number));
            } else if (as_number != nullptr &&
                       (lower == BoundKnown::Parameter || upper == BoundKnown::Parameter)) {
                keys.parameter_keys = lappend(keys.parameter_keys, log_bin_key(call, as_number));
            }
        }
        return false;  // arguments hold no calls of this level
    }
    if (IsA(node, Query)) return false;  // subqueries are refused or rewritten on their own
    return expression_tree_walker(node, walker_cast(collect_bin_keys), context);
}

bool all_equal(List* keys) {
    ListCell* cell;
    foreach (cell, keys) {
        if (!equal(lfirst(cell), linitial(keys))) return false;
    }
    return true;
}

// The level's one log-bin key, before any call is rewritten (so no order of calls matters). Calls
// with a NULL bound must bin: all of one value and bounds, and no other state key in the level
// (refused before any charge otherwise). A call whose bound is a bind parameter bins when its key
// is the level's, or when all such calls share one and no other key is there; otherwise it keeps
// the bounded totals only, and a NULL for it is refused when the parameters are read.
Expr* choose_bin_key(Query* level) {
    BinKeys keys{false, NIL, NIL};
    (void)collect_bin_keys((Node*)level->targetList, &keys);
    (void)collect_bin_keys(level->havingQual, &keys);
    if (keys.null_bound_keys != NIL) {
        if (keys.keyed_statistic) {
            refuse_distributed_release(
                "NULL bounds beside a histogram, quantile tree or distinct count in one level",
                "Release the call with NULL bounds in its own query.");
        }
        if (!all_equal(keys.null_bound_keys)) {
            refuse_distributed_release(
                "NULL bounds in calls of different values or given bounds in one level",
                "Release each in its own query (calls of the same value and bounds may share a level).");
        }
        return static_cast<Expr*>(linitial(keys.null_bound_keys));
    }
    if (keys.parameter_keys != NIL && !keys.keyed_statistic && all_equal(keys.parameter_keys))
        return static_cast<Expr*>(linitial(keys.parameter_keys));
    return nullptr;
}

// One pgdp call of the level: its exact totals become partials columns, and the call adds them.
Aggref* distributed_call(LevelRewrite& rewrite, const Aggref* call) {
    const AggregateIdentity identity = identify_aggregate(call->aggfnoid);
    if (call->aggdistinct != NIL || call->aggorder != NIL) {
        refuse_distributed_release("DISTINCT or ORDER BY inside a pgdp aggregate",
                                   "Remove it; pgdp aggregates read every row once.");
    }
    if (reads_partial_totals(call))
        refuse_distributed_release("a call rewritten twice", "Report this query.");
    if (!pgdp::has_distributed_form(identity.kind))
        refuse_distributed_release(identity.name,
                                   "Release it from a local table, or use dp_count per group.");
    refuse_parameters_over_rows(call);
    const pgdp::DistributedForm form = pgdp::distributed_form(identity.kind);
    if (pgdp::groups_by_state_key(form)) return state_key_call(rewrite, call, identity, form);
    Expr* filter = call->aggfilter;
    Aggref* rewritten = static_cast<Aggref*>(copyObjectImpl(call));
    rewritten->aggfilter = nullptr;
    Expr* units_total = nullptr;
    Expr* squares_total = nullptr;  // dp_variance, dp_stddev
    Expr* rows = nullptr;
    Expr* bin_units_total = nullptr;    // with the rows' log bins (0.14)
    Expr* bin_squares_total = nullptr;  // and dp_variance, dp_stddev
    bool binned = false;
    const bool has_value = pgdp::reads_bounded_value(identity.kind);
    if (has_value) {
        TargetEntry* value_entry = linitial_node(TargetEntry, rewritten->args);
        Expr* value = value_entry->expr;
        const Oid value_type = exprType((Node*)value);
        if (!is_value_type(value_type))
            refuse_distributed_release("a value of this type", "Pass an integer, real or numeric value.");
        Expr* lower = lsecond_node(TargetEntry, call->args)->expr;
        Expr* upper = lthird_node(TargetEntry, call->args)->expr;
        const bool null_bound =
            bound_known(lower) == BoundKnown::Null || bound_known(upper) == BoundKnown::Null;
        Node* as_number = value_as_number(call);
        const Oid numeric_value = exprType(as_number);
        Expr* key = rewrite.bin_key != nullptr ? log_bin_key(call, as_number) : nullptr;
        // choose_bin_key refused the level unless every call with a NULL bound has its key.
        binned = key != nullptr && equal(key, rewrite.bin_key);
        if (null_bound && !binned) refuse_distributed_release("NULL bounds here", "Report this query.");
        const Oid types[3] = {numeric_value, FLOAT8OID, FLOAT8OID};
        if (!null_bound) {
            Expr* units = (Expr*)makeFuncExpr(
                pgdp_extension_function("clamped_units", 3, types, "0.8"), INT8OID,
                list_make3(copyObjectImpl(as_number), copyObjectImpl(lower), copyObjectImpl(upper)),
                InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
            units_total =
                (Expr*)builtin_aggregate(F_SUM_INT8, NUMERICOID, units, (Expr*)copyObjectImpl(filter));
            if (pgdp::reads_squares(identity.kind)) {
                Expr* squares = (Expr*)makeFuncExpr(
                    pgdp_extension_function("centred_squares", 3, types, "0.11"), INT8OID,
                    list_make3(copyObjectImpl(as_number), copyObjectImpl(lower), copyObjectImpl(upper)),
                    InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
                squares_total =
                    (Expr*)builtin_aggregate(F_SUM_INT8, NUMERICOID, squares, (Expr*)copyObjectImpl(filter));
            }
            // Integers are never NaN: count them directly (NaN values count as no row, as in the
            // single-node transition, through the units being NULL).
            Expr* counted =
                is_integer_type(value_type) ? (Expr*)copyObjectImpl(value) : (Expr*)copyObjectImpl(units);
            rows = (Expr*)builtin_aggregate(F_COUNT_ANY, INT8OID, counted, (Expr*)copyObjectImpl(filter));
        }
        if (binned) {
            // The row's log bin and exact units in it (core binned_units, the single-node map). One
            // bin key a level (choose_bin_key), shared by calls of the same value and bounds.
            if (rewrite.state_key == nullptr) group_by_state_key(rewrite, key);
            Expr* bin_units = (Expr*)makeFuncExpr(
                pgdp_extension_function("binned_units", 3, types, "0.14"), INT8OID,
                list_make3(copyObjectImpl(as_number), copyObjectImpl(lower), copyObjectImpl(upper)),
                InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
            bin_units_total = (Expr*)builtin_aggregate(
                F_SUM_INT8, NUMERICOID, (Expr*)copyObjectImpl(bin_units), (Expr*)copyObjectImpl(filter));
            if (pgdp::reads_squares(identity.kind)) {
                // Squares of up to 2^53 units: numeric, exact.
                Expr* as_numeric = (Expr*)makeFuncExpr(F_NUMERIC_INT8, NUMERICOID, list_make1(bin_units),
                                                       InvalidOid, InvalidOid, COERCE_EXPLICIT_CAST);
                Expr* square = (Expr*)makeFuncExpr(F_NUMERIC_MUL, NUMERICOID,
                                                   list_make2(as_numeric, copyObjectImpl(as_numeric)),
                                                   InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
                bin_squares_total = (Expr*)builtin_aggregate(F_SUM_NUMERIC, NUMERICOID, square,
                                                             (Expr*)copyObjectImpl(filter));
            }
            // The rows of the bin: NULL and NaN values have none (and count as no row with given
            // bounds either).
            rows = (Expr*)builtin_aggregate(F_COUNT_ANY, INT8OID, (Expr*)copyObjectImpl(rewrite.state_key),
                                            (Expr*)copyObjectImpl(filter));
        }
        // The value is not read any more: a NULL of its type keeps the call's types.
        value_entry->expr =
            (Expr*)makeNullConst(value_type, exprTypmod((Node*)value), exprCollation((Node*)value));
    } else {
        rows = (Expr*)builtin_aggregate(F_COUNT_, INT8OID, nullptr, (Expr*)copyObjectImpl(filter));
    }
    const int index = list_length(rewrite.columns) + 1;
    char name[32];
    const auto column_or_null = [&](Expr* total, const char* prefix, Oid type) -> Expr* {
        if (total == nullptr) return (Expr*)makeNullConst(type, -1, InvalidOid);
        snprintf(name, sizeof(name), "%s_%d", prefix, index);
        return (Expr*)partials_column(rewrite, total, name);
    };
    // The appended arguments (parameters.hpp partial_argument_count): units, rows, [squares],
    // then for the bounded values bin, bin units, [bin squares] (NULL constants without bins).
    List* appended =
        list_make2(column_or_null(units_total, "units", NUMERICOID), column_or_null(rows, "rows", INT8OID));
    if (pgdp::reads_squares(identity.kind))
        appended = lappend(appended, column_or_null(squares_total, "squares", NUMERICOID));
    if (has_value) {
        appended = lappend(appended, binned ? copyObjectImpl(rewrite.state_key_column)
                                            : (Expr*)makeNullConst(INT4OID, -1, InvalidOid));
        appended = lappend(appended, column_or_null(bin_units_total, "bin_units", NUMERICOID));
        if (pgdp::reads_squares(identity.kind))
            appended = lappend(appended, column_or_null(bin_squares_total, "bin_squares", NUMERICOID));
    }
    rewritten->aggargtypes = list_copy(rewritten->aggargtypes);
    ListCell* cell;
    foreach (cell, appended) {
        Expr* argument = static_cast<Expr*>(lfirst(cell));
        rewritten->args = lappend(
            rewritten->args, makeTargetEntry(argument, list_length(rewritten->args) + 1, nullptr, false));
        rewritten->aggargtypes = lappend_oid(rewritten->aggargtypes, exprType((Node*)argument));
    }
    rewritten->location = call_location(marked_groups_per_unit(call), true);
    return rewritten;
}

// The level's select list, HAVING and ORDER BY over the partials: grouping expressions become
// partials columns, pgdp calls add their totals; anything else reading the level's rows is refused.
Node* over_partials(Node* node, void* context) {
    if (node == nullptr) return nullptr;
    auto& rewrite = *static_cast<LevelRewrite*>(context);
    int column = 1;
    ListCell* cell;
    foreach (cell, rewrite.keys) {
        if (equal(node, lfirst(cell))) {
            const Column& type = *static_cast<Column*>(list_nth(rewrite.columns, column - 1));
            return (Node*)makeVar(1, static_cast<AttrNumber>(column), type.type, type.typmod, type.collation,
                                  0);
        }
        ++column;
    }
    if (IsA(node, Aggref)) {
        const auto* aggref = castNode(Aggref, node);
        if (aggref->agglevelsup == 0 && identify_aggregate(aggref->aggfnoid).is_pgdp) {
            // Equal calls are one release (PostgreSQL computes them once): one rewrite each, as
            // (dp_sum_ci(...)).* writes the call once per column.
            for (int i = 0; i + 1 < list_length(rewrite.calls); i += 2) {
                if (shares_computation(aggref, static_cast<Aggref*>(list_nth(rewrite.calls, i))))
                    return (Node*)copyObjectImpl(list_nth(rewrite.calls, i + 1));
            }
            Aggref* rewritten = distributed_call(rewrite, aggref);
            rewrite.calls = lappend(lappend(rewrite.calls, (void*)aggref), rewritten);
            return (Node*)copyObjectImpl(rewritten);
        }
        refuse_distributed_release("other aggregates beside pgdp's",
                                   "Compute exact aggregates in a separate query.");
    }
    if (IsA(node, Var)) {
        refuse_distributed_release(
            "columns that are not grouping expressions",
            "Add the column to GROUP BY (pgdp does not use functional dependencies here).");
    }
    if (IsA(node, SubLink) || IsA(node, GroupingFunc) || IsA(node, WindowFunc)) {
        refuse_distributed_release("subqueries, GROUPING or window functions beside the releases",
                                   "Compute the releases in a subquery and use them in the outer query.");
    }
    return expression_tree_mutator(node, mutator_cast(over_partials), context);
}

void check_level_shape(const Query* level) {
    if (level->commandType != CMD_SELECT || level->utilityStmt != nullptr) {
        refuse_distributed_release("data-modifying statements",
                                   "Store releases with INSERT ... SELECT from a plain query.");
    }
    if (level->groupingSets != NIL)
        refuse_distributed_release("GROUPING SETS, ROLLUP or CUBE", "Run one query per grouping.");
    if (level->hasWindowFuncs)
        refuse_distributed_release("window functions", "Apply window functions in an outer query.");
    if (level->hasTargetSRFs)
        refuse_distributed_release("set-returning functions in the select list", "Move them to FROM.");
    if (level->rowMarks != NIL)
        refuse_distributed_release("FOR UPDATE or FOR SHARE", "Remove the locking clause.");
    if (level->setOperations != nullptr)
        refuse_distributed_release("UNION, INTERSECT or EXCEPT", "Release each branch separately.");
    int depth = 0;
    if (query_tree_walker(const_cast<Query*>(level), walker_cast(refers_outside), &depth,
                          QTW_EXAMINE_RTES_BEFORE)) {
        refuse_distributed_release("references to an outer query",
                                   "Compute the releases in an uncorrelated query.");
    }
}

// Person-level releases (protected relations) are not rewritten for Citus: refused before Citus
// could distribute them.
void refuse_protected(Query* level, const ProtectionCatalog& protections) {
    if (protections.count == 0) return;
    ListCell* cell;
    foreach (cell, relation_entries((Node*)level)) {
        Protection protection;
        if (find_protection(protections, lfirst_node(RangeTblEntry, cell)->relid, &protection)) {
            refuse_distributed_release(
                "protected relations (person-level releases)",
                "Person-level releases run on a single node for now; see the README's Citus limits.");
        }
    }
}

void rewrite_level(Query* level, const ProtectionCatalog& protections) {
    check_level_shape(level);
    refuse_protected(level, protections);
    LevelRewrite rewrite{level,  static_cast<Query*>(copyObjectImpl(level)), NIL, NIL, NIL, nullptr, nullptr,
                         nullptr};
    rewrite.bin_key = choose_bin_key(level);
    Query* partials = rewrite.partials;
    partials->targetList = NIL;
    partials->havingQual = nullptr;
    partials->sortClause = NIL;
    partials->distinctClause = NIL;
    partials->hasDistinctOn = false;
    partials->limitCount = nullptr;
    partials->limitOffset = nullptr;
    compat::clear_limit_option(partials);
    partials->hasAggs = true;
    partials->canSetTag = true;
    // The grouping expressions, first, keeping their sort/group references.
    ListCell* cell;
    foreach (cell, level->groupClause) {
        const auto* clause = lfirst_node(SortGroupClause, cell);
        const TargetEntry* entry =
            get_sortgroupclause_tle(const_cast<SortGroupClause*>(clause), level->targetList);
        char name[32];
        snprintf(name, sizeof(name), "key_%d", list_length(rewrite.keys) + 1);
        (void)partials_column(rewrite, (Expr*)copyObjectImpl(entry->expr), name);
        llast_node(TargetEntry, partials->targetList)->ressortgroupref = clause->tleSortGroupRef;
        rewrite.keys = lappend(rewrite.keys, entry->expr);
    }
    // The level over the partials: its select list and HAVING read only keys and calls.
    List* target_list = NIL;
    foreach (cell, level->targetList) {
        auto* entry = static_cast<TargetEntry*>(copyObjectImpl(lfirst_node(TargetEntry, cell)));
        entry->expr = (Expr*)over_partials((Node*)entry->expr, &rewrite);
        target_list = lappend(target_list, entry);
    }
    Node* having = over_partials(level->havingQual, &rewrite);
    if (contains_release((Node*)partials)) {
        refuse_distributed_release("pgdp releases nested in the rows of another release",
                                   "Release each level in its own query.");
    }
    // The function scan of the partials: the query travels as its node string, which only this
    // rewrite writes (mark_partials_call) and only a charged execution runs.
    List* names = NIL;
    List* types = NIL;
    List* typmods = NIL;
    List* collations = NIL;
    foreach (cell, partials->targetList) {
        const auto* entry = lfirst_node(TargetEntry, cell);
        const Column& column = *static_cast<Column*>(list_nth(rewrite.columns, foreach_current_index (cell)));
        names = lappend(names, makeString(pstrdup(entry->resname)));
        types = lappend_oid(types, column.type);
        typmods = lappend_int(typmods, column.typmod);
        collations = lappend_oid(collations, column.collation);
    }
    Const* serialized = makeConst(TEXTOID, -1, DEFAULT_COLLATION_OID, -1,
                                  CStringGetTextDatum(nodeToString(partials)), false, false);
    FuncExpr* call = makeFuncExpr(partials_function(), RECORDOID, list_make1(serialized), InvalidOid,
                                  DEFAULT_COLLATION_OID, COERCE_EXPLICIT_CALL);
    call->funcretset = true;
    mark_partials_call(call);
    auto* function = makeNode(RangeTblFunction);
    function->funcexpr = (Node*)call;
    function->funccolcount = list_length(names);
    function->funccolnames = names;
    function->funccoltypes = types;
    function->funccoltypmods = typmods;
    function->funccolcollations = collations;
    auto* entry = makeNode(RangeTblEntry);
    entry->rtekind = RTE_FUNCTION;
    entry->functions = list_make1(function);
    entry->eref = makeAlias("pgdp_distributed_partials", names);
    entry->inFromCl = true;
    auto* reference = makeNode(RangeTblRef);
    reference->rtindex = 1;
    compat::replace_range_table(level, list_make1(entry));
    level->jointree = makeFromExpr(list_make1(reference), nullptr);
    level->cteList = NIL;
    level->hasRecursive = false;
    level->hasSubLinks = false;
    level->hasModifyingCTE = false;
    level->targetList = target_list;
    level->havingQual = having;
}

// Rewrites the levels below first (the analysis' order: a rewritten level reads no Citus table
// any more). True if a level was rewritten.
bool rewrite_levels(const ReleaseQuery& analysis) {
    bool rewritten = false;
    ListCell* cell;
    foreach (cell, analysis.levels) {
        const auto* level = static_cast<const ReleaseLevel*>(lfirst(cell));
        if (!level->query->hasAggs || !level->computes_releases) continue;
        if (!reads_citus_table((Node*)level->query, nullptr)) continue;
        rewrite_level(level->query, analysis.protections);
        rewritten = true;
    }
    return rewritten;
}

// True if a query tree calls pgdp.distributed_partials (context: its OID) anywhere.
bool calls_partials(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, FuncExpr) && castNode(FuncExpr, node)->funcid == *static_cast<Oid*>(context)) return true;
    if (IsA(node, Query))
        return query_tree_walker(castNode(Query, node), walker_cast(calls_partials), context, 0);
    return expression_tree_walker(node, walker_cast(calls_partials), context);
}

}  // namespace

void rewrite_distributed_releases(Query* parse, ReleaseQuery* analysis) {
    if (analysis->empty()) return;
    // The analyst's own call of the partials function would be refused when it runs, after the
    // releases were charged: refused here, before anything is charged.
    const Oid argument = TEXTOID;
    Oid partials =
        LookupFuncName(list_make2(makeString(pstrdup("pgdp")), makeString(pstrdup("distributed_partials"))),
                       1, &argument, true);
    if (OidIsValid(partials) && calls_partials((Node*)parse, &partials)) {
        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                        errmsg("pgdp.distributed_partials runs only inside the releases pgdp plans"),
                        errhint("Call dp_sum, dp_mean or dp_count on the distributed table instead.")));
    }
    if (!OidIsValid(get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE))) return;
    if (!reads_citus_table((Node*)parse, nullptr)) return;
    // The person-level rewrite reads the levels as they are now (the rewritten ones over partials).
    if (rewrite_levels(*analysis)) reanalyze_release_query(parse, analysis);
    // What remains runs as Citus decides, possibly on the workers: no release may be part of it.
    if (reads_citus_table((Node*)parse, nullptr)) {
        refuse_distributed_release(
            "distributed tables outside the query level that computes the releases",
            "Compute the releases in their own statement (or a CTE over only distributed tables), "
            "and join their result afterwards.");
    }
}

bool is_distributed_partials_call(const Node* expression) {
    if (expression == nullptr || !IsA(expression, FuncExpr)) return false;
    const auto* call = castNode(FuncExpr, expression);
    return has_partials_call_mark(call) && call->funcid == partials_function() &&
           list_length(call->args) == 1 && IsA(linitial(call->args), Const) &&
           !castNode(Const, linitial(call->args))->constisnull;
}

Query* distributed_partials_query(const FuncExpr* call) {
    char* serialized = TextDatumGetCString(linitial_node(Const, call->args)->constvalue);
    Node* node = static_cast<Node*>(stringToNode(serialized));
    if (node == nullptr || !IsA(node, Query)) {
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("invalid pgdp partials query")));
    }
    return castNode(Query, node);
}

int pin_partials_settings() {
    const int nest_level = NewGUCNestLevel();
    (void)set_config_option("extra_float_digits", "1", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
                            false);
    return nest_level;
}

void refuse_citus_reads_as_another_role(const PlannedStmt* partials) {
    refuse_citus_reads_as_another_role(compat::permissions_of(partials));
}

void refuse_citus_reads_as_another_role(const List* permissions) {
    const ListCell* cell;
    foreach (cell, permissions) {
        const auto* entry = static_cast<const compat::Permission*>(lfirst(cell));
        if (!OidIsValid(entry->checkAsUser) || entry->checkAsUser == GetUserId() ||
            !is_citus_table(entry->relid)) {
            continue;
        }
        if (pg_class_aclcheck(entry->relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK) {
            refuse_distributed_release(
                "another role's view over a distributed table",
                "Citus reads the shards as the current user: grant SELECT on the distributed table, "
                "or run the release as its reader.");
        }
    }
}

void refuse_in_citus_backend(const char* aggregate) {
    // Citus names the connections it opens for its own work (a worker's shard queries, the
    // rebalancer, run_command_on_*): "<purpose> gpid=<global pid>".
    static const char* const kCitusPrefixes[] = {
        "citus_internal gpid=", "citus_rebalancer gpid=", "citus_run_command gpid="};
    // The name the connection started with (SET cannot change it; a function Citus delegates to a
    // worker could rename its connection) and the current one (a session claiming a Citus name
    // only refuses itself).
    const char* started_as =
        MyProcPort != nullptr && MyProcPort->application_name != nullptr ? MyProcPort->application_name : "";
    const char* current = application_name != nullptr ? application_name : "";
    for (const char* prefix : kCitusPrefixes) {
        if (std::strncmp(started_as, prefix, std::strlen(prefix)) == 0 ||
            std::strncmp(current, prefix, std::strlen(prefix)) == 0) {
            ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                            errmsg("%s cannot run in a connection Citus opened for its own work", aggregate),
                            errdetail("pgdp releases and charges only on the node the analyst is connected "
                                      "to; workers compute exact totals only."),
                            errhint("Preload pgdp after citus on the coordinator: shared_preload_libraries "
                                    "= 'citus,pgdp'.")));
        }
    }
}

}  // namespace pgdp::pg
