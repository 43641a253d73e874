// pgdp's catalog tables the release cache reads (extension/pgdp.sql.in "Release cache"): the data
// epochs of relations (pgdp.data_epochs) and the cache groups of roles (pgdp.cache_groups), read
// by primary key with the shared catalog reader (protected_relations.hpp).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "access/htup.h"
#include "access/skey.h"
#include "utils/rel.h"
#include "utils/snapshot.h"
}

#include "pg/catalog/protected_relations.hpp"

namespace pgdp::pg {

// The OID of table pgdp.<name>, or InvalidOid.
Oid pgdp_relation(const char* name);

// One row of a pgdp table by its primary key index (1 or 2 equality keys), read with the latest
// snapshot or `given` (the shared catalog reader, protected_relations.hpp); calls `read` with the
// row while the scan is open. False if none.
template <typename Read>
bool read_by_key(const char* table, const char* index, int nkeys, ScanKeyData* keys, Read&& read,
                 Snapshot given = nullptr) {
    CatalogScan scan;
    if (!begin_catalog_lookup(table, index, nkeys, keys, nullptr, given, &scan)) return false;
    HeapTuple row = next_catalog_row(&scan);
    const bool found = HeapTupleIsValid(row);
    if (found) read(RelationGetDescr(scan.table), row);
    end_catalog_scan(&scan);
    return found;
}

// The effective epoch of a relation as text ("epoch" or "epoch/window" for the interval policy);
// nullptr if it has none (a partition: its root's).
char* epoch_of(Oid relation, Snapshot snapshot);

// The cache group of a role, or nullptr.
char* cache_group_of(Oid role);

// True if the relation has row security enabled.
bool has_row_security(Oid relation);

}  // namespace pgdp::pg
