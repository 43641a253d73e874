#include "pg/execution/release_charge.hpp"
#include "pg/base/pg_compat.hpp"

extern "C" {
#include "access/parallel.h"
#include "access/xlog.h"
#include "executor/executor.h"
#include "tcop/pquery.h"
#include "utils/portal.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "nodes/plannodes.h"
#include "parser/parsetree.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "catalog/pg_class.h"
#include "optimizer/optimizer.h"
}

#include <algorithm>
#include <cstring>

#include "core/aggregate_release.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/planning/distributed_release.hpp"
#include "pg/catalog/dp_access.hpp"
#include "pg/ledger/ledger_channel.hpp"
#include "pg/planning/person_level.hpp"
#include "pg/catalog/protected_relations.hpp"
#include "pg/execution/release_cache.hpp"
#include "pg/trust/release_trust.hpp"
#include "pg/trust/running_statements.hpp"
#include "pg/channels/statement_seal.hpp"
#include "pg/channels/statement_statistics.hpp"

namespace pgdp::pg {
namespace {

// Calls a plan may hold: partitionwise aggregation repeats each call once per partition.
constexpr int kMaxSites = 64 * 1024;

// Partitionwise aggregation (enable_partitionwise_aggregate, GROUP BY the partition key) computes
// one grouped aggregate as an Append of one Agg per partition. The partitions hold disjoint rows,
// so one row changes the output of one child only, and the children's releases of one call are
// one release over disjoint groups, charged once (docs/privacy.md "Partitionwise aggregation").
struct PartitionScope {
    const Plan* append;  // the Append or MergeAppend over the partitions; nullptr: none
    int child;           // position of the site's Agg among its children
};

// A pgdp aggregate call found in a plan: a final-phase call (a release) or the partial call of a
// parallel aggregation (runs in parallel workers and the leader; releases nothing).
struct Site {
    Aggref* aggref;        // as AggGetAggref returns it in the support functions
    const Plan* agg_plan;  // its Agg node
    AggregateIdentity identity;
    bool final_phase;
    int multiplicity;   // grouping sets: each is a separate release of the call
    bool repeated;      // the executor may compute it more than once (rescans, replicated workers)
    bool under_gather;  // computed by parallel workers
    PartitionScope partitions;
};

struct SiteList {
    Site* sites;  // palloc'd, grows
    int count;
    int capacity;
    int releases;          // sum of the final calls' multiplicities, not counting later partitions' calls
    List* partials_calls;  // the pgdp.distributed_partials calls (FuncExpr) of the plan
};

// The partials query of one distributed release, planned in ExecutorStart before the charge
// (distributed_release.hpp), for the function scan that runs it.
struct PartialsPlan {
    const Node* call;  // the FuncExpr in the plan: the function's fn_expr
    PlannedStmt* plan;
};

// The calls of one running execution with their parameters, evaluated once in ExecutorStart
// (allocated in its es_query_cxt, unlinked when that context goes away: normal end, error or
// abort). Support functions find their call by (execution, Agg node, aggno).
struct ExecutionCalls {
    ExecutionCalls* next;
    const EState* estate;
    const PlannedStmt* statement;
    int running_depth;  // running statements when it was charged (running_statements.hpp)
    int count;
    struct Call {
        int plan_node_id;
        int aggno;
        bool charged;  // a final call whose release the ledger committed
        Parameters parameters;
    } * calls;
    // The protections as this execution's nested queries are checked against (read once, in
    // es_query_cxt: a function run per row must not read the catalog per row).
    ProtectionCatalog* protections;
    List* partials;  // PartialsPlan* of its distributed releases, in es_query_cxt
};
ExecutionCalls* running_executions = nullptr;
// The ledger's id of this backend's latest charge (0: none yet).
int64 last_charge_id = 0;

// Orders an execution's calls by (plan node, aggno): unique keys, since each site is one distinct
// call of one Agg node.
int compare_calls(const void* a, const void* b) {
    const auto* x = static_cast<const ExecutionCalls::Call*>(a);
    const auto* y = static_cast<const ExecutionCalls::Call*>(b);
    if (x->plan_node_id != y->plan_node_id) return x->plan_node_id < y->plan_node_id ? -1 : 1;
    if (x->aggno != y->aggno) return x->aggno < y->aggno ? -1 : 1;
    return 0;
}

void unlink_execution(void* argument) {
    for (ExecutionCalls** link = &running_executions; *link != nullptr; link = &(*link)->next) {
        if (*link == argument) {
            *link = (*link)->next;
            return;
        }
    }
}

// Without the ledger worker no release can be charged, so none is made.
[[noreturn]] void refuse_not_preloaded() {
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("pgdp releases need pgdp in shared_preload_libraries"),
             errdetail("Without the ledger worker no release can be charged, so none is made."),
             errhint("Add pgdp to shared_preload_libraries in postgresql.conf and restart the server.")));
}

