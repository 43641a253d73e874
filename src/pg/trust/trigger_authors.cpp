#include "pg/trust/trigger_authors.hpp"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

#include <cstring>

#include "pg/catalog/protected_relations.hpp"
#include "pg/trust/authors.hpp"

namespace pgdp::pg {
namespace {

constexpr const char* kCreators = "trigger_creators";

// pgdp.trigger_creators, or InvalidOid in a database without pgdp (or before 0.15).
Oid creators_table() {
    const Oid schema = get_namespace_oid("pgdp", true);
    return OidIsValid(schema) ? get_relname_relid(kCreators, schema) : InvalidOid;
}

// What pg_trigger says of a trigger.
struct TriggerRow {
    bool found;
    Oid relation;
    NameData name;
    Oid parent;  // pg_trigger.tgparentid: the trigger a partition's clone was made from
    Oid function;
    bool internal;
    bool has_when;
};

TriggerRow read_trigger(Oid trigger) {
    TriggerRow row{};
    Relation triggers = table_open(TriggerRelationId, AccessShareLock);
    ScanKeyData key;
    ScanKeyInit(&key, Anum_pg_trigger_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(trigger));
    SysScanDesc scan = systable_beginscan(triggers, TriggerOidIndexId, true, nullptr, 1, &key);
    HeapTuple tuple = systable_getnext(scan);
    if (HeapTupleIsValid(tuple)) {
        const Form_pg_trigger form = reinterpret_cast<Form_pg_trigger>(GETSTRUCT(tuple));
        row.found = true;
        row.relation = form->tgrelid;
        row.name = form->tgname;
        row.parent = form->tgparentid;
        row.function = form->tgfoid;
        row.internal = form->tgisinternal;
        row.has_when = !heap_attisnull(tuple, Anum_pg_trigger_tgqual, RelationGetDescr(triggers));
    }
    systable_endscan(scan);
    table_close(triggers, AccessShareLock);
    return row;
}

// The trigger named `name` on `relation` (InvalidOid if none).
Oid find_trigger(Oid relation, const char* name) {
    Relation triggers = table_open(TriggerRelationId, AccessShareLock);
    ScanKeyData keys[2];
    ScanKeyInit(&keys[0], Anum_pg_trigger_tgrelid, BTEqualStrategyNumber, F_OIDEQ,
                ObjectIdGetDatum(relation));
    ScanKeyInit(&keys[1], Anum_pg_trigger_tgname, BTEqualStrategyNumber, F_NAMEEQ, CStringGetDatum(name));
    SysScanDesc scan = systable_beginscan(triggers, TriggerRelidNameIndexId, true, nullptr, 2, keys);
    HeapTuple tuple = systable_getnext(scan);
    const Oid found =
        HeapTupleIsValid(tuple) ? reinterpret_cast<Form_pg_trigger>(GETSTRUCT(tuple))->oid : InvalidOid;
    systable_endscan(scan);
    table_close(triggers, AccessShareLock);
    return found;
}

// The record of a trigger, if it still names the trigger's table and name.
struct Record {
    bool found;
    Oid creator;
    bool adopted;
};

Record read_record(Oid trigger, Oid relation, const char* name) {
    Record record{};
    ScanKeyData key;
    ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(trigger));
    CatalogScan scan;
    if (!begin_catalog_lookup(kCreators, "trigger_creators_pkey", 1, &key, nullptr, nullptr, &scan))
        return record;
    HeapTuple row = next_catalog_row(&scan);
    if (HeapTupleIsValid(row)) {
        bool null_relation = true, null_name = true, null_creator = true, null_how = true;
        const Oid recorded_relation = DatumGetObjectId(catalog_column(scan, row, 2, &null_relation));
        const Datum recorded_name = catalog_column(scan, row, 3, &null_name);
        const Oid creator = DatumGetObjectId(catalog_column(scan, row, 4, &null_creator));
        const Datum how = catalog_column(scan, row, 5, &null_how);
        if (!null_relation && !null_name && !null_creator && recorded_relation == relation &&
            std::strcmp(NameStr(*DatumGetName(recorded_name)), name) == 0) {
            record.found = true;
            record.creator = creator;
            record.adopted = !null_how && std::strcmp(TextDatumGetCString(how), "adopted") == 0;
        }
    }
    end_catalog_scan(&scan);
    return record;
}

// pgdp's own triggers (the epoch trigger pgdp.set_refresh_policy puts on a protected table, those
// on pgdp's tables): a function of the extension, no WHEN clause. Any arguments are harmless.
bool pgdp_trigger(Oid function, bool has_when) {
    if (has_when) return false;
    const Oid extension = get_extension_oid("pgdp", true);
    return OidIsValid(extension) && getExtensionOfObject(ProcedureRelationId, function) == extension;
}

TriggerAuthor author_of_row(Oid trigger, const TriggerRow& row, int depth);

TriggerAuthor author_of(Oid trigger, int depth) {
    const TriggerRow row = read_trigger(trigger);
    if (!row.found) return TriggerAuthor{InvalidOid, "unknown", false};
    return author_of_row(trigger, row, depth);
}

TriggerAuthor author_of_row(Oid trigger, const TriggerRow& row, int depth) {
    if (row.internal) return TriggerAuthor{InvalidOid, "internal", true};
    const Record record = read_record(trigger, row.relation, NameStr(row.name));
    if (record.found)
        return TriggerAuthor{record.creator, record.adopted ? "adopted" : "created",
                             is_trusted_author(record.creator)};
    // Clones are made by PostgreSQL (CREATE TRIGGER on a partitioned table, ATTACH PARTITION,
    // CREATE TABLE ... PARTITION OF), never through a statement of their own.
    if (OidIsValid(row.parent) && depth < 32) {
        const TriggerAuthor parent = author_of(row.parent, depth + 1);
        if (std::strcmp(parent.source, "unknown") != 0)
            return TriggerAuthor{parent.author, "partition clone", parent.trusted};
    }
    if (pgdp_trigger(row.function, row.has_when)) return TriggerAuthor{InvalidOid, "pgdp", true};
    return TriggerAuthor{InvalidOid, "unknown", false};
}

// SPI as the owner of pgdp's table `table`, with only pg_catalog on the search path: the creator
// may not be allowed to write it. An error ends the transaction, which undoes both.
struct CatalogWriter {
    Oid saved_user;
    int saved_context;
    int nest_level;
};

CatalogWriter begin_catalog_write(Oid table) {
    CatalogWriter writer{InvalidOid, 0, 0};
    GetUserIdAndSecContext(&writer.saved_user, &writer.saved_context);
    SetUserIdAndSecContext(relation_owner(table), writer.saved_context | SECURITY_LOCAL_USERID_CHANGE |
                                                      SECURITY_RESTRICTED_OPERATION);
    writer.nest_level = NewGUCNestLevel();
    (void)set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
                            true, 0, false);
    if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "pgdp: SPI_connect failed");
    return writer;
}

