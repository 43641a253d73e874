#include "pg/execution/cache_store.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
}

#include <cstring>

#include "pg/catalog/epochs.hpp"
#include "pg/channels/statement_seal.hpp"
#include "pg/execution/charge.hpp"
#include "pg/execution/release_cache.hpp"
#include "pg/execution/release_execution.hpp"

namespace pgdp::pg {
namespace {

// At most this many cells (rows x columns) are stored per statement; larger results are not cached.
constexpr int64 kMaxCells = 100000;

// ---- the copying receiver -------------------------------------------------------------------

struct CopyingReceiver {
    DestReceiver receiver;  // first: PostgreSQL calls through it
    DestReceiver* target;
    ReleaseExecution* execution;
    FmgrInfo* send;
    int columns;
};

void copying_startup(DestReceiver* self, int operation, TupleDesc descriptor) {
    auto* copying = reinterpret_cast<CopyingReceiver*>(self);
    ReleaseExecution* execution = copying->execution;
    copying->columns = descriptor->natts;
    copying->send = static_cast<FmgrInfo*>(
        MemoryContextAllocZero(execution->context, sizeof(FmgrInfo) * (descriptor->natts + 1)));
    for (int i = 0; i < descriptor->natts; ++i) {
        Oid send = InvalidOid;
        bool varlena = false;
        const Oid type = TupleDescAttr(descriptor, i)->atttypid;
        HeapTuple tuple = SearchSysCache1(TYPEOID, ObjectIdGetDatum(type));
        const bool sendable = HeapTupleIsValid(tuple) &&
                              OidIsValid(reinterpret_cast<Form_pg_type>(GETSTRUCT(tuple))->typsend) &&
                              OidIsValid(reinterpret_cast<Form_pg_type>(GETSTRUCT(tuple))->typreceive);
        if (HeapTupleIsValid(tuple)) ReleaseSysCache(tuple);
        if (!sendable) {
            execution->cache = CacheMode::Abandoned;  // not storable in binary form
            break;
        }
        getTypeBinaryOutputInfo(type, &send, &varlena);
        fmgr_info_cxt(send, &copying->send[i], execution->context);
    }
    copying->target->rStartup(copying->target, operation, descriptor);
}

bool copying_receive(TupleTableSlot* slot, DestReceiver* self) {
    auto* copying = reinterpret_cast<CopyingReceiver*>(self);
    ReleaseExecution* execution = copying->execution;
    if (execution->cache == CacheMode::Storing) {
        if (static_cast<int64>(execution->copied.rows + 1) * copying->columns > kMaxCells) {
            execution->cache = CacheMode::Abandoned;
        } else {
            slot_getallattrs(slot);
            MemoryContext old = MemoryContextSwitchTo(execution->context);
            for (int i = 0; i < copying->columns; ++i) {
                bytea* cell =
                    slot->tts_isnull[i] ? nullptr : SendFunctionCall(&copying->send[i], slot->tts_values[i]);
                if (cell != nullptr) execution->copied.bytes += VARSIZE(cell);
                execution->copied.cells = lappend(execution->copied.cells, cell);
            }
            MemoryContextSwitchTo(old);
            ++execution->copied.rows;
            if (execution->copied.bytes > static_cast<int64>(release_cache_settings.max_entry_bytes)) {
                execution->cache = CacheMode::Abandoned;  // the copy is dropped with the execution's memory
                execution->copied.too_large = true;
            }
        }
    }
    return copying->target->receiveSlot(slot, copying->target);
}

void copying_shutdown(DestReceiver* self) {
    auto* copying = reinterpret_cast<CopyingReceiver*>(self);
    copying->target->rShutdown(copying->target);
}

void copying_destroy(DestReceiver*) {}

// ---- storing --------------------------------------------------------------------------------

Datum oid_array(const TupleDesc descriptor) {
    Datum* values = static_cast<Datum*>(palloc(sizeof(Datum) * (descriptor->natts + 1)));
    for (int i = 0; i < descriptor->natts; ++i)
        values[i] = ObjectIdGetDatum(TupleDescAttr(descriptor, i)->atttypid);
    return PointerGetDatum(
        construct_array(values, descriptor->natts, OIDOID, sizeof(Oid), true, TYPALIGN_INT));
}

Datum cell_array(const CopiedRows& copied) {
    const int count = list_length(copied.cells);
    Datum* values = static_cast<Datum*>(palloc(sizeof(Datum) * (count + 1)));
    bool* nulls = static_cast<bool*>(palloc(sizeof(bool) * (count + 1)));
    int i = 0;
    ListCell* cell;
    foreach (cell, copied.cells) {
        nulls[i] = lfirst(cell) == nullptr;
        values[i] = nulls[i] ? (Datum)0 : PointerGetDatum(lfirst(cell));
        ++i;
    }
    int dims[1] = {count};
    int lower[1] = {1};
    return PointerGetDatum(
        construct_md_array(values, nulls, 1, dims, lower, BYTEAOID, -1, false, TYPALIGN_INT));
}

// Writes the answer as the cache table's owner (nobody else may write it), in a subtransaction:
// a failure to store is a warning, the release itself stands.
void store_answer(QueryDesc* query, const ReleaseExecution& execution) {
    const Oid table = pgdp_relation("release_cache");
    if (!OidIsValid(table)) return;
    HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(table));
    if (!HeapTupleIsValid(tuple)) return;
    const Oid owner = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->relowner;
    ReleaseSysCache(tuple);
    bytea* key_bytes = static_cast<bytea*>(palloc(VARHDRSZ + sizeof(execution.key.key)));
    SET_VARSIZE(key_bytes, VARHDRSZ + sizeof(execution.key.key));
    std::memcpy(VARDATA(key_bytes), execution.key.key, sizeof(execution.key.key));
    Oid types[9] = {TEXTOID, BYTEAOID,      TEXTOID, TEXTOID, OIDARRAYOID,
                    INT4OID, BYTEAARRAYOID, OIDOID,  INT8OID};
    Datum values[9] = {CStringGetTextDatum(execution.key.scope),
                       PointerGetDatum(key_bytes),
                       CStringGetTextDatum(query->sourceText != nullptr ? query->sourceText : ""),
                       CStringGetTextDatum(execution.key.epochs),
                       (Datum)0,  // the arrays are built inside the subtransaction below
                       Int32GetDatum(execution.copied.rows),
                       (Datum)0,
                       ObjectIdGetDatum(GetSessionUserId()),
                       Int64GetDatum(latest_charge_id())};
    char nulls[10] = "         ";
    if (latest_charge_id() <= 0) nulls[8] = 'n';
    Oid saved_user = InvalidOid;
    int saved_context = 0;
    GetUserIdAndSecContext(&saved_user, &saved_context);
    MemoryContext old_context = CurrentMemoryContext;
    ResourceOwner old_owner = CurrentResourceOwner;
    volatile bool role_full = false;
    volatile int64 role_used = 0;
    BeginInternalSubTransaction(nullptr);
    PG_TRY();
    {
        // Building the arrays can fail (a result too large for one array): a warning, like any
        // failure to store, not an error after the charge.
        values[4] = oid_array(query->tupDesc);
        values[6] = cell_array(execution.copied);
        SetUserIdAndSecContext(owner,
                               saved_context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
        // The owner's rights with the caller's search_path would run the caller's operators and
        // functions as the owner: nothing but pg_catalog is looked up here.
        const int nest_level = NewGUCNestLevel();
        (void)set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
                                GUC_ACTION_SAVE, true, 0, false);
        // The portal may have popped the statement's snapshot before ExecutorEnd (simple protocol).
        PushActiveSnapshot(GetTransactionSnapshot());
        if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "pgdp: SPI_connect failed");
        if (release_cache_settings.max_age_seconds > 0) {
            Oid cutoff_type[1] = {TIMESTAMPTZOID};
            Datum cutoff[1] = {TimestampTzGetDatum(
                GetCurrentTransactionStartTimestamp() -
                static_cast<int64>(release_cache_settings.max_age_seconds) * USECS_PER_SEC)};
            SPI_execute_with_args(
                "DELETE FROM pgdp.release_cache WHERE released_at OPERATOR(pg_catalog.<) $1", 1, cutoff_type,
                cutoff, nullptr, false, 0);
        }
        // The role's stored bytes (its entries but the one this replaces) plus this entry's, counted
        // like copied_bytes: the statement's text, the epochs and each cell's binary form, each
        // with its 4-byte length.
        Oid used_types[3] = {OIDOID, TEXTOID, BYTEAOID};
        Datum used_values[3] = {ObjectIdGetDatum(GetSessionUserId()), values[0], values[1]};
        if (SPI_execute_with_args(
                "SELECT COALESCE(pg_catalog.sum(pg_catalog.octet_length(e.query_text) "
                "OPERATOR(pg_catalog.+) pg_catalog.octet_length(e.epochs) OPERATOR(pg_catalog.+) 8 "
                "OPERATOR(pg_catalog.+) (SELECT COALESCE(pg_catalog.sum(pg_catalog.octet_length(c) "
                "OPERATOR(pg_catalog.+) 4), 0) FROM pg_catalog.unnest(e.result_cells) c)), 0)::int8 "
                "FROM pgdp.release_cache e "
                "WHERE e.released_by OPERATOR(pg_catalog.=) $1 AND NOT "
                "(e.scope OPERATOR(pg_catalog.=) $2 AND e.cache_key OPERATOR(pg_catalog.=) $3)",
                3, used_types, used_values, nullptr, true, 1) != SPI_OK_SELECT ||
            SPI_processed != 1) {
            elog(ERROR, "pgdp: reading the role's release cache use failed");
        }
        bool used_null = false;
        const int64 used =
            DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &used_null));
        if (used + execution.copied.bytes > static_cast<int64>(release_cache_settings.max_role_bytes)) {
            role_full = true;
            role_used = used;
        }
        const int rc =
            role_full
                ? SPI_OK_INSERT
                : SPI_execute_with_args(
                      "INSERT INTO pgdp.release_cache (scope, cache_key, query_text, epochs, column_types, "
                      "result_rows, "
                      "result_cells, released_by, charge_id) VALUES ($1, $2, $3, $4, $5, $6, $7, "
                      "$8::regrole, $9) "
                      "ON CONFLICT (scope, cache_key) DO UPDATE SET query_text = excluded.query_text, epochs "
                      "= "
                      "excluded.epochs, "
                      "column_types = excluded.column_types, result_rows = excluded.result_rows, "
                      "result_cells = excluded.result_cells, released_by = excluded.released_by, "
                      "charge_id = excluded.charge_id, released_at = pg_catalog.now()",
                      9, types, values, nulls, false, 0);
        if (rc != SPI_OK_INSERT) elog(ERROR, "pgdp: storing the release failed");
        SPI_finish();
        PopActiveSnapshot();
        AtEOXact_GUC(true, nest_level);
        SetUserIdAndSecContext(saved_user, saved_context);
        ReleaseCurrentSubTransaction();
        MemoryContextSwitchTo(old_context);
        CurrentResourceOwner = old_owner;
    }
    PG_CATCH();
    {
        MemoryContextSwitchTo(old_context);
        ErrorData* error = CopyErrorData();
        FlushErrorState();
        RollbackAndReleaseCurrentSubTransaction();
        MemoryContextSwitchTo(old_context);
        CurrentResourceOwner = old_owner;
        SetUserIdAndSecContext(saved_user, saved_context);
        begin_own_notice();
        ereport(
            WARNING,
            (errmsg("pgdp could not store the release in the release cache: %s", error->message),
             errdetail("The release was made and charged; a repeat will be released and charged again.")));
        end_own_notice();
        FreeErrorData(error);
    }
    PG_END_TRY();
    if (role_full) {
        begin_own_notice();
        ereport(
            WARNING,
            (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
             errmsg("pgdp did not store the release in the release cache: role \"%s\" has %lld bytes "
                    "stored, and this release's %lld bytes would exceed "
                    "pgdp.release_cache_max_role_bytes (%d)",
                    GetUserNameFromId(GetSessionUserId(), false), static_cast<long long>(role_used),
                    static_cast<long long>(execution.copied.bytes), release_cache_settings.max_role_bytes),
             errdetail("The release was made and charged; a repeat will be released and charged again."),
             errhint("An admin can purge entries with pgdp.purge_cache() or raise "
                     "pgdp.release_cache_max_role_bytes.")));
        end_own_notice();
    }
}

}  // namespace

