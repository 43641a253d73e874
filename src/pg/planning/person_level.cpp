#include "pg/planning/person_level.hpp"

extern "C" {
#include "access/sysattr.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "utils/regproc.h"
#include "utils/syscache.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "parser/parse_coerce.h"
#include "parser/parse_func.h"
#include "parser/parse_oper.h"
#include "parser/parsetree.h"
#include "rewrite/rewriteManip.h"
#include "utils/lsyscache.h"
#include "common/hashfn.h"
#include "utils/memutils.h"
#include "catalog/dependency.h"
#include "catalog/pg_extension.h"
#include "commands/extension.h"
#include "optimizer/optimizer.h"
#include "parser/parse_clause.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "access/nbtree.h"
#include "catalog/pg_am.h"
#include "commands/defrem.h"
}

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "pg/calls/aggregate_call.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/catalog/dp_access.hpp"
#include "pg/trust/release_trust.hpp"
#include "pg/planning/row_safe_functions.hpp"
#include "pg/base/strong_random.hpp"
#include "pg/catalog/protected_relations.hpp"
#include "pg/planning/plan_marks.hpp"
#include "pg/planning/query_trees.hpp"
#include "pg/planning/release_query.hpp"

namespace pgdp::pg {
namespace {

// Vars of this level outside aggregates and outside the group keys (context: List* of the keys).
bool has_bare_vars(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Aggref)) return false;
    ListCell* cell;
    foreach (cell, static_cast<List*>(context)) {
        if (equal(lfirst(cell), node)) return false;
    }
    if (IsA(node, Var)) return castNode(Var, node)->varlevelsup == 0;
    if (IsA(node, Query)) return false;
    return expression_tree_walker(node, walker_cast(has_bare_vars), context);
}

[[noreturn]] void refuse(const char* relation, const char* why) {
    ereport(
        ERROR,
        (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
         errmsg("pgdp cannot make this person-level release over protected relation \"%s\"", relation),
         errdetail("%s", why),
         errhint("Person-level releases take the forms SELECT dp_count(...), dp_sum(x, ...) FROM protected "
                 "[JOIN other ...] [WHERE ...]; grouped, with private group selection: SELECT k, "
                 "dp_count(...) FROM protected ... GROUP BY k HAVING dp_groups(epsilon, delta); or with "
                 "public keys: SELECT r.k, dp_count(...) FROM public_relation r LEFT JOIN protected p ON "
                 "... GROUP BY r.k.")));
}

// ---- building blocks ------------------------------------------------------------------------

Query* new_select() {
    Query* query = makeNode(Query);
    query->commandType = CMD_SELECT;
    query->querySource = QSRC_ORIGINAL;
    query->canSetTag = true;
    return query;
}

// A subquery entry over `subquery`, its columns named after the subquery's target list.
RangeTblEntry* subquery_entry(Query* subquery, const char* alias) {
    List* names = NIL;
    ListCell* cell;
    foreach (cell, subquery->targetList) {
        const TargetEntry* entry = lfirst_node(TargetEntry, cell);
        if (!entry->resjunk) names = lappend(names, makeString(pstrdup(entry->resname)));
    }
    auto* entry = makeNode(RangeTblEntry);
    entry->rtekind = RTE_SUBQUERY;
    entry->subquery = subquery;
    entry->eref = makeAlias(alias, names);
    entry->inFromCl = true;
    return entry;
}

RangeTblRef* reference_to(int index) {
    auto* reference = makeNode(RangeTblRef);
    reference->rtindex = index;
    return reference;
}

// A Var of range table entry `varno` for output column `column` of `subquery`.
Var* column_of(const Query* subquery, int varno, int column) {
    const Expr* expression = list_nth_node(TargetEntry, subquery->targetList, column - 1)->expr;
    return makeVar(varno, column, exprType((Node*)expression), exprTypmod((Node*)expression),
                   exprCollation((Node*)expression), 0);
}

SortGroupClause* group_clause(Oid type, Index reference, const char* relation) {
    auto* clause = makeNode(SortGroupClause);
    clause->tleSortGroupRef = reference;
    get_sort_group_operators(type, false, true, false, &clause->sortop, &clause->eqop, nullptr,
                             &clause->hashable);
    if (!OidIsValid(clause->eqop)) refuse(relation, "A grouping column's type has no equality operator.");
    return clause;
}

Node* and_of(Node* left, Node* right) {
    if (left == nullptr) return right;
    if (right == nullptr) return left;
    return (Node*)makeBoolExpr(AND_EXPR, list_make2(left, right), -1);
}

NullTest* is_not_null(Expr* expression) {
    auto* test = makeNode(NullTest);
    test->arg = expression;
    test->nulltesttype = IS_NOT_NULL;
    test->location = kUnknownLocation;
    return test;
}

