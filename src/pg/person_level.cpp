#include "pg/person_level.hpp"

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
}

#include <cstring>

#include "pg/aggregate_call.hpp"
#include "pg/protected_relations.hpp"

namespace pgdp::pg {
namespace {

// The protections read once for the rewrite of one query (rewrite_person_level_releases).
const ProtectionCatalog* catalog = nullptr;

using WalkerFn = bool (*)();
template <typename F>
WalkerFn walker_cast(F f) {
    return reinterpret_cast<WalkerFn>(reinterpret_cast<void (*)()>(f));
}

// ---- what a query level reads ---------------------------------------------------------------

// True if a query tree (all its levels) reads a protected relation; context, if not null: an Oid*
// set to the protected relation (or root) found.
bool reads_protected(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, RangeTblEntry)) {
        const RangeTblEntry* entry = castNode(RangeTblEntry, node);
        Protection protection;
        if (entry->rtekind != RTE_RELATION || !find_protection(*catalog, entry->relid, &protection))
            return false;
        if (context != nullptr) *static_cast<Oid*>(context) = protection.root;
        return true;
    }
    if (IsA(node, Query)) {
        return query_tree_walker(castNode(Query, node), walker_cast(reads_protected), context,
                                 QTW_EXAMINE_RTES_BEFORE);
    }
    return expression_tree_walker(node, walker_cast(reads_protected), context);
}

// True if the level reads a protected relation other than through its own range table entries of
// kind RTE_RELATION: in a subquery, CTE, function or sublink.
bool reads_protected_below(Query* level, Oid* found) {
    ListCell* cell;
    foreach (cell, level->rtable) {
        RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        if (entry->rtekind == RTE_RELATION) {
            // Row-level security policies of the level's own tables are subqueries of the level.
            if (reads_protected((Node*)entry->securityQuals, found)) return true;
            continue;
        }
        if (range_table_entry_walker(entry, walker_cast(reads_protected), found, QTW_EXAMINE_RTES_BEFORE))
            return true;
    }
    foreach (cell, level->cteList) {
        if (reads_protected(lfirst_node(CommonTableExpr, cell)->ctequery, found)) return true;
    }
    return reads_protected((Node*)level->jointree, found) ||
           reads_protected((Node*)level->targetList, found) || reads_protected(level->havingQual, found);
}

// True if the query tree (all its levels) calls in FROM a SQL-language function: the planner may
// inline it after this hook ran (inline_set_returning_function), so the relations it reads are not
// visible here and the plan's marks would cover them too.
bool calls_sql_function_in_from(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, RangeTblEntry)) {
        const RangeTblEntry* entry = castNode(RangeTblEntry, node);
        if (entry->rtekind != RTE_FUNCTION) return false;
        ListCell* cell;
        foreach (cell, entry->functions) {
            const Node* call = lfirst_node(RangeTblFunction, cell)->funcexpr;
            if (call == nullptr || !IsA(call, FuncExpr)) continue;
            HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(castNode(FuncExpr, call)->funcid));
            *static_cast<Oid*>(context) = castNode(FuncExpr, call)->funcid;
            if (!HeapTupleIsValid(tuple)) return true;  // fail closed
            const bool sql = reinterpret_cast<Form_pg_proc>(GETSTRUCT(tuple))->prolang == SQLlanguageId;
            ReleaseSysCache(tuple);
            if (sql) return true;
        }
        return false;
    }
    if (IsA(node, Query)) {
        return query_tree_walker(castNode(Query, node), walker_cast(calls_sql_function_in_from), context,
                                 QTW_EXAMINE_RTES_BEFORE);
    }
    return expression_tree_walker(node, walker_cast(calls_sql_function_in_from), context);
}

// ---- the level's pgdp calls -----------------------------------------------------------------

struct LevelCalls {
    List* pgdp;  // Aggref* of this level (also written in a subquery) that are pgdp calls
    bool other;  // an aggregate of this level that is not pgdp's
    int depth;   // subquery depth of the walk below the level
};

