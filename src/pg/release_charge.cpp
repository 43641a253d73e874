#include "pg/release_charge.hpp"

extern "C" {
#include "access/parallel.h"
#include "access/xlog.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "nodes/plannodes.h"
#include "utils/memutils.h"
}

#include <cstring>

#include "core/budget_accounting.hpp"
#include "pg/cpp_boundary.hpp"
#include "pg/ledger_channel.hpp"

namespace pgdp::pg {
namespace {

ExecutorStart_hook_type previous_executor_start = nullptr;

// A charged aggregate call site, kept by the backend for its final functions to check.
struct ChargedSite {
    int32 plan_node_id;  // of the Agg node
    int32 aggno;
    Oid aggfnoid;
    int32 mechanism;     // as requested
    double epsilon;
    double delta;
    double lower;
    double upper;
    double alpha;
};

// A final-phase pgdp aggregate call found in a plan.
struct Site {
    Aggref* aggref;        // the final-phase Aggref (what AggGetAggref returns in the final function)
    const Plan* agg_plan;  // its Agg node
    AggregateIdentity identity;
    int multiplicity;      // grouping sets: each is a separate release of the call
    bool repeated;         // the executor may compute it more than once (rescans, replicated workers)
};

struct SiteList {
    Site sites[kMaxReleasesPerQuery];
    int count;
    int releases;  // sum of multiplicities
};

// The charged call sites of one running query (allocated in its es_query_cxt, unlinked when that
// context goes away: normal end, error or abort).
struct Authorization {
    Authorization* next;
    const EState* estate;  // the execution it belongs to
    int count;
    struct Entry {
        Aggref* aggref;
        ChargedSite site;
    } entries[kMaxReleasesPerQuery];
};
Authorization* active_authorizations = nullptr;

void unlink_authorization(void* argument) {
    for (Authorization** link = &active_authorizations; *link != nullptr; link = &(*link)->next) {
        if (*link == argument) {
            *link = (*link)->next;
            return;
        }
    }
}

[[noreturn]] void refuse_too_many() {
    ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
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
};

bool collect_aggrefs(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Aggref)) {
        auto* collector = static_cast<AggrefCollector*>(context);
        Aggref* aggref = castNode(Aggref, node);
        if (!DO_AGGSPLIT_SKIPFINAL(aggref->aggsplit)) {
            const AggregateIdentity identity = identify_aggregate(aggref->aggfnoid);
            bool seen = false;
            for (int i = 0; i < collector->list->count; ++i) {
                const Site& site = collector->list->sites[i];
                // One release per distinct call: identical calls share aggno (computed once).
                if (site.agg_plan == &collector->agg->plan && site.aggref->aggno == aggref->aggno) seen = true;
            }
            if (identity.is_pgdp && !seen) {
                if (collector->list->count >= kMaxReleasesPerQuery) refuse_too_many();
                const int multiplicity = grouping_set_count(collector->agg);
                collector->list->sites[collector->list->count++] =
                    Site{aggref, &collector->agg->plan, identity, multiplicity, collector->repeated};
                collector->list->releases += multiplicity;
            }
        }
        return false;  // the arguments of a final-phase Aggref hold no other final-phase call
    }
    return expression_tree_walker(node, reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(collect_aggrefs)),
                                  context);
}

struct PlanWalk {
    PlannedStmt* statement;
    SiteList* list;
    bool* visited_subplans;  // by plan_id - 1
};

void walk_plan(PlanWalk& walk, Plan* plan, bool repeated);

void walk_subplan(PlanWalk& walk, int plan_id, bool repeated) {
    if (plan_id < 1 || plan_id > list_length(walk.statement->subplans) || walk.visited_subplans[plan_id - 1]) return;
    walk.visited_subplans[plan_id - 1] = true;
    walk_plan(walk, static_cast<Plan*>(list_nth(walk.statement->subplans, plan_id - 1)), repeated);
}

