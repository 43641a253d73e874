// The catalog of protected relations (extension/pgdp.sql.in "Protected and public relations") as
// the shim reads it, and the fail-closed guard: a plan that makes pgdp releases and reads a
// protected relation, or a partition or inheritance child of one, other than as a person-level
// release (person_level.hpp) is refused before anything is charged (docs/privacy.md "Protected
// relations").
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "access/genam.h"
#include "nodes/plannodes.h"
#include "utils/rel.h"
#include "utils/snapshot.h"
}

namespace pgdp::pg {

// A scan of one of pgdp's catalog tables (pgdp.<table>: protected_relations, public_relations,
// access_grants) with the latest snapshot, so that a change committed after the transaction began
// applies; inside a parallel operation, where no new snapshot can be taken, the query's (or at
// plan time the active) snapshot. Plain data: nothing to destroy if an error ends the scan.
struct CatalogScan {
    Relation table = nullptr;
    SysScanDesc scan = nullptr;
    Snapshot snapshot = nullptr;
    bool fresh = false;  // snapshot registered here
};
// False, with nothing opened, if the table does not exist (an older extension version) or no
// snapshot can be had: callers treat that as an empty catalog (and refuse what they must).
bool begin_catalog_scan(const char* table, Snapshot query_snapshot, CatalogScan* scan);
// The same through the table's index `index` (pgdp.<index>) with nkeys equality keys; with
// `exact_snapshot` that snapshot whatever the mode (e.g. the statement's), else as above.
bool begin_catalog_lookup(const char* table, const char* index, int nkeys, ScanKey keys,
                          Snapshot query_snapshot, Snapshot exact_snapshot, CatalogScan* scan);
HeapTuple next_catalog_row(CatalogScan* scan);
// Column `column` (1-based) of a row; NULL for a column the installed version does not have.
Datum catalog_column(const CatalogScan& scan, HeapTuple row, int column, bool* is_null);
void end_catalog_scan(CatalogScan* scan);
// True if some row holds `value` in column `column` (and, if `second_value` is valid, that in
// column `column + 1`).
bool catalog_has_oid(const char* table, int column, Oid value, Oid second_value, Snapshot query_snapshot);

// The rows of pgdp.protected_relations, read once per check (palloc'd in the current context).
struct ProtectionCatalog {
    Oid* oids;              // the protected relations
    NameData* units;        // the privacy unit column of each
    int32* max_groups;      // max_groups_contributed of each
    NameData* kinds;        // privacy_unit_kind of each (0.7; empty name: a kind of its own)
    int32* rows_per_unit;   // rows_per_unit of each (k, 0.13; 1 before)
    double* planning_rows;  // planning_rows of each (0.15): the public size the planner uses; 0: unset
    int count;
};
// Reads it with the latest snapshot (a protection committed after the transaction began applies);
// inside a parallel operation with query_snapshot, or at plan time (nullptr) the active snapshot.
// With `exact_snapshot`, that snapshot (SnapshotSelf at plan time in any statement: no predicate lock
// in a SERIALIZABLE transaction, no transaction snapshot started).
ProtectionCatalog read_protection_catalog(Snapshot query_snapshot, Snapshot exact_snapshot = nullptr);

// The protection that covers a relation (itself, or its protected partition/inheritance root).
struct Protection {
    Oid root;                // the relation listed in pgdp.protected_relations
    NameData unit_name;      // its privacy unit column
    AttrNumber unit_column;  // that column in the relation looked up (InvalidAttrNumber: missing)
    int32 max_groups;        // max_groups_contributed (m)
    NameData unit_kind;      // privacy_unit_kind; empty: a kind of its own
    int32 rows_per_unit;     // rows_per_unit (k of the row-capped statistics)
    double
        planning_rows;  // planning_rows: the size the planner assumes for users who may not read it; 0: unset
};

// True (and *protection set) if `relation` is protected or descends from a protected relation.
bool find_protection(const ProtectionCatalog& catalog, Oid relation, Protection* protection);

// True if `relation` is listed in pgdp.public_relations (read like read_protection_catalog): its
// rows may be a release's group keys.
bool is_declared_public(Oid relation, Snapshot query_snapshot);

// ereports 0A000 if the plan (subplans, CTEs and the tables behind its views included: they are
// all in its range table) reads a relation of the catalog or a descendant of one.
void refuse_releases_over_protected_relations(const PlannedStmt* statement, const ProtectionCatalog& catalog);

// A change of `relation`'s protection or public status: the cached plans that read it (or its
// partitions and inheritance children) are planned again.
void invalidate_plans_reading(Oid relation);

}  // namespace pgdp::pg