// Walks a level's expressions and the subqueries in them: an aggregate in a subquery whose
// agglevelsup reaches back to the level (SELECT (SELECT dp_sum(p.x, ...)) FROM p) is the level's.
bool collect_calls(Node* node, void* context) {
    if (node == nullptr) return false;
    auto* calls = static_cast<LevelCalls*>(context);
    if (IsA(node, Query)) {
        ++calls->depth;
        const bool stop = query_tree_walker(castNode(Query, node), walker_cast(collect_calls), context, 0);
        --calls->depth;
        return stop;
    }
    if (IsA(node, Aggref)) {
        Aggref* aggref = castNode(Aggref, node);
        if (static_cast<int>(aggref->agglevelsup) == calls->depth) {
            if (identify_aggregate(aggref->aggfnoid).is_pgdp) {
                calls->pgdp = lappend(calls->pgdp, aggref);
            } else {
                calls->other = true;
            }
        }
        // The arguments hold no aggregate of this level; a subquery in them may.
        return expression_tree_walker(node, walker_cast(collect_calls), context);
    }
    return expression_tree_walker(node, walker_cast(collect_calls), context);
}

// Vars of this level outside aggregates (an ungrouped aggregate level has none).
bool has_bare_vars(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Aggref)) return false;
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
         errhint("Person-level releases take the form SELECT dp_count(...), dp_sum(x, ...) FROM protected "
                 "[JOIN other ...] [WHERE ...] with no GROUP BY (grouped releases need private group "
                 "selection or public keys, which are not available yet).")));
}

// ---- marked plans ---------------------------------------------------------------------------

// A plan made from a rewritten query carries, per protection it was rewritten for, an invalidation
// item no planner makes (cache id -1 never matches a syscache callback) whose hash identifies the
// protection (relation, privacy unit, m): it survives copyObject (cached plans are copies) and
// serialization, and users cannot make plans.
constexpr int kMarkCacheId = -1;
// And one item with the number of protected relation entries the rewritten levels read (one per
// level): the plan may read protected relations nowhere else (per scan, not only per protection).
constexpr int kScanCountCacheId = -2;

uint32 protection_hash(const Protection& protection) {
    struct {
        Oid root;
        NameData unit;
        int32 max_groups;
    } key{};
    key.root = protection.root;
    std::memcpy(&key.unit, &protection.unit_name, sizeof(NameData));
    key.max_groups = protection.max_groups;
    return hash_bytes(reinterpret_cast<const unsigned char*>(&key), sizeof key);
}

// ---- the rewrite ----------------------------------------------------------------------------

// Level 1's partial for one call: the unit's sum (dp_sum) or mean (dp_mean) of the value, in the
// type PostgreSQL's sum/avg give it (exact: numeric for bigint sums and integer means).
Aggref* unit_partial(const Aggref* call, AggregateKind kind) {
    Expr* value = linitial_node(TargetEntry, call->args)->expr;
    Oid value_type = exprType((Node*)value);
    const char* name = kind == AggregateKind::Sum ? "sum" : "avg";
    // pg_catalog's own aggregates, whatever the search_path: the partial must be built-in code.
    const Oid function = LookupFuncName(
        list_make2(makeString(pstrdup("pg_catalog")), makeString(pstrdup(name))), 1, &value_type, false);
    auto* partial = makeNode(Aggref);
    partial->aggfnoid = function;
    partial->aggtype = get_func_rettype(function);
    partial->aggcollid = InvalidOid;
    partial->inputcollid = exprCollation((Node*)value);
    partial->aggtranstype = InvalidOid;
    partial->aggargtypes = list_make1_oid(value_type);
    partial->args = list_make1(makeTargetEntry((Expr*)copyObjectImpl(value), 1, nullptr, false));
    partial->aggkind = AGGKIND_NORMAL;
    partial->agglevelsup = 0;
    partial->aggsplit = AGGSPLIT_SIMPLE;
    partial->aggno = -1;
    partial->aggtransno = -1;
    partial->location = -1;
    return partial;
}

