// The partials queries of distributed releases (planning/distributed_release.hpp): planned at
// ExecutorStart with the query's bind parameters, their permissions checked before the charge (a
// release refused here costs nothing), and run only by the function scan of the charged execution
// that planned them.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "executor/execdesc.h"
#include "nodes/execnodes.h"
#include "nodes/plannodes.h"
}

#include "pg/execution/release_sites.hpp"

namespace pgdp::pg {

// The partials plans (PartialsPlan*, release_execution.hpp) of the plan's pgdp.distributed_partials
// calls, in the execution's memory (es_query_cxt).
List* plan_distributed_partials(QueryDesc* query, const SiteList& list);

// The partials query that the execution `estate` planned for its function scan `call` before
// charging its releases; ereports (42501) for any other call, so the exact totals reach only that
// execution's pgdp calls.
const PlannedStmt* charged_partials_plan(const EState* estate, const Node* call);

}  // namespace pgdp::pg
