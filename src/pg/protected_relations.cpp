#include "pg/protected_relations.hpp"

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

// The relations of pgdp.protected_relations, read afresh for every plan that makes releases (no
// per-backend cache: a cache could be stale after a change made with triggers disabled, and the
// read costs microseconds next to the charge's commit). Read with the latest snapshot, so that a
// protection committed after the transaction began applies; the query's own snapshot inside a
// parallel operation, where no new snapshot can be taken. Empty before 0.6 (no catalog table).
ProtectionCatalog read_protection_catalog(Snapshot query_snapshot) {
    ProtectionCatalog set{nullptr, nullptr, nullptr, nullptr, 0};
    const Oid schema = get_namespace_oid("pgdp", true);
    if (!OidIsValid(schema)) return set;
    const Oid catalog = get_relname_relid("protected_relations", schema);
    if (!OidIsValid(catalog)) return set;
    Relation relation = table_open(catalog, AccessShareLock);
    // In a parallel operation no new snapshot can be taken: the query's, or at plan time (a
    // function planning a query in a worker) the active one.
    const bool fresh = !IsInParallelMode();
    if (!fresh && query_snapshot == nullptr && ActiveSnapshotSet()) query_snapshot = GetActiveSnapshot();
    if (!fresh && query_snapshot == nullptr)
        return set;  // nothing to read it with: callers refuse what they must
    Snapshot snapshot = fresh ? RegisterSnapshot(GetLatestSnapshot()) : query_snapshot;
    SysScanDesc scan = systable_beginscan(relation, InvalidOid, false, snapshot, 0, nullptr);
    int capacity = 8;
    set.oids = static_cast<Oid*>(palloc(sizeof(Oid) * capacity));
    set.units = static_cast<NameData*>(palloc0(sizeof(NameData) * capacity));
    set.max_groups = static_cast<int32*>(palloc0(sizeof(int32) * capacity));
    set.kinds = static_cast<NameData*>(palloc0(sizeof(NameData) * capacity));
    // Column 6, privacy_unit_kind, exists from 0.7 on.
    const bool has_kinds = RelationGetDescr(relation)->natts >= 6;
    HeapTuple tuple;
    while (HeapTupleIsValid(tuple = systable_getnext(scan))) {
        bool is_null = false;
        // Columns 1-3: relation regclass (the primary key), privacy_unit name, max_groups_contributed.
        const Datum value = heap_getattr(tuple, 1, RelationGetDescr(relation), &is_null);
        if (is_null) continue;
        if (set.count == capacity) {
            capacity *= 2;
            set.oids = static_cast<Oid*>(repalloc(set.oids, sizeof(Oid) * capacity));
            set.units = static_cast<NameData*>(repalloc(set.units, sizeof(NameData) * capacity));
            set.max_groups = static_cast<int32*>(repalloc(set.max_groups, sizeof(int32) * capacity));
            set.kinds = static_cast<NameData*>(repalloc(set.kinds, sizeof(NameData) * capacity));
        }
        bool unit_null = false;
        bool groups_null = false;
        const Datum unit = heap_getattr(tuple, 2, RelationGetDescr(relation), &unit_null);
        const Datum groups = heap_getattr(tuple, 3, RelationGetDescr(relation), &groups_null);
        std::memset(&set.units[set.count], 0, sizeof(NameData));
        if (!unit_null) namestrcpy(&set.units[set.count], NameStr(*DatumGetName(unit)));
        set.max_groups[set.count] = groups_null ? 0 : DatumGetInt32(groups);
        std::memset(&set.kinds[set.count], 0, sizeof(NameData));
        bool kind_null = true;
        const Datum kind =
            has_kinds ? heap_getattr(tuple, 6, RelationGetDescr(relation), &kind_null) : Datum(0);
        if (!kind_null) namestrcpy(&set.kinds[set.count], NameStr(*DatumGetName(kind)));
        set.oids[set.count++] = DatumGetObjectId(value);
    }
    systable_endscan(scan);
    if (fresh) UnregisterSnapshot(snapshot);
    table_close(relation, AccessShareLock);
    return set;
}

bool is_declared_public(Oid relation, Snapshot query_snapshot) {
    const Oid schema = get_namespace_oid("pgdp", true);
    const Oid catalog = OidIsValid(schema) ? get_relname_relid("public_relations", schema) : InvalidOid;
    if (!OidIsValid(catalog)) return false;
    const bool fresh = !IsInParallelMode();
    if (!fresh && query_snapshot == nullptr && ActiveSnapshotSet()) query_snapshot = GetActiveSnapshot();
    if (!fresh && query_snapshot == nullptr) return false;  // fail closed
    Relation table = table_open(catalog, AccessShareLock);
    Snapshot snapshot = fresh ? RegisterSnapshot(GetLatestSnapshot()) : query_snapshot;
    SysScanDesc scan = systable_beginscan(table, InvalidOid, false, snapshot, 0, nullptr);
    bool found = false;
    HeapTuple tuple;
    while (!found && HeapTupleIsValid(tuple = systable_getnext(scan))) {
        bool is_null = false;
        const Datum value = heap_getattr(tuple, 1, RelationGetDescr(table), &is_null);  // relation regclass
        found = !is_null && DatumGetObjectId(value) == relation;
    }
    systable_endscan(scan);
    if (fresh) UnregisterSnapshot(snapshot);
    table_close(table, AccessShareLock);
    return found;
}

bool find_protection(const ProtectionCatalog& set, Oid relation, Protection* protection) {
    const Oid root = set.count > 0 ? protected_self_or_ancestor(relation, set) : InvalidOid;
    bool found = false;
    for (int i = 0; i < set.count && OidIsValid(root); ++i) {
        if (set.oids[i] != root) continue;
        protection->root = root;
        protection->max_groups = set.max_groups[i];
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

}  // namespace pgdp::pg

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_invalidate_plans);

// Trigger on pgdp.protected_relations and pgdp.public_relations: a change of a relation's
// protection or public status invalidates the cached plans that read it (or its partitions and
// inheritance children), so prepared statements are planned again under the new catalog rather
// than refused as stale (is_person_level_plan refuses them meanwhile: fail closed).
Datum pgdp_invalidate_plans(PG_FUNCTION_ARGS) {
    if (!CALLED_AS_TRIGGER(fcinfo)) {
        ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                        errmsg("pgdp.invalidate_plans() must be called as a trigger")));
    }
    auto* trigger = reinterpret_cast<TriggerData*>(fcinfo->context);
    HeapTuple rows[2] = {trigger->tg_trigtuple, trigger->tg_newtuple};
    for (HeapTuple row : rows) {
        if (row == nullptr) continue;
        bool is_null = true;
        // Column 1 of both tables: relation regclass.
        const Datum value = heap_getattr(row, 1, RelationGetDescr(trigger->tg_relation), &is_null);
        if (is_null) continue;
        const Oid relation = DatumGetObjectId(value);
        if (get_rel_relkind(relation) == '\0') continue;  // dropped: no plan can read it
        ListCell* cell;
        foreach (cell, find_all_inheritors(relation, NoLock, nullptr)) {
            const Oid member = lfirst_oid(cell);
            if (get_rel_relkind(member) != '\0') CacheInvalidateRelcacheByRelid(member);
        }
    }
    return PointerGetDatum(nullptr);  // an AFTER trigger: the result is ignored
}

}  // extern "C"