[[noreturn]] void refuse_too_many() {
    ereport(ERROR,
            (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
             errmsg("a query can make at most %d pgdp releases", kMaxReleasesPerQuery),
             errhint("Split the query; each pgdp aggregate call (and each grouping set) is one release.")));
}

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

void find_sites(PlannedStmt* statement, SiteList* list) {
    list->count = 0;
    list->capacity = 16;
    list->sites = static_cast<Site*>(palloc(sizeof(Site) * list->capacity));
    list->releases = 0;
    list->partials_calls = NIL;
    const int subplans = list_length(statement->subplans);
    PlanWalk walk{statement, list, static_cast<bool*>(palloc0(sizeof(bool) * (subplans + 1))), 0, NIL};
    walk_plan(walk, statement->planTree, false, false);
    // Subplans reached neither as InitPlans nor as CTEs are expression subqueries, which the
    // executor may run once per row (and, if parallel safe, in parallel workers).
    for (int id = 1; id <= subplans; ++id) {
        if (!walk.visited_subplans[id - 1]) walk_subplan(walk, id, true, true);
    }
    pfree(walk.visited_subplans);
    list_free_deep(walk.partition_aggs);
}

ExecutionCalls* register_execution(QueryDesc* query, int calls) {
    MemoryContext context = query->estate->es_query_cxt;
    auto* execution = static_cast<ExecutionCalls*>(MemoryContextAllocZero(context, sizeof(ExecutionCalls)));
    execution->calls = static_cast<ExecutionCalls::Call*>(
        MemoryContextAllocZero(context, sizeof(ExecutionCalls::Call) * calls));
    auto* callback =
        static_cast<MemoryContextCallback*>(MemoryContextAllocZero(context, sizeof(MemoryContextCallback)));
    callback->func = unlink_execution;
    callback->arg = execution;
    MemoryContextRegisterResetCallback(context, callback);
    execution->estate = query->estate;
    execution->statement = query->plannedstmt;
    execution->running_depth = running_depth();
    execution->next = running_executions;
    running_executions = execution;
    return execution;
}

// The charge item of one call: its parameters and release plans, built exactly as the final
// function will build them, so every failure the parameters alone decide (invalid values, noise
// the release cannot represent: plan_release) is raised here, before the charge.
ChargeItem charge_item(const Site& site, const Parameters& parameters) {
    pgdp::ReleaseCharge charge{};
    PGDP_GUARDED({
        const pgdp::AggregatePlan plan = pgdp::plan_aggregate_release(site.identity.kind, parameters.privacy);
        charge = pgdp::release_charge(parameters.privacy, plan);
    });
    ChargeItem item{};
    item.epsilon = charge.epsilon;
    item.delta = charge.delta;
    item.noise_scale = charge.noise_scale;
    item.sensitivity = charge.sensitivity;
    item.gaussian_mu2 = charge.gaussian_mu2;
    std::strncpy(item.mechanism, charge.mechanism_name.data(),
                 std::min(sizeof item.mechanism - 1, charge.mechanism_name.size()));
    std::strncpy(item.aggregate, site.identity.name, sizeof item.aggregate - 1);
    return item;
}

