// Whether this session could be charged (docs/privacy.md "Sessions that cannot be charged"): its
// session user has a budget or DP-only access in this database. Only then do pgdp's
// release-authority rules run (function frames, the plan-time author walk, the utility refusals
// under frames); pgdp's statistics and seal ask it too. In a session that cannot be charged nothing
// can be released, and what such a period leaves in the backend never makes a release:
// - a release plan made in it carries no "under the rules" mark and is refused (40001);
// - a backend that ran another role's code without a frame (function_frames.hpp
//   unframed_code_untrusted) refuses every release (55000): that code may still run (a cursor, a
//   function kept in a cache) and cannot be told apart from the session user's own;
// - cached plans are dropped when the session turns chargeable, so they are planned again.
//
// The answer is kept per backend and session user. It is asked again after a change that can turn
// it: a role's budget or grant added or removed (a trigger on pgdp.budgets and pgdp.access_grants
// sends a relcache invalidation of those tables), pgdp's schema created or dropped, another session
// user (SET SESSION AUTHORIZATION).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/plannodes.h"
}

namespace pgdp::pg {

// At the start of every statement-level hook (parse analysis, planning, ExecutorStart,
// ProcessUtility), inside a transaction: re-decides if the answer may have changed. Returns it.
bool refresh_chargeable_session();

// The answer as last decided. When it was forgotten (an invalidation while a statement runs), it is
// decided again if a transaction is open; true (the rules apply: fail closed) otherwise.
bool session_chargeable();

// Before a release plan runs, in a session that can be charged (also when the kept answer is stale:
// a grant added with the trigger disabled): ereports, nothing charged, if the plan was made without
// the rules (40001, running it again plans it afresh) or if the backend ran another role's code
// without a frame (55000, a new session releases).
void require_rules_for_release(const PlannedStmt* statement);

// A budget or grant was added or removed in `table` (pgdp.budgets, pgdp.access_grants): every
// backend asks again at its next command (a relcache invalidation of the table).
void announce_chargeable_roles_changed(Oid table);

}  // namespace pgdp::pg