// repeated: the executor may run this node more than once per query (inner side of a nested
// loop, a correlated subquery, a recursive CTE's recursive term, per-participant copies under a
// parallel Gather, ...). A pgdp aggregate computed there would be released more than once for
// one charge, so such plans are refused.
void walk_plan(PlanWalk& walk, Plan* plan, bool repeated) {
    if (plan == nullptr) return;
    check_stack_depth();
    ListCell* cell;
    // InitPlans run once per execution of their node (again only if their parameters change).
    foreach (cell, plan->initPlan) walk_subplan(walk, castNode(SubPlan, lfirst(cell))->plan_id, repeated);
    switch (nodeTag(plan)) {
        case T_Agg: {
            AggrefCollector collector{walk.list, castNode(Agg, plan), repeated};
            collect_aggrefs((Node*)plan->targetlist, &collector);
            collect_aggrefs((Node*)plan->qual, &collector);
            walk_plan(walk, plan->lefttree, repeated);
            break;
        }
        case T_NestLoop:
            walk_plan(walk, plan->lefttree, repeated);
            walk_plan(walk, plan->righttree, true);  // rescanned for every outer row
            break;
        case T_RecursiveUnion:
            walk_plan(walk, plan->lefttree, repeated);
            walk_plan(walk, plan->righttree, true);  // run once per iteration
            break;
        case T_Memoize:
            walk_plan(walk, plan->lefttree, true);
            break;
        case T_Gather:
        case T_GatherMerge: {
            // Below a Gather every participant runs its own copy of the plan; only a single-copy
            // Gather (force_parallel_mode) runs it once.
            const bool single_copy = IsA(plan, Gather) && castNode(Gather, plan)->single_copy;
            walk_plan(walk, plan->lefttree, repeated || !single_copy);
            break;
        }
        case T_Append:
            foreach (cell, castNode(Append, plan)->appendplans) walk_plan(walk, static_cast<Plan*>(lfirst(cell)), repeated);
            break;
        case T_MergeAppend:
            foreach (cell, castNode(MergeAppend, plan)->mergeplans) walk_plan(walk, static_cast<Plan*>(lfirst(cell)), repeated);
            break;
        case T_SubqueryScan:
            walk_plan(walk, castNode(SubqueryScan, plan)->subplan, repeated);
            break;
        case T_CteScan: {
            // A CTE is computed once and read from its tuplestore, unless it depends on an outer
            // parameter (then it is recomputed when that changes).
            const int id = castNode(CteScan, plan)->ctePlanId;
            const Plan* cte = id >= 1 && id <= list_length(walk.statement->subplans)
                                  ? static_cast<Plan*>(list_nth(walk.statement->subplans, id - 1))
                                  : nullptr;
            walk_subplan(walk, id, repeated && cte != nullptr && !bms_is_empty(cte->extParam));
            break;
        }
        case T_CustomScan:
            foreach (cell, castNode(CustomScan, plan)->custom_plans) walk_plan(walk, static_cast<Plan*>(lfirst(cell)), true);
            break;
        default:
            walk_plan(walk, plan->lefttree, repeated);
            walk_plan(walk, plan->righttree, repeated);
            break;
    }
}

void find_sites(PlannedStmt* statement, SiteList* list) {
    list->count = 0;
    list->releases = 0;
    const int subplans = list_length(statement->subplans);
    PlanWalk walk{statement, list, static_cast<bool*>(palloc0(sizeof(bool) * (subplans + 1)))};
    walk_plan(walk, statement->planTree, false);
    // Subplans reached neither as InitPlans nor as CTEs are expression subqueries, which the
    // executor may run once per row.
    for (int id = 1; id <= subplans; ++id) {
        if (!walk.visited_subplans[id - 1]) walk_subplan(walk, id, true);
    }
    pfree(walk.visited_subplans);
}

ChargedSite charged_site(const Site& site, const Parameters& p) {
    return ChargedSite{site.agg_plan->plan_node_id, site.aggref->aggno, site.aggref->aggfnoid,
                       static_cast<int32>(p.mechanism), p.epsilon, p.delta, p.lower, p.upper, p.alpha};
}