// EXPLAIN ANALYZE shows exact row counts of every plan node: news only to a session user who may
// not read the tables itself (say through an admin's view or function).
bool session_reads_every_table(const PlannedStmt* statement) {
    const Oid user = GetSessionUserId();
    ListCell* cell;
    foreach (cell, statement->rtable) {
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        // Partitions and inheritance children carry no permission check of their own (requiredPerms
        // 0): reading the parent is what the user may or may not do.
        if (entry->rtekind != RTE_RELATION || entry->relkind == RELKIND_VIEW || entry->requiredPerms == 0)
            continue;
        if (pg_class_aclcheck(entry->relid, user, ACL_SELECT) != ACLCHECK_OK) return false;
        // Row security may hide rows from the user that a view owner's plan reads.
        if (get_rel_relkind(entry->relid) != RELKIND_VIEW && !superuser_arg(user) &&
            check_enable_rls(entry->relid, user, true) != RLS_NONE) {
            return false;
        }
    }
    return true;
}

[[noreturn]] void refuse_in_parallel_worker(const char* aggregate) {
    ereport(ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("%s cannot be computed in a parallel worker", aggregate),
             errdetail("Only the backend that charged a query releases its results; parallel workers compute "
                       "partial aggregates only."),
             errhint("Do not call pgdp aggregates from PARALLEL SAFE functions run by parallel workers.")));
}

// The SQLSTATE of each refusal the ledger can answer.
struct OutcomeSqlstate {
    ChargeOutcome::Code code;
    int sqlstate;
};
constexpr OutcomeSqlstate kOutcomeSqlstates[] = {
    {ChargeOutcome::Exhausted, ERRCODE_CONFIGURATION_LIMIT_EXCEEDED},
    {ChargeOutcome::NoBudget, ERRCODE_INSUFFICIENT_PRIVILEGE},
    {ChargeOutcome::EpsilonBelowFloor, ERRCODE_INVALID_PARAMETER_VALUE},
    {ChargeOutcome::Failed, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE},
};

[[noreturn]] void refuse_outcome(const ChargeOutcome& outcome) {
    int sqlstate = ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE;
    for (const OutcomeSqlstate& entry : kOutcomeSqlstates) {
        if (entry.code == outcome.code) sqlstate = entry.sqlstate;
    }
    ereport(ERROR, (errcode(sqlstate), errmsg("%s", outcome.message), errdetail("%s", outcome.detail),
                    errhint("%s", outcome.hint)));
}

void check_executable(const SiteList& list) {
    for (int i = 0; i < list.count; ++i) {
        const Site& site = list.sites[i];
        if (!site.final_phase) continue;
        if (site.repeated) {
            ereport(ERROR,
                    (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                     errmsg("%s cannot be computed where the query may evaluate it more than once",
                            site.identity.name),
                     errdetail("The aggregate is on the inner side of a nested loop, in a correlated or "
                               "per-row subquery, in a recursive query, or under a parallel Gather; each "
                               "evaluation would be a separate release of one charge."),
                     errhint("Compute the release once, e.g. in a MATERIALIZED CTE or a subquery in FROM "
                             "that the planner does not rescan.")));
        }
        if (site.under_gather) refuse_in_parallel_worker(site.identity.name);
    }
    if (list.releases > kMaxReleasesPerQuery) refuse_too_many();
    if (RecoveryInProgress()) {
        ereport(ERROR,
                (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                 errmsg("pgdp releases are not possible on a hot standby"),
                 errdetail(
                     "Every release must be charged to the ledger, which cannot be written during recovery."),
                 errhint("Run the query on the primary.")));
    }
    if (!ledger_attached()) refuse_not_preloaded();
}

