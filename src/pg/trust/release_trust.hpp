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

// Function frames (needs_fmgr_hook, fmgr_hook): a function the session does not trust runs under
// a frame, so releases and DDL inside it are refused; such a function is never inlined.
bool function_needs_frame(Oid function);
void track_function_frame(FmgrHookEventType event, FmgrInfo* flinfo);

// ProcessUtility, before the utility runs: ereports (42501) for DDL under an untrusted frame and
// for another role's column defaults a COPY FROM would evaluate; a CALL of an untrusted procedure
// is a frame, a utility for a stored protocol portal is noted. hooks.cpp pairs enter and leave.
struct UtilityTrust {
    bool untrusted_call;
    bool stores;
};
UtilityTrust enter_utility_trust(const PlannedStmt* statement, ProcessUtilityContext context);
void leave_utility_trust(const UtilityTrust& entered);

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

// True while a utility statement (EXECUTE, FETCH, CALL, ...) runs for a portal of the extended
// protocol that stores its whole result at the first fetch (PORTAL_UTIL_SELECT): the rows wait in
// the portal, which SQL code of any role in the session can FETCH by name (pg_cursors lists it;
// a refcursor '' names the unnamed one). Not for the simple protocol's portal, which sends them
// at once.
bool running_for_stored_protocol_portal();

}  // namespace pgdp::pg
