// The message channel of statements over hidden rows (issue 20, docs/privacy.md "Server messages
// and statistics"). A statement that reads rows the session user may not read (a person-level
// plan, also with DP-only access; a release over an admin's view of a hidden table) may make the server
// describe those rows in messages: plan dumps with row estimates (debug_print_plan), sort sizes (trace_sort),
// resource usage (log_*_stats), plans with actual row counts (auto_explain), whatever setting, module or
// admin configuration asks for them, and whenever during the statement it is changed. pgdp does not chase the
// settings: it seals the client connection. From the moment such a statement is planned or one of its
// executor phases starts until the server next reports ready for query (ReadyForQuery), no notice of any
// severity (LOG, DEBUG, INFO, NOTICE, WARNING) reaches the client, except pgdp's own; errors, rows and every
// other protocol message pass unchanged; inside a transaction block the seal lasts until the block ends.
// pgdp's own notices pass through begin_own_notice/end_own_notice.
//
// Statistics of the statements are statement_statistics.hpp's.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/plannodes.h"
}

// The plan mark of a statement that makes releases (mark_release_plan, is_release_plan).
#include "pg/planning/plan_marks.hpp"

namespace pgdp::pg {

// Seals the client connection until the next ReadyForQuery outside a transaction block (no-op in
// parallel workers, whose messages reach the client through the leader), and lifts the size
// limits that would turn the size of a sort, hash or partial result over hidden rows into an
// error (temp_file_limit, citus.max_intermediate_result_size) until the seal ends (reset at the
// next statement after it).
void seal_until_ready_for_query();

// True while the client connection is sealed.
bool connection_sealed();

// Resets the size limits lifted by the seal once it has ended (no-op while sealed).
void restore_size_limits();

// Lets the next notice through while sealed: call right before pgdp's own ereport(WARNING/NOTICE)
// and end_own_notice() right after it (an allowance left by an error inside the ereport is
// dropped at the next seal and at ReadyForQuery).
void begin_own_notice();
void end_own_notice();

}  // namespace pgdp::pg