Expr* operator_clause(const char* name, Oid type, Expr* left, Expr* right) {
    const Oid operator_id =
        LookupOperName(nullptr, list_make2(makeString(pstrdup("pg_catalog")), makeString(pstrdup(name))),
                       type, type, false, -1);
    return make_opclause(operator_id, BOOLOID, false, left, right, InvalidOid, InvalidOid);
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

// Level 1's partial for one call: the unit's sum (dp_sum) or mean (dp_mean) of the value, in a
// type whose sum cannot overflow into an error on any rows, in every person-level level (issue 20:
// an error only when one person's rows match a condition tells that they do): floats summed as
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
        forboth (from, replacement->calls, to, replacement->results) {
            if (lfirst(from) == node) return static_cast<Node*>(copyObjectImpl(lfirst(to)));
        }
    }
    forboth (from, replacement->keys, to, replacement->key_columns) {
        if (equal(lfirst(from), node)) return static_cast<Node*>(copyObjectImpl(lfirst(to)));
    }
    return expression_tree_mutator(
        node, reinterpret_cast<Node* (*)()>(reinterpret_cast<void (*)()>(replace_calls_and_keys)), context);
}

// How a releasing level's groups are released.
enum class GroupForm {
    Ungrouped,   // one group: no keys to protect
    Selection,   // GROUP BY keys HAVING dp_groups(...): keys released through private selection
    PublicKeys,  // FROM public LEFT JOIN ...: GROUP BY the public relation's columns
};

struct LevelShape {
    GroupForm form;
    List* keys;          // Expr*: the grouped target entries' expressions, in groupClause order
    int public_index;    // PublicKeys: the public relation's range table index
    List* public_keys;   // PublicKeys: each key as a Var of the public relation
    Node* public_quals;  // PublicKeys: WHERE conjuncts that read only the public relation
};

// A join alias (a column of a JOIN ... USING) resolved to the column it stands for.
Node* resolve_join_alias(const Query* level, Node* node) {
    for (int depth = 0; depth < 100 && node != nullptr && IsA(node, Var); ++depth) {
        const Var* var = castNode(Var, node);
        if (var->varlevelsup != 0 || var->varattno < 1) break;
        const RangeTblEntry* entry = rt_fetch(var->varno, level->rtable);
        if (entry->rtekind != RTE_JOIN || var->varattno > list_length(entry->joinaliasvars)) break;
        Node* aliased = static_cast<Node*>(list_nth(entry->joinaliasvars, var->varattno - 1));
        // A LEFT JOIN's merged USING column is the left side's column (maybe coerced: then no key).
        node = aliased;
    }
    return node;
}

// True if the expression reads no column of this level other than those of entry `index`, and
// has no subquery.
bool reads_only_entry(Node* node, void* context) {
    if (node == nullptr) return true;
    if (IsA(node, Var)) {
        const Var* var = castNode(Var, node);
        return var->varlevelsup != 0 || static_cast<int>(var->varno) == *static_cast<int*>(context);
    }
    if (IsA(node, SubLink) || IsA(node, Query) || IsA(node, Aggref) || IsA(node, PlaceHolderVar))
        return false;
    return !expression_tree_walker(
        node, walker_cast(+[](Node* n, void* c) { return !reads_only_entry(n, c); }), context);
}

// The range table index of the relation that may supply the groups: the leftmost relation of a
// chain of LEFT JOINs that is the level's whole FROM; 0 if the level has no such form.
int left_join_keys_entry(const Query* level) {
    if (list_length(level->jointree->fromlist) != 1) return 0;
    Node* item = static_cast<Node*>(linitial(level->jointree->fromlist));
    bool left_join = false;
    while (IsA(item, JoinExpr)) {
        if (castNode(JoinExpr, item)->jointype != JOIN_LEFT) return 0;
        left_join = true;
        item = castNode(JoinExpr, item)->larg;
    }
    if (!left_join || !IsA(item, RangeTblRef)) return 0;
    const int index = castNode(RangeTblRef, item)->rtindex;
    return rt_fetch(index, level->rtable)->rtekind == RTE_RELATION ? index : 0;
}

List* conjuncts_of(Node* quals) {
    if (quals == nullptr) return NIL;
    return is_andclause(quals) ? castNode(BoolExpr, quals)->args : list_make1(quals);
}

bool is_selection(Node* node) {
    if (node == nullptr || !IsA(node, Aggref) || castNode(Aggref, node)->agglevelsup != 0) return false;
    const AggregateIdentity identity = identify_aggregate(castNode(Aggref, node)->aggfnoid);
    return identity.is_pgdp && identity.kind == AggregateKind::Selection;
}

// The level's dp_groups calls that are conditions of its HAVING (top-level conjuncts).
List* having_selections(const Query* level) {
    List* found = NIL;
    ListCell* cell;
    foreach (cell, conjuncts_of(level->havingQual)) {
        if (is_selection(static_cast<Node*>(lfirst(cell)))) found = lappend(found, lfirst(cell));
    }
    return found;
}

