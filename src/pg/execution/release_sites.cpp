#include "pg/execution/release_sites.hpp"

extern "C" {
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
}

#include "pg/planning/distributed_release.hpp"
#include "pg/planning/plan_marks.hpp"

namespace pgdp::pg {
namespace {

// Calls a plan may hold: partitionwise aggregation repeats each call once per partition.
constexpr int kMaxSites = 64 * 1024;

int grouping_set_count(const Agg* agg) {
    int sets = list_length(agg->groupingSets);
    ListCell* cell;
    foreach (cell, agg->chain) sets += list_length(castNode(Agg, lfirst(cell))->groupingSets);
    return sets > 0 ? sets : 1;
}

struct AggrefCollector {
    SiteList* list;
    const Agg* agg;
    bool repeated;
    bool under_gather;
    PartitionScope partitions;
};

// More calls in the plan than pgdp tracks, though maybe not more releases: partitionwise
// aggregation repeats every call once per partition (1025 partitions of 64 calls each exceed it).
[[noreturn]] void refuse_too_many_calls() {
    ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                    errmsg("a query plan can hold at most %d pgdp aggregate calls", kMaxSites),
                    errdetail("A plan aggregating partitions separately holds each call once per partition."),
                    errhint("Split the query, or run it with enable_partitionwise_aggregate off.")));
}

Site& new_site(SiteList& list) {
    if (list.count == list.capacity) {
        if (list.capacity >= kMaxSites) refuse_too_many_calls();
        list.capacity *= 2;
        list.sites = static_cast<Site*>(repalloc(list.sites, sizeof(Site) * list.capacity));
    }
    return list.sites[list.count++];
}

// The Agg node of a distributed call reads the partials scan directly or through nodes that only
// sort or project its rows.
bool reads_distributed_partials(const Plan* agg) {
    for (const Plan* plan = agg->lefttree; plan != nullptr; plan = plan->lefttree) {
        if (IsA(plan, FunctionScan)) {
            const List* functions = castNode(FunctionScan, plan)->functions;
            return list_length(functions) == 1 &&
                   is_distributed_partials_call(linitial_node(RangeTblFunction, functions)->funcexpr);
        }
        if (!IsA(plan, Sort) && !IsA(plan, IncrementalSort) && !IsA(plan, Result) && !IsA(plan, Material)) {
            return false;
        }
    }
    return false;
}

bool collect_aggrefs(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Aggref)) {
        auto* collector = static_cast<AggrefCollector*>(context);
        Aggref* aggref = castNode(Aggref, node);
        const AggregateIdentity identity = identify_aggregate(aggref->aggfnoid);
        if (identity.omits_bounds) {
            // The analysis rewrites every such call it sees (calls/omitted_bounds.hpp); one in a
            // SQL function the planner inlined afterwards was not: refused while planning.
            ereport(ERROR,
                    (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                     errmsg("%s without bounds cannot be used inside a SQL function in FROM", identity.name),
                     errdetail("The planner inlined the function after pgdp rewrote the query."),
                     errhint("Write the bounds as NULL in the function: %s(value, NULL, NULL, ...).",
                             identity.name)));
        }
        bool seen = false;
        // One release per distinct call: identical calls share aggno (computed once). This Agg's
        // sites are the last ones of the list (its targetlist and qual are collected one after the
        // other), so the search stops at the first site of another node: linear, not quadratic, in
        // the calls of a plan with many partitions.
        for (int i = collector->list->count - 1; i >= 0 && !seen; --i) {
            const Site& site = collector->list->sites[i];
            if (site.agg_plan != &collector->agg->plan) break;
            if (site.aggref->aggno == aggref->aggno) seen = true;
        }
        if (identity.is_pgdp && !seen && reads_partial_totals(aggref) &&
            !reads_distributed_partials(&collector->agg->plan)) {
            // Only the distributed rewrite writes such calls, over its partials scan.
            ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                            errmsg("a distributed pgdp call is not computed over its partials"),
                            errhint("Report this query.")));
        }
        if (identity.is_pgdp && !seen) {
            const bool final_phase = !DO_AGGSPLIT_SKIPFINAL(aggref->aggsplit);
            const int multiplicity = final_phase ? grouping_set_count(collector->agg) : 0;
            new_site(*collector->list) = Site{aggref,
                                              &collector->agg->plan,
                                              identity,
                                              final_phase,
                                              multiplicity,
                                              collector->repeated,
                                              collector->under_gather,
                                              collector->partitions};
            // A later partition's call is counted when it is charged (charge_final_calls).
            if (collector->partitions.child == 0) collector->list->releases += multiplicity;
        }
        return false;  // the arguments of an Aggref hold no other aggregate of this Agg node
    }
    return expression_tree_walker(
        node, reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(collect_aggrefs)), context);
}

