// Executions pgdp stays out of: a plan without any pgdp mark (no release, no person-level
// rewrite, no DP-only relation), started in a session that cannot be charged and has made no
// release (trust/chargeable_session.hpp), not for EXPLAIN, not in a parallel worker. Such an
// execution runs no pgdp stage at all: ExecutorStart, Run, Finish and End go straight to the
// previous hook (docs/privacy.md "Inert where unused"; the cheap gate of issue 22).
//
// What it skips is the bookkeeping that only releases read (the running-statement stack, the
// release cache, the seal of a plan that reads hidden rows). So that a release never relies on a
// stack that misses one of them, no release starts or is read while an inert execution is still
// open (a statement that began before the session could be charged, or a cursor it opened):
// refuse_release_during_inert_execution.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "executor/execdesc.h"
}

namespace pgdp::pg {

// At ExecutorStart, before the previous hook: true if the execution may run without pgdp.
bool may_run_inert(const QueryDesc* query, int eflags);

// After the previous ExecutorStart succeeded for an execution may_run_inert allowed: Run, Finish
// and End of `query` then pass through. Forgotten when its executor state is freed (ExecutorEnd,
// or the memory of an aborted statement).
void note_inert_execution(QueryDesc* query);

// Around the previous ExecutorStart of an execution may_run_inert allowed: it runs code of the
// statement (initial partition pruning), so it counts as open from its start.
void begin_inert_start();
void end_inert_start();

// True if `query` was started as an inert execution.
bool inert_execution(const QueryDesc* query);

// ereports if an inert execution is open: before a release is charged, 40001, or the ledger's
// refusal (42501) when the session cannot be charged; when a charged release is read (`reading`:
// its final call, a cursor fetched from inside such a statement), 42501.
void refuse_release_during_inert_execution(bool reading);

}  // namespace pgdp::pg