// dp_groups decides which groups of a GROUP BY appear: anywhere else its answer would release
// the keys it withholds (SELECT k, dp_groups(...) shows every key with false beside it).
void check_selection_placement(const Query* level, List* calls) {
    int selections = 0;
    ListCell* cell;
    foreach (cell, calls) {
        if (identify_aggregate(static_cast<Aggref*>(lfirst(cell))->aggfnoid).kind == AggregateKind::Selection)
            ++selections;
    }
    if (selections == 0) return;
    if (level->groupClause == NIL || level->groupingSets != NIL) {
        ereport(
            ERROR,
            (errcode(ERRCODE_GROUPING_ERROR),
             errmsg("dp_groups selects groups: it needs a GROUP BY (without grouping sets)"),
             errhint("Write SELECT k, dp_count(...) FROM t GROUP BY k HAVING dp_groups(epsilon, delta).")));
    }
    if (list_length(having_selections(level)) != selections) {
        ereport(ERROR,
                (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                 errmsg("dp_groups must be a condition of HAVING on its own"),
                 errdetail("Anywhere else (the select list, under NOT or OR, in a subquery) its answer "
                           "would show the groups it withholds."),
                 errhint("Write ... GROUP BY k HAVING dp_groups(epsilon, delta) [AND other conditions].")));
    }
}

// True if two values of the type that are equal (under the collation) are the same value: a group's
// key is then the same whatever row supplied it. Not for numeric (5.0 = 5.000), float (0 = -0),
// interval, arrays, records, jsonb, nondeterministic collations: the released representative
// would be the first row's spelling, which shows whose rows are in the group (red-team round 7).
// The test is the one btree deduplication relies on (the opfamily's equalimage procedure), except
// for character(n), whose equal values may differ in trailing spaces.
bool equality_is_identity(Oid type, Oid collation) {
    const Oid base = getBaseType(type);
    if (base == BPCHAROID) return false;
    const Oid opclass = GetDefaultOpClass(base, BTREE_AM_OID);
    if (!OidIsValid(opclass)) return false;
    const Oid input = get_opclass_input_type(opclass);
    const Oid procedure = get_opfamily_proc(get_opclass_family(opclass), input, input, BTEQUALIMAGE_PROC);
    if (!OidIsValid(procedure)) return false;
    return DatumGetBool(OidFunctionCall1Coll(procedure, collation, ObjectIdGetDatum(input)));
}

LevelShape shape_of(Query* level, const char* name) {
    LevelShape shape{GroupForm::Ungrouped, NIL, 0, NIL, nullptr};
    if (level->groupingSets != NIL) refuse(name, "GROUPING SETS, ROLLUP and CUBE are not supported.");
    if (level->groupClause == NIL) return shape;
    ListCell* cell;
    foreach (cell, level->groupClause) {
        TargetEntry* entry = get_sortgroupclause_tle(lfirst_node(SortGroupClause, cell), level->targetList);
        shape.keys = lappend(shape.keys, entry->expr);
    }
    const int keys_index = left_join_keys_entry(level);
    const bool has_selection = having_selections(level) != NIL;
    if (keys_index != 0 && is_declared_public(rt_fetch(keys_index, level->rtable)->relid, nullptr)) {
        shape.public_index = keys_index;
    } else if (keys_index != 0 && !has_selection) {
        const char* keys_name = get_rel_name(rt_fetch(keys_index, level->rtable)->relid);
        ereport(
            ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("relation \"%s\" is not declared public: its rows cannot be the groups of a release over "
                    "protected relation \"%s\"",
                    keys_name != nullptr ? keys_name : "?", name),
             errdetail("Only a relation a pgdp admin declared public supplies group keys without private "
                       "selection: every key it holds is released, whether or not people have rows there."),
             errhint("Ask an admin to run SELECT pgdp.declare_public('%s'), or select the groups privately "
                     "with HAVING dp_groups(epsilon, delta).",
                     keys_name != nullptr ? keys_name : "?")));
    }
    if (shape.public_index == 0) {
        if (!has_selection) {
            refuse(name,
                   "A grouped release over a protected relation would show its groups' keys, which may "
                   "identify a person: release them through private group selection (HAVING dp_groups) or "
                   "take them from a relation declared public.");
        }
        foreach (cell, shape.keys) {
            Node* key = static_cast<Node*>(lfirst(cell));
            if (!equality_is_identity(exprType(key), exprCollation(key))) {
                ereport(ERROR,
                        (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                         errmsg("pgdp cannot release group keys of type %s selected from protected relation "
                                "\"%s\"",
                                format_type_be(exprType(key)), name),
                         errdetail("Equal keys of this type (or collation) can be written differently (5.0 "
                                   "and 5.000, 0 and -0, 'a' and 'A'); the group would show the spelling "
                                   "of one of its rows, which depends on whose rows it holds."),
                         errhint("Group by a value whose equal values are identical, e.g. GROUP BY "
                                 "k::text (deterministic collation) or round(k)::bigint.")));
            }
        }
        shape.form = GroupForm::Selection;
        return shape;
    }
    shape.form = GroupForm::PublicKeys;
    foreach (cell, shape.keys) {
        Node* key = resolve_join_alias(level, static_cast<Node*>(lfirst(cell)));
        if (!IsA(key, Var) || static_cast<int>(castNode(Var, key)->varno) != shape.public_index ||
            castNode(Var, key)->varlevelsup != 0 || castNode(Var, key)->varattno < 1) {
            refuse(name,
                   "With public keys every GROUP BY key must be a column of the public relation (the "
                   "leftmost relation of the LEFT JOINs).");
        }
        shape.public_keys = lappend(shape.public_keys, copyObjectImpl(key));
    }
    // WHERE conditions on the public relation alone choose which keys exist.
    foreach (cell, conjuncts_of(level->jointree->quals)) {
        Node* conjunct = static_cast<Node*>(lfirst(cell));
        Node* resolved = (Node*)flatten_join_alias_vars(level, conjunct);
        if (reads_only_entry(resolved, &shape.public_index) && !contain_volatile_functions(resolved))
            shape.public_quals = and_of(shape.public_quals, static_cast<Node*>(copyObjectImpl(resolved)));
    }
    return shape;
}

