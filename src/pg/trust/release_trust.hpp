// Who may spend the session user's budget (docs/privacy.md "Threat model", issue 8 part 3).
//
// Every release is charged to the session user, so a release may only come from code that user
// wrote or that a pgdp admin (or a superuser) owns. Code of other roles that can run in the
// session is tracked or inspected:
// - functions: an fmgr hook counts the active frames of functions owned by roles the session does
//   not trust (and of trigger functions not owned by an admin); such functions are never inlined
//   by the planner, so their queries always run under a frame; CALL of such a procedure counts too;
// - views, rules and row-security policies: their query trees are checked at plan time;
// - maintenance commands and autovacuum (security-restricted operations) never release.
#pragma once

#include "pg/base/postgres_headers.hpp"
#include "pg/trust/authors.hpp"

extern "C" {
#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"
#include "tcop/utility.h"
}

namespace pgdp::pg {

// The column defaults, CHECK constraints and trigger conditions of a table another role owns,
// which a write evaluates in the session (deletes: the triggers' only): walked as that role's
// code (ereports 42501).
void check_column_defaults(Oid table, bool deletes = false);

// ereports (42501) unless a release charged to the session user may be made here: by a statement
// that runs (not code run while another is parsed, planned or bound), not in a
// maintenance operation, under no frame of an untrusted function, inside no running statement
// that uses another role's table, view or domain (running_statements.hpp).
void require_release_context(const char* aggregate_name, const PlannedStmt* statement);

// A final function releasing for a call charged at running depth charged_depth by the execution
// of `statement`: ereports (42501) if, since then, an untrusted function frame or a statement
// using another role's objects has become active (a cursor fetched from such code later).
void require_release_context_since(int charged_depth, const PlannedStmt* statement);

// Plan time: ereports (42501) if the query reaches a pgdp aggregate through a view, a rule or a
// row-security policy owned by a role the session user does not trust.
void check_query_authors(Query* query);

}  // namespace pgdp::pg
