// Another role's SQL function that provably makes no release (docs/privacy.md "Narrower where the
// rules apply"): in a session that can be charged such a function needs no frame while a statement
// is planned, so the planner inlines it as without pgdp (index use, predicate push-down). Executed
// without being inlined, it runs under its frame as before.
#pragma once

#include "pg/base/postgres_headers.hpp"

namespace pgdp::pg {

// True if `function` is a plain SQL function (not SECURITY DEFINER, no settings, no polymorphic
// argument, a body given as text) whose body is one SELECT that, parsed and rewritten now (views
// expanded, row-security policies applied, names resolved with the current search_path), calls
// only built-in functions and operators, none of which runs SQL text or changes a setting
// (query_to_xml and its family, ts_stat, ts_rewrite, set_config), and builds no value of a user's
// type (a domain's checks, a type's input); not a range type's subtype_diff (kept in the type cache).
// Parse errors are raised as the planner's own inlining would raise them.
bool release_free_sql_function(Oid function);

}  // namespace pgdp::pg