// Level 1: SELECT keys, unit, partials FROM <from> WHERE <where> AND unit IS NOT NULL GROUP BY
// keys, unit. Returns it; sets *unit_column and, per call, the partial's column (0: none).
Query* units_level(Query* level, const LevelShape& shape, Expr* unit, List* calls, const char* name,
                   int* unit_column, List** partial_columns) {
    Query* units = new_select();
    units->rtable = level->rtable;
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
        units->groupClause = lappend(units->groupClause, group_clause(exprType((Node*)key), reference, name));
    }
    ++reference;
    TargetEntry* unit_entry = makeTargetEntry((Expr*)copyObjectImpl(unit), static_cast<AttrNumber>(reference),
                                              pstrdup("pgdp_unit"), false);
    unit_entry->ressortgroupref = reference;
    units->targetList = lappend(units->targetList, unit_entry);
    units->groupClause = lappend(units->groupClause, group_clause(exprType((Node*)unit), reference, name));
    *unit_column = static_cast<int>(reference);
    units->jointree->quals = and_of(units->jointree->quals, (Node*)is_not_null((Expr*)copyObjectImpl(unit)));
    foreach (cell, calls) {
        const Aggref* call = static_cast<Aggref*>(lfirst(cell));
        const AggregateKind kind = identify_aggregate(call->aggfnoid).kind;
        int column = 0;  // dp_count and dp_groups count the units' rows as they are
        if (kind == AggregateKind::Sum || kind == AggregateKind::Mean) {
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
        list_make1(group_clause(exprType((Node*)column_of(units, 1, unit_column)), 1, name));
    SortGroupClause* order = group_clause(INT8OID, 2, name);
    window->orderClause = list_make1(order);
    window->frameOptions = FRAMEOPTION_DEFAULTS;
    window->winref = 1;
    bounded->windowClause = list_make1(window);
    bounded->hasWindowFuncs = true;
    if (!OidIsValid(castNode(SortGroupClause, linitial(window->partitionClause))->sortop)) {
        refuse(name, "The privacy unit column's type has no ordering operator (needed to bound its groups).");
    }
    return bounded;
}

// SELECT DISTINCT public keys FROM the public relation WHERE <its own conditions>.
Query* keys_level(const Query* level, const LevelShape& shape, const char* name) {
    Query* keys = new_select();
    auto* relation = static_cast<RangeTblEntry*>(copyObjectImpl(rt_fetch(shape.public_index, level->rtable)));
    keys->rtable = list_make1(relation);
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
        keys->groupClause = lappend(keys->groupClause, group_clause(key->vartype, reference, name));
    }
    IncrementVarSublevelsUp((Node*)keys, 1, 1);
    return keys;
}

// An RTE_JOIN entry for keys (entry 1) LEFT JOIN bounded (entry 2).
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
            entry->joinaliasvars = lappend(entry->joinaliasvars, column_of(sides[side], side + 1, column));
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

