#include "pg/planning/person_level.hpp"

extern "C" {
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_coerce.h"
#include "parser/parse_func.h"
#include "parser/parse_oper.h"
#include "parser/parsetree.h"
#include "rewrite/rewriteManip.h"
#include "access/hash.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/typcache.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
}

#include <algorithm>

#include "core/validate.hpp"
#include "pg/base/pg_compat.hpp"
#include "pg/calls/aggregate_call.hpp"
#include "pg/catalog/dp_access.hpp"
#include "pg/catalog/protected_relations.hpp"
#include "pg/planning/leakproof.hpp"
#include "pg/planning/person_level_shape.hpp"
#include "pg/planning/plan_marks.hpp"
#include "pg/planning/query_builder.hpp"
#include "pg/planning/release_query.hpp"
#include "pg/planning/total_forms.hpp"
#include "pg/trust/release_trust.hpp"

namespace pgdp::pg {
namespace {

// A grouping clause of a rewritten level; its type must have an equality operator.
SortGroupClause* checked_group_clause(Oid type, Index reference, const char* relation) {
    SortGroupClause* clause = group_clause(type, reference);
    if (!OidIsValid(clause->eqop))
        refuse_person_level_release(relation, "A grouping column's type has no equality operator.");
    return clause;
}

// pgdp.bounding_rank(): a uniform 64-bit rank per row from the release CSPRNG (see below).
Oid bounding_rank_function() { return pgdp_extension_function("bounding_rank", 0, nullptr, "0.7"); }

// ---- the rewrite ----------------------------------------------------------------------------

// The largest magnitude a row's numeric value keeps in a unit's partial sum: 10^131000. A group
// holds fewer than 2^63 < 10^19 rows (PostgreSQL counts them in int64), so a sum of such values
// stays below 10^131019, inside numeric's range (10^131072): no partial sum can overflow into an
// error ("value overflows numeric format" on one person's row was an oracle, issue 20). Only
// finite values beyond it change (to +-10^131000): NaN and +-Infinity add without error.
constexpr int numeric_saturation_exponent = 131000;

// The range-table index of the public keys' LEFT JOIN in a rewritten level (entries 1 and 2 are its sides).
constexpr int kGroupsJoin = 3;

Const* numeric_constant(const char* text) {
    const Datum value = DirectFunctionCall3(numeric_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid),
                                            Int32GetDatum(-1));
    return makeConst(NUMERICOID, -1, InvalidOid, -1, value, false, false);
}

// WHEN value <beyond> limit AND value <within> infinity THEN limit.
CaseWhen* saturation_clause(Expr* value, const char* beyond, const char* limit, const char* within,
                            const char* infinity) {
    auto* clause = makeNode(CaseWhen);
    clause->expr = (Expr*)makeBoolExpr(
        AND_EXPR,
        list_make2(
            operator_clause(beyond, NUMERICOID, (Expr*)copyObjectImpl(value), (Expr*)numeric_constant(limit)),
            operator_clause(within, NUMERICOID, (Expr*)copyObjectImpl(value),
                            (Expr*)numeric_constant(infinity))),
        -1);
    clause->result = (Expr*)numeric_constant(limit);
    clause->location = kUnknownLocation;
    return clause;
}

// CASE WHEN v > B AND v < 'Infinity' THEN B WHEN v < -B AND v > '-Infinity' THEN -B ELSE v END:
// numeric comparisons cannot fail (NaN sorts above +Infinity, so it is kept as it is).
Expr* saturated_numeric(Expr* value) {
    char bound[32];
    snprintf(bound, sizeof(bound), "1e%d", numeric_saturation_exponent);
    char negative[32];
    snprintf(negative, sizeof(negative), "-1e%d", numeric_saturation_exponent);
    auto* saturated = makeNode(CaseExpr);
    saturated->casetype = NUMERICOID;
    saturated->casecollid = InvalidOid;
    saturated->args = list_make2(saturation_clause(value, ">", bound, "<", "Infinity"),
                                 saturation_clause(value, "<", negative, ">", "-Infinity"));
    saturated->defresult = value;
    saturated->location = kUnknownLocation;
    return (Expr*)saturated;
}

// Level 1's partial for one call: the unit's sum (dp_sum) or mean (dp_mean, dp_variance, dp_stddev:
// the spread of the units' means) of the value, in a type whose sum cannot overflow into an error
// on any rows, in every person-level level (issue 20: an error only when one person's rows match a
// condition tells that they do): floats summed as
// numeric (sum and avg of float8 raise past 1.8e308, avg already on one value of 1e200 through its
// sum of squares), numeric values saturated per row (above). Integers keep PostgreSQL's sums
// (int2/int4 in 64 bits, int8 in 128 bits as numeric), so that an integer release stays integral
// (no rounding charged to its sensitivity): an int4 sum overflows only past 2^32 rows of one unit
// in one group, more than a statement reads in practice (docs/privacy.md).
Aggref* unit_partial(const Aggref* call, AggregateKind kind) {
    Expr* value = (Expr*)copyObjectImpl(linitial_node(TargetEntry, call->args)->expr);
    Oid value_type = exprType((Node*)value);
    if (value_type == FLOAT4OID || value_type == FLOAT8OID) {
        value = (Expr*)coerce_to_target_type(nullptr, (Node*)value, value_type, NUMERICOID, -1,
                                             COERCION_EXPLICIT, COERCE_IMPLICIT_CAST, -1);
        value_type = NUMERICOID;
    } else if (value_type == NUMERICOID) {
        value = saturated_numeric(value);
    }
    const char* name = kind == AggregateKind::Sum ? "sum" : "avg";
    // pg_catalog's own aggregates, whatever the search_path: the partial must be built-in code.
    const Oid function = LookupFuncName(
        list_make2(makeString(pstrdup("pg_catalog")), makeString(pstrdup(name))), 1, &value_type, false);
    return builtin_aggregate(function, get_func_rettype(function), value, nullptr);
}

// The call over the unit partial: the same aggregate (by name) for the partial's type, cast back
// to the call's own result type (post-processing of the release).
Node* call_over_partial(Aggref* over, const Aggref* call, Var* partial) {
    List* argument_types = list_copy(call->aggargtypes);
    lfirst_oid(list_head(argument_types)) = partial->vartype;
    const int count = list_length(argument_types);
    Oid* types = static_cast<Oid*>(palloc(sizeof(Oid) * count));
    for (int i = 0; i < count; ++i) types[i] = list_nth_oid(argument_types, i);
    List* name = list_make2(makeString(get_namespace_name(get_func_namespace(call->aggfnoid))),
                            makeString(get_func_name(call->aggfnoid)));
    over->aggfnoid = LookupFuncName(name, count, types, false);
    over->aggtype = get_func_rettype(over->aggfnoid);
    over->aggargtypes = argument_types;
    over->inputcollid = InvalidOid;
    linitial_node(TargetEntry, over->args)->expr = (Expr*)partial;
    if (over->aggtype == call->aggtype) return (Node*)over;
    Node* cast = coerce_to_target_type(nullptr, (Node*)over, over->aggtype, call->aggtype, -1,
                                       COERCION_EXPLICIT, COERCE_IMPLICIT_CAST, -1);
    if (cast == nullptr)
        elog(ERROR, "pgdp: no cast from %u to %u for a person-level release", over->aggtype, call->aggtype);
    return cast;
}

// What replaces what in the releasing level: each pgdp call by its call over the units, each
// group key (an expression equal to it, outside the calls) by the column that carries it.
struct Replacement {
    List* calls;        // Aggref* (the level's pgdp calls)
    List* results;      // Node* replacing each
    List* keys;         // Expr* (the level's group keys)
    List* key_columns;  // Var* replacing each
};

Node* replace_calls_and_keys(Node* node, void* context) {
    if (node == nullptr) return nullptr;
    auto* replacement = static_cast<Replacement*>(context);
    ListCell* from;
    ListCell* to;
    if (IsA(node, Aggref)) {
        // Every call sharing a replaced one's computation (the same call written again) gets the
        // same replacement: the executor computes them once, one release (distinct_calls).
        forboth (from, replacement->calls, to, replacement->results) {
            if (lfirst(from) == node ||
                shares_computation(static_cast<Aggref*>(lfirst(from)), castNode(Aggref, node)))
                return static_cast<Node*>(copyObjectImpl(lfirst(to)));
        }
    }
    forboth (from, replacement->keys, to, replacement->key_columns) {
        if (equal(lfirst(from), node)) return static_cast<Node*>(copyObjectImpl(lfirst(to)));
    }
    return expression_tree_mutator(
        node, reinterpret_cast<Node* (*)()>(reinterpret_cast<void (*)()>(replace_calls_and_keys)), context);
}

// Level 1: SELECT keys, unit, partials FROM <from> WHERE <where> AND unit IS NOT NULL GROUP BY
// keys, unit. Returns it; sets *unit_column and, per call, the partial's column (0: none).
Query* units_level(Query* level, const LevelShape& shape, Expr* unit, List* calls, const char* name,
                   int* unit_column, List** partial_columns) {
    Query* units = new_select();
    units->rtable = level->rtable;
    compat::take_permissions(level, units);
    units->jointree = level->jointree;
    units->hasSubLinks = level->hasSubLinks;
    Index reference = 0;
    ListCell* cell;
    foreach (cell, shape.keys) {
        Expr* key = static_cast<Expr*>(copyObjectImpl(lfirst(cell)));
        ++reference;
        TargetEntry* entry = makeTargetEntry(key, static_cast<AttrNumber>(reference),
                                             psprintf("pgdp_key_%u", reference), false);
        entry->ressortgroupref = reference;
        units->targetList = lappend(units->targetList, entry);
        units->groupClause =
            lappend(units->groupClause, checked_group_clause(exprType((Node*)key), reference, name));
    }
    ++reference;
    TargetEntry* unit_entry = makeTargetEntry((Expr*)copyObjectImpl(unit), static_cast<AttrNumber>(reference),
                                              pstrdup("pgdp_unit"), false);
    unit_entry->ressortgroupref = reference;
    units->targetList = lappend(units->targetList, unit_entry);
    units->groupClause =
        lappend(units->groupClause, checked_group_clause(exprType((Node*)unit), reference, name));
    *unit_column = static_cast<int>(reference);
    units->jointree->quals = and_of(units->jointree->quals, (Node*)is_not_null((Expr*)copyObjectImpl(unit)));
    foreach (cell, calls) {
        const Aggref* call = static_cast<Aggref*>(lfirst(cell));
        const AggregateKind kind = identify_aggregate(call->aggfnoid).kind;
        int column = 0;  // dp_count and dp_groups count the units' rows as they are
        if (pgdp::reads_bounded_value(kind)) {
            column = list_length(units->targetList) + 1;
            units->targetList =
                lappend(units->targetList,
                        makeTargetEntry((Expr*)unit_partial(call, kind), static_cast<AttrNumber>(column),
                                        psprintf("pgdp_partial_%d", column), false));
            units->hasAggs = true;
        }
        *partial_columns = lappend_int(*partial_columns, column);
    }
    // Level 1 is one level deeper than the level was: its references to outer queries move out.
    IncrementVarSublevelsUp((Node*)units, 1, 1);
    return units;
}

// Level 2 over level 1 (entry 1): every column, and pgdp_rank = row_number() OVER (PARTITION BY
// unit ORDER BY pgdp.bounding_rank()): a unit's groups in a uniformly random order, drawn per row
// from the release CSPRNG, independent of every other unit's rows.
Query* bounded_level(Query* units, int unit_column, const char* name) {
    // Level 1 moves one level deeper again (below level 2): its references to outer queries too
    // (red-team round 7: a correlated grouped release pointed them at level 2, an internal error).
    IncrementVarSublevelsUp((Node*)units, 1, 1);
    Query* bounded = new_select();
    bounded->rtable = list_make1(subquery_entry(units, "pgdp_units"));
    bounded->jointree = makeFromExpr(list_make1(reference_to(1)), nullptr);
    const int columns = list_length(units->targetList);
    for (int column = 1; column <= columns; ++column) {
        const TargetEntry* source = list_nth_node(TargetEntry, units->targetList, column - 1);
        TargetEntry* entry =
            makeTargetEntry((Expr*)column_of(units, 1, column), static_cast<AttrNumber>(column),
                            pstrdup(source->resname), false);
        if (column == unit_column) entry->ressortgroupref = 1;
        bounded->targetList = lappend(bounded->targetList, entry);
    }
    auto* row_number = makeNode(WindowFunc);
    row_number->winfnoid = F_ROW_NUMBER;
    row_number->wintype = INT8OID;
    row_number->winref = 1;
    row_number->location = kUnknownLocation;
    bounded->targetList =
        lappend(bounded->targetList, makeTargetEntry((Expr*)row_number, static_cast<AttrNumber>(columns + 1),
                                                     pstrdup("pgdp_rank"), false));
    Expr* rank = (Expr*)makeFuncExpr(bounding_rank_function(), INT8OID, NIL, InvalidOid, InvalidOid,
                                     COERCE_EXPLICIT_CALL);
    TargetEntry* rank_entry = makeTargetEntry(rank, static_cast<AttrNumber>(columns + 2), nullptr, true);
    rank_entry->ressortgroupref = 2;
    bounded->targetList = lappend(bounded->targetList, rank_entry);
    auto* window = makeNode(WindowClause);
    window->partitionClause =
        list_make1(checked_group_clause(exprType((Node*)column_of(units, 1, unit_column)), 1, name));
    SortGroupClause* order = checked_group_clause(INT8OID, 2, name);
    window->orderClause = list_make1(order);
    window->frameOptions = FRAMEOPTION_DEFAULTS;
    window->winref = 1;
    bounded->windowClause = list_make1(window);
    bounded->hasWindowFuncs = true;
    if (!OidIsValid(castNode(SortGroupClause, linitial(window->partitionClause))->sortop)) {
        refuse_person_level_release(
            name, "The privacy unit column's type has no ordering operator (needed to bound its groups).");
    }
    return bounded;
}

// SELECT DISTINCT public keys FROM the public relation WHERE <its own conditions>.
Query* keys_level(const Query* level, const LevelShape& shape, const char* name) {
    Query* keys = new_select();
    const RangeTblEntry* original = rt_fetch(shape.public_index, level->rtable);
    auto* relation = static_cast<RangeTblEntry*>(copyObjectImpl(original));
    keys->rtable = list_make1(relation);
    compat::copy_permission(level, original, relation, keys);
    Node* quals = static_cast<Node*>(copyObjectImpl(shape.public_quals));
    ChangeVarNodes(quals, shape.public_index, 1, 0);
    keys->jointree = makeFromExpr(list_make1(reference_to(1)), quals);
    Index reference = 0;
    ListCell* cell;
    foreach (cell, shape.public_keys) {
        Var* key = static_cast<Var*>(copyObjectImpl(lfirst(cell)));
        key->varno = 1;
        key->varnosyn = 1;
        ++reference;
        TargetEntry* entry = makeTargetEntry((Expr*)key, static_cast<AttrNumber>(reference),
                                             psprintf("pgdp_key_%u", reference), false);
        entry->ressortgroupref = reference;
        keys->targetList = lappend(keys->targetList, entry);
        keys->groupClause = lappend(keys->groupClause, checked_group_clause(key->vartype, reference, name));
    }
    IncrementVarSublevelsUp((Node*)keys, 1, 1);
    return keys;
}

// An RTE_JOIN entry (entry kGroupsJoin) for keys (entry 1) LEFT JOIN bounded (entry 2).
RangeTblEntry* left_join_entry(const Query* keys, const Query* bounded) {
    auto* entry = makeNode(RangeTblEntry);
    entry->rtekind = RTE_JOIN;
    entry->jointype = JOIN_LEFT;
    List* names = NIL;
    const Query* sides[2] = {keys, bounded};
    for (int side = 0; side < 2; ++side) {
        int column = 0;
        ListCell* cell;
        foreach (cell, sides[side]->targetList) {
            const TargetEntry* target = lfirst_node(TargetEntry, cell);
            if (target->resjunk) continue;
            ++column;
            Var* alias = column_of(sides[side], side + 1, column);
            if (side == 1) compat::nulled_by_join(alias, kGroupsJoin);
            entry->joinaliasvars = lappend(entry->joinaliasvars, alias);
            if (side == 0) {
                entry->joinleftcols = lappend_int(entry->joinleftcols, column);
            } else {
                entry->joinrightcols = lappend_int(entry->joinrightcols, column);
            }
            names = lappend(names, makeString(pstrdup(target->resname)));
        }
    }
    entry->eref = makeAlias("pgdp_groups", names);
    entry->inFromCl = true;
    return entry;
}

// A grouped release's rows in the order of its keys, after any ORDER BY of the query: level 3's
// hash table holds every group, dropped ones included, and its size and layout (so the order in
// which the kept groups come out, and which rows a LIMIT keeps) would depend on them (red-team
// round 7: one unit's dropped group reordered 229 released groups). Sorted by the keys, the rows'
// order is a function of what is released.
void order_by_keys(Query* level, const char* name) {
    if (level->limitOption == LIMIT_OPTION_WITH_TIES) {
        refuse_person_level_release(
            name, "FETCH ... WITH TIES is not supported in a grouped release (apply it in an outer query).");
    }
    // DISTINCT ON keeps the first row of each set of equal DISTINCT ON values: ordered by them, then
    // by the keys, the first row is a function of the released rows too.
    if (level->hasDistinctOn && level->sortClause == NIL)
        level->sortClause = list_copy(level->distinctClause);
    List* keys_order = NIL;
    ListCell* cell;
    foreach (cell, level->groupClause) {
        const auto* group = lfirst_node(SortGroupClause, cell);
        bool sorted = false;
        ListCell* sort_cell;
        foreach (sort_cell, level->sortClause) {
            if (lfirst_node(SortGroupClause, sort_cell)->tleSortGroupRef == group->tleSortGroupRef)
                sorted = true;
        }
        if (sorted) continue;
        const TargetEntry* entry =
            get_sortgroupclause_tle(const_cast<SortGroupClause*>(group), level->targetList);
        if (level->distinctClause != NIL && !level->hasDistinctOn && entry->resjunk) {
            refuse_person_level_release(
                name,
                "SELECT DISTINCT of a grouped release must show every GROUP BY key (or apply DISTINCT in "
                "an outer query).");
        }
        auto* order = makeNode(SortGroupClause);
        order->tleSortGroupRef = group->tleSortGroupRef;
        get_sort_group_operators(exprType((Node*)entry->expr), true, true, false, &order->sortop,
                                 &order->eqop, nullptr, &order->hashable);
        if (!OidIsValid(order->sortop))
            refuse_person_level_release(name, "A GROUP BY key's type has no ordering operator.");
        order->nulls_first = false;
        keys_order = lappend(keys_order, order);
    }
    level->sortClause = list_concat(level->sortClause, keys_order);
}

// ---- the row-capped statistics (dp_histogram, the quantiles, dp_count_distinct) ---------------

// pgdp.rows_per_unit: k, the rows one unit keeps per group for dp_histogram and the quantiles
// (dp_count_distinct: its distinct values per group), read when the statement is planned; 0 (the
// default): the protection's rows_per_unit.
int rows_per_unit_setting = 0;

// pgdp.max_groups_contributed: m, the groups one unit keeps in a grouped release (level 2 keeps at
// most m of its groups, the releases are calibrated for m), read when the statement is planned;
// 0 (the default): the protection's max_groups_contributed.
int max_groups_setting = 0;

// A window function call of a built-in (row_number, first_value, count(*), a partial aggregate).
WindowFunc* window_call(Oid function, Oid type, List* arguments, Index winref, bool aggregate, Expr* filter) {
    auto* call = makeNode(WindowFunc);
    call->winfnoid = function;
    call->wintype = type;
    call->args = arguments;
    call->inputcollid = arguments != NIL ? exprCollation((Node*)linitial(arguments)) : InvalidOid;
    call->winref = winref;
    call->winstar = aggregate && arguments == NIL;
    call->winagg = aggregate;
    call->aggfilter = filter;
    call->location = kUnknownLocation;
    return call;
}

Expr* bounding_rank_call() {
    return (Expr*)makeFuncExpr(bounding_rank_function(), INT8OID, NIL, InvalidOid, InvalidOid,
                               COERCE_EXPLICIT_CALL);
}

Expr* int8_constant(int64 value) {
    return (Expr*)makeConst(INT8OID, -1, InvalidOid, 8, Int64GetDatum(value), false, true);
}

WindowClause* window_clause(Index winref, List* partition, List* order) {
    auto* window = makeNode(WindowClause);
    window->partitionClause = partition;
    window->orderClause = order;
    window->frameOptions = FRAMEOPTION_DEFAULTS;
    window->winref = winref;
    return window;
}

// A window's PARTITION BY (or ORDER BY) clause on a target entry: its type needs an ordering operator.
SortGroupClause* window_key(Oid type, Index reference, const char* name) {
    SortGroupClause* clause = checked_group_clause(type, reference, name);
    if (!OidIsValid(clause->sortop)) {
        refuse_person_level_release(
            name,
            "A GROUP BY key, the privacy unit or a counted value has a type without an ordering "
            "operator (needed to cap each unit's rows per group).");
    }
    return clause;
}

TargetEntry* add_column(Query* query, Expr* expression, const char* name, Index reference) {
    auto* entry = makeTargetEntry(expression, static_cast<AttrNumber>(list_length(query->targetList) + 1),
                                  pstrdup(name), false);
    entry->ressortgroupref = reference;
    query->targetList = lappend(query->targetList, entry);
    return entry;
}

// dp_count_distinct's distinct values per unit are chosen by the values' equality (a window's
// PARTITION BY); the aggregate counts their hashes. Equal values must hash equally, or a unit's
// c values could be more than c hashes: the type's hash opclass must use that very equality.
void check_distinct_equality(Oid type, Oid equality, const char* name) {
    const TypeCacheEntry* entry =
        lookup_type_cache(type, TYPECACHE_HASH_OPFAMILY | TYPECACHE_HASH_EXTENDED_PROC);
    const Oid hash_equality = OidIsValid(entry->hash_opf)
                                  ? get_opfamily_member(entry->hash_opf, entry->hash_opintype,
                                                        entry->hash_opintype, HTEqualStrategyNumber)
                                  : InvalidOid;
    if (!OidIsValid(entry->hash_extended_proc) || hash_equality != equality) {
        refuse_person_level_release(
            name,
            "dp_count_distinct's value type has no hash operator class that agrees with its ordering's "
            "equality (needed to cap each unit's distinct values per group).");
    }
}

// The end of both rewrites: the level reads its bounded source (source_entry, its rows kept by
// kept), joined to the public keys (a LEFT JOIN: every key a row, rows or not) or alone; its
// pgdp calls and group keys replaced; the selection first in HAVING; ordered by the keys.
void finish_level(Query* level, const LevelShape& shape, Query* source, RangeTblEntry* source_entry,
                  Node* kept, Replacement& replacement, bool grouped, const char* name) {
    int key_number = 0;
    ListCell* key_cell;
    if (shape.form == GroupForm::PublicKeys) {
        Query* keys = keys_level(level, shape, name);
        Node* on = kept;
        foreach (key_cell, shape.keys) {
            ++key_number;
            const SortGroupClause* clause =
                list_nth_node(SortGroupClause, level->groupClause, key_number - 1);
            Expr* equal_keys = make_opclause(
                clause->eqop, BOOLOID, false, (Expr*)column_of(keys, 1, key_number),
                (Expr*)column_of(source, 2, key_number), InvalidOid, exprCollation((Node*)lfirst(key_cell)));
            set_opfuncid(castNode(OpExpr, equal_keys));
            on = and_of(on, (Node*)equal_keys);
            replacement.keys = lappend(replacement.keys, lfirst(key_cell));
            replacement.key_columns = lappend(replacement.key_columns, column_of(keys, 1, key_number));
        }
        auto* join = makeNode(JoinExpr);
        join->jointype = JOIN_LEFT;
        join->larg = (Node*)reference_to(1);
        join->rarg = (Node*)reference_to(2);
        join->quals = on;
        join->rtindex = kGroupsJoin;
        compat::replace_range_table(level, list_make3(subquery_entry(keys, "pgdp_keys"), source_entry,
                                                      left_join_entry(keys, source)));
        level->jointree = makeFromExpr(list_make1(join), nullptr);
    } else {
        foreach (key_cell, shape.keys) {
            ++key_number;
            replacement.keys = lappend(replacement.keys, lfirst(key_cell));
            replacement.key_columns = lappend(replacement.key_columns, column_of(source, 1, key_number));
        }
        compat::replace_range_table(level, list_make1(source_entry));
        level->jointree = makeFromExpr(list_make1(reference_to(1)), kept);
    }
    level->hasSubLinks = false;
    // The mutator itself on the roots, not expression_tree_mutator: a HAVING that is just
    // dp_groups(...) is an Aggref at the root, which expression_tree_mutator would copy without
    // replacing (its selection then ran at m = 1 instead of over m groups).
    level->targetList = (List*)replace_calls_and_keys((Node*)level->targetList, &replacement);
    level->havingQual = replace_calls_and_keys(level->havingQual, &replacement);
    level->havingQual = selection_first(level->havingQual);
    if (grouped) order_by_keys(level, name);
    // An outer query's condition on the keys (SELECT * FROM (release) s WHERE 1 / (k = 'x')::int > 0)
    // would be pushed into this level's HAVING and from there, holding no aggregate, into its WHERE:
    // evaluated on every group, dropped ones too, its errors showed the keys the selection withholds.
    // The planner pushes no condition into a subquery with a LIMIT: LIMIT ALL (no Limit node).
    if (shape.form == GroupForm::Selection && level->limitCount == nullptr && level->limitOffset == nullptr)
        level->limitCount = (Node*)makeNullConst(INT8OID, -1, InvalidOid);
}

// Where each call of a row-capped level reads its columns (0: none).
struct CappedCall {
    int value = 0;        // R: the call's value (row-capped statistics)
    int partial = 0;      // R: the unit's partial (dp_sum, dp_mean, dp_variance, dp_stddev)
    int value_first = 0;  // R: 1 on one row per (keys, unit, value) (dp_count_distinct)
    int value_key = 0;    // R: a uniform rank per (keys, unit, value) (dp_count_distinct)
    int value_rank = 0;   // B: the value's place among its unit's values in the group (dp_count_distinct)
};

// Rewrites a level with a row-capped statistic (has_row_capped_person_form) into:
//   R: the level's rows (FROM, WHERE, unit IS NOT NULL) with keys, unit, each call's value, and
//      pgdp_row_rank = row_number() OVER (PARTITION BY keys, unit ORDER BY pgdp.bounding_rank()):
//      a uniformly random order of a unit's rows in a group; the units' partials of dp_sum & co as
//      window aggregates over (keys, unit); grouped: pgdp_group_key, a uniform rank of the
//      (group, unit) (another draw, of the row ranked first, so it does not depend on how many rows
//      the unit has there); dp_count_distinct: per (keys, unit, value) a first row and a uniform rank.
//   B (grouped, or dp_count_distinct): pgdp_group_rank = count(*) FILTER (WHERE pgdp_row_rank = 1)
//      OVER (PARTITION BY unit ORDER BY pgdp_group_key): the group's place among its unit's groups;
//      per dp_count_distinct call, the value's place among the unit's values in the group.
//   The level over B (or R), WHERE pgdp_group_rank <= m (public keys: in the LEFT JOIN's ON):
//      dp_histogram and the quantiles FILTER (WHERE pgdp_row_rank <= k) (k rows per unit per group),
//      dp_count_distinct FILTER (WHERE value rank <= k) (k distinct values), dp_sum & co over the
//      partials and dp_count, dp_groups FILTER (WHERE pgdp_row_rank = 1) (one row per unit), every
//      call marked with m and its k (plan_marks.hpp).
// Every added expression is a built-in that cannot fail on any row: row_number, first_value,
// count(*), int8 comparisons, pgdp.bounding_rank(), sum/avg as in level 1 (unit_partial).
void rewrite_capped_level(Query* level, Expr* unit, int m_protected, int k, List* calls,
                          const LevelShape& shape, const char* name) {
    const bool grouped = shape.form != GroupForm::Ungrouped;
    const int m = grouped ? m_protected : 1;
    const int key_count = list_length(shape.keys);
    const Index unit_reference = static_cast<Index>(key_count + 1);
    const Index rank_reference = unit_reference + 1;

    // ---- R
    Query* rows = new_select();
    rows->rtable = level->rtable;
    compat::take_permissions(level, rows);
    rows->jointree = level->jointree;
    rows->hasSubLinks = level->hasSubLinks;
    rows->jointree->quals = and_of(rows->jointree->quals, (Node*)is_not_null((Expr*)copyObjectImpl(unit)));
    List* unit_partition = NIL;  // PARTITION BY keys, unit
    ListCell* cell;
    int key_number = 0;
    foreach (cell, shape.keys) {
        ++key_number;
        Expr* key = static_cast<Expr*>(copyObjectImpl(lfirst(cell)));
        add_column(rows, key, psprintf("pgdp_key_%d", key_number), static_cast<Index>(key_number));
        unit_partition = lappend(unit_partition, window_key(exprType((Node*)key), key_number, name));
    }
    add_column(rows, (Expr*)copyObjectImpl(unit), "pgdp_unit", unit_reference);
    unit_partition = lappend(unit_partition, window_key(exprType((Node*)unit), unit_reference, name));
    TargetEntry* rank_entry = add_column(rows, bounding_rank_call(), "pgdp_draw", rank_reference);
    rank_entry->resjunk = true;
    const Index rows_window = 1;     // PARTITION BY keys, unit ORDER BY draw
    const Index partial_window = 2;  // PARTITION BY keys, unit
    rows->windowClause = list_make2(
        window_clause(rows_window, unit_partition, list_make1(window_key(INT8OID, rank_reference, name))),
        window_clause(partial_window, list_copy(unit_partition), NIL));
    // The junk draw column must stay last among R's columns read above: move it after the others below.
    List* capped = NIL;         // CappedCall*, one per call
    List* unique_capped = NIL;  // the same, each once
    Index next_reference = rank_reference;
    Index next_window = partial_window;
    bool counts_distinct = false;
    foreach (cell, calls) {
        const Aggref* call = static_cast<Aggref*>(lfirst(cell));
        const AggregateKind kind = identify_aggregate(call->aggfnoid).kind;
        // A call written twice (x BETWEEN a AND b repeats x) reads the same columns, so its two
        // replacements stay equal and PostgreSQL computes one aggregate: one release, one charge.
        CappedCall* same = nullptr;
        for (int i = 0; i < foreach_current_index (cell) && same == nullptr; ++i) {
            if (shares_computation(call, static_cast<Aggref*>(list_nth(calls, i))))
                same = static_cast<CappedCall*>(list_nth(capped, i));
        }
        if (same != nullptr) {
            capped = lappend(capped, same);
            continue;
        }
        auto* columns = static_cast<CappedCall*>(palloc0(sizeof(CappedCall)));
        Expr* value = (Expr*)copyObjectImpl(linitial_node(TargetEntry, call->args)->expr);
        if (pgdp::has_row_capped_person_form(kind)) {
            const Index value_reference = ++next_reference;
            add_column(rows, value, psprintf("pgdp_value_%d", list_length(capped) + 1), value_reference);
            columns->value = list_length(rows->targetList);
            if (kind == AggregateKind::CountDistinct) {
                counts_distinct = true;
                SortGroupClause* value_key = window_key(exprType((Node*)value), value_reference, name);
                check_distinct_equality(exprType((Node*)value), value_key->eqop, name);
                const Index window = ++next_window;
                List* partition = lappend(list_copy(unit_partition), value_key);
                rows->windowClause = lappend(
                    rows->windowClause,
                    window_clause(window, partition, list_make1(window_key(INT8OID, rank_reference, name))));
                add_column(rows, (Expr*)window_call(F_ROW_NUMBER, INT8OID, NIL, window, false, nullptr),
                           "pgdp_value_first", 0);
                columns->value_first = list_length(rows->targetList);
                add_column(rows,
                           (Expr*)window_call(F_FIRST_VALUE, INT8OID, list_make1(bounding_rank_call()),
                                              window, false, nullptr),
                           "pgdp_value_key", 0);
                columns->value_key = list_length(rows->targetList);
            }
        } else if (pgdp::reads_bounded_value(kind)) {
            const Aggref* partial = unit_partial(call, kind);
            add_column(rows,
                       (Expr*)window_call(partial->aggfnoid, partial->aggtype,
                                          list_make1(linitial_node(TargetEntry, partial->args)->expr),
                                          partial_window, true, nullptr),
                       "pgdp_partial", 0);
            columns->partial = list_length(rows->targetList);
        }
        capped = lappend(capped, columns);
        unique_capped = lappend(unique_capped, columns);
    }
    add_column(rows, (Expr*)window_call(F_ROW_NUMBER, INT8OID, NIL, rows_window, false, nullptr),
               "pgdp_row_rank", 0);
    const int row_rank_column = list_length(rows->targetList);
    int group_key_column = 0;
    if (grouped) {
        add_column(rows,
                   (Expr*)window_call(F_FIRST_VALUE, INT8OID, list_make1(bounding_rank_call()), rows_window,
                                      false, nullptr),
                   "pgdp_group_key", 0);
        group_key_column = list_length(rows->targetList);
    }
    // The junk draw last (a subquery's junk columns follow its visible ones).
    rows->targetList = list_delete_ptr(rows->targetList, rank_entry);
    // Columns after the draw moved up by one.
    auto moved = [&](int column) {
        return column > static_cast<int>(rank_entry->resno) ? column - 1 : column;
    };
    ListCell* capped_cell;
    foreach (capped_cell, unique_capped) {
        auto* columns = static_cast<CappedCall*>(lfirst(capped_cell));
        if (columns->value) columns->value = moved(columns->value);
        if (columns->partial) columns->partial = moved(columns->partial);
        if (columns->value_first) columns->value_first = moved(columns->value_first);
        if (columns->value_key) columns->value_key = moved(columns->value_key);
    }
    const int row_rank = moved(row_rank_column);
    const int group_key = group_key_column != 0 ? moved(group_key_column) : 0;
    rows->targetList = lappend(rows->targetList, rank_entry);
    AttrNumber resno = 0;
    foreach (cell, rows->targetList) lfirst_node(TargetEntry, cell)->resno = ++resno;
    rows->hasWindowFuncs = true;
    IncrementVarSublevelsUp((Node*)rows, 1, 1);

    // ---- B
    Query* source = rows;
    int group_rank = 0;
    if (grouped || counts_distinct) {
        IncrementVarSublevelsUp((Node*)rows, 1, 1);
        Query* ranked = new_select();
        ranked->rtable = list_make1(subquery_entry(rows, "pgdp_rows"));
        ranked->jointree = makeFromExpr(list_make1(reference_to(1)), nullptr);
        const int visible = list_length(rows->targetList) - 1;
        for (int column = 1; column <= visible; ++column) {
            const TargetEntry* from = list_nth_node(TargetEntry, rows->targetList, column - 1);
            add_column(ranked, (Expr*)column_of(rows, 1, column), from->resname, 0);
        }
        auto reference_column = [&](int column) {
            TargetEntry* entry = list_nth_node(TargetEntry, ranked->targetList, column - 1);
            if (entry->ressortgroupref == 0) entry->ressortgroupref = static_cast<Index>(column);
            return window_key(exprType((Node*)entry->expr), entry->ressortgroupref, name);
        };
        Expr* first_row =
            operator_clause("=", INT8OID, (Expr*)column_of(rows, 1, row_rank), int8_constant(1));
        Index window = 0;
        if (grouped) {
            ++window;
            ranked->windowClause = lappend(ranked->windowClause,
                                           window_clause(window, list_make1(reference_column(key_count + 1)),
                                                         list_make1(reference_column(group_key))));
            add_column(ranked, (Expr*)window_call(F_COUNT_, INT8OID, NIL, window, true, first_row),
                       "pgdp_group_rank", 0);
            group_rank = list_length(ranked->targetList);
        }
        foreach (capped_cell, unique_capped) {
            auto* columns = static_cast<CappedCall*>(lfirst(capped_cell));
            if (columns->value_first == 0) continue;
            ++window;
            List* partition = NIL;
            for (int column = 1; column <= key_count + 1; ++column)
                partition = lappend(partition, reference_column(column));
            ranked->windowClause =
                lappend(ranked->windowClause,
                        window_clause(window, partition, list_make1(reference_column(columns->value_key))));
            // A value counts once (its first row), NULL never (dp_count_distinct skips it).
            Expr* first_value_row = (Expr*)makeBoolExpr(
                AND_EXPR,
                list_make2(operator_clause("=", INT8OID, (Expr*)column_of(rows, 1, columns->value_first),
                                           int8_constant(1)),
                           is_not_null((Expr*)column_of(rows, 1, columns->value))),
                -1);
            add_column(ranked, (Expr*)window_call(F_COUNT_, INT8OID, NIL, window, true, first_value_row),
                       "pgdp_value_rank", 0);
            columns->value_rank = list_length(ranked->targetList);
        }
        ranked->hasWindowFuncs = true;
        source = ranked;
    }

    // ---- the level over the capped rows
    const int source_varno = shape.form == GroupForm::PublicKeys ? 2 : 1;
    auto source_column = [&](int column) {
        Var* var = column_of(source, source_varno, column);
        if (shape.form == GroupForm::PublicKeys) compat::nulled_by_join(var, kGroupsJoin);
        return var;
    };
    Replacement replacement{NIL, NIL, NIL, NIL};
    forboth (cell, calls, capped_cell, capped) {
        Aggref* call = static_cast<Aggref*>(lfirst(cell));
        const auto* columns = static_cast<const CappedCall*>(lfirst(capped_cell));
        const AggregateKind kind = identify_aggregate(call->aggfnoid).kind;
        auto* over = static_cast<Aggref*>(copyObjectImpl(call));
        Node* result = (Node*)over;
        if (pgdp::has_row_capped_person_form(kind)) {
            linitial_node(TargetEntry, over->args)->expr = (Expr*)source_column(columns->value);
            over->aggfilter =
                kind == AggregateKind::CountDistinct
                    ? operator_clause("<=", INT8OID, (Expr*)source_column(columns->value_rank),
                                      int8_constant(k))
                    : operator_clause("<=", INT8OID, (Expr*)source_column(row_rank), int8_constant(k));
            over->location = person_level_location(m, k);
        } else {
            // One row per unit and group: its partial, or the unit counted once.
            over->aggfilter = operator_clause("=", INT8OID, (Expr*)source_column(row_rank), int8_constant(1));
            over->location = groups_per_unit_location(m);
            if (columns->partial != 0)
                result = call_over_partial(over, call, source_column(columns->partial));
        }
        replacement.calls = lappend(replacement.calls, call);
        replacement.results = lappend(replacement.results, result);
    }
    RangeTblEntry* source_entry = subquery_entry(source, source == rows ? "pgdp_rows" : "pgdp_ranked");
    Node* kept =
        grouped ? (Node*)operator_clause("<=", INT8OID, (Expr*)column_of(source, source_varno, group_rank),
                                         int8_constant(m))
                : nullptr;
    finish_level(level, shape, source, source_entry, kept, replacement, grouped, name);
}

bool has_row_capped_call(List* calls) {
    ListCell* cell;
    foreach (cell, calls) {
        if (pgdp::has_row_capped_person_form(
                identify_aggregate(static_cast<Aggref*>(lfirst(cell))->aggfnoid).kind))
            return true;
    }
    return false;
}

// Rewrites the level into levels 1-3: `unit` is its privacy unit expression, m its groups per unit,
// k the rows (distinct values) per unit and group of the row-capped statistics.
void rewrite_level(Query* level, Expr* unit, int m_protected, int k, List* calls, const LevelShape& shape,
                   const char* name) {
    if (has_row_capped_call(calls)) {
        rewrite_capped_level(level, unit, m_protected, k, calls, shape, name);
        return;
    }
    int unit_column = 0;
    List* partial_columns = NIL;
    Query* units = units_level(level, shape, unit, calls, name, &unit_column, &partial_columns);
    const bool grouped = shape.form != GroupForm::Ungrouped;
    // Grouped: each unit keeps at most m groups (level 2); its releases cover m groups.
    Query* source = grouped ? bounded_level(units, unit_column, name) : units;
    const int m = grouped ? m_protected : 1;
    const int source_varno = shape.form == GroupForm::PublicKeys ? 2 : 1;
    // A column of the units above the LEFT JOIN of the public keys (PostgreSQL 16+: nulled by it).
    auto source_column = [&](int column) {
        Var* var = column_of(source, source_varno, column);
        if (shape.form == GroupForm::PublicKeys) compat::nulled_by_join(var, kGroupsJoin);
        return var;
    };

    Replacement replacement{NIL, NIL, NIL, NIL};
    ListCell* call_cell;
    ListCell* column_cell;
    forboth (call_cell, calls, column_cell, partial_columns) {
        Aggref* call = static_cast<Aggref*>(lfirst(call_cell));
        auto* over = static_cast<Aggref*>(copyObjectImpl(call));
        // Every person-level call carries m, 1 when ungrouped (its dp_release reports it).
        over->location = groups_per_unit_location(m);
        if (shape.form == GroupForm::PublicKeys) {
            // A public key without units has one row of NULLs from the LEFT JOIN: counted by no call.
            over->aggfilter = (Expr*)is_not_null((Expr*)source_column(unit_column));
        }
        Node* result = (Node*)over;  // dp_count, dp_groups: count the rows (units) as they are
        if (lfirst_int(column_cell) != 0)
            result = call_over_partial(over, call, source_column(lfirst_int(column_cell)));
        replacement.calls = lappend(replacement.calls, call);
        replacement.results = lappend(replacement.results, result);
    }

    // Level 3: the level itself, over the units (bounded when grouped).
    RangeTblEntry* source_entry = subquery_entry(source, grouped ? "pgdp_bounded" : "pgdp_units");
    Node* kept = nullptr;  // grouped: pgdp_rank <= m
    if (grouped) {
        const int rank_column = list_length(units->targetList) + 1;
        kept = (Node*)operator_clause(
            "<=", INT8OID, (Expr*)column_of(source, source_varno, rank_column),
            (Expr*)makeConst(INT8OID, -1, InvalidOid, 8, Int64GetDatum(m), false, true));
    }
    finish_level(level, shape, source, source_entry, kept, replacement, grouped, name);
}

// Checks one level and rewrites it if its pgdp calls read a protected relation.
bool process_level(const ReleaseLevel& analysed, const ProtectionCatalog& catalog, List** marks) {
    Query* level = analysed.query;
    if (level->commandType != CMD_SELECT || !level->hasAggs) return false;
    // One rewrite per distinct call: equal calls would otherwise read different partial columns
    // and become different calls, each released and charged on its own.
    List* calls = distinct_calls(analysed.calls);
    check_selection_placement(level, analysed.calls);
    if (catalog.count == 0) {
        level->havingQual = selection_first(level->havingQual);
        return false;
    }

    List* entries = NIL;  // ProtectedEntry*
    ListCell* cell;
    int index = 0;
    foreach (cell, level->rtable) {
        ++index;
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        Protection found;
        if (entry->rtekind == RTE_RELATION && find_protection(catalog, entry->relid, &found)) {
            auto* protected_entry = static_cast<ProtectedEntry*>(palloc0(sizeof(ProtectedEntry)));
            protected_entry->index = index;
            protected_entry->protection = found;
            entries = lappend(entries, protected_entry);
        }
    }
    // Lower levels rewritten before this one still read what they read: the analysis holds.
    const Oid below_relation = protected_relation_below(analysed, catalog);
    const bool below = OidIsValid(below_relation);
    if (entries == NIL && !below) {
        level->havingQual = selection_first(level->havingQual);
        return false;
    }
    const auto* first = entries != NIL ? static_cast<const ProtectedEntry*>(linitial(entries)) : nullptr;
    const char* name = get_rel_name(first != nullptr ? first->protection.root : below_relation);
    if (name == nullptr) name = "?";
    if (below) {
        refuse_person_level_release(
            name,
            "The query reads a protected relation inside a subquery, view, CTE, function or row-security "
            "policy of the releasing query; person-level releases need it directly in FROM.");
    }
    if (analysed.other_aggregates)
        refuse_person_level_release(
            name, "The query computes other aggregates beside pgdp's over the protected rows.");
    if (level->hasWindowFuncs || level->hasTargetSRFs || level->setOperations != nullptr ||
        level->rowMarks != NIL || level->cteList != NIL || level->hasRecursive) {
        refuse_person_level_release(
            name,
            "Window functions, set-returning functions, set operations, WITH and FOR UPDATE are not "
            "supported in a person-level release.");
    }
    if (checkExprHasSubLink((Node*)level->targetList) || checkExprHasSubLink(level->havingQual)) {
        refuse_person_level_release(
            name, "Subqueries in the select list or HAVING are not supported in a person-level release.");
    }
    foreach (cell, calls) {
        const Aggref* call = static_cast<const Aggref*>(lfirst(cell));
        if (call->aggfilter != nullptr || call->aggorder != NIL || call->aggdistinct != NIL) {
            refuse_person_level_release(
                name, "FILTER, DISTINCT and ORDER BY inside pgdp aggregates are not supported.");
        }
        // The rewrite keeps only each call's value in level 1: a privacy parameter over a column
        // would be left referring to an entry that no longer exists (it crashed the planner).
        refuse_parameters_over_rows(call);
    }
    int m = 0;
    int k = 0;
    foreach (cell, entries) {
        auto* entry = static_cast<ProtectedEntry*>(lfirst(cell));
        if (entry->protection.unit_column == InvalidAttrNumber) {
            refuse_person_level_release(name, "The relation read has no column named like the privacy unit.");
        }
        RangeTblEntry* table = rt_fetch(entry->index, level->rtable);
        Oid unit_type;
        int32 unit_typmod;
        Oid unit_collation;
        get_atttypetypmodcoll(table->relid, entry->protection.unit_column, &unit_type, &unit_typmod,
                              &unit_collation);
        // The unit is read like any selected column: SELECT on it is required.
        compat::Permission* permission = compat::permission_of(level, table);
        if (permission == nullptr)
            refuse_person_level_release(name, "The protected relation has no permission check.");
        permission->selectedCols = bms_add_member(
            permission->selectedCols, entry->protection.unit_column - FirstLowInvalidHeapAttributeNumber);
        entry->unit =
            makeVar(entry->index, entry->protection.unit_column, unit_type, unit_typmod, unit_collation, 0);
        // Several protections: the smallest m keeps every owner's bound.
        m = m == 0 ? entry->protection.max_groups
                   : std::min(m, static_cast<int>(entry->protection.max_groups));
        // The same for k (the catalog's CHECK keeps it in [1, 1024]; anything else is refused).
        const int rows = entry->protection.rows_per_unit;
        if (rows < 1 || rows > kMaxMarkedRowsPerUnit)
            refuse_person_level_release(name, "The protection's rows_per_unit is outside [1, 1024].");
        k = k == 0 ? rows : std::min(k, rows);
    }
    // The statement's own k (pgdp.rows_per_unit), when set, replaces the protections': any k is
    // private (the noise is calibrated for it); it trades dropped rows against noise.
    if (rows_per_unit_setting > 0) k = rows_per_unit_setting;
    // The same for m (pgdp.max_groups_contributed): the rewrite keeps at most m groups per unit and
    // calibrates every release of the level for m, whatever m is; it trades dropped groups for noise.
    if (max_groups_setting > 0) m = max_groups_setting;
    Expr* unit =
        list_length(entries) == 1 ? (Expr*)copyObjectImpl(first->unit) : joined_unit(level, entries, name);
    const LevelShape shape = shape_of(level, name);
    // DP-only access: a relation the role may not read but was granted access to is read with its
    // owner's privileges, here only (dp_access.hpp); the level's expressions over rows must be leakproof.
    List* dp_only = NIL;  // Oid of each relation read so
    foreach (cell, entries) {
        const auto* entry = static_cast<ProtectedEntry*>(lfirst(cell));
        RangeTblEntry* table = rt_fetch(entry->index, level->rtable);
        compat::Permission* permission = compat::permission_of(level, table);
        const Oid user = OidIsValid(permission->checkAsUser) ? permission->checkAsUser : GetUserId();
        if (pg_class_aclcheck(table->relid, user, ACL_SELECT) == ACLCHECK_OK ||
            !has_access_grant(entry->protection.root, user)) {
            continue;
        }
        permission->checkAsUser = relation_owner(table->relid);
        dp_only = list_append_unique_oid(dp_only, table->relid);
    }
    if (dp_only != NIL) {
        // Built-ins that raise on some values become their total forms first, everywhere in the
        // level (the rewrite below copies the substituted expressions).
        substitute_total_forms(level);
        check_leakproof_level(level, shape, calls, name);
    }
    foreach (cell, entries) {
        if (shape.form == GroupForm::PublicKeys &&
            shape.public_index == static_cast<ProtectedEntry*>(lfirst(cell))->index)
            refuse_person_level_release(name, "The public relation is the protected one.");
    }
    const Oid public_relation =
        shape.form == GroupForm::PublicKeys ? rt_fetch(shape.public_index, level->rtable)->relid : InvalidOid;
    // What the level computes outside the calls must be from group keys (post-processing of them).
    if (has_bare_vars((Node*)level->targetList, shape.keys) || has_bare_vars(level->havingQual, shape.keys)) {
        refuse_person_level_release(
            name, "Columns outside the aggregates that are not GROUP BY keys are not supported.");
    }
    rewrite_level(level, unit, m, k, calls, shape, name);
    foreach (cell, dp_only) *marks = lappend(*marks, dp_access_mark(lfirst_oid(cell)));
    // One mark per protected entry read (the executor start counts them).
    foreach (cell, entries) {
        *marks = lappend(
            *marks,
            make_mark(kMarkCacheId, protection_hash(static_cast<ProtectedEntry*>(lfirst(cell))->protection)));
    }
    if (OidIsValid(public_relation)) *marks = lappend(*marks, make_mark(kPublicCacheId, public_relation));
    return true;
}

}  // namespace

