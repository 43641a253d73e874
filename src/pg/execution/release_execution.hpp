// One record per execution with releases (docs/architecture.md "Life of a query"):
// what its ExecutorStart decided, for everything later in the execution to find by its EState. It
// lives in the execution's es_query_cxt and leaves the list of running executions when that
// context goes away (normal end, error or abort). The charge (charge.hpp) fills in its calls with
// their parameters and release plans, which the aggregates' support functions then use exactly;
// the release cache (release_cache.hpp) its key and the rows it serves or copies.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "common/sha2.h"
#include "executor/execdesc.h"
#include "nodes/execnodes.h"
#include "utils/snapshot.h"
}

#include "core/aggregate_release.hpp"
#include "pg/calls/parameters.hpp"
#include "pg/catalog/protected_relations.hpp"
#include "pg/execution/release_sites.hpp"

namespace pgdp::pg {

// One pgdp aggregate call of the plan as its support functions find it: by (Agg node, aggno).
struct ChargedCall {
    int plan_node_id;
    int aggno;
    bool charged;  // a final call whose release the ledger committed (or an earlier partition's did)
    Parameters parameters;
    // The release plan built when it was charged (charge.cpp), the only one its final function
    // uses; nullptr unless charged.
    const pgdp::AggregatePlan* plan;
};

// The partials query of one distributed release, planned before the charge (partials.hpp), for
// the function scan that runs it.
struct PartialsPlan {
    const Node* call;  // the FuncExpr in the plan: the function's fn_expr
    PlannedStmt* plan;
};

enum class CacheMode { None, Serving, Storing, Abandoned };

// The private group selection of a charged execution (empty_selection.hpp).
struct GroupSelection {
    int releases_charged;  // the releases of its charge (0: none charged)
    bool selects;          // one of them is a dp_groups selection
    int64 groups_kept;     // dp_groups final calls that kept their group
    bool run_to_completion;
};

struct CacheKey {
    char* scope;  // "role:<oid>" or "group:<name>"
    uint8 key[PG_SHA256_DIGEST_LENGTH];
    char* epochs;  // "oid:epoch,..." sorted by OID
};

// Serving: the stored cells (bytea or NULL), rows x columns.
struct ServedRows {
    int rows;
    int columns;
    Datum* cells;
    bool* cell_nulls;
    int position;
};

// Storing: the cells copied from the run.
struct CopiedRows {
    List* cells;  // bytea* or nullptr per cell, row-major
    int rows;
    int64 bytes;     // the statement text's and epochs' sizes and the copied cells'
    bool too_large;  // abandoned for pgdp.release_cache_max_entry_bytes
    bool completed;  // run to completion into the copying receiver
};

struct ReleaseExecution {
    ReleaseExecution* next;
    const EState* estate;
    MemoryContext context;  // its es_query_cxt: everything below lives there
    const PlannedStmt* statement;
    int running_depth;    // running statements when it started (running_statements.hpp)
    unsigned authorized;  // the refusals (authorize.cpp) it has passed, one bit per row
    SiteList sites;       // the plan's pgdp calls, found once by the charge (none for an answer)
    ChargedCall* calls;   // one per site, sorted by (plan node, aggno)
    int call_count;
    // The protections this execution and the queries nested in it are checked against: read once,
    // when first needed (a function run per row must not read the catalog per row).
    ProtectionCatalog* protections;
    List* partials;  // PartialsPlan* of its distributed releases
    CacheMode cache;
    CacheKey key;
    ServedRows served;
    CopiedRows copied;
    GroupSelection selection;  // empty_selection.hpp
};

// The record of query's execution, created (in es_query_cxt, with its reset callback) on first use.
ReleaseExecution& begin_release_execution(QueryDesc* query);
// The record of the execution `estate`, or nullptr.
ReleaseExecution* release_execution_of(const EState* estate);

// The protection catalog as this execution is checked against, read at its first use.
const ProtectionCatalog& execution_protections(ReleaseExecution& execution, Snapshot snapshot);

// True if the ledger committed a release of this execution.
bool has_charged_calls(const ReleaseExecution& execution);

// The running execution that computes pgdp aggregates (in a backend, one whose releases were
// charged; in a parallel worker, the leader's partial aggregation), or nullptr. A query started
// now is run by it (a function in its FROM, WHERE or select list) and its rows may feed them.
ReleaseExecution* enclosing_aggregating_execution();

// ExecutorRun, before the plan runs: a nested execution feeding an aggregating one reads no
// protected rows, and a charged execution is still in a context where it may release.
void recheck_releases_before_run(QueryDesc* query);

// Orders the calls of `execution` for charged_call, once all are in.
void sort_calls(ReleaseExecution& execution);

// The call that a transition, combine or final function (fcinfo, called by an AggState) belongs
// to, as its execution started. ereports if the call was not registered; with final_call, also
// unless it was charged with its release plan (never in a parallel worker).
const ChargedCall& charged_call(FunctionCallInfo fcinfo, bool final_call);

// Every final call (each group, each fetch of a cursor): ereports if, since the charge, an
// untrusted function frame or a statement using another role's objects became active
// (release_trust.hpp require_release_context_since).
void require_release_still_allowed(FunctionCallInfo fcinfo);

}  // namespace pgdp::pg
