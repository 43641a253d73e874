// Building blocks of pgdp's query rewrites (person_level.cpp, distributed_release.cpp) and plan
// inspections (release_cache.cpp): walking trees, building levels, entries, columns, clauses and
// calls, finding pgdp's own functions. Hand-built parse nodes live here: the place to adapt when
// PostgreSQL changes them (permission info, nullingrels, RTE_GROUP).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/parsenodes.h"
#include "nodes/primnodes.h"
}

namespace pgdp::pg {

// PostgreSQL's tree walkers and mutators take their callback as a function of no arguments.
using WalkerFn = bool (*)();
template <typename F>
WalkerFn walker_cast(F f) {
    return reinterpret_cast<WalkerFn>(reinterpret_cast<void (*)()>(f));
}
using MutatorFn = Node* (*)();
template <typename F>
MutatorFn mutator_cast(F f) {
    return reinterpret_cast<MutatorFn>(reinterpret_cast<void (*)()>(f));
}

// Every relation entry (RTE_RELATION) of a query tree, at every level (subqueries, CTEs, sublinks).
List* relation_entries(Node* tree);
// The permission entries (compat::Permission) of every level of a query tree.
List* relation_permissions(Node* tree);

// A call of a built-in aggregate over one argument (nullptr: aggregate(*)), with a filter.
Aggref* builtin_aggregate(Oid function, Oid result, Expr* argument, Expr* filter);

// The function pgdp.<name>(types) of the pgdp extension (a function of that name in a schema
// someone else made must not run in pgdp's place); ereports (55000) if the installed version
// lacks it, naming `since` as the version that has it.
Oid pgdp_extension_function(const char* name, int nargs, const Oid* types, const char* since);

// ---- building a query tree (the rewrites' new levels) ----

// An empty SELECT level (no range table, no target list).
Query* new_select();
// A subquery entry over `subquery`, its columns named after the subquery's target list.
RangeTblEntry* subquery_entry(Query* subquery, const char* alias);
// A FROM item naming range table entry `index`.
RangeTblRef* reference_to(int index);
// A Var of range table entry `varno` for output column `column` of `subquery`.
Var* column_of(const Query* subquery, int varno, int column);
// A GROUP BY (or window PARTITION BY) clause on the target entry with sort/group reference
// `reference`, with the type's default operators (eqop InvalidOid if it has none).
SortGroupClause* group_clause(Oid type, Index reference);
// left AND right; either may be nullptr (no condition).
Node* and_of(Node* left, Node* right);
NullTest* is_not_null(Expr* expression);
// left <name> right with pg_catalog's operator of that name for two values of `type`.
Expr* operator_clause(const char* name, Oid type, Expr* left, Expr* right);

}  // namespace pgdp::pg