// Portals that keep their rows beyond the statement that computed them, for anyone who can name
// the portal (SPI_cursor_find, cursor_to_xml): a WITH HOLD cursor after commit, and portals that
// run to completion into a store at the first fetch (RETURNING, data-modifying WITH).
void refuse_stored_results(const PlannedStmt* statement, const char* aggregate) {
    if (running_for_stored_protocol_portal()) {
        ereport(
            ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("%s cannot be computed by EXECUTE, FETCH or CALL in a portal of the extended protocol",
                    aggregate),
             errdetail("Such a portal stores all its rows at the first fetch, for later fetches by whoever "
                       "can name it (pg_cursors lists it), also other roles' code in this session."),
             errhint("Bind the prepared statement itself, or send EXECUTE as a simple query.")));
    }
    if (ActivePortal == nullptr || !list_member_ptr(ActivePortal->stmts, statement)) return;
    if ((ActivePortal->cursorOptions & CURSOR_OPT_HOLD) != 0) {
        ereport(ERROR,
                (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                 errmsg("%s cannot be computed in a WITH HOLD cursor", aggregate),
                 errdetail("A holdable cursor keeps its rows after the transaction, where code that did not "
                           "charge them can read them."),
                 errhint("Declare the cursor without WITH HOLD and fetch it inside the transaction.")));
    }
    if (ActivePortal->strategy == PORTAL_ONE_RETURNING || ActivePortal->strategy == PORTAL_ONE_MOD_WITH) {
        ereport(ERROR,
                (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                 errmsg("%s cannot be computed in a statement with RETURNING or a data-modifying WITH",
                        aggregate),
                 errdetail("Such a statement stores all its rows at once, for later fetches by whoever can "
                           "name its portal."),
                 errhint("Store the releases with INSERT ... SELECT, then read them with SELECT.")));
    }
}

// A plan made from a person-level rewrite reads protected relations only through the units'
// level (person_level.hpp); nor may a release run inside a running statement that reads one (a
// function given protected rows as arguments by the query that read them).
void refuse_protected_reads(QueryDesc* query) {
    const ProtectionCatalog protections = read_protection_catalog(query->snapshot);
    if (!is_person_level_plan(query->plannedstmt, protections))
        refuse_releases_over_protected_relations(query->plannedstmt, protections);
    for (int i = 0; i < running_depth(); ++i) {
        const PlannedStmt* running = running_statement(i);
        if (running != nullptr && running != query->plannedstmt)
            refuse_releases_over_protected_relations(running, protections);
    }
}

// Refusals decided by the plan alone, before any parameter is evaluated or row read.
void authorize_releases(QueryDesc* query, const SiteList& list, bool in_worker) {
    const char* first_release = nullptr;
    for (int i = 0; i < list.count && first_release == nullptr; ++i) {
        if (list.sites[i].final_phase) first_release = list.sites[i].identity.name;
    }
    if (in_worker) {
        if (first_release != nullptr) refuse_in_parallel_worker(first_release);
        return;
    }
    if (first_release != nullptr) refuse_in_citus_backend(first_release);
    require_release_context(first_release != nullptr ? first_release : list.sites[0].identity.name,
                            query->plannedstmt);
    check_executable(list);
    if (first_release != nullptr) {
        refuse_stored_results(query->plannedstmt, first_release);
        refuse_protected_reads(query);
    }
}

// The parameters of every call (partial calls included), evaluated once with the query's bind
// parameters; palloc'd, one per site.
Parameters* evaluate_parameters(QueryDesc* query, const SiteList& list) {
    ExprContext* econtext = CreateStandaloneExprContext();
    econtext->ecxt_param_list_info = query->params;  // read by PARAM_EXTERN steps without paramCompile
    const ArgumentContext arguments{econtext, query->params};
    auto* parameters = static_cast<Parameters*>(palloc0(sizeof(Parameters) * list.count));
    for (int i = 0; i < list.count; ++i) {
        const Site& site = list.sites[i];
        parameters[i] = read_parameters(partial_origin(site.agg_plan, site.aggref), site.identity, arguments);
    }
    FreeExprContext(econtext, true);
    return parameters;
}

