// The fail-closed guard of protected relations (extension/pgdp.sql.in "Protected and public
// relations"): until person-level releases exist, a plan that makes pgdp releases and reads a
// protected relation, or a partition or inheritance child of one, is refused before anything is
// charged (docs/privacy.md "Protected relations").
#pragma once

#include "pg/postgres_headers.hpp"

extern "C" {
#include "nodes/plannodes.h"
#include "utils/snapshot.h"
}

namespace pgdp::pg {

// The protection that covers a relation (itself, or its protected partition/inheritance root).
struct Protection {
    Oid root;                // the relation listed in pgdp.protected_relations
    NameData unit_name;      // its privacy unit column
    AttrNumber unit_column;  // that column in the relation looked up (InvalidAttrNumber: missing)
    int32 max_groups;        // max_groups_contributed (m)
};

// True (and *protection set) if `relation` is protected or descends from a protected relation.
// Reads pgdp.protected_relations with the latest snapshot (plan time).
bool find_protection(Oid relation, Protection* protection);

// ereports 0A000 if the plan (subplans, CTEs and the tables behind its views included: they are
// all in its range table) reads a relation listed in pgdp.protected_relations or a descendant of
// one. query_snapshot: the query's snapshot, used only where a newer one cannot be taken.
void refuse_releases_over_protected_relations(const PlannedStmt* statement, Snapshot query_snapshot);

}  // namespace pgdp::pg