// The call over the unit partial: the same aggregate (by name) for the partial's type, cast back
// to the call's own result type (post-processing of the release).
Node* call_over_partial(const Aggref* call, Oid partial_type, AttrNumber partial_column) {
    Aggref* over = static_cast<Aggref*>(copyObjectImpl(call));
    List* argument_types = list_copy(call->aggargtypes);
    lfirst_oid(list_head(argument_types)) = partial_type;
    const int count = list_length(argument_types);
    Oid* types = static_cast<Oid*>(palloc(sizeof(Oid) * count));
    for (int i = 0; i < count; ++i) types[i] = list_nth_oid(argument_types, i);
    List* name = list_make2(makeString(get_namespace_name(get_func_namespace(call->aggfnoid))),
                            makeString(get_func_name(call->aggfnoid)));
    over->aggfnoid = LookupFuncName(name, count, types, false);
    over->aggtype = get_func_rettype(over->aggfnoid);
    over->aggargtypes = argument_types;
    over->inputcollid = InvalidOid;
    linitial_node(TargetEntry, over->args)->expr =
        (Expr*)makeVar(1, partial_column, partial_type, -1, InvalidOid, 0);
    if (over->aggtype == call->aggtype) return (Node*)over;
    Node* cast = coerce_to_target_type(nullptr, (Node*)over, over->aggtype, call->aggtype, -1,
                                       COERCION_EXPLICIT, COERCE_IMPLICIT_CAST, -1);
    if (cast == nullptr)
        elog(ERROR, "pgdp: no cast from %u to %u for a person-level release", over->aggtype, call->aggtype);
    return cast;
}

struct Replacement {
    List* calls;    // Aggref* (the level's pgdp calls)
    List* results;  // Node* replacing each
};

Node* replace_calls(Node* node, void* context) {
    if (node == nullptr) return nullptr;
    if (IsA(node, Aggref)) {
        auto* replacement = static_cast<Replacement*>(context);
        ListCell* call;
        ListCell* result;
        forboth (call, replacement->calls, result, replacement->results) {
            if (lfirst(call) == node) return static_cast<Node*>(copyObjectImpl(lfirst(result)));
        }
        return node;
    }
    return expression_tree_mutator(
        node, reinterpret_cast<Node* (*)()>(reinterpret_cast<void (*)()>(replace_calls)), context);
}