bool same_parameters(const Parameters& a, const Parameters& b) {
    const pgdp::AggregateParameters& x = a.privacy;
    const pgdp::AggregateParameters& y = b.privacy;
    auto same = [](double u, double v) { return std::memcmp(&u, &v, sizeof(double)) == 0; };
    return same(x.lower, y.lower) && same(x.upper, y.upper) && same(x.epsilon, y.epsilon) &&
           same(x.delta, y.delta) && same(x.alpha, y.alpha) && x.mechanism == y.mechanism &&
           x.selection_mechanism == y.selection_mechanism && x.min_units == y.min_units &&
           x.groups_per_unit == y.groups_per_unit && x.integer_values == y.integer_values &&
           x.unit_exponent == y.unit_exponent && a.value_type == b.value_type;
}

// A later partition's call whose release an earlier partition's charged call already covers: the
// same aggregate with the same parameters at the same position (aggno) of the same partitionwise
// aggregation. Each charged call covers at most one call per partition (aggno is unique per Agg).
// charged_sites: the indices of the calls charged so far (at most kMaxReleasesPerQuery).
bool covered_by_earlier_partition(const SiteList& list, const Parameters* parameters,
                                  const int* charged_sites, int charged_count, int i) {
    const Site& site = list.sites[i];
    if (site.partitions.append == nullptr || site.partitions.child == 0) return false;
    for (int c = 0; c < charged_count; ++c) {
        const int j = charged_sites[c];
        const Site& earlier = list.sites[j];
        if (earlier.partitions.append == site.partitions.append &&
            earlier.partitions.child < site.partitions.child && earlier.aggref->aggno == site.aggref->aggno &&
            earlier.aggref->aggfnoid == site.aggref->aggfnoid &&
            same_parameters(parameters[j], parameters[i])) {
            return true;
        }
    }
    return false;
}

// Has the ledger commit the charge of every release (each final call once per grouping set);
// sets released[i] for the final calls that may release: charged here or covered by an earlier
// partition's charge.
void charge_final_calls(QueryDesc* query, const SiteList& list, const Parameters* parameters,
                        bool* released) {
    auto* charged_sites = static_cast<int*>(palloc(sizeof(int) * kMaxReleasesPerQuery));
    int charged_count = 0;
    auto* items = static_cast<ChargeItem*>(palloc0(sizeof(ChargeItem) * kMaxReleasesPerQuery));
    int item_count = 0;
    for (int i = 0; i < list.count; ++i) {
        const Site& site = list.sites[i];
        if (!site.final_phase) continue;
        released[i] = true;
        if (covered_by_earlier_partition(list, parameters, charged_sites, charged_count, i)) continue;
        // Every charged call adds at least one item, so charged_count stays within its array.
        if (item_count + site.multiplicity > kMaxReleasesPerQuery) refuse_too_many();
        const ChargeItem item = charge_item(site, parameters[i]);
        for (int k = 0; k < site.multiplicity; ++k) items[item_count++] = item;
        charged_sites[charged_count++] = i;
    }
    if (item_count > 0) {
        const ChargeOutcome outcome = charge_releases_now(GetSessionUserId(), query->plannedstmt->queryId,
                                                          query->sourceText, items, item_count);
        if (outcome.code != ChargeOutcome::Charged) refuse_outcome(outcome);
        last_charge_id = outcome.charge_id;
    }
    pfree(items);
    pfree(charged_sites);
}

