#include "pg/execution/partials.hpp"

extern "C" {
#include "executor/executor.h"
#include "optimizer/optimizer.h"
#include "utils/guc.h"
#include "utils/memutils.h"
}

#include "pg/base/pg_compat.hpp"
#include "pg/execution/release_execution.hpp"
#include "pg/planning/distributed_release.hpp"

namespace pgdp::pg {

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
        compat::check_permissions(compat::permissions_of(plan));
        refuse_citus_reads_as_another_role(plan);
        auto* entry = static_cast<PartialsPlan*>(palloc(sizeof(PartialsPlan)));
        *entry = PartialsPlan{(const Node*)call, plan};
        plans = lappend(plans, entry);
        MemoryContextSwitchTo(old);
    }
    return plans;
}

const PlannedStmt* charged_partials_plan(const EState* estate, const Node* call) {
    const ReleaseExecution* execution = release_execution_of(estate);
    if (execution != nullptr && has_charged_calls(*execution)) {
        ListCell* cell;
        foreach (cell, execution->partials) {
            const auto* entry = static_cast<const PartialsPlan*>(lfirst(cell));
            if (entry->call == call) return entry->plan;
        }
    }
    ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                    errmsg("pgdp.distributed_partials runs only inside the releases pgdp plans"),
                    errdetail("No charged execution of this session planned this call."),
                    errhint("Call dp_sum, dp_mean or dp_count on the distributed table instead.")));
}

}  // namespace pgdp::pg
