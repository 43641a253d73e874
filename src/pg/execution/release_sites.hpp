// The pgdp aggregate calls of a plan (docs/architecture.md "Life of a query"): each
// Agg node's calls, whether the executor may compute one more than once (a second release of one
// charge), whether parallel workers compute it, and which calls are the children of one
// partitionwise aggregation (one release over disjoint groups, charged once).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/plannodes.h"
#include "nodes/primnodes.h"
}

#include "pg/calls/aggregate_identity.hpp"

namespace pgdp::pg {

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

// The calls of `statement`, subplans included, palloc'd in the current memory context; ereports
// (54000) for more calls than pgdp tracks.
SiteList find_sites(PlannedStmt* statement);

// The aggregate of the plan's first final call (its first release); nullptr if it has none.
const char* first_release(const SiteList& list);

// True if the plan (subplans included) computes a pgdp aggregate.
bool plan_makes_releases(PlannedStmt* statement);

}  // namespace pgdp::pg