void end_catalog_write(const CatalogWriter& writer) {
    SPI_finish();
    AtEOXact_GUC(true, writer.nest_level);
    SetUserIdAndSecContext(writer.saved_user, writer.saved_context);
}

// Writes (or replaces) the record of `trigger` as pgdp's table's owner: the creator may not be
// allowed to write it. Inside the caller's transaction, so it goes with the trigger if that rolls
// back. Only pg_catalog is looked up while the owner's rights are in force. Rows left for the same
// table and trigger name under another OID are stale (a table has one trigger of a name): a
// CREATE TRIGGER of a superuser or admin (pg_restore's), whom every role trusts, takes the creator
// of such a row, restored from a dump, instead of its own (no role can be trusted more); they are
// removed.
void write_record(Oid table, Oid trigger, Oid relation, const char* name, Oid creator, const char* how,
                  bool take_restored) {
    const CatalogWriter writer = begin_catalog_write(table);
    Oid key_types[3] = {OIDOID, OIDOID, NAMEOID};
    Datum key[3] = {ObjectIdGetDatum(trigger), ObjectIdGetDatum(relation),
                    DirectFunctionCall1(namein, CStringGetDatum(name))};
    constexpr const char* kStale =
        "FROM pgdp.trigger_creators WHERE relation::pg_catalog.oid OPERATOR(pg_catalog.=) $2 AND "
        "trigger_name "
        "OPERATOR(pg_catalog.=) $3 AND trigger_oid OPERATOR(pg_catalog.<>) $1";
    const char* recorded_how = how;
    if (take_restored) {
        if (SPI_execute_with_args(
                psprintf("SELECT creator::pg_catalog.oid, how %s ORDER BY recorded_at DESC LIMIT 1", kStale),
                3, key_types, key, nullptr, true, 1) != SPI_OK_SELECT) {
            elog(ERROR, "pgdp: reading a restored trigger record failed");
        }
        if (SPI_processed == 1) {
            bool null_creator = true, null_how = true;
            const Datum restored =
                SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &null_creator);
            const char* restored_how = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
            null_how = restored_how == nullptr;
            if (!null_creator && !null_how) {
                creator = DatumGetObjectId(restored);
                recorded_how = std::strcmp(restored_how, "adopted") == 0 ? "adopted" : "created";
            }
        }
    }
    if (SPI_execute_with_args(psprintf("DELETE %s", kStale), 3, key_types, key, nullptr, false, 0) !=
        SPI_OK_DELETE)
        elog(ERROR, "pgdp: removing stale trigger records failed");
    Oid types[5] = {OIDOID, OIDOID, NAMEOID, OIDOID, TEXTOID};
    Datum values[5] = {key[0], key[1], key[2], ObjectIdGetDatum(creator), CStringGetTextDatum(recorded_how)};
    if (SPI_execute_with_args(
            "INSERT INTO pgdp.trigger_creators (trigger_oid, relation, trigger_name, creator, how) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (trigger_oid) DO UPDATE SET relation = "
            "excluded.relation, "
            "trigger_name = excluded.trigger_name, creator = excluded.creator, how = excluded.how, "
            "recorded_at = pg_catalog.now()",
            5, types, values, nullptr, false, 0) != SPI_OK_INSERT) {
        elog(ERROR, "pgdp: recording the trigger's creator failed");
    }
    end_catalog_write(writer);
}