void define_person_level_settings() {
    DefineCustomIntVariable(
        "pgdp.rows_per_unit",
        "Rows one privacy unit keeps per group in person-level dp_histogram and quantiles "
        "(dp_count_distinct: distinct values); 0: the protection's rows_per_unit.",
        "Each unit's rows beyond it are dropped at random before the release, whose noise grows in "
        "proportion to it (docs/privacy.md). Read when the statement is planned. 0 (the default) "
        "uses the rows_per_unit declared with pgdp.protect (the smallest of the relations joined).",
        &rows_per_unit_setting, 0, 0, kMaxMarkedRowsPerUnit, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomIntVariable(
        "pgdp.max_groups_contributed",
        "Groups one privacy unit may contribute to in a person-level grouped release; 0: the "
        "protection's max_groups_contributed.",
        "Each unit's groups beyond it are dropped at random before the release, whose noise grows in "
        "proportion to it (docs/privacy.md). Read when the statement is planned. 0 (the default) "
        "uses the max_groups_contributed declared with pgdp.protect (the smallest of the relations "
        "joined).",
        &max_groups_setting, 0, 0, static_cast<int>(pgdp::kMaxGroupsPerUnit), PGC_USERSET, 0, nullptr,
        nullptr, nullptr);
}

int person_level_rows_per_unit() { return rows_per_unit_setting; }

int person_level_max_groups() { return max_groups_setting; }

List* rewrite_person_level_releases(const ReleaseQuery& analysis) {
    // Lower levels first (the analysis' order): a rewritten level's FROM moves into a new
    // subquery. A level's calls inside a lower level's select list are copied by that level's
    // rewrite; the analysis' calls stay equal to them, and a level refuses such calls (subqueries
    // in its select list) before rewriting by identity.
    List* marks = NIL;
    ListCell* cell;
    foreach (cell, analysis.levels) {
        process_level(*static_cast<const ReleaseLevel*>(lfirst(cell)), analysis.protections, &marks);
    }
    const Oid function = marks != NIL ? sql_function_in_from(analysis) : InvalidOid;
    if (OidIsValid(function)) {
        ereport(
            ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("pgdp cannot make a person-level release in a query that calls SQL function %s in FROM",
                    format_procedure(function)),
             errdetail("The planner may inline a SQL function in FROM after pgdp checked the query; the "
                       "protected rows it reads would reach the release unbounded."),
             errhint("Call the function in another statement, or write it in PL/pgSQL.")));
    }
    return marks;
}

}  // namespace pgdp::pg
