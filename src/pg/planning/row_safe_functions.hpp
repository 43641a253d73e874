// The allow-list of functions that may run on protected rows read with DP-only access (issue 20):
// built-in functions pgdp has checked cannot raise an error for any input of their argument types
// (and, for collatable arguments, any determined collation), resolved by name and argument types
// in pg_catalog, plus pgdp's own bucket and clamp. PostgreSQL's LEAKPROOF label is not enough:
// it means "reveals nothing but through its result", not "cannot fail" (texteq raises when its
// collation is left undetermined). sql/error_oracles.sql runs every entry over adversarial inputs.
#pragma once

#include "pg/base/postgres_headers.hpp"

namespace pgdp::pg {

// True if `function` is on the allow-list. Functions an admin marked LEAKPROOF that are not on
// it are refused (fail closed).
bool row_safe_function(Oid function);

// The allow-list, as OIDs (pgdp.row_safe_functions()).
List* row_safe_functions();

}  // namespace pgdp::pg
