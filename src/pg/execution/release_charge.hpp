// Charging before release (docs/architecture.md "Call sites and authorization"): an ExecutorStart
// hook finds the pgdp aggregate calls in the plan, evaluates their privacy parameters once, and
// in a backend (not a parallel worker) has the ledger worker commit the charge of every final
// call before the executor runs. The aggregates' support functions then use exactly these
// parameters, looked up by execution, Agg node and aggregate number.
#pragma once

#include "pg/base/postgres_headers.hpp"

#include "pg/calls/aggregate_call.hpp"

namespace pgdp::pg {

// ExecutorStart, after the executor state exists: DP-only access and EXPLAIN refusals, then the
// answer from the release cache or the charge of every release of the plan (hooks.cpp).
void start_releases(QueryDesc* query, int eflags);

// ExecutorRun, before the plan runs: a nested execution feeding an aggregating one reads no
// protected rows, and a charged execution is still in a context where it may release.
void recheck_releases_before_run(QueryDesc* query);

// True if the plan (subplans included) computes a pgdp aggregate.
bool plan_makes_releases(PlannedStmt* statement);

// Seals the client connection (statement_seal.hpp) if `statement` reads rows for releases that
// the session user may not read itself: a person-level plan (protected relations, DP-only access),
// or a release plan over a table it has no SELECT on or whose row security hides rows from it
// (a view's owner reads it). Before planning ends and at every executor phase of such a plan;
// with `planning`, also any plan of a session that may make releases over such a table (a plain
// query over a protected relation, refused only when it starts, has its plan dumped before).
void seal_if_reading_hidden_rows(const PlannedStmt* statement, bool planning = false);

// The refusals of a release that the plan alone decides, for an answer from the release cache:
// it is given only where the release itself could be made (not to another role's code, not in a
// Citus-internal connection, not into WITH HOLD or RETURNING portals, not over protected
// relations outside a person-level plan or inside a statement reading them).
void authorize_answer(QueryDesc* query);

// The ledger's charge id of this backend's latest charge (0 if none).
int64 latest_charge_id();

// The partials query of a distributed release (distributed_release.hpp) that the execution
// `estate` planned for its function scan `call` before charging its releases; ereports (42501)
// for any other call, so the exact totals reach only that execution's pgdp calls.
const PlannedStmt* charged_partials_plan(const EState* estate, const Node* call);

// The parameters of the pgdp aggregate call that a transition, combine or final function (fcinfo,
// called by an AggState) belongs to, as evaluated when its execution started. ereports if the call
// was not registered; with final_call, also unless it was charged (never in a parallel worker).
const Parameters& call_parameters(FunctionCallInfo fcinfo, bool final_call);

// Every final call (each group, each fetch of a cursor): ereports if, since the charge, an
// untrusted function frame or a statement using another role's objects became active
// (release_trust.hpp require_release_context_since).
void require_release_still_allowed(FunctionCallInfo fcinfo);

}  // namespace pgdp::pg
