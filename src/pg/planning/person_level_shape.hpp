// What a person-level release may look like (person_level.hpp): the forms the rewrite accepts
// (ungrouped, grouped with private selection, grouped by a public relation's keys), how several
// protected relations must be joined on their privacy units, and where dp_groups may stand. Each
// refusal names the relation and the form (0A000), before anything is rewritten.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/parsenodes.h"
#include "nodes/primnodes.h"
}

#include "pg/catalog/protected_relations.hpp"

namespace pgdp::pg {

// ereports 0A000: the release over protected relation `relation` has no person-level form (why).
[[noreturn]] void refuse_person_level_release(const char* relation, const char* why);

// How a releasing level's groups are released.
enum class GroupForm {
    Ungrouped,   // one group: no keys to protect
    Selection,   // GROUP BY keys HAVING dp_groups(...): keys released through private selection
    PublicKeys,  // FROM public LEFT JOIN ...: GROUP BY the public relation's columns
};

struct LevelShape {
    GroupForm form;
    List* keys;          // Expr*: the grouped target entries' expressions, in groupClause order
    int public_index;    // PublicKeys: the public relation's range table index
    List* public_keys;   // PublicKeys: each key as a Var of the public relation
    Node* public_quals;  // PublicKeys: WHERE conjuncts that read only the public relation
};

struct ProtectedEntry {
    int index;  // in the level's range table
    Protection protection;
    Var* unit;  // the entry's privacy unit column
};

// The level's form; refuses the forms the rewrite does not accept.
LevelShape shape_of(Query* level, const char* name);

// Vars of this level outside aggregates and outside the group keys (context: List* of the keys).
bool has_bare_vars(Node* node, void* context);

// dp_groups decides which groups of a GROUP BY appear: anywhere else its answer would release
// the keys it withholds (SELECT k, dp_groups(...) shows every key with false beside it).
void check_selection_placement(const Query* level, List* calls);

// HAVING dp_groups(...) AND c: the executor may evaluate c first (quals are ordered by cost), and
// an error in c (a division by a release) would then reveal a group the selection drops. So c is
// evaluated only for kept groups: dp_groups(...) AND CASE WHEN dp_groups(...) THEN c ELSE false END
// (the identical calls are one aggregate, computed once per group).
Node* selection_first(Node* having);

// The privacy unit of a level reading several protected relations: they must be one relation
// or of one declared kind, and joined on their units (every joined row then belongs to one unit);
// the unit is COALESCE of their units (outer joins leave one side NULL).
Expr* joined_unit(Query* level, List* entries, const char* name);

}  // namespace pgdp::pg
