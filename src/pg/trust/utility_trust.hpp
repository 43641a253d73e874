// Utilities and pgdp's rules (docs/privacy.md "Narrower where the rules apply"): under a frame of a
// function the session does not trust, only utilities that plant no code the session user would
// own, change no later statement and confer no pgdp power may run. In a backend that ran another
// role's function without a frame (function_frames.hpp unframed_code_foreign_to), where pgdp
// cannot tell whose code is running, code run by code may not plant code either: a function, view,
// rule or policy, an owner or a role membership (docs/privacy.md "Sessions that cannot be charged").
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/plannodes.h"
#include "tcop/utility.h"
}

namespace pgdp::pg {

// ProcessUtility, before the utility runs: ereports (42501) for DDL under an untrusted frame, for
// DDL planting code that another utility or a query runs (`nested`) in a backend that ran another
// role's code without a frame, and for another role's column defaults a COPY FROM would evaluate;
// a CALL of an untrusted procedure is a frame, a utility for a stored protocol portal is noted.
// hooks.cpp pairs enter and leave.
struct UtilityTrust {
    bool untrusted_call;
    bool stores;
};
UtilityTrust enter_utility_trust(const PlannedStmt* statement, ProcessUtilityContext context, bool nested);
void leave_utility_trust(const UtilityTrust& entered);

// True while a utility statement (EXECUTE, FETCH, CALL, ...) runs for a portal of the extended
// protocol that stores its whole result at the first fetch (PORTAL_UTIL_SELECT): the rows wait in
// the portal, which SQL code of any role in the session can FETCH by name (pg_cursors lists it;
// a refcursor '' names the unnamed one). Not for the simple protocol's portal, which sends them
// at once.
bool running_for_stored_protocol_portal();

}  // namespace pgdp::pg
