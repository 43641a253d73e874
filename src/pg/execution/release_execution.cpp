#include "pg/execution/release_execution.hpp"

extern "C" {
#include "access/parallel.h"
#include "utils/memutils.h"
}

#include "pg/execution/authorize.hpp"
#include "pg/ledger/ledger_channel.hpp"
#include "pg/trust/release_trust.hpp"
#include "pg/trust/running_statements.hpp"

namespace pgdp::pg {
namespace {

ReleaseExecution* running_executions = nullptr;

void unlink_execution(void* argument) {
    for (ReleaseExecution** link = &running_executions; *link != nullptr; link = &(*link)->next) {
        if (*link == argument) {
            *link = (*link)->next;
            return;
        }
    }
}

// Orders calls by (plan node, aggno): unique keys, since each site is one distinct call of one
// Agg node.
int compare_calls(const void* a, const void* b) {
    const auto* x = static_cast<const ChargedCall*>(a);
    const auto* y = static_cast<const ChargedCall*>(b);
    if (x->plan_node_id != y->plan_node_id) return x->plan_node_id < y->plan_node_id ? -1 : 1;
    if (x->aggno != y->aggno) return x->aggno < y->aggno ? -1 : 1;
    return 0;
}

}  // namespace

ReleaseExecution& begin_release_execution(QueryDesc* query) {
    ReleaseExecution* existing = release_execution_of(query->estate);
    if (existing != nullptr) return *existing;
    MemoryContext context = query->estate->es_query_cxt;
    auto* execution =
        static_cast<ReleaseExecution*>(MemoryContextAllocZero(context, sizeof(ReleaseExecution)));
    auto* callback =
        static_cast<MemoryContextCallback*>(MemoryContextAllocZero(context, sizeof(MemoryContextCallback)));
    callback->func = unlink_execution;
    callback->arg = execution;
    MemoryContextRegisterResetCallback(context, callback);
    execution->estate = query->estate;
    execution->context = context;
    execution->statement = query->plannedstmt;
    execution->running_depth = running_depth();
    execution->next = running_executions;
    running_executions = execution;
    return *execution;
}

ReleaseExecution* release_execution_of(const EState* estate) {
    for (ReleaseExecution* execution = running_executions; execution != nullptr;
         execution = execution->next) {
        if (execution->estate == estate) return execution;
    }
    return nullptr;
}

const ProtectionCatalog& execution_protections(ReleaseExecution& execution, Snapshot snapshot) {
    if (execution.protections == nullptr) {
        MemoryContext old = MemoryContextSwitchTo(execution.context);
        auto* protections = static_cast<ProtectionCatalog*>(palloc(sizeof(ProtectionCatalog)));
        *protections = read_protection_catalog(snapshot);
        MemoryContextSwitchTo(old);
        execution.protections = protections;
    }
    return *execution.protections;
}

bool has_charged_calls(const ReleaseExecution& execution) {
    for (int i = 0; i < execution.call_count; ++i) {
        if (execution.calls[i].charged) return true;
    }
    return false;
}

ReleaseExecution* enclosing_aggregating_execution() {
    for (ReleaseExecution* execution = running_executions; execution != nullptr;
         execution = execution->next) {
        if (execution->call_count > 0 && statement_running(execution->statement)) return execution;
    }
    return nullptr;
}

// Rows of a charged execution leave it only while the executor runs it (a Sort or Material above
// the aggregates keeps released rows that later fetches return without a final call), so every
// run of such an execution repeats the check of what became active since the charge.
void recheck_releases_before_run(QueryDesc* query) {
    ReleaseExecution* execution = release_execution_of(query->estate);
    // A query run while an aggregating one runs feeds its aggregates, also one started before it
    // (a cursor fetched by a function in the aggregating query's FROM): no protected rows.
    ReleaseExecution* enclosing = IsParallelWorker() ? nullptr : enclosing_aggregating_execution();
    if (enclosing != nullptr && (execution == nullptr || execution->call_count == 0)) {
        refuse_releases_over_protected_relations(query->plannedstmt,
                                                 execution_protections(*enclosing, query->snapshot));
    }
    if (execution != nullptr && has_charged_calls(*execution))
        require_release_context_since(execution->running_depth, execution->statement);
}

const ChargedCall& charged_call(FunctionCallInfo fcinfo, bool final_call) {
    if (final_call && IsParallelWorker()) {
        // Not reached through the charge (which refuses such plans): fail closed all the same.
        refuse_in_parallel_worker("a pgdp aggregate");
    }
    Aggref* aggref = AggGetAggref(fcinfo);
    if (aggref != nullptr && fcinfo->context != nullptr && IsA(fcinfo->context, AggState)) {
        const AggState* aggstate = castNode(AggState, fcinfo->context);
        const ReleaseExecution* execution = release_execution_of(aggstate->ss.ps.state);
        ChargedCall key{};
        key.plan_node_id = aggstate->ss.ps.plan->plan_node_id;
        key.aggno = aggref->aggno;
        const auto* call =
            execution == nullptr
                ? nullptr
                : static_cast<const ChargedCall*>(bsearch(&key, execution->calls, execution->call_count,
                                                          sizeof(ChargedCall), compare_calls));
        // A final call releases only with the plan it was charged with, never one built again.
        if (call != nullptr && (!final_call || (call->charged && call->plan != nullptr))) return *call;
    }
    if (!ledger_attached()) refuse_not_preloaded();
    ereport(ERROR,
            (errcode(ERRCODE_INTERNAL_ERROR), errmsg("pgdp aggregate call was not charged"),
             errdetail("No running query of this session registered this aggregate call before it started."),
             errhint("Use pgdp aggregates in plain queries; report the plan if this persists.")));
}

void sort_calls(ReleaseExecution& execution) {
    // Sorted for charged_call's binary search (a partitionwise plan holds thousands of calls).
    qsort(execution.calls, execution.call_count, sizeof(ChargedCall), compare_calls);
}

void require_release_still_allowed(FunctionCallInfo fcinfo) {
    const ReleaseExecution* execution =
        release_execution_of(castNode(AggState, fcinfo->context)->ss.ps.state);
    if (execution != nullptr) require_release_context_since(execution->running_depth, execution->statement);
}

}  // namespace pgdp::pg
