#include "pg/catalog/protected_relations.hpp"

extern "C" {
#include "access/genam.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_inherits.h"
#include "commands/trigger.h"
#include "utils/inval.h"
#include "nodes/parsenodes.h"
#include "nodes/pg_list.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/builtins.h"
#include "utils/snapmgr.h"
}

#include <cstring>

namespace pgdp::pg {
namespace {

using OidSet = ProtectionCatalog;

bool contains(const OidSet& set, Oid relation) {
    for (int i = 0; i < set.count; ++i) {
        if (set.oids[i] == relation) return true;
    }
    return false;
}

// `relation` itself or an ancestor of it (partition parent or inheritance parent, at any depth)
// that is protected; InvalidOid if none. A partition's rows are rows of its protected root.
Oid protected_self_or_ancestor(Oid relation, const OidSet& set) {
    if (contains(set, relation)) return relation;
    List* pending = list_make1_oid(relation);
    List* seen = NIL;
    Oid found = InvalidOid;
    Relation inherits = table_open(InheritsRelationId, AccessShareLock);
    while (pending != NIL && !OidIsValid(found)) {
        const Oid current = linitial_oid(pending);
        pending = list_delete_first(pending);
        if (list_member_oid(seen, current)) continue;
        seen = lappend_oid(seen, current);
        if (contains(set, current)) {
            found = current;
            break;
        }
        ScanKeyData key;
        ScanKeyInit(&key, Anum_pg_inherits_inhrelid, BTEqualStrategyNumber, F_OIDEQ,
                    ObjectIdGetDatum(current));
        SysScanDesc scan = systable_beginscan(inherits, InheritsRelidSeqnoIndexId, true, nullptr, 1, &key);
        HeapTuple tuple;
        while (HeapTupleIsValid(tuple = systable_getnext(scan))) {
            pending = lappend_oid(pending, reinterpret_cast<Form_pg_inherits>(GETSTRUCT(tuple))->inhparent);
        }
        systable_endscan(scan);
    }
    table_close(inherits, AccessShareLock);
    list_free(pending);
    list_free(seen);
    return found;
}

[[noreturn]] void refuse(Oid read, Oid protected_relation) {
    const char* name = get_rel_name(protected_relation);
    const char* read_name = get_rel_name(read);
    if (name == nullptr) name = "?";
    if (read_name == nullptr) read_name = "?";
    ereport(
        ERROR,
        (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
         errmsg("pgdp releases over protected relation \"%s\" must be person-level", name),
         read == protected_relation
             ? errdetail(
                   "Its rows belong to privacy units (people); this plan releases them at row level (it "
                   "was not made as a person-level release for the relation's current protection), "
                   "which would not protect a person with many rows, so nothing is released.")
             : errdetail("The query reads \"%s\", a partition or child of \"%s\", whose rows belong to "
                         "privacy units (people); this plan releases them at row level, which would not "
                         "protect a person with many rows, so nothing is released.",
                         read_name, name),
         errhint(
             "Release directly from the relation: SELECT dp_count(...), dp_sum(x, ...) FROM it [JOIN ...] "
             "[WHERE ...] [GROUP BY k HAVING dp_groups(epsilon, delta)]; a statement planned before its "
             "protection changed (outside pgdp's functions) must be prepared again.")));
}

}  // namespace

bool begin_catalog_lookup(const char* table, const char* index, int nkeys, ScanKey keys,
                          Snapshot query_snapshot, Snapshot exact_snapshot, CatalogScan* scan) {
    *scan = CatalogScan{};
    const Oid schema = get_namespace_oid("pgdp", true);
    const Oid catalog = OidIsValid(schema) ? get_relname_relid(table, schema) : InvalidOid;
    if (!OidIsValid(catalog)) return false;  // before 0.6 (or 0.7, 0.8): no such table
    const Oid index_id = index != nullptr ? get_relname_relid(index, schema) : InvalidOid;
    if (index != nullptr && !OidIsValid(index_id)) return false;
    if (exact_snapshot != nullptr) {
        scan->snapshot = exact_snapshot;
    } else {
        // In a parallel operation no new snapshot can be taken: the query's, or at plan time (a
        // function planning a query in a worker) the active one.
        scan->fresh = !IsInParallelMode();
        if (!scan->fresh && query_snapshot == nullptr && ActiveSnapshotSet())
            query_snapshot = GetActiveSnapshot();
        if (!scan->fresh && query_snapshot == nullptr) return false;  // nothing to read it with
        scan->snapshot = scan->fresh ? RegisterSnapshot(GetLatestSnapshot()) : query_snapshot;
    }
    scan->table = table_open(catalog, AccessShareLock);
    scan->scan = systable_beginscan(scan->table, index_id, OidIsValid(index_id), scan->snapshot, nkeys, keys);
    return true;
}

bool begin_catalog_scan(const char* table, Snapshot query_snapshot, CatalogScan* scan) {
    return begin_catalog_lookup(table, nullptr, 0, nullptr, query_snapshot, nullptr, scan);
}

HeapTuple next_catalog_row(CatalogScan* scan) { return systable_getnext(scan->scan); }

Datum catalog_column(const CatalogScan& scan, HeapTuple row, int column, bool* is_null) {
    if (column > RelationGetDescr(scan.table)->natts) {  // a column of a later version
        *is_null = true;
        return Datum(0);
    }
    return heap_getattr(row, column, RelationGetDescr(scan.table), is_null);
}

void end_catalog_scan(CatalogScan* scan) {
    systable_endscan(scan->scan);
    table_close(scan->table, AccessShareLock);
    if (scan->fresh) UnregisterSnapshot(scan->snapshot);
    *scan = CatalogScan{};
}

bool catalog_has_oid(const char* table, int column, Oid value, Oid second_value, Snapshot query_snapshot) {
    CatalogScan scan;
    if (!begin_catalog_scan(table, query_snapshot, &scan)) return false;  // fail closed
    bool found = false;
    HeapTuple row;
    while (!found && HeapTupleIsValid(row = next_catalog_row(&scan))) {
        bool is_null = false;
        bool second_null = false;
        const Datum first = catalog_column(scan, row, column, &is_null);
        found = !is_null && DatumGetObjectId(first) == value;
        if (found && OidIsValid(second_value)) {
            const Datum second = catalog_column(scan, row, column + 1, &second_null);
            found = !second_null && DatumGetObjectId(second) == second_value;
        }
    }
    end_catalog_scan(&scan);
    return found;
}

// The relations of pgdp.protected_relations, read afresh for every plan that makes releases (no
// per-backend cache: a cache could be stale after a change made with triggers disabled, and the
// read costs microseconds next to the charge's commit). Read with the latest snapshot, so that a
// protection committed after the transaction began applies; the query's own snapshot inside a
// parallel operation, where no new snapshot can be taken. Empty before 0.6 (no catalog table).
ProtectionCatalog read_protection_catalog(Snapshot query_snapshot, Snapshot exact_snapshot) {
    ProtectionCatalog set{nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0};
    CatalogScan scan;
    if (!begin_catalog_lookup("protected_relations", nullptr, 0, nullptr, query_snapshot, exact_snapshot,
                              &scan))
        return set;  // callers refuse what they must
    int capacity = 8;
    set.oids = static_cast<Oid*>(palloc(sizeof(Oid) * capacity));
    set.units = static_cast<NameData*>(palloc0(sizeof(NameData) * capacity));
    set.max_groups = static_cast<int32*>(palloc0(sizeof(int32) * capacity));
    set.kinds = static_cast<NameData*>(palloc0(sizeof(NameData) * capacity));
    set.rows_per_unit = static_cast<int32*>(palloc0(sizeof(int32) * capacity));
    set.planning_rows = static_cast<double*>(palloc0(sizeof(double) * capacity));
    HeapTuple row;
    while (HeapTupleIsValid(row = next_catalog_row(&scan))) {
        // Columns: 1 relation regclass (the primary key), 2 privacy_unit name, 3
        // max_groups_contributed, 6 privacy_unit_kind (0.7), 7 rows_per_unit (0.13), 8 planning_rows
        // (0.15).
        bool is_null = false;
        const Datum value = catalog_column(scan, row, 1, &is_null);
        if (is_null) continue;
        if (set.count == capacity) {
            capacity *= 2;
            set.oids = static_cast<Oid*>(repalloc(set.oids, sizeof(Oid) * capacity));
            set.units = static_cast<NameData*>(repalloc(set.units, sizeof(NameData) * capacity));
            set.max_groups = static_cast<int32*>(repalloc(set.max_groups, sizeof(int32) * capacity));
            set.kinds = static_cast<NameData*>(repalloc(set.kinds, sizeof(NameData) * capacity));
            set.rows_per_unit = static_cast<int32*>(repalloc(set.rows_per_unit, sizeof(int32) * capacity));
            set.planning_rows = static_cast<double*>(repalloc(set.planning_rows, sizeof(double) * capacity));
        }
        bool unit_null = false;
        bool groups_null = false;
        bool kind_null = false;
        bool rows_null = false;
        const Datum unit = catalog_column(scan, row, 2, &unit_null);
        const Datum groups = catalog_column(scan, row, 3, &groups_null);
        const Datum kind = catalog_column(scan, row, 6, &kind_null);
        const Datum rows = catalog_column(scan, row, 7, &rows_null);
        bool planning_null = false;
        const Datum planning = catalog_column(scan, row, 8, &planning_null);
        std::memset(&set.units[set.count], 0, sizeof(NameData));
        std::memset(&set.kinds[set.count], 0, sizeof(NameData));
        if (!unit_null) namestrcpy(&set.units[set.count], NameStr(*DatumGetName(unit)));
        if (!kind_null) namestrcpy(&set.kinds[set.count], NameStr(*DatumGetName(kind)));
        set.max_groups[set.count] = groups_null ? 0 : DatumGetInt32(groups);
        // Before 0.13 (no column): every unit kept one row, as the setting's old default did.
        set.rows_per_unit[set.count] = rows_null ? 1 : DatumGetInt32(rows);
        set.planning_rows[set.count] = planning_null ? 0.0 : static_cast<double>(DatumGetInt64(planning));
        set.oids[set.count++] = DatumGetObjectId(value);
    }
    end_catalog_scan(&scan);
    return set;
}

bool is_declared_public(Oid relation, Snapshot query_snapshot) {
    return catalog_has_oid("public_relations", 1, relation, InvalidOid, query_snapshot);  // 1: relation
}

bool find_protection(const ProtectionCatalog& set, Oid relation, Protection* protection) {
    const Oid root = set.count > 0 ? protected_self_or_ancestor(relation, set) : InvalidOid;
    bool found = false;
    for (int i = 0; i < set.count && OidIsValid(root); ++i) {
        if (set.oids[i] != root) continue;
        protection->root = root;
        protection->max_groups = set.max_groups[i];
        protection->rows_per_unit = set.rows_per_unit[i];
        protection->planning_rows = set.planning_rows[i];
        // The unit column as the relation read names it (a partition may number it differently);
        // InvalidAttrNumber if it is missing there (callers refuse).
        protection->unit_column = get_attnum(relation, NameStr(set.units[i]));
        std::memcpy(&protection->unit_name, &set.units[i], sizeof(NameData));
        std::memcpy(&protection->unit_kind, &set.kinds[i], sizeof(NameData));
        found = true;
    }
    return found;
}

void refuse_releases_over_protected_relations(const PlannedStmt* statement, const ProtectionCatalog& set) {
    if (set.count == 0) return;
    ListCell* cell;
    foreach (cell, statement->rtable) {
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        if (entry->rtekind != RTE_RELATION) continue;
        const Oid found = protected_self_or_ancestor(entry->relid, set);
        if (OidIsValid(found)) refuse(entry->relid, found);
    }
}

void invalidate_plans_reading(Oid relation) {
    if (get_rel_relkind(relation) == '\0') return;  // dropped: no plan can read it
    ListCell* cell;
    foreach (cell, find_all_inheritors(relation, NoLock, nullptr)) {
        const Oid member = lfirst_oid(cell);
        if (get_rel_relkind(member) != '\0') CacheInvalidateRelcacheByRelid(member);
    }
}

}  // namespace pgdp::pg