// ALTER TRIGGER ... RENAME: the record follows the trigger (it is checked against the name).
void rename_record(Oid table, Oid trigger, Oid relation, const char* old_name, const char* new_name) {
    const CatalogWriter writer = begin_catalog_write(table);
    Oid types[4] = {OIDOID, OIDOID, NAMEOID, NAMEOID};
    Datum values[4] = {ObjectIdGetDatum(trigger), ObjectIdGetDatum(relation),
                       DirectFunctionCall1(namein, CStringGetDatum(old_name)),
                       DirectFunctionCall1(namein, CStringGetDatum(new_name))};
    if (SPI_execute_with_args(
            "UPDATE pgdp.trigger_creators SET trigger_name = $4 WHERE trigger_oid "
            "OPERATOR(pg_catalog.=) $1 AND relation::pg_catalog.oid OPERATOR(pg_catalog.=) $2 AND "
            "trigger_name OPERATOR(pg_catalog.=) $3",
            4, types, values, nullptr, false, 0) != SPI_OK_UPDATE) {
        elog(ERROR, "pgdp: renaming the trigger's record failed");
    }
    end_catalog_write(writer);
}

}  // namespace

TriggerAuthor trigger_author(Oid trigger) { return author_of(trigger, 0); }

bool relation_has_foreign_trigger(Oid relation, ForeignTrigger* found) {
    Relation opened = RelationIdGetRelation(relation);
    if (opened == nullptr) return false;
    const TriggerDesc* triggers = opened->trigdesc;
    bool foreign = false;
    for (int i = 0; triggers != nullptr && i < triggers->numtriggers && !foreign; ++i) {
        const Trigger& trigger = triggers->triggers[i];
        if (trigger.tgisinternal || trigger.tgenabled == TRIGGER_DISABLED) continue;
        TriggerRow row{};
        row.found = true;
        row.relation = relation;
        namestrcpy(&row.name, trigger.tgname);
        row.parent = trigger.tgisclone ? read_trigger(trigger.tgoid).parent : InvalidOid;
        row.function = trigger.tgfoid;
        row.internal = false;
        row.has_when = trigger.tgqual != nullptr;
        const TriggerAuthor author = author_of_row(trigger.tgoid, row, 0);
        if (author.trusted) continue;
        *found = ForeignTrigger{trigger.tgoid, relation, pstrdup(trigger.tgname), author.author};
        foreign = true;
    }
    RelationClose(opened);
    return foreign;
}

void record_trigger_creator(const PlannedStmt* statement) {
    const Node* utility = statement->utilityStmt;
    if (utility == nullptr || IsBinaryUpgrade) return;
    const bool creates = IsA(utility, CreateTrigStmt);
    const bool renames =
        IsA(utility, RenameStmt) && castNode(RenameStmt, utility)->renameType == OBJECT_TRIGGER;
    if (!creates && !renames) return;
    const Oid table = creators_table();
    if (!OidIsValid(table)) return;
    const RangeVar* target =
        creates ? castNode(CreateTrigStmt, utility)->relation : castNode(RenameStmt, utility)->relation;
    const Oid relation = RangeVarGetRelid(target, NoLock, true);
    if (!OidIsValid(relation)) return;
    const char* name =
        creates ? castNode(CreateTrigStmt, utility)->trigname : castNode(RenameStmt, utility)->newname;
    // The new pg_trigger row becomes visible to a catalog scan after the next command counter.
    CommandCounterIncrement();
    const Oid trigger = find_trigger(relation, name);
    if (!OidIsValid(trigger)) return;
    if (creates) {
        write_record(table, trigger, relation, name, GetUserId(), "created",
                     is_admin_or_superuser(GetUserId()));
    } else {
        rename_record(table, trigger, relation, castNode(RenameStmt, utility)->subname, name);
    }
}

void adopt_trigger(Oid relation, const char* trigger_name) {
    const Oid table = creators_table();
    const Oid owner = relation_owner(relation);
    if (!OidIsValid(table) || !OidIsValid(owner))
        ereport(ERROR,
                (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("relation with OID %u does not exist", relation)));
    const Oid user = GetUserId();
    if (!has_privs_of_role(user, owner) && !is_admin_or_superuser(user)) {
        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                        errmsg("only the owner of table \"%s\" or a pgdp admin may adopt its triggers",
                               get_rel_name(relation)),
                        errhint("Adopting a trigger takes its WHEN clause, function and arguments for the "
                                "adopter's own code.")));
    }
    const Oid trigger = find_trigger(relation, trigger_name);
    if (!OidIsValid(trigger)) {
        ereport(ERROR,
                (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("trigger \"%s\" for table \"%s\" does not exist",
                                                           trigger_name, get_rel_name(relation))));
    }
    write_record(table, trigger, relation, trigger_name, user, "adopted", false);
}

}  // namespace pgdp::pg
