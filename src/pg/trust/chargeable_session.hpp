// Whether this session could be charged (docs/privacy.md "Sessions that cannot be charged"): its
// session user has a budget or DP-only access in this database. pgdp's statistics and seal ask it
// at every statement; the release-authority rules apply in every session regardless.
//
// The answer is kept per backend and session user. It is asked again after a change that can turn
// it: a role's budget or grant added or removed (a trigger on pgdp.budgets and pgdp.access_grants
// sends a relcache invalidation of those tables), pgdp's schema created or dropped, another session
// user (SET SESSION AUTHORIZATION).
#pragma once

#include "pg/base/postgres_headers.hpp"

namespace pgdp::pg {

// At the start of every statement-level hook (parse analysis, planning, ExecutorStart,
// ProcessUtility), inside a transaction: re-decides if the answer may have changed. Returns it.
bool refresh_chargeable_session();

// The answer as last decided; true (the rules apply: fail closed) before the first decision of
// this session user, or while it may be stale. Never reads the catalog: safe in every hook.
bool session_chargeable();

// Before a release plan's charge: ereports (40001, nothing charged) if the kept answer says "cannot
// be charged" but the catalog has a budget or grant for the session user now (one added with the
// trigger disabled): the statement's statistics and messages were handled by the stale answer.
// Running it again works.
void require_rules_since_planning();

// A budget or grant was added or removed in `table` (pgdp.budgets, pgdp.access_grants): every
// backend asks again at its next command (a relcache invalidation of the table).
void announce_chargeable_roles_changed(Oid table);

}  // namespace pgdp::pg