void rewrite_level(Query* level, int protected_index, const Protection& protection, List* calls) {
    RangeTblEntry* table = rt_fetch(protected_index, level->rtable);
    Oid unit_type;
    int32 unit_typmod;
    Oid unit_collation;
    get_atttypetypmodcoll(table->relid, protection.unit_column, &unit_type, &unit_typmod, &unit_collation);
    // The unit is read like any selected column: SELECT on it is required.
    table->selectedCols =
        bms_add_member(table->selectedCols, protection.unit_column - FirstLowInvalidHeapAttributeNumber);
    Var* unit = makeVar(protected_index, protection.unit_column, unit_type, unit_typmod, unit_collation, 0);

    // Level 1: SELECT unit, partials FROM <from> WHERE <where> AND unit IS NOT NULL GROUP BY unit.
    Query* units = makeNode(Query);
    units->commandType = CMD_SELECT;
    units->querySource = QSRC_ORIGINAL;
    units->canSetTag = true;
    units->rtable = level->rtable;
    units->jointree = level->jointree;
    units->hasSubLinks = level->hasSubLinks;
    TargetEntry* unit_entry = makeTargetEntry((Expr*)copyObjectImpl(unit), 1, pstrdup("pgdp_unit"), false);
    unit_entry->ressortgroupref = 1;
    units->targetList = list_make1(unit_entry);
    auto* group = makeNode(SortGroupClause);
    group->tleSortGroupRef = 1;
    get_sort_group_operators(unit_type, false, true, false, &group->sortop, &group->eqop, nullptr,
                             &group->hashable);
    if (!OidIsValid(group->eqop)) {
        refuse(get_rel_name(protection.root), "The privacy unit column's type has no equality operator.");
    }
    units->groupClause = list_make1(group);
    auto* not_null = makeNode(NullTest);
    not_null->arg = (Expr*)copyObjectImpl(unit);
    not_null->nulltesttype = IS_NOT_NULL;
    not_null->location = -1;
    Node* quals = units->jointree->quals;
    units->jointree->quals =
        quals == nullptr ? (Node*)not_null : (Node*)makeBoolExpr(AND_EXPR, list_make2(quals, not_null), -1);

    Replacement replacement{NIL, NIL};
    List* column_names = list_make1(makeString(pstrdup("pgdp_unit")));
    ListCell* cell;
    foreach (cell, calls) {
        Aggref* call = static_cast<Aggref*>(lfirst(cell));
        const AggregateIdentity identity = identify_aggregate(call->aggfnoid);
        Node* result = (Node*)copyObjectImpl(call);  // dp_count: counts the units as it is
        if (identity.kind != AggregateKind::Count) {
            Aggref* partial = unit_partial(call, identity.kind);
            const auto column = static_cast<AttrNumber>(list_length(units->targetList) + 1);
            char* column_name = psprintf("pgdp_partial_%d", column - 1);
            units->targetList =
                lappend(units->targetList, makeTargetEntry((Expr*)partial, column, column_name, false));
            units->hasAggs = true;
            column_names = lappend(column_names, makeString(column_name));
            result = call_over_partial(call, partial->aggtype, column);
        }
        replacement.calls = lappend(replacement.calls, call);
        replacement.results = lappend(replacement.results, result);
    }
    // Level 1 is one level deeper than the level was: its references to outer queries move out.
    IncrementVarSublevelsUp((Node*)units, 1, 1);

    // The level now aggregates over the units.
    auto* entry = makeNode(RangeTblEntry);
    entry->rtekind = RTE_SUBQUERY;
    entry->subquery = units;
    entry->eref = makeAlias("pgdp_units", column_names);
    entry->inFromCl = true;
    auto* reference = makeNode(RangeTblRef);
    reference->rtindex = 1;
    level->rtable = list_make1(entry);
    level->jointree = makeFromExpr(list_make1(reference), nullptr);
    level->hasSubLinks = false;
    auto mutator = reinterpret_cast<Node* (*)()>(reinterpret_cast<void (*)()>(replace_calls));
    level->targetList = (List*)expression_tree_mutator((Node*)level->targetList, mutator, &replacement);
    level->havingQual = expression_tree_mutator(level->havingQual, mutator, &replacement);
}

// Checks one level and rewrites it if its pgdp calls read a protected relation.
bool process_level(Query* level, List** marks) {
    if (level->commandType != CMD_SELECT || !level->hasAggs) return false;
    LevelCalls calls{NIL, false, 0};
    collect_calls((Node*)level->targetList, &calls);
    collect_calls(level->havingQual, &calls);
    if (calls.pgdp == NIL) return false;

    int protected_index = 0;
    int protected_count = 0;
    Protection protection{};
    ListCell* cell;
    int index = 0;
    foreach (cell, level->rtable) {
        ++index;
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        Protection found;
        if (entry->rtekind == RTE_RELATION && find_protection(*catalog, entry->relid, &found)) {
            ++protected_count;
            protected_index = index;
            protection = found;
        }
    }
    Oid below_relation = InvalidOid;
    const bool below = reads_protected_below(level, &below_relation);
    if (protected_count == 0 && !below) return false;
    const char* name = get_rel_name(protected_count > 0 ? protection.root : below_relation);
    if (name == nullptr) name = "?";
    if (below) {
        refuse(name,
               "The query reads a protected relation inside a subquery, view, CTE, function or row-security "
               "policy of the releasing query; person-level releases need it directly in FROM.");
    }
    if (protected_count > 1) refuse(name, "The query reads more than one protected relation.");
    if (level->groupClause != NIL || level->groupingSets != NIL) {
        refuse(name, "Grouped person-level releases need private group selection or public keys.");
    }
    if (calls.other)
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
    if (has_bare_vars((Node*)level->targetList, nullptr) || has_bare_vars(level->havingQual, nullptr)) {
        refuse(name, "Columns outside the aggregates are not supported in a person-level release.");
    }
    foreach (cell, calls.pgdp) {
        const Aggref* call = static_cast<const Aggref*>(lfirst(cell));
        if (call->aggfilter != nullptr || call->aggorder != NIL || call->aggdistinct != NIL) {
            refuse(name, "FILTER, DISTINCT and ORDER BY inside pgdp aggregates are not supported.");
        }
    }
    if (protection.unit_column == InvalidAttrNumber) {
        refuse(name, "The relation read has no column named like the privacy unit.");
    }
    rewrite_level(level, protected_index, protection, calls.pgdp);
    *marks = lappend_int(*marks, static_cast<int>(protection_hash(protection)));
    return true;
}