struct PlanWalk {
    PlannedStmt* statement;
    SiteList* list;
    bool* visited_subplans;    // by plan_id - 1
    int uncorrelated_rescans;  // depth of nested-loop inner sides that depend on no outer value
    List* partition_aggs;      // Agg nodes that are partitionwise children (PartitionAgg*)
};

struct PartitionAgg {
    const Plan* agg;
    PartitionScope scope;
};

// The grouped Agg computing one partition's groups: the child itself or below nodes that only
// sort or project its rows; nullptr if there is none. Plain aggregates and grouping sets never
// qualify (partitionwise aggregation requires GROUP BY the partition key).
const Plan* partition_agg(const Plan* child) {
    while (child != nullptr && (IsA(child, Result) || IsA(child, Sort) || IsA(child, IncrementalSort)) &&
           child->righttree == nullptr) {
        child = child->lefttree;
    }
    if (child == nullptr || !IsA(child, Agg)) return nullptr;
    const Agg* agg = castNode(Agg, child);
    if (agg->aggstrategy == AGG_PLAIN || agg->groupingSets != NIL || agg->chain != NIL ||
        DO_AGGSPLIT_SKIPFINAL(agg->aggsplit)) {
        return nullptr;
    }
    return child;
}

// Adds the OIDs of the partitions a plan subtree scans to *relations; false if it reads anything
// else (a table that is not a partition, a function, a subquery, a foreign or custom scan).
bool scanned_partitions(const PlannedStmt* statement, const Plan* plan, List** relations);

bool all_scan_partitions(const PlannedStmt* statement, List* plans, List** relations) {
    ListCell* cell;
    foreach (cell, plans) {
        if (!scanned_partitions(statement, static_cast<Plan*>(lfirst(cell)), relations)) return false;
    }
    return true;
}

bool scanned_partitions(const PlannedStmt* statement, const Plan* plan, List** relations) {
    if (plan == nullptr) return true;
    check_stack_depth();
    switch (nodeTag(plan)) {
        case T_SeqScan:
        case T_SampleScan:
        case T_IndexScan:
        case T_IndexOnlyScan:
        case T_BitmapIndexScan:
        case T_BitmapHeapScan:
        case T_TidScan:
        case T_TidRangeScan: {
            const Index index = reinterpret_cast<const Scan*>(plan)->scanrelid;
            if (index < 1 || static_cast<int>(index) > list_length(statement->rtable)) return false;
            const RangeTblEntry* entry = rt_fetch(index, statement->rtable);
            if (entry->rtekind != RTE_RELATION || !get_rel_relispartition(entry->relid)) return false;
            *relations = list_append_unique_oid(*relations, entry->relid);
            break;
        }
        case T_Append:
            return all_scan_partitions(statement, castNode(Append, plan)->appendplans, relations);
        case T_MergeAppend:
            return all_scan_partitions(statement, castNode(MergeAppend, plan)->mergeplans, relations);
        case T_BitmapAnd:
            return all_scan_partitions(statement, castNode(BitmapAnd, plan)->bitmapplans, relations);
        case T_BitmapOr:
            return all_scan_partitions(statement, castNode(BitmapOr, plan)->bitmapplans, relations);
        case T_Agg:
        case T_Sort:
        case T_IncrementalSort:
        case T_Result:
        case T_Material:
        case T_Memoize:
        case T_Hash:
        case T_HashJoin:
        case T_MergeJoin:
        case T_NestLoop:
        case T_Gather:
        case T_GatherMerge:
        case T_Unique:
            break;
        default:
            return false;
    }
    return scanned_partitions(statement, plan->lefttree, relations) &&
           scanned_partitions(statement, plan->righttree, relations);
}

bool share_an_oid(const List* a, const List* b) {
    const ListCell* cell;
    foreach (cell, a) {
        if (list_member_oid(b, lfirst_oid(cell))) return true;
    }
    return false;
}

