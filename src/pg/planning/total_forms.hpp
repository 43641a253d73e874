// Total forms of built-in functions (sql/total_functions.cpp): where a built-in raises an error
// on some values of its arguments (float8(numeric) beyond float8's range, date_trunc of a
// timestamptz whose local time leaves the range, ...), pgdp has a form that returns NULL or the
// saturated value there and the built-in's value everywhere else. Substituted while planning
// before the DP-only check (leakproof.hpp), which accepts the total forms and refuses the
// built-ins: no hidden row can make the query fail.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/parsenodes.h"
}

namespace pgdp::pg {

// In every expression of the level (its subqueries, views and functions in FROM included): each
// call of a built-in that has a total form becomes a call of the total form. A unit argument
// (date_trunc, extract, date_part) must be a constant: the built-in is first called with it once
// here, so a unit it rejects is rejected now, before any row is read, whatever rows exist.
// Calls with a unit that is not a constant are left as they are (and refused by the check).
void substitute_total_forms(Query* level);

// The total form of `function` (one without a unit argument: the float casts, date +- days), or
// InvalidOid.
Oid total_cast_of(Oid function);

// pgdp.canonical_key for keys of `type` whose equal values may print differently (numeric, float8,
// float4), or InvalidOid.
Oid canonical_key_function(Oid type);

}  // namespace pgdp::pg
