#include "pg/execution/charge.hpp"

extern "C" {
#include "access/parallel.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "utils/memutils.h"
}

#include <algorithm>
#include <cstring>

#include "core/aggregate_release.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/calls/parameters.hpp"
#include "pg/execution/authorize.hpp"
#include "pg/execution/dry_run.hpp"
#include "pg/execution/partials.hpp"
#include "pg/execution/release_execution.hpp"
#include "pg/ledger/ledger_channel.hpp"
#include "pg/planning/plan_marks.hpp"
#include "pg/trust/running_statements.hpp"

namespace pgdp::pg {
namespace {

// The ledger's id of this backend's latest charge (0: none yet).
int64 last_charge_id = 0;

// Every aggregate's name fits the ledger's field whole (the ledger records it).
constexpr bool aggregate_names_fit() {
    for (const AggregateDefinition& row : kAggregates) {
        std::size_t length = 0;
        while (row.name[length] != '\0') ++length;
        if (length >= sizeof(ChargeItem{}.aggregate)) return false;
    }
    return true;
}
static_assert(aggregate_names_fit(), "an aggregate's name is longer than ChargeItem::aggregate");

// The charge item of one call and its release plan, built here once: the final function releases
// with exactly this plan (release_execution.hpp charged_call), and every failure the parameters
// alone decide (invalid values, noise the release cannot represent: plan_release) is raised here,
// before the charge.
ChargeItem charge_item(const Site& site, const Parameters& parameters, pgdp::AggregatePlan* plan) {
    pgdp::ReleaseCharge charge{};
    PGDP_GUARDED({
        *plan = pgdp::plan_aggregate_release(site.identity.kind, parameters.privacy);
        charge = pgdp::release_charge(parameters.privacy, *plan);
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
           x.groups_per_unit == y.groups_per_unit && x.rows_per_unit == y.rows_per_unit &&
           x.integer_values == y.integer_values && x.unit_exponent == y.unit_exponent &&
           x.estimate_lower == y.estimate_lower && x.estimate_upper == y.estimate_upper &&
           a.value_type == b.value_type;
}

// A later partition's call whose release an earlier partition's charged call already covers: the
// same aggregate with the same parameters at the same position (aggno) of the same partitionwise
// aggregation. Each charged call covers at most one call per partition (aggno is unique per Agg).
// charged_sites: the indices of the calls charged so far (at most kMaxReleasesPerQuery). The
// index of the covering call, or -1.
int covered_by_earlier_partition(const SiteList& list, const Parameters* parameters, const int* charged_sites,
                                 int charged_count, int i) {
    const Site& site = list.sites[i];
    if (site.partitions.append == nullptr || site.partitions.child == 0) return -1;
    for (int c = 0; c < charged_count; ++c) {
        const int j = charged_sites[c];
        const Site& earlier = list.sites[j];
        if (earlier.partitions.append == site.partitions.append &&
            earlier.partitions.child < site.partitions.child && earlier.aggref->aggno == site.aggref->aggno &&
            earlier.aggref->aggfnoid == site.aggref->aggfnoid &&
            same_parameters(parameters[j], parameters[i])) {
            return j;
        }
    }
    return -1;
}

// Has the ledger commit the charge of every release (each final call once per grouping set);
// sets plans[i] for the final calls that may release: the plan charged here, or the one of the
// earlier partition's call that covers it. The plans live in the execution's memory.
// Returns the number of releases charged.
int charge_final_calls(QueryDesc* query, const ReleaseExecution& execution, const Parameters* parameters,
                       const pgdp::AggregatePlan** plans) {
    const SiteList& list = execution.sites;
    auto* charged_sites = static_cast<int*>(palloc(sizeof(int) * kMaxReleasesPerQuery));
    int charged_count = 0;
    auto* items = static_cast<ChargeItem*>(palloc0(sizeof(ChargeItem) * kMaxReleasesPerQuery));
    int item_count = 0;
    for (int i = 0; i < list.count; ++i) {
        const Site& site = list.sites[i];
        if (!site.final_phase) continue;
        const int covering = covered_by_earlier_partition(list, parameters, charged_sites, charged_count, i);
        if (covering >= 0) {
            plans[i] = plans[covering];
            continue;
        }
        // Every charged call adds at least one item, so charged_count stays within its array.
        if (item_count + site.multiplicity > kMaxReleasesPerQuery) refuse_too_many();
        auto* plan = static_cast<pgdp::AggregatePlan*>(
            MemoryContextAlloc(execution.context, sizeof(pgdp::AggregatePlan)));
        const ChargeItem item = charge_item(site, parameters[i], plan);
        plans[i] = plan;
        // A dry run (pgdp.cost) reports the very items the ledger would be sent.
        if (is_dry_run(query)) note_dry_run_release(item, parameters[i].privacy, *plan, site.multiplicity);
        for (int k = 0; k < site.multiplicity; ++k) items[item_count++] = item;
        charged_sites[charged_count++] = i;
    }
    if (item_count > 0 && !is_dry_run(query)) {
        refuse_charge_during_dry_run(query, items[0].aggregate);
        const ChargeOutcome outcome = charge_releases_now(GetSessionUserId(), query->plannedstmt->queryId,
                                                          query->sourceText, items, item_count);
        if (outcome.code != ChargeOutcome::Charged) refuse_outcome(outcome);
        last_charge_id = outcome.charge_id;
    }
    pfree(items);
    pfree(charged_sites);
    return is_dry_run(query) ? 0 : item_count;
}

// The calls of the execution with their parameters and charged plans, for the support functions.
void register_calls(ReleaseExecution& execution, const Parameters* parameters,
                    const pgdp::AggregatePlan* const* plans, List* partials) {
    const SiteList& list = execution.sites;
    execution.partials = partials;
    execution.calls = static_cast<ChargedCall*>(
        MemoryContextAllocZero(execution.context, sizeof(ChargedCall) * list.count));
    for (int i = 0; i < list.count; ++i) {
        const Site& site = list.sites[i];
        execution.calls[i] = ChargedCall{site.agg_plan->plan_node_id, site.aggref->aggno, plans[i] != nullptr,
                                         parameters[i], plans[i]};
    }
    execution.call_count = list.count;
    sort_calls(execution);
}

// A query without releases that runs inside one that aggregates (a PL/pgSQL function returning
// rows in its FROM) may not read protected relations either: its rows would be released at row
// level by the enclosing aggregates (docs/privacy.md "Protected relations").
void refuse_protected_reads_feeding_releases(QueryDesc* query) {
    ReleaseExecution* enclosing = enclosing_aggregating_execution();
    if (enclosing != nullptr) {
        refuse_releases_over_protected_relations(query->plannedstmt,
                                                 execution_protections(*enclosing, query->snapshot));
    } else if (IsParallelWorker() && running_depth() > 0) {
        // A parallel worker runs part of its leader's query, whose aggregates may release what the
        // worker computes without any pgdp call of its own (a person-level plan's level 1): a
        // query started here by a function may not read protected relations either.
        refuse_releases_over_protected_relations(query->plannedstmt,
                                                 read_protection_catalog(query->snapshot));
    }
}

}  // namespace

// Every pgdp call of the plan gets its parameters, evaluated here once; in a backend the final
// calls are charged before any row is read. A parallel worker computes partial aggregates only: it
// evaluates their parameters (deterministic: calls/parameters.cpp) and refuses any final call,
// including those of queries nested in functions it runs.
void charge_releases(QueryDesc* query) {
    // A plan the planner hook did not mark as making releases has no pgdp call to find (one it
    // somehow had would find no charge and be refused): no plan walk. Parallel workers receive
    // their plans without marks (ExecSerializePlan drops invalItems) and always walk.
    if (!IsParallelWorker() && !is_release_plan(query->plannedstmt)) {
        refuse_protected_reads_feeding_releases(query);
        return;
    }
    // The sites live as long as the execution's record (es_query_cxt).
    MemoryContext old = MemoryContextSwitchTo(query->estate->es_query_cxt);
    const SiteList list = find_sites(query->plannedstmt);
    MemoryContextSwitchTo(old);
    if (list.count == 0) {
        pfree(list.sites);
        refuse_protected_reads_feeding_releases(query);
        return;
    }
    ReleaseExecution& execution = begin_release_execution(query);
    execution.sites = list;
    authorize(query, execution, Purpose::Release);
    const bool in_worker = IsParallelWorker();
    Parameters* parameters = evaluate_parameters(query, list);
    List* partials = in_worker ? NIL : plan_distributed_partials(query, list);
    auto* plans =
        static_cast<const pgdp::AggregatePlan**>(palloc0(sizeof(pgdp::AggregatePlan*) * list.count));
    if (!in_worker) {
        execution.selection.releases_charged = charge_final_calls(query, execution, parameters, plans);
        for (int i = 0; i < list.count; ++i) {
            if (list.sites[i].final_phase && list.sites[i].identity.kind == AggregateKind::Selection)
                execution.selection.selects = true;
        }
    }
    register_calls(execution, parameters, plans, partials);
    pfree(plans);
    pfree(parameters);
}

int64 latest_charge_id() { return last_charge_id; }

}  // namespace pgdp::pg