// Plans the partials query of each distributed release with the query's bind parameters and
// checks the permissions it needs, before the charge: a release refused here costs nothing. The
// plans live as long as the execution (es_query_cxt).
List* plan_distributed_partials(QueryDesc* query, const SiteList& list) {
    List* plans = NIL;
    ListCell* cell;
    foreach (cell, list.partials_calls) {
        const auto* call = static_cast<const FuncExpr*>(lfirst(cell));
        MemoryContext old = MemoryContextSwitchTo(query->estate->es_query_cxt);
        Query* partials = distributed_partials_query(call);
        const int nest_level = pin_partials_settings();
        PlannedStmt* plan = planner(partials, query->sourceText, 0, query->params);
        AtEOXact_GUC(true, nest_level);
        (void)ExecCheckRTPerms(plan->rtable, true);
        refuse_citus_reads_as_another_role(plan);
        auto* entry = static_cast<PartialsPlan*>(palloc(sizeof(PartialsPlan)));
        *entry = PartialsPlan{(const Node*)call, plan};
        plans = lappend(plans, entry);
        MemoryContextSwitchTo(old);
    }
    return plans;
}

void register_calls(QueryDesc* query, const SiteList& list, const Parameters* parameters,
                    const bool* released, List* partials) {
    ExecutionCalls* execution = register_execution(query, list.count);
    execution->partials = partials;
    for (int i = 0; i < list.count; ++i) {
        const Site& site = list.sites[i];
        execution->calls[execution->count++] =
            ExecutionCalls::Call{site.agg_plan->plan_node_id, site.aggref->aggno, released[i], parameters[i]};
    }
    // Sorted for call_parameters' binary search (a partitionwise plan holds thousands of calls).
    qsort(execution->calls, execution->count, sizeof(ExecutionCalls::Call), compare_calls);
}

// True while an execution that computes pgdp aggregates runs (in a backend, one whose releases
// were charged; in a parallel worker, the leader's partial aggregation). A query started now is
// run by that execution (a function in its FROM, WHERE or select list) and its rows may feed the
// aggregates.
ExecutionCalls* enclosing_aggregating_execution() {
    for (ExecutionCalls* execution = running_executions; execution != nullptr; execution = execution->next) {
        if (execution->count > 0 && statement_running(execution->statement)) return execution;
    }
    return nullptr;
}

const ProtectionCatalog& protections_of(ExecutionCalls* execution, Snapshot snapshot) {
    if (execution->protections == nullptr) {
        MemoryContext old = MemoryContextSwitchTo(execution->estate->es_query_cxt);
        auto* protections = static_cast<ProtectionCatalog*>(palloc(sizeof(ProtectionCatalog)));
        *protections = read_protection_catalog(snapshot);
        MemoryContextSwitchTo(old);
        execution->protections = protections;
    }
    return *execution->protections;
}

// ExecutorStart: every pgdp call of the plan gets its parameters, evaluated here once; in a
// backend the final calls are charged before any row is read. A parallel worker computes partial
// aggregates only: it evaluates their parameters (deterministic: aggregate_call.cpp) and refuses
// any final call, including those of queries nested in functions it runs.
void charge_query(QueryDesc* query) {
    SiteList list{};
    find_sites(query->plannedstmt, &list);
    // A query without releases that runs inside one that aggregates (a PL/pgSQL function returning
    // rows in its FROM) may not read protected relations either: its rows would be released at
    // row level by the enclosing aggregates (docs/privacy.md "Protected relations").
    ExecutionCalls* enclosing = list.count == 0 ? enclosing_aggregating_execution() : nullptr;
    if (enclosing != nullptr) {
        refuse_releases_over_protected_relations(query->plannedstmt,
                                                 protections_of(enclosing, query->snapshot));
    } else if (list.count == 0 && IsParallelWorker() && running_depth() > 0) {
        // A parallel worker runs part of its leader's query, whose aggregates may release what the
        // worker computes without any pgdp call of its own (a person-level plan's level 1): a
        // query started here by a function may not read protected relations either.
        refuse_releases_over_protected_relations(query->plannedstmt,
                                                 read_protection_catalog(query->snapshot));
    }
    if (list.count > 0) {
        const bool in_worker = IsParallelWorker();
        authorize_releases(query, list, in_worker);
        Parameters* parameters = evaluate_parameters(query, list);
        List* partials = in_worker ? NIL : plan_distributed_partials(query, list);
        auto* released = static_cast<bool*>(palloc0(sizeof(bool) * list.count));
        if (!in_worker) charge_final_calls(query, list, parameters, released);
        register_calls(query, list, parameters, released, partials);
        pfree(released);
        pfree(parameters);
    }
    pfree(list.sites);
}

