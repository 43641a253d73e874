#include "pg/planning/release_query.hpp"

extern "C" {
#include "access/htup_details.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/syscache.h"
}

#include "pg/base/pg_compat.hpp"
#include "pg/calls/aggregate_call.hpp"
#include "pg/calls/omitted_bounds.hpp"
#include "pg/planning/query_builder.hpp"

namespace pgdp::pg {
namespace {

// The part of a level the walk is in. Parts that are not BelowLevel parts: LIMIT, OFFSET, the
// clauses of data-modifying statements and TABLESAMPLE of the level's own relations.
enum class Part { RangeTable, With, From, SelectList, Having, Other };

// One level on the walk's path (plain data on the C stack: an ereport may unwind it).
struct Frame {
    Query* query;
    Frame* parent;
    Part part;                   // of `query` the walk is in now
    const RangeTblEntry* entry;  // of `query`'s range table the walk is in now
    bool in_range_table;
    ReleaseLevel level;
};

struct Walk {
    ReleaseQuery* result;
    Frame* top;
};

bool visit(Node* node, void* context);

bool in_selection(const Frame& frame) { return frame.part == Part::SelectList || frame.part == Part::Having; }

void note_aggregate(Aggref* aggref, Walk& walk) {
    // A form without bounds becomes its NULL-bound form first: what every later stage reads.
    if (identify_aggregate(aggref->aggfnoid).omits_bounds) insert_null_bounds(aggref);
    const bool pgdp = identify_aggregate(aggref->aggfnoid).is_pgdp;
    if (pgdp) walk.result->any_call = true;
    // The level the call belongs to, agglevelsup levels up; it is that level's call when the walk
    // reached it from that level's select list or HAVING.
    Frame* owner = walk.top;
    for (Index up = aggref->agglevelsup; up > 0 && owner != nullptr; --up) owner = owner->parent;
    if (owner == nullptr || !in_selection(*owner)) return;
    if (!pgdp) {
        owner->level.other_aggregates = true;
        return;
    }
    owner->level.calls = lappend(owner->level.calls, const_cast<Aggref*>(aggref));
    if (owner == walk.top) owner->level.computes_releases = true;
}

bool note_function(Oid function, void* context) {
    ReleaseQuery& result = *static_cast<Walk*>(context)->result;
    result.functions = list_append_unique_oid(result.functions, function);
    return false;
}

void note_entry(const RangeTblEntry* entry, Walk& walk) {
    Frame& frame = *walk.top;
    frame.entry = entry;
    if (entry->rtekind == RTE_RELATION) {
        // Below every level above, in the part of it the walk came through.
        for (Frame* above = frame.parent; above != nullptr; above = above->parent) {
            if (above->part == Part::Other) continue;
            List*& below = above->level.relations_below[static_cast<int>(above->part)];
            below = lappend_oid(below, entry->relid);
        }
    } else if (entry->rtekind == RTE_FUNCTION) {
        ListCell* cell;
        foreach (cell, entry->functions) {
            const Node* call = lfirst_node(RangeTblFunction, cell)->funcexpr;
            if (call != nullptr && IsA(call, FuncExpr)) {
                walk.result->from_functions =
                    lappend_oid(walk.result->from_functions, castNode(FuncExpr, call)->funcid);
            }
        }
    }
}

// Called with each part of the current level (by query_tree_walker and range_table_walker): notes
// which part it is, then walks it.
bool visit_part(Node* node, void* context) {
    if (node == nullptr) return false;
    Walk& walk = *static_cast<Walk*>(context);
    Frame& frame = *walk.top;
    if (IsA(node, RangeTblEntry)) {
        note_entry(castNode(RangeTblEntry, node), walk);
        return false;
    }
    const Query* query = frame.query;
    Part part = Part::Other;
    if (frame.in_range_table) {
        // A relation entry's own TABLESAMPLE is not below the level; its policies are.
        const bool sample = frame.entry->rtekind == RTE_RELATION && node == (Node*)frame.entry->tablesample;
        if (!sample) part = Part::RangeTable;
    } else if (node == (Node*)query->targetList) {
        part = Part::SelectList;
    } else if (node == query->havingQual) {
        part = Part::Having;
    } else if (node == (Node*)query->jointree) {
        part = Part::From;
    } else if (node == (Node*)query->cteList) {
        part = Part::With;
    }
    frame.part = part;
    (void)visit(node, context);
    frame.part = Part::Other;
    return false;
}

void visit_level(Query* query, Walk& walk) {
    check_stack_depth();
    Frame frame{query, walk.top, Part::Other, nullptr, false, ReleaseLevel{query, NIL, false, false, {}}};
    walk.top = &frame;
    // query_tree_walker's order, the range table last.
    (void)query_tree_walker(query, walker_cast(visit_part), &walk, QTW_IGNORE_RANGE_TABLE);
    frame.in_range_table = true;
    (void)range_table_walker(query->rtable, walker_cast(visit_part), &walk, QTW_EXAMINE_RTES_BEFORE);
    walk.top = frame.parent;
    if (frame.level.calls != NIL) {
        auto* level = static_cast<ReleaseLevel*>(palloc(sizeof(ReleaseLevel)));
        *level = frame.level;
        walk.result->levels = lappend(walk.result->levels, level);
    }
}

bool visit(Node* node, void* context) {
    if (node == nullptr) return false;
    Walk& walk = *static_cast<Walk*>(context);
    if (IsA(node, Query)) {
        visit_level(castNode(Query, node), walk);
        return false;
    }
    if (IsA(node, Aggref)) {
        note_aggregate(castNode(Aggref, node), walk);
    } else if (IsA(node, SQLValueFunction)) {
        switch (castNode(SQLValueFunction, node)->op) {
            case SVFOP_CURRENT_ROLE:
            case SVFOP_CURRENT_USER:
            case SVFOP_USER:
            case SVFOP_SESSION_USER:
                walk.result->asks_who_runs = true;
                break;
            default:
                break;
        }
    }
    (void)check_functions_in_node(node, note_function, context);
    return expression_tree_walker(node, walker_cast(visit), context);
}

// True if the statement provably holds no pgdp call and no function the planner could inline:
// one level (no subquery, sublink or WITH) of plain relations without aggregates. Aggregates
// mark the level they belong to (hasAggs), a call in a sublink or a subquery needs another level.
// Most short statements are such; they skip the walk.
bool plain_single_level(const Query* parse) {
    if (parse->hasAggs || parse->hasSubLinks || parse->cteList != NIL || parse->setOperations != nullptr)
        return false;
    ListCell* cell;
    foreach (cell, parse->rtable) {
        const RTEKind kind = lfirst_node(RangeTblEntry, cell)->rtekind;
        if (kind != RTE_RELATION && kind != RTE_JOIN) return false;
    }
    return true;
}

void walk_tree(Query* parse, ReleaseQuery* result) {
    Walk walk{result, nullptr};
    visit_level(parse, walk);
}

}  // namespace

ReleaseQuery analyze_release_query(Query* parse) {
    ReleaseQuery result{};
    if (plain_single_level(parse)) return result;
    walk_tree(parse, &result);
    // PostgreSQL 18: the levels that compute releases refer to their grouping expressions through
    // the GROUP entry; the rewrites and the fingerprint need the expressions themselves (and the
    // calls found by the walk are replaced by identity: walked again).
    bool flattened = false;
    ListCell* cell;
    foreach (cell, result.levels) {
        if (compat::flatten_group_references(static_cast<ReleaseLevel*>(lfirst(cell))->query))
            flattened = true;
    }
    if (flattened) {
        result = ReleaseQuery{};
        walk_tree(parse, &result);
    }
    if (result.any_call) result.protections = read_protection_catalog(nullptr);
    return result;
}

void reanalyze_release_query(Query* parse, ReleaseQuery* analysis) {
    ReleaseQuery result{};
    walk_tree(parse, &result);
    result.protections = analysis->protections;
    *analysis = result;
}

bool shares_computation(const Aggref* a, const Aggref* b) {
    return equal(a, b) && !contain_volatile_functions((Node*)a);
}

List* distinct_calls(List* calls) {
    List* distinct = NIL;
    ListCell* cell;
    foreach (cell, calls) {
        bool seen = false;
        ListCell* kept;
        foreach (kept, distinct) {
            if (shares_computation(static_cast<Aggref*>(lfirst(kept)), static_cast<Aggref*>(lfirst(cell))))
                seen = true;
        }
        if (!seen) distinct = lappend(distinct, lfirst(cell));
    }
    return distinct;
}

Oid protected_relation_below(const ReleaseLevel& level, const ProtectionCatalog& protections) {
    if (protections.count == 0) return InvalidOid;
    for (List* below : level.relations_below) {
        ListCell* cell;
        foreach (cell, below) {
            Protection protection;
            if (find_protection(protections, lfirst_oid(cell), &protection)) return protection.root;
        }
    }
    return InvalidOid;
}

Oid sql_function_in_from(const ReleaseQuery& analysis) {
    ListCell* cell;
    foreach (cell, analysis.from_functions) {
        const Oid function = lfirst_oid(cell);
        HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
        if (!HeapTupleIsValid(tuple)) return function;  // fail closed
        const bool sql = reinterpret_cast<Form_pg_proc>(GETSTRUCT(tuple))->prolang == SQLlanguageId;
        ReleaseSysCache(tuple);
        if (sql) return function;
    }
    return InvalidOid;
}

}  // namespace pgdp::pg