bool rewrite_walker(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Query)) {
        Query* query = castNode(Query, node);
        // Lower levels first: a rewritten level's FROM moves into a new subquery.
        query_tree_walker(query, walker_cast(rewrite_walker), context, 0);
        process_level(query, static_cast<List**>(context));
        return false;
    }
    return expression_tree_walker(node, walker_cast(rewrite_walker), context);
}

}  // namespace

List* rewrite_person_level_releases(Query* parse) {
    const ProtectionCatalog protections = read_protection_catalog(nullptr);
    if (protections.count == 0) return NIL;  // nothing is protected: no query has anything to rewrite
    catalog = &protections;                  // for the walk below only
    List* marks = NIL;
    rewrite_walker((Node*)parse, &marks);
    catalog = nullptr;
    Oid function = InvalidOid;
    if (marks != NIL && calls_sql_function_in_from((Node*)parse, &function)) {
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

void mark_person_level_plan(PlannedStmt* statement, List* marks) {
    ListCell* cell;
    foreach (cell, marks) {
        auto* mark = makeNode(PlanInvalItem);
        mark->cacheId = kMarkCacheId;
        mark->hashValue = static_cast<uint32>(lfirst_int(cell));
        statement->invalItems = lappend(statement->invalItems, mark);
    }
    auto* count = makeNode(PlanInvalItem);
    count->cacheId = kScanCountCacheId;
    count->hashValue = static_cast<uint32>(list_length(marks));
    statement->invalItems = lappend(statement->invalItems, count);
}

namespace {

// True if range table index `index` is an expansion child (a partition or inheritance child the
// planner added for its parent entry), not a relation the query named.
bool expansion_child(const PlannedStmt* statement, int index) {
    ListCell* cell;
    foreach (cell, statement->appendRelations) {
        if (static_cast<int>(lfirst_node(AppendRelInfo, cell)->child_relid) == index) return true;
    }
    return false;
}

}  // namespace

bool is_person_level_plan(const PlannedStmt* statement, const ProtectionCatalog& catalog) {
    // Every protected relation the plan reads must have been rewritten for under the protection
    // in force now (a protection changed or added after planning makes the plan unusable).
    bool any = false;
    int named = 0;  // protected entries the query named (not expansion children)
    int index = 0;
    ListCell* cell;
    foreach (cell, statement->rtable) {
        ++index;
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        Protection protection;
        if (entry->rtekind != RTE_RELATION || !find_protection(catalog, entry->relid, &protection)) continue;
        if (!expansion_child(statement, index)) ++named;
        const uint32 hash = protection_hash(protection);
        bool marked = false;
        ListCell* item;
        foreach (item, statement->invalItems) {
            const auto* mark = lfirst_node(PlanInvalItem, item);
            if (mark->cacheId == kMarkCacheId && mark->hashValue == hash) marked = true;
        }
        if (!marked) return false;
        any = true;
    }
    int expected = -1;
    foreach (cell, statement->invalItems) {
        const auto* item = lfirst_node(PlanInvalItem, cell);
        if (item->cacheId == kScanCountCacheId) expected = static_cast<int>(item->hashValue);
    }
    return any && named == expected;
}

}  // namespace pgdp::pg