// HAVING dp_groups(...) AND c: the executor may evaluate c first (quals are ordered by cost), and
// an error in c (a division by a release) would then reveal a group the selection drops. So c is
// evaluated only for kept groups: dp_groups(...) AND CASE WHEN dp_groups(...) THEN c ELSE false END
// (the identical calls are one aggregate, computed once per group).
Node* selection_first(Node* having) {
    List* selections = NIL;
    List* rest = NIL;
    ListCell* cell;
    foreach (cell, conjuncts_of(having)) {
        if (is_selection(static_cast<Node*>(lfirst(cell)))) {
            selections = lappend(selections, lfirst(cell));
        } else {
            rest = lappend(rest, lfirst(cell));
        }
    }
    if (selections == NIL || rest == NIL) return having;
    Expr* kept = list_length(selections) == 1 ? static_cast<Expr*>(linitial(selections))
                                              : makeBoolExpr(AND_EXPR, list_copy(selections), -1);
    auto* when = makeNode(CaseWhen);
    when->expr = static_cast<Expr*>(copyObjectImpl(kept));
    when->result =
        list_length(rest) == 1 ? static_cast<Expr*>(linitial(rest)) : makeBoolExpr(AND_EXPR, rest, -1);
    when->location = kUnknownLocation;
    auto* guarded = makeNode(CaseExpr);
    guarded->casetype = BOOLOID;
    guarded->args = list_make1(when);
    guarded->defresult = (Expr*)makeBoolConst(false, false);
    guarded->location = kUnknownLocation;
    return (Node*)makeBoolExpr(AND_EXPR, lappend(selections, guarded), -1);
}

// A grouped release's rows in the order of its keys, after any ORDER BY of the query: level 3's
// hash table holds every group, dropped ones included, and its size and layout (so the order in
// which the kept groups come out, and which rows a LIMIT keeps) would depend on them (red-team
// round 7: one unit's dropped group reordered 229 released groups). Sorted by the keys, the rows'
// order is a function of what is released.
void order_by_keys(Query* level, const char* name) {
    if (level->limitOption == LIMIT_OPTION_WITH_TIES) {
        refuse(name,
               "FETCH ... WITH TIES is not supported in a grouped release (apply it in an outer query).");
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
            refuse(name,
                   "SELECT DISTINCT of a grouped release must show every GROUP BY key (or apply DISTINCT in "
                   "an outer query).");
        }
        auto* order = makeNode(SortGroupClause);
        order->tleSortGroupRef = group->tleSortGroupRef;
        get_sort_group_operators(exprType((Node*)entry->expr), true, true, false, &order->sortop,
                                 &order->eqop, nullptr, &order->hashable);
        if (!OidIsValid(order->sortop)) refuse(name, "A GROUP BY key's type has no ordering operator.");
        order->nulls_first = false;
        keys_order = lappend(keys_order, order);
    }
    level->sortClause = list_concat(level->sortClause, keys_order);
}