// Notes the children of an Append built by partitionwise aggregation: the Append of an upper
// relation (no relids: UNION ALL branches have their subqueries' relids) whose every child is a
// grouped Agg over partitions that no other child reads. Anything else stays one release per Agg.
void note_partition_aggs(PlanWalk& walk, const Plan* append, List* children, const Bitmapset* apprelids) {
    if (!bms_is_empty(apprelids) || list_length(children) < 2) return;
    List* seen = NIL;
    List* found = NIL;
    ListCell* cell;
    bool partitionwise = true;
    foreach (cell, children) {
        const Plan* agg = partition_agg(static_cast<Plan*>(lfirst(cell)));
        List* relations = NIL;
        partitionwise = agg != nullptr && scanned_partitions(walk.statement, agg->lefttree, &relations) &&
                        relations != NIL && !share_an_oid(seen, relations);
        seen = list_concat(seen, relations);
        list_free(relations);
        if (!partitionwise) break;
        auto* entry = static_cast<PartitionAgg*>(palloc(sizeof(PartitionAgg)));
        *entry = PartitionAgg{agg, PartitionScope{append, list_length(found)}};
        found = lappend(found, entry);
    }
    list_free(seen);
    if (partitionwise) {
        walk.partition_aggs = list_concat(walk.partition_aggs, found);
        list_free(found);
    } else {
        list_free_deep(found);
    }
}

PartitionScope partition_scope(const PlanWalk& walk, const Plan* agg) {
    ListCell* cell;
    foreach (cell, walk.partition_aggs) {
        const auto* entry = static_cast<const PartitionAgg*>(lfirst(cell));
        if (entry->agg == agg) return entry->scope;
    }
    return PartitionScope{nullptr, 0};
}

void walk_plan(PlanWalk& walk, Plan* plan, bool repeated, bool under_gather);

void walk_appended(PlanWalk& walk, Plan* append, List* children, const Bitmapset* apprelids, bool repeated,
                   bool under_gather) {
    note_partition_aggs(walk, append, children, apprelids);
    ListCell* cell;
    foreach (cell, children) walk_plan(walk, static_cast<Plan*>(lfirst(cell)), repeated, under_gather);
}

void walk_subplan(PlanWalk& walk, int plan_id, bool repeated, bool under_gather) {
    if (plan_id < 1 || plan_id > list_length(walk.statement->subplans) || walk.visited_subplans[plan_id - 1])
        return;
    walk.visited_subplans[plan_id - 1] = true;
    walk_plan(walk, static_cast<Plan*>(list_nth(walk.statement->subplans, plan_id - 1)), repeated,
              under_gather);
}

