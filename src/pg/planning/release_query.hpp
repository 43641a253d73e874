// The one analysis of a statement the planner hook receives (docs/architecture.md "Life of a
// query"): a single walk of its query tree (every level: subqueries, CTEs, sublinks, expanded
// views) that finds the pgdp aggregate calls and the level each belongs to, and notes what the
// later planning stages need (the fingerprint's functions, the relations below each level, the
// functions called in FROM). A statement without any pgdp call costs that walk and nothing else:
// the protection catalog is read only when there are calls, once per planned statement.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/parsenodes.h"
}

#include "pg/catalog/protected_relations.hpp"

namespace pgdp::pg {

// Where below a level a relation is read, in the order the person-level rewrite looks for a
// protected one (its range table entries' contents, WITH, FROM and WHERE, the select list, HAVING).
enum class BelowLevel { RangeTable, With, From, SelectList, Having, Count };

// One query level with pgdp calls of its own.
struct ReleaseLevel {
    Query* query;
    // The level's pgdp calls (Aggref*), in tree order: those written in its select list or HAVING,
    // also inside a subquery there whose agglevelsup reaches back to the level
    // (SELECT (SELECT dp_sum(p.x, ...)) FROM p).
    List* calls;
    bool other_aggregates;  // an aggregate of the level (same rule) that is not pgdp's
    // A pgdp call of the level written in its own select list or HAVING, not inside a subquery.
    bool computes_releases;
    // The relations (OIDs) read by each part of the level below its own range table's relation
    // entries (their row-security policies included), in tree order.
    List* relations_below[static_cast<int>(BelowLevel::Count)];
};

struct ReleaseQuery {
    bool any_call;  // a pgdp aggregate call anywhere in the tree
    List* levels;   // ReleaseLevel*, lowest first (children before their parent): the rewrites' order
    // Every function the tree calls (operators' and aggregates' too), each once, in tree order,
    // and whether it asks who runs it (CURRENT_USER and the like): the fingerprint's inputs.
    List* functions;
    bool asks_who_runs;
    // The functions called in FROM (RTE_FUNCTION), in tree order: the planner may inline a SQL one
    // after the hook (inline_set_returning_function), releases included.
    List* from_functions;
    // pgdp.protected_relations, read once when there are calls (count 0 otherwise).
    ProtectionCatalog protections;

    bool empty() const { return !any_call; }
    // True if the plan may make releases the tree does not show (a SQL function in FROM inlined).
    bool may_inline_releases() const { return from_functions != NIL; }
};

ReleaseQuery analyze_release_query(Query* parse);

// Walks the tree again after a rewrite replaced a level's calls or range table (the distributed
// rewrite), keeping the catalog already read.
void reanalyze_release_query(Query* parse, ReleaseQuery* analysis);

// One call of each class of shared calls (shares_computation), in the order of their first
// appearance. The executor computes such calls of one level once (one release:
// (dp_sum_ci(...)).* writes the call once per field); a rewrite builds one replacement per class
// and replaces every member with it, so they stay one call.
List* distinct_calls(List* calls);
// True if PostgreSQL computes the two aggregate calls of one level once (find_compatible_agg):
// equal (everything but parse locations) and without volatile functions.
bool shares_computation(const Aggref* a, const Aggref* b);

// The first protected relation (its protection's root) the level reads below its own relation
// entries, in BelowLevel order; InvalidOid if none.
Oid protected_relation_below(const ReleaseLevel& level, const ProtectionCatalog& protections);

// The first function called in FROM that is written in SQL (or no longer exists: fail closed);
// InvalidOid if none.
Oid sql_function_in_from(const ReleaseQuery& analysis);

}  // namespace pgdp::pg