// The plan reads a view whose definition makes releases (the planner may have pruned the pgdp
// outputs the outer query does not use, leaving a plan without them over the same rows).
bool reads_view_with_releases(const PlannedStmt* statement) {
    ListCell* cell;
    foreach (cell, statement->rtable) {
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        if (!compat::is_view_reference(entry)) continue;
        Relation view = RelationIdGetRelation(entry->relid);
        if (view == nullptr) continue;
        bool releases = false;
        for (int i = 0; view->rd_rules != nullptr && i < view->rd_rules->numLocks && !releases; ++i) {
            releases = contains_release((Node*)view->rd_rules->rules[i]->actions);
        }
        RelationClose(view);
        if (releases) return true;
    }
    return false;
}

// EXPLAIN shows the planner's estimates and EXPLAIN ANALYZE exact row counts of every node: both
// are refused for plans with releases (or over views that make them) reading tables the session
// user may not read itself.
void refuse_plan_details_of_hidden_tables(QueryDesc* query, bool analyze) {
    if (session_reads_every_table(query->plannedstmt)) return;
    if (!plan_makes_releases(query->plannedstmt) && !reads_view_with_releases(query->plannedstmt)) return;
    ereport(ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("%s of a query with pgdp releases over tables you may not read is not allowed",
                    analyze ? "EXPLAIN ANALYZE" : "EXPLAIN"),
             errdetail(analyze ? "EXPLAIN ANALYZE shows the exact number of rows each plan node produced."
                               : "The planner's row estimates come from statistics of the data behind the "
                                 "releases."),
             errhint("Run the query itself; its releases are the private answer.")));
}

// Rows of a charged execution leave it only while the executor runs it (a Sort or Material above
// the aggregates keeps released rows that later fetches return without a final call), so every
// run of such an execution repeats the check of what became active since the charge.
}  // namespace

void recheck_releases_before_run(QueryDesc* query) {
    // A query run while an aggregating one runs feeds its aggregates, also one started before it
    // (a cursor fetched by a function in the aggregating query's FROM): no protected rows.
    ExecutionCalls* enclosing = IsParallelWorker() ? nullptr : enclosing_aggregating_execution();
    if (enclosing != nullptr) {
        bool aggregating = false;
        for (const ExecutionCalls* execution = running_executions; execution != nullptr;
             execution = execution->next) {
            if (execution->estate == query->estate && execution->count > 0) aggregating = true;
        }
        if (!aggregating) {
            refuse_releases_over_protected_relations(query->plannedstmt,
                                                     protections_of(enclosing, query->snapshot));
        }
    }
    for (const ExecutionCalls* execution = running_executions; execution != nullptr;
         execution = execution->next) {
        if (execution->estate != query->estate) continue;
        bool charged = false;
        for (int i = 0; i < execution->count && !charged; ++i) charged = execution->calls[i].charged;
        if (charged) require_release_context_since(execution->running_depth, execution->statement);
        break;
    }
}

void start_releases(QueryDesc* query, int eflags) {
    const bool explain_only = (eflags & EXEC_FLAG_EXPLAIN_ONLY) != 0;
    const bool explain_analyze = query->instrument_options != 0 && explain_analyze_running();
    // Plans reading relations with their owner's privileges (DP-only access): still accepted, and
    // still the executing role's access, before any row is read; never explained.
    check_dp_access(query, explain_only || explain_analyze);
    // Plain EXPLAIN runs no aggregate: nothing to charge (EXPLAIN ANALYZE does run them and is
    // charged like the query). Its row estimates come from the data, though: refused when the plan
    // reads tables the session user may not read itself.
    if (explain_only) {
        refuse_plan_details_of_hidden_tables(query, false);
        return;
    }
    if (explain_analyze) refuse_plan_details_of_hidden_tables(query, true);
    // A repeated release over unchanged data: the stored answer, nothing charged.
    if (answer_from_release_cache(query)) return;
    charge_query(query);
}

