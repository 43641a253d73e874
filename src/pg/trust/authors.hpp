// The roles whose code may spend the session user's budget, and the owners of the objects whose
// code runs in the session (docs/privacy.md "Threat model"): what release_trust.hpp and
// running_statements.hpp ask about a role, a function or a relation.
#pragma once

#include "pg/base/postgres_headers.hpp"

namespace pgdp::pg {

// A pgdp admin: EXECUTE on pgdp.set_budget (revoked from PUBLIC, granted by pgdp.designate_admin).
bool is_admin(Oid role);
bool is_admin_or_superuser(Oid role);

// A role whose code may spend the session user's budget: the session user, a superuser, or a
// pgdp admin.
bool is_trusted_author(Oid role);

// The role's name, or its OID as text if it no longer exists.
const char* role_name(Oid role);
// pg_proc.proowner (InvalidOid if the function does not exist).
Oid function_owner(Oid function);
// pg_class.relowner (InvalidOid if the relation does not exist).
Oid relation_owner(Oid relation);

}  // namespace pgdp::pg