void store_release_if_complete(QueryDesc* query) {
    ReleaseExecution* execution = release_execution_of(query->estate);
    if (execution != nullptr && execution->cache == CacheMode::Storing && execution->copied.completed) {
        store_answer(query, *execution);
    } else if (execution != nullptr && execution->copied.too_large && query->estate->es_finished) {
        begin_own_notice();
        ereport(WARNING,
                (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
                 errmsg("pgdp did not store the release in the release cache: its statement text and result "
                        "exceed pgdp.release_cache_max_entry_bytes (%d bytes)",
                        release_cache_settings.max_entry_bytes),
                 errdetail("The release was made and charged; a repeat will be released and charged again."),
                 errhint("Ask for fewer or smaller rows with a shorter statement, or ask an admin to raise "
                         "pgdp.release_cache_max_entry_bytes.")));
        end_own_notice();
    }
}

void copy_rows_for_release_cache(QueryDesc* query, ScanDirection direction, uint64 count) {
    ReleaseExecution* execution = release_execution_of(query->estate);
    if (execution == nullptr || execution->cache != CacheMode::Storing) return;
    if (ScanDirectionIsNoMovement(direction)) return;  // FETCH 0 runs nothing
    // Only a run to completion in one call is stored (a cursor fetched in parts is not).
    if (count != 0 || !ScanDirectionIsForward(direction) || execution->copied.rows > 0) {
        execution->cache = CacheMode::Abandoned;
        return;
    }
    auto* copying =
        static_cast<CopyingReceiver*>(MemoryContextAllocZero(execution->context, sizeof(CopyingReceiver)));
    copying->receiver.receiveSlot = copying_receive;
    copying->receiver.rStartup = copying_startup;
    copying->receiver.rShutdown = copying_shutdown;
    copying->receiver.rDestroy = copying_destroy;
    copying->receiver.mydest = query->dest->mydest;
    copying->target = query->dest;
    copying->execution = execution;
    query->dest = &copying->receiver;
}

void restore_destination(QueryDesc* query) {
    ReleaseExecution* execution = release_execution_of(query->estate);
    if (execution == nullptr || query->dest == nullptr || query->dest->receiveSlot != copying_receive) return;
    query->dest = reinterpret_cast<CopyingReceiver*>(query->dest)->target;
    if (execution->cache == CacheMode::Storing) execution->copied.completed = true;
}

}  // namespace pgdp::pg