const Parameters& call_parameters(FunctionCallInfo fcinfo, bool final_call) {
    if (final_call && IsParallelWorker()) {
        // Not reached through charge_query (which refuses such plans): fail closed all the same.
        refuse_in_parallel_worker("a pgdp aggregate");
    }
    Aggref* aggref = AggGetAggref(fcinfo);
    if (aggref != nullptr && fcinfo->context != nullptr && IsA(fcinfo->context, AggState)) {
        const AggState* aggstate = castNode(AggState, fcinfo->context);
        const EState* estate = aggstate->ss.ps.state;
        const int plan_node_id = aggstate->ss.ps.plan->plan_node_id;
        for (const ExecutionCalls* execution = running_executions; execution != nullptr;
             execution = execution->next) {
            if (execution->estate != estate) continue;  // nested executions of one cached plan
            const ExecutionCalls::Call key{plan_node_id, aggref->aggno, false, Parameters{}};
            const auto* call = static_cast<const ExecutionCalls::Call*>(bsearch(
                &key, execution->calls, execution->count, sizeof(ExecutionCalls::Call), compare_calls));
            if (call != nullptr && (!final_call || call->charged)) return call->parameters;
        }
    }
    if (!ledger_attached()) refuse_not_preloaded();
    ereport(ERROR,
            (errcode(ERRCODE_INTERNAL_ERROR), errmsg("pgdp aggregate call was not charged"),
             errdetail("No running query of this session registered this aggregate call before it started."),
             errhint("Use pgdp aggregates in plain queries; report the plan if this persists.")));
}

void require_release_still_allowed(FunctionCallInfo fcinfo) {
    const EState* estate = castNode(AggState, fcinfo->context)->ss.ps.state;
    for (const ExecutionCalls* execution = running_executions; execution != nullptr;
         execution = execution->next) {
        if (execution->estate == estate) {
            require_release_context_since(execution->running_depth, execution->statement);
            return;
        }
    }
}

void authorize_answer(QueryDesc* query) {
    const char* release = "a pgdp release";
    refuse_in_citus_backend(release);
    require_release_context(release, query->plannedstmt);
    refuse_stored_results(query->plannedstmt, release);
    refuse_protected_reads(query);
}

const PlannedStmt* charged_partials_plan(const EState* estate, const Node* call) {
    for (const ExecutionCalls* execution = running_executions; execution != nullptr;
         execution = execution->next) {
        if (execution->estate != estate) continue;
        bool charged = false;
        for (int i = 0; i < execution->count && !charged; ++i) charged = execution->calls[i].charged;
        ListCell* cell;
        foreach (cell, execution->partials) {
            const auto* entry = static_cast<const PartialsPlan*>(lfirst(cell));
            if (entry->call == call && charged) return entry->plan;
        }
    }
    ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                    errmsg("pgdp.distributed_partials runs only inside the releases pgdp plans"),
                    errdetail("No charged execution of this session planned this call."),
                    errhint("Call dp_sum, dp_mean or dp_count on the distributed table instead.")));
}

int64 latest_charge_id() { return last_charge_id; }

void seal_if_reading_hidden_rows(const PlannedStmt* statement, bool planning) {
    if (has_person_level_marks(statement)) {
        seal_until_ready_for_query();
        return;
    }
    const bool releases = is_release_plan(statement);
    if (!releases && !planning) return;
    // The privilege checks first: most plans read only what the session user may read, and then
    // the catalog lookups of session_user_may_release (once per transaction) are not needed.
    if (session_reads_every_table(statement)) return;
    if (releases || session_user_may_release()) seal_until_ready_for_query();
}

bool plan_makes_releases(PlannedStmt* statement) {
    SiteList list{};
    find_sites(statement, &list);
    pfree(list.sites);
    return list.count > 0;
}

}  // namespace pgdp::pg