// Rewrites the level into levels 1-3: `unit` is its privacy unit expression, m its groups per unit.
void rewrite_level(Query* level, Expr* unit, int m_protected, List* calls, const LevelShape& shape,
                   const char* name) {
    int unit_column = 0;
    List* partial_columns = NIL;
    Query* units = units_level(level, shape, unit, calls, name, &unit_column, &partial_columns);
    const bool grouped = shape.form != GroupForm::Ungrouped;
    // Grouped: each unit keeps at most m groups (level 2); its releases cover m groups.
    Query* source = grouped ? bounded_level(units, unit_column, name) : units;
    const int m = grouped ? m_protected : 1;
    const int source_varno = shape.form == GroupForm::PublicKeys ? 2 : 1;

    Replacement replacement{NIL, NIL, NIL, NIL};
    ListCell* call_cell;
    ListCell* column_cell;
    forboth (call_cell, calls, column_cell, partial_columns) {
        Aggref* call = static_cast<Aggref*>(lfirst(call_cell));
        auto* over = static_cast<Aggref*>(copyObjectImpl(call));
        if (grouped) over->location = groups_per_unit_location(m);
        if (shape.form == GroupForm::PublicKeys) {
            // A public key without units has one row of NULLs from the LEFT JOIN: counted by no call.
            over->aggfilter = (Expr*)is_not_null((Expr*)column_of(source, source_varno, unit_column));
        }
        Node* result = (Node*)over;  // dp_count, dp_groups: count the rows (units) as they are
        if (lfirst_int(column_cell) != 0)
            result = call_over_partial(over, call, column_of(source, source_varno, lfirst_int(column_cell)));
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
        join->rtindex = 3;
        level->rtable =
            list_make3(subquery_entry(keys, "pgdp_keys"), source_entry, left_join_entry(keys, source));
        level->jointree = makeFromExpr(list_make1(join), nullptr);
    } else {
        foreach (key_cell, shape.keys) {
            ++key_number;
            replacement.keys = lappend(replacement.keys, lfirst(key_cell));
            replacement.key_columns = lappend(replacement.key_columns, column_of(source, 1, key_number));
        }
        level->rtable = list_make1(source_entry);
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

// ---- protected relations joined on their units ------------------------------------------------

struct ProtectedEntry {
    int index;  // in the level's range table
    Protection protection;
    Var* unit;  // the entry's privacy unit column
};

// True if `node` is `a = b` with the units' equality operator on two unit columns, returned in *a, *b.
bool unit_equality(Node* node, const List* entries, int* a, int* b) {
    if (node == nullptr || !IsA(node, OpExpr) || list_length(castNode(OpExpr, node)->args) != 2) return false;
    const OpExpr* expression = castNode(OpExpr, node);
    int found[2] = {-1, -1};
    for (int side = 0; side < 2; ++side) {
        Node* argument = static_cast<Node*>(list_nth(expression->args, side));
        while (IsA(argument, RelabelType)) argument = (Node*)castNode(RelabelType, argument)->arg;
        if (!IsA(argument, Var)) return false;
        int position = 0;
        ListCell* cell;
        foreach (cell, entries) {
            const auto* entry = static_cast<const ProtectedEntry*>(lfirst(cell));
            if (equal(argument, entry->unit)) found[side] = position;
            ++position;
        }
    }
    if (found[0] < 0 || found[1] < 0 || found[0] == found[1]) return false;
    const auto* left = static_cast<const ProtectedEntry*>(list_nth(entries, found[0]));
    Oid sort_operator;
    Oid equality;
    get_sort_group_operators(left->unit->vartype, false, true, false, &sort_operator, &equality, nullptr,
                             nullptr);
    if (expression->opno != equality) return false;
    *a = found[0];
    *b = found[1];
    return true;
}

// Range table indexes under a join tree node.
Bitmapset* entries_under(Node* node) {
    if (node == nullptr) return nullptr;
    if (IsA(node, RangeTblRef)) return bms_make_singleton(castNode(RangeTblRef, node)->rtindex);
    if (IsA(node, JoinExpr)) {
        const JoinExpr* join = castNode(JoinExpr, node);
        return bms_union(entries_under(join->larg), entries_under(join->rarg));
    }
    Bitmapset* all = nullptr;
    if (IsA(node, FromExpr)) {
        ListCell* cell;
        foreach (cell, castNode(FromExpr, node)->fromlist)
            all = bms_union(all, entries_under(static_cast<Node*>(lfirst(cell))));
    }
    return all;
}

struct UnitJoins {
    const List* entries;
    bool* linked;  // linked[i * count + j]: entries i and j are joined on their units
    int count;
};

void note_equalities(Node* quals, UnitJoins& joins, const Bitmapset* left, const Bitmapset* right) {
    ListCell* cell;
    foreach (cell, conjuncts_of(quals)) {
        int a = 0;
        int b = 0;
        if (!unit_equality(static_cast<Node*>(lfirst(cell)), joins.entries, &a, &b)) continue;
        const int ia = static_cast<const ProtectedEntry*>(list_nth(joins.entries, a))->index;
        const int ib = static_cast<const ProtectedEntry*>(list_nth(joins.entries, b))->index;
        // In a join's ON, only if this join is where the two relations meet (one on each side):
        // a higher outer join's ON would not remove the pairs it does not match.
        if (left != nullptr && !((bms_is_member(ia, left) && bms_is_member(ib, right)) ||
                                 (bms_is_member(ib, left) && bms_is_member(ia, right)))) {
            continue;
        }
        joins.linked[a * joins.count + b] = joins.linked[b * joins.count + a] = true;
    }
}

void note_join_equalities(Node* node, UnitJoins& joins) {
    if (node == nullptr) return;
    if (IsA(node, JoinExpr)) {
        JoinExpr* join = castNode(JoinExpr, node);
        note_equalities(join->quals, joins, entries_under(join->larg), entries_under(join->rarg));
        note_join_equalities(join->larg, joins);
        note_join_equalities(join->rarg, joins);
    } else if (IsA(node, FromExpr)) {
        ListCell* cell;
        foreach (cell, castNode(FromExpr, node)->fromlist)
            note_join_equalities(static_cast<Node*>(lfirst(cell)), joins);
    }
}

// The privacy unit of a level reading several protected relations: they must be one relation
// or of one declared kind, and joined on their units (every joined row then belongs to one unit);
// the unit is COALESCE of their units (outer joins leave one side NULL).
Expr* joined_unit(Query* level, List* entries, const char* name) {
    const int count = list_length(entries);
    const auto* first = static_cast<const ProtectedEntry*>(linitial(entries));
    ListCell* cell;
    foreach (cell, entries) {
        const auto* entry = static_cast<const ProtectedEntry*>(lfirst(cell));
        const bool same_relation = entry->protection.root == first->protection.root;
        const bool same_kind =
            NameStr(first->protection.unit_kind)[0] != '\0' &&
            std::strcmp(NameStr(entry->protection.unit_kind), NameStr(first->protection.unit_kind)) == 0;
        if (!same_relation && !same_kind) {
            refuse(
                name,
                "The query reads protected relations whose privacy units are not declared of one kind; their "
                "units may be different people (an admin declares a kind with pgdp.protect(..., "
                "privacy_unit_kind => 'customer') on each).");
        }
        if (entry->unit->vartype != first->unit->vartype) {
            refuse(name, "The privacy units of the joined protected relations have different types.");
        }
    }
    UnitJoins joins{entries, static_cast<bool*>(palloc0(sizeof(bool) * count * count)), count};
    note_equalities(level->jointree->quals, joins, nullptr, nullptr);
    note_join_equalities((Node*)level->jointree, joins);
    // Every relation must be linked to the first through unit equalities.
    bool* reached = static_cast<bool*>(palloc0(sizeof(bool) * count));
    reached[0] = true;
    for (bool grew = true; grew;) {
        grew = false;
        for (int i = 0; i < count; ++i) {
            for (int j = 0; j < count; ++j) {
                if (reached[i] && !reached[j] && joins.linked[i * count + j]) reached[j] = grew = true;
            }
        }
    }
    for (int i = 0; i < count; ++i) {
        if (!reached[i]) {
            refuse(name,
                   "Protected relations read together must be joined on their privacy units (p1.unit = "
                   "p2.unit in the join's ON or in WHERE): otherwise one row would mix several people.");
        }
    }
    auto* coalesce = makeNode(CoalesceExpr);
    coalesce->coalescetype = first->unit->vartype;
    coalesce->coalescecollid = first->unit->varcollid;
    foreach (cell, entries)
        coalesce->args =
            lappend(coalesce->args, copyObjectImpl(static_cast<ProtectedEntry*>(lfirst(cell))->unit));
    coalesce->location = kUnknownLocation;
    return (Expr*)coalesce;
}

// ---- DP-only access: expressions over the rows ----------------------------------------------

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
    switch (nodeTag(node)) {
        case T_Var:
        case T_Const:
        case T_Param:
        case T_List:
        case T_BoolExpr:
        case T_NullTest:
        case T_BooleanTest:
        case T_CaseExpr:
        case T_CaseWhen:
        case T_CaseTestExpr:
        case T_CoalesceExpr:
        case T_RelabelType:
        case T_CollateExpr:  // a label the planner removes; nothing runs
        case T_RowExpr:
        case T_TargetEntry:
            break;
        case T_ArrayExpr:
            // ARRAY[ARRAY[1], CASE WHEN customer = 777 THEN ARRAY[1, 2] ELSE ARRAY[1] END] failed
            // ("matching dimensions") exactly when one person's row was present (review4 red team):
            // a multidimensional array fails on sub-arrays of unequal dimensions.
            if (castNode(ArrayExpr, node)->multidims) {
                found->function = InvalidOid;
                return true;
            }
            break;
        case T_FuncExpr:
        case T_OpExpr:
        case T_DistinctExpr:
        case T_NullIfExpr:
        case T_ScalarArrayOpExpr:
        case T_CoerceViaIO:
            // Every function the node calls (an operator's function, the I/O functions of a cast)
            // must be on the allow-list.
            if (check_functions_in_node(node, leaky_function, context)) return true;
            // texteq raises "could not determine which collation to use" when the parser left the
            // collation undetermined (two columns of different implicit collations): at run time,
            // and only if some row reaches it (issue 20). Refused here, before any row is read.
            if (!OidIsValid(exprInputCollation(node)) && has_collatable_argument(call_arguments(node))) {
                found->function = call_function(node);
                found->no_collation = true;
                return true;
            }
            break;
        default:
            // A subquery, an aggregate, a window function, a domain check, GREATEST/LEAST, a row
            // comparison, array subscripting, an array cast, ...
            found->function = InvalidOid;
            return true;
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
                         "subscripting, a nested aggregate)."),
         errhint("Use comparisons, widening casts and pgdp's safe functions (pgdp.row_safe_functions(), "
                 "docs/privacy.md \"Untrusted analysts\"); compute anything else from the releases.")));
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
        if (kind != AggregateKind::Sum && kind != AggregateKind::Mean) continue;
        if (leaky_node((Node*)linitial_node(TargetEntry, call->args)->expr, &function))
            refuse_leaky(name, "aggregated value", function);
    }
}