// repeated: the executor may run this node more than once per query (inner side of a nested
// loop, a correlated subquery, a recursive CTE's recursive term, per-participant copies under a
// parallel Gather, ...). A pgdp aggregate computed there would be released more than once for
// one charge, so such plans are refused. under_gather: run by parallel workers, where no final
// function may release (only the backend that charged the query releases).
void walk_plan(PlanWalk& walk, Plan* plan, bool repeated, bool under_gather) {
    if (plan == nullptr) return;
    check_stack_depth();
    ListCell* cell;
    // InitPlans run once per execution of their node (again only if their parameters change).
    foreach (cell, plan->initPlan)
        walk_subplan(walk, castNode(SubPlan, lfirst(cell))->plan_id, repeated, under_gather);
    switch (nodeTag(plan)) {
        case T_Agg: {
            // On an uncorrelated inner side a plain aggregate computes the same value at each
            // rescan, and its final function refuses a second call (aggregates.cpp): a join of
            // single-row releases is fine. A grouped one could re-emit its groups from its hash
            // table without any check, so it stays refused.
            const bool grouped_rescan =
                walk.uncorrelated_rescans > 0 && castNode(Agg, plan)->aggstrategy != AGG_PLAIN;
            AggrefCollector collector{walk.list, castNode(Agg, plan), repeated || grouped_rescan,
                                      under_gather, partition_scope(walk, plan)};
            collect_aggrefs((Node*)plan->targetlist, &collector);
            collect_aggrefs((Node*)plan->qual, &collector);
            walk_plan(walk, plan->lefttree, repeated, under_gather);
            break;
        }
        case T_NestLoop: {
            walk_plan(walk, plan->lefttree, repeated, under_gather);
            // Rescanned for every outer row; with outer values as parameters, a different result each time.
            const bool correlated = plan->righttree != nullptr && !bms_is_empty(plan->righttree->extParam);
            if (correlated) {
                walk_plan(walk, plan->righttree, true, under_gather);
            } else {
                ++walk.uncorrelated_rescans;
                walk_plan(walk, plan->righttree, repeated, under_gather);
                --walk.uncorrelated_rescans;
            }
            break;
        }
        case T_RecursiveUnion:
            walk_plan(walk, plan->lefttree, repeated, under_gather);
            walk_plan(walk, plan->righttree, true, under_gather);  // run once per iteration
            break;
        case T_Memoize:
            walk_plan(walk, plan->lefttree, true, under_gather);
            break;
        case T_Gather:
        case T_GatherMerge: {
            // Below a Gather every participant runs its own copy of the plan; only a single-copy
            // Gather (force_parallel_mode) runs it once.
            const bool single_copy = IsA(plan, Gather) && castNode(Gather, plan)->single_copy;
            walk_plan(walk, plan->lefttree, repeated || !single_copy, true);
            break;
        }
        case T_Append:
            walk_appended(walk, plan, castNode(Append, plan)->appendplans, castNode(Append, plan)->apprelids,
                          repeated, under_gather);
            break;
        case T_MergeAppend:
            walk_appended(walk, plan, castNode(MergeAppend, plan)->mergeplans,
                          castNode(MergeAppend, plan)->apprelids, repeated, under_gather);
            break;
        case T_SubqueryScan:
            walk_plan(walk, castNode(SubqueryScan, plan)->subplan, repeated, under_gather);
            break;
        case T_CteScan: {
            // A CTE is computed once and read from its tuplestore, unless it depends on an outer
            // parameter (then it is recomputed when that changes).
            const int id = castNode(CteScan, plan)->ctePlanId;
            const Plan* cte = id >= 1 && id <= list_length(walk.statement->subplans)
                                  ? static_cast<Plan*>(list_nth(walk.statement->subplans, id - 1))
                                  : nullptr;
            walk_subplan(walk, id, repeated && cte != nullptr && !bms_is_empty(cte->extParam), under_gather);
            break;
        }
        case T_FunctionScan:
            foreach (cell, castNode(FunctionScan, plan)->functions) {
                Node* call = lfirst_node(RangeTblFunction, cell)->funcexpr;
                if (is_distributed_partials_call(call))
                    walk.list->partials_calls = lappend(walk.list->partials_calls, call);
            }
            break;
        case T_CustomScan:
            foreach (cell, castNode(CustomScan, plan)->custom_plans)
                walk_plan(walk, static_cast<Plan*>(lfirst(cell)), true, under_gather);
            break;
        default:
            walk_plan(walk, plan->lefttree, repeated, under_gather);
            walk_plan(walk, plan->righttree, repeated, under_gather);
            break;
    }
}

}  // namespace

SiteList find_sites(PlannedStmt* statement) {
    SiteList list{};
    list.capacity = 16;
    list.sites = static_cast<Site*>(palloc(sizeof(Site) * list.capacity));
    const int subplans = list_length(statement->subplans);
    PlanWalk walk{statement, &list, static_cast<bool*>(palloc0(sizeof(bool) * (subplans + 1))), 0, NIL};
    walk_plan(walk, statement->planTree, false, false);
    // Subplans reached neither as InitPlans nor as CTEs are expression subqueries, which the
    // executor may run once per row (and, if parallel safe, in parallel workers).
    for (int id = 1; id <= subplans; ++id) {
        if (!walk.visited_subplans[id - 1]) walk_subplan(walk, id, true, true);
    }
    pfree(walk.visited_subplans);
    list_free_deep(walk.partition_aggs);
    return list;
}

const char* first_release(const SiteList& list) {
    for (int i = 0; i < list.count; ++i) {
        if (list.sites[i].final_phase) return list.sites[i].identity.name;
    }
    return nullptr;
}

bool plan_makes_releases(PlannedStmt* statement) {
    const SiteList list = find_sites(statement);
    pfree(list.sites);
    return list.count > 0;
}

}  // namespace pgdp::pg
