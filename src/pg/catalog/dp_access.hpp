// DP-only access (issue 11): a role an admin granted access to a protected relation
// (pgdp.access_grants) makes person-level releases over it without SELECT on it. The rewrite
// (person_level.cpp) lets the executor read such a relation as its owner, as for a
// security-barrier view, only in the units' level of an accepted person-level release whose
// expressions over the rows cannot fail (row_safe_functions.hpp); the plan records it, and check_dp_access
// re-checks the grant of the executing role when the plan starts (docs/privacy.md "Untrusted analysts").
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "executor/execdesc.h"
#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"
}

namespace pgdp::pg {

// True if `role` was granted DP-only access to protected relation `root` (read with the latest
// snapshot, or the active one in a parallel operation).
bool has_access_grant(Oid root, Oid role);

// At executor start, before any row is read: a plan reading relations with their owner's
// privileges must still be an accepted person-level plan, and the executing role must still have
// DP-only access (or SELECT) to each; EXPLAIN of such plans is refused (42501). No-op for plans
// without such reads. `protections_of` gives the protection catalog the execution reads once
// (called only for such plans).
struct ProtectionCatalog;
using ProtectionsOf = const ProtectionCatalog& (*)(QueryDesc*);
void check_dp_access(QueryDesc* query, bool explain, ProtectionsOf protections_of);

}  // namespace pgdp::pg
