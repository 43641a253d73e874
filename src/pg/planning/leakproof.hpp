// DP-only access (dp_access.hpp): the expressions a level read with the relation owner's
// privileges evaluates on the protected rows.
// A role with DP-only access learns from a query only its releases: an expression evaluated on
// protected rows must not fail, wait or act depending on them (issue 20: an error on some rows and
// not others is an oracle). Accepted: constants, parameters, columns, a few constructs that cannot
// fail, and calls of functions on pgdp's allow-list (row_safe_functions.hpp) with a determined
// collation when an argument is collatable; everything else (a division, a cast that may fail,
// pg_sleep, a subquery, a user's function, a function an admin marked LEAKPROOF) is refused,
// naming the function.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/parsenodes.h"
}

#include "pg/planning/person_level_shape.hpp"

namespace pgdp::pg {

// Refuses leaky expressions evaluated on the rows of a level read with DP-only access: join and
// WHERE conditions, group keys, and the values of the calls.
void check_leakproof_level(Query* level, const LevelShape& shape, List* calls, const char* name);

}  // namespace pgdp::pg