bool same_parameters(const ChargedSite& site, const Parameters& p) {
    // Bitwise equality of the doubles: the parameters are re-read from the same expressions.
    return site.mechanism == static_cast<int32>(p.mechanism) && std::memcmp(&site.epsilon, &p.epsilon, 8) == 0 &&
           std::memcmp(&site.delta, &p.delta, 8) == 0 && std::memcmp(&site.lower, &p.lower, 8) == 0 &&
           std::memcmp(&site.upper, &p.upper, 8) == 0 && std::memcmp(&site.alpha, &p.alpha, 8) == 0;
}

Authorization* new_authorization(QueryDesc* query) {
    MemoryContext context = query->estate->es_query_cxt;
    auto* authorization = static_cast<Authorization*>(MemoryContextAllocZero(context, sizeof(Authorization)));
    auto* callback = static_cast<MemoryContextCallback*>(MemoryContextAllocZero(context, sizeof(MemoryContextCallback)));
    callback->func = unlink_authorization;
    callback->arg = authorization;
    MemoryContextRegisterResetCallback(context, callback);
    authorization->estate = query->estate;
    authorization->next = active_authorizations;
    active_authorizations = authorization;
    return authorization;
}

// The charge item of one call: its parameters and release plans (validated like the aggregate's).
ChargeItem charge_item(const Site& site, const Parameters& parameters) {
    ChargeItem item{};
    item.epsilon = parameters.epsilon;
    item.delta = parameters.delta;
    std::strncpy(item.aggregate, site.identity.name, sizeof item.aggregate - 1);
    PGDP_GUARDED({
        pgdp::ReleasePlan value_plan{};
        pgdp::ReleasePlan count_plan{};
        build_plans(parameters, site.identity.kind, value_plan, count_plan);
        const pgdp::ReleasePlan& main = site.identity.kind == AggregateKind::Count ? count_plan : value_plan;
        item.mechanism = static_cast<int32>(main.mechanism);
        item.noise_scale = main.noise_scale;
        item.sensitivity = main.sensitivity;
        item.delta = main.mechanism == pgdp::Mechanism::Laplace ? 0.0 : parameters.delta;
        if (main.mechanism == pgdp::Mechanism::Gaussian) {
            // The call's Gaussian releases (dp_mean: sum and count) join the Gaussian part only if
            // every one of them is eligible (sigma >= 8 grid units).
            double mu2 = pgdp::gaussian_mu2_upper(main.sensitivity_int, main.noise_scale_int);
            if (site.identity.kind == AggregateKind::Mean) {
                const double count_mu2 = pgdp::gaussian_mu2_upper(count_plan.sensitivity_int, count_plan.noise_scale_int);
                mu2 = mu2 > 0.0 && count_mu2 > 0.0 ? pgdp::add_rounded_up(mu2, count_mu2) : 0.0;
            }
            item.gaussian_mu2 = mu2;
        }
    });
    return item;
}

