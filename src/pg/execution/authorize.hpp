// Who may be given a release, and where (docs/architecture.md "Life of a query"):
// one ordered list of refusals, each row marked for the purposes it serves. Every execution start
// runs the rows of DP-only access and EXPLAIN; an answer from the release cache is given only where
// the release itself could be made (the rows answers and releases share); a release runs the rows
// an answer ran (not again if it ran them) plus its own. All are decided by the plan and the
// session before any parameter is evaluated or row read.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "executor/execdesc.h"
#include "nodes/plannodes.h"
}

#include "pg/execution/release_execution.hpp"

namespace pgdp::pg {

enum class Purpose : unsigned { Execution = 1u, CachedAnswer = 2u, Release = 4u };
constexpr Purpose operator|(Purpose a, Purpose b) {
    return static_cast<Purpose>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}

// Every execution start (ExecutorStart, any plan): plans reading relations with their owner's
// privileges (DP-only access) are still accepted, and still the executing role's access; EXPLAIN
// of plans with releases over tables the session user may not read is refused. False for EXPLAIN
// without ANALYZE: the plan does not run, nothing is answered or charged.
bool authorize_execution(QueryDesc* query, int eflags);

// The rows of `purpose` (Purpose::CachedAnswer, Purpose::Release or both) that `execution` has not
// passed yet, in the list's order; ereports at the first refusal. A release needs the plan's sites
// (execution.sites).
void authorize(QueryDesc* query, ReleaseExecution& execution, Purpose purpose);

// Refusals also raised where a call is found or charged.
[[noreturn]] void refuse_not_preloaded();
[[noreturn]] void refuse_too_many();
[[noreturn]] void refuse_in_parallel_worker(const char* aggregate);

// True if the session user may read every table the plan reads (SELECT, no row security hiding
// rows): then EXPLAIN and server messages tell it nothing new.
bool session_reads_every_table(const PlannedStmt* statement);

// Seals the client connection (statement_seal.hpp) if `statement` reads rows for releases that
// the session user may not read itself: a person-level plan (protected relations, DP-only access),
// or a release plan over a table it has no SELECT on or whose row security hides rows from it
// (a view's owner reads it). Before planning ends and at every executor phase of such a plan;
// with `planning`, also any plan of a session that may make releases over such a table (a plain
// query over a protected relation, refused only when it starts, has its plan dumped before).
void seal_if_reading_hidden_rows(const PlannedStmt* statement, bool planning = false);

}  // namespace pgdp::pg