// Checks one level and rewrites it if its pgdp calls read a protected relation.
bool process_level(const ReleaseLevel& analysed, const ProtectionCatalog& catalog, List** marks) {
    Query* level = analysed.query;
    if (level->commandType != CMD_SELECT || !level->hasAggs) return false;
    List* calls = analysed.calls;
    check_selection_placement(level, calls);
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
        refuse(name,
               "The query reads a protected relation inside a subquery, view, CTE, function or row-security "
               "policy of the releasing query; person-level releases need it directly in FROM.");
    }
    if (analysed.other_aggregates)
        refuse(name, "The query computes other aggregates beside pgdp's over the protected rows.");
    if (level->hasWindowFuncs || level->hasTargetSRFs || level->setOperations != nullptr ||
        level->rowMarks != NIL || level->cteList != NIL || level->hasRecursive) {
        refuse(name,
               "Window functions, set-returning functions, set operations, WITH and FOR UPDATE are not "
               "supported in a person-level release.");
    }
    if (checkExprHasSubLink((Node*)level->targetList) || checkExprHasSubLink(level->havingQual)) {
        refuse(name, "Subqueries in the select list or HAVING are not supported in a person-level release.");
    }
    foreach (cell, calls) {
        const Aggref* call = static_cast<const Aggref*>(lfirst(cell));
        if (call->aggfilter != nullptr || call->aggorder != NIL || call->aggdistinct != NIL) {
            refuse(name, "FILTER, DISTINCT and ORDER BY inside pgdp aggregates are not supported.");
        }
        // The rewrite keeps only each call's value in level 1: a privacy parameter over a column
        // would be left referring to an entry that no longer exists (it crashed the planner).
        refuse_parameters_over_rows(call);
    }
    int m = 0;
    foreach (cell, entries) {
        auto* entry = static_cast<ProtectedEntry*>(lfirst(cell));
        if (entry->protection.unit_column == InvalidAttrNumber) {
            refuse(name, "The relation read has no column named like the privacy unit.");
        }
        RangeTblEntry* table = rt_fetch(entry->index, level->rtable);
        Oid unit_type;
        int32 unit_typmod;
        Oid unit_collation;
        get_atttypetypmodcoll(table->relid, entry->protection.unit_column, &unit_type, &unit_typmod,
                              &unit_collation);
        // The unit is read like any selected column: SELECT on it is required.
        table->selectedCols = bms_add_member(
            table->selectedCols, entry->protection.unit_column - FirstLowInvalidHeapAttributeNumber);
        entry->unit =
            makeVar(entry->index, entry->protection.unit_column, unit_type, unit_typmod, unit_collation, 0);
        // Several protections: the smallest m keeps every owner's bound.
        m = m == 0 ? entry->protection.max_groups
                   : std::min(m, static_cast<int>(entry->protection.max_groups));
    }
    Expr* unit =
        list_length(entries) == 1 ? (Expr*)copyObjectImpl(first->unit) : joined_unit(level, entries, name);
    const LevelShape shape = shape_of(level, name);
    // DP-only access: a relation the role may not read but was granted access to is read with its
    // owner's privileges, here only (dp_access.hpp); the level's expressions over rows must be leakproof.
    List* dp_only = NIL;  // Oid of each relation read so
    foreach (cell, entries) {
        const auto* entry = static_cast<ProtectedEntry*>(lfirst(cell));
        RangeTblEntry* table = rt_fetch(entry->index, level->rtable);
        const Oid user = OidIsValid(table->checkAsUser) ? table->checkAsUser : GetUserId();
        if (pg_class_aclcheck(table->relid, user, ACL_SELECT) == ACLCHECK_OK ||
            !has_access_grant(entry->protection.root, user)) {
            continue;
        }
        table->checkAsUser = relation_owner(table->relid);
        dp_only = list_append_unique_oid(dp_only, table->relid);
    }
    if (dp_only != NIL) check_leakproof_level(level, shape, calls, name);
    foreach (cell, entries) {
        if (shape.form == GroupForm::PublicKeys &&
            shape.public_index == static_cast<ProtectedEntry*>(lfirst(cell))->index)
            refuse(name, "The public relation is the protected one.");
    }
    const Oid public_relation =
        shape.form == GroupForm::PublicKeys ? rt_fetch(shape.public_index, level->rtable)->relid : InvalidOid;
    // What the level computes outside the calls must be from group keys (post-processing of them).
    if (has_bare_vars((Node*)level->targetList, shape.keys) || has_bare_vars(level->havingQual, shape.keys)) {
        refuse(name, "Columns outside the aggregates that are not GROUP BY keys are not supported.");
    }
    rewrite_level(level, unit, m, calls, shape, name);
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

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_bounding_rank);

// pgdp.bounding_rank(): 63 uniform bits from the release CSPRNG, the order in which a grouped
// person-level release keeps a unit's groups (person_level.cpp, bounded_level). Fresh per row,
// so a unit's choice depends on no other unit's rows; no setseed() reaches it (random() would).
Datum pgdp_bounding_rank(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    std::uint64_t bits = 0;
    PGDP_GUARDED(bits = random.next_u64());
    PG_RETURN_INT64(static_cast<int64>(bits >> 1));
}

}  // extern "C"