void charge_query(QueryDesc* query) {
    SiteList* list = static_cast<SiteList*>(palloc(sizeof(SiteList)));
    find_sites(query->plannedstmt, list);
    if (list->count == 0) {
        pfree(list);
        return;
    }
    if (IsParallelWorker()) {
        // The leader charged the query; no charge is handed to parallel workers (their final
        // functions find no authorization: fail closed).
        pfree(list);
        return;
    }
    for (int i = 0; i < list->count; ++i) {
        if (list->sites[i].repeated) {
            ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                            errmsg("%s cannot be computed where the query may evaluate it more than once",
                                   list->sites[i].identity.name),
                            errdetail("The aggregate is on the inner side of a nested loop, in a correlated or "
                                      "per-row subquery, in a recursive query, or under a parallel Gather; each "
                                      "evaluation would be a separate release of one charge."),
                            errhint("Compute the release once, e.g. in a MATERIALIZED CTE or a subquery in FROM "
                                    "that the planner does not rescan.")));
        }
    }
    if (list->releases > kMaxReleasesPerQuery) refuse_too_many();
    if (RecoveryInProgress()) {
        ereport(ERROR, (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                        errmsg("pgdp releases are not possible on a hot standby"),
                        errdetail("Every release must be charged to the ledger, which cannot be written during recovery."),
                        errhint("Run the query on the primary.")));
    }
    if (!ledger_attached()) {
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("pgdp releases need pgdp in shared_preload_libraries"),
                        errdetail("Without the ledger worker no release can be charged, so none is made."),
                        errhint("Add pgdp to shared_preload_libraries in postgresql.conf and restart the server.")));
    }

    // Parameters and plans, exactly as the final functions will see them; bind parameters come
    // from the query's ParamListInfo.
    ExprContext* econtext = CreateStandaloneExprContext();
    econtext->ecxt_param_list_info = query->params;  // read by PARAM_EXTERN steps without paramCompile
    const ArgumentContext arguments{econtext, nullptr, query->params};
    ChargeItem* items = static_cast<ChargeItem*>(palloc0(sizeof(ChargeItem) * kMaxReleasesPerQuery));
    ChargedSite* sites = static_cast<ChargedSite*>(palloc0(sizeof(ChargedSite) * list->count));
    int item_count = 0;
    for (int i = 0; i < list->count; ++i) {
        const Site& site = list->sites[i];
        Aggref* origin = partial_origin(site.agg_plan, site.aggref);
        const Parameters parameters = read_parameters(origin, site.identity.kind, site.identity.with_interval, arguments);
        const ChargeItem item = charge_item(site, parameters);
        for (int k = 0; k < site.multiplicity; ++k) items[item_count++] = item;
        sites[i] = charged_site(site, parameters);
    }
    FreeExprContext(econtext, true);

    const ChargeOutcome outcome = charge_releases_now(GetSessionUserId(), query->plannedstmt->queryId,
                                                      query->sourceText, items, item_count);
    switch (outcome.code) {
        case ChargeOutcome::Charged:
            break;
        case ChargeOutcome::Exhausted:
            ereport(ERROR, (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED), errmsg("%s", outcome.message),
                            errdetail("%s", outcome.detail), errhint("%s", outcome.hint)));
        case ChargeOutcome::NoBudget:
            ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("%s", outcome.message),
                            errdetail("%s", outcome.detail), errhint("%s", outcome.hint)));
        default:
            ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE), errmsg("%s", outcome.message),
                            errdetail("%s", outcome.detail), errhint("%s", outcome.hint)));
    }
    Authorization* authorization = new_authorization(query);
    for (int i = 0; i < list->count; ++i) authorization->entries[authorization->count++] = {list->sites[i].aggref, sites[i]};
    pfree(items);
    pfree(sites);
    pfree(list);
}

void charging_executor_start(QueryDesc* query, int eflags) {
    if (previous_executor_start != nullptr) {
        previous_executor_start(query, eflags);
    } else {
        standard_ExecutorStart(query, eflags);
    }
    // Plain EXPLAIN runs no final function: nothing to charge. EXPLAIN ANALYZE does run them and
    // is charged like the query.
    if ((eflags & EXEC_FLAG_EXPLAIN_ONLY) != 0) return;
    charge_query(query);
}

}  // namespace

void install_charge_hook() {
    previous_executor_start = ExecutorStart_hook;
    ExecutorStart_hook = charging_executor_start;
}

void require_charge(const EState* estate, Aggref* final_aggref, const Parameters& parameters) {
    for (const Authorization* authorization = active_authorizations; authorization != nullptr;
         authorization = authorization->next) {
        if (authorization->estate != estate) continue;  // nested executions of one cached plan
        for (int i = 0; i < authorization->count; ++i) {
            const auto& entry = authorization->entries[i];
            if (entry.aggref != final_aggref) continue;
            if (same_parameters(entry.site, parameters)) return;
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("the privacy parameters of a pgdp aggregate changed after they were charged"),
                            errhint("Use constants or bind parameters, not settings or functions whose value can change "
                                    "during the query.")));
        }
    }
    if (!ledger_attached()) {
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("pgdp releases need pgdp in shared_preload_libraries"),
                        errhint("Add pgdp to shared_preload_libraries in postgresql.conf and restart the server.")));
    }
    ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("pgdp release was not charged"),
                    errdetail("No running query of this session charged this aggregate call."),
                    errhint("Run the aggregate in a plain query; report the plan if this persists.")));
}

}  // namespace pgdp::pg
