// Statistics kept of analysts' statements (issue 20; docs/privacy.md "Server messages and
// statistics"). pg_stat_statements and other modules keyed by the query id count the blocks, rows
// and time of each statement, also of a statement that wraps a release (DO, CALL, CREATE TABLE
// AS, COPY (query) TO, FETCH, an analyst's function called from SELECT, a trigger): those counters
// follow the rows the release read. In a session whose user could make such releases (a budget
// or DP-only access in this database) every statement's query id is cleared when it is parsed,
// before any module's planner or executor hook sees it, and again when its plan starts (a plan
// cached before the budget); release plans lose theirs in the plan hook too (a release reached
// through an inlined SQL function).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"
}

namespace pgdp::pg {

// After parse analysis: in such a session the query id is cleared before any module sees it.
void clear_query_id_of_chargeable_session(Query* query);

// True if the session user has a budget or DP-only access in this database
// (trust/chargeable_session.hpp), and for the rest of the session once it made a release: a session
// that could make releases over rows it may not read.
bool session_user_may_release();

// At the start of every execution: in such a session the plan's query id is cleared too (a plan
// cached before the budget or grant kept the id of its parse), and a release marks the session
// (a grant given during an open transaction) and clears the ids of the statements running around
// it (the function or cursor that wraps it).
void clear_statistics_of_execution(PlannedStmt* statement, bool makes_releases);

}  // namespace pgdp::pg
