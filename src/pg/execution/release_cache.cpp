#include "pg/execution/release_cache.hpp"
#include "pg/base/pg_compat.hpp"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/parallel.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/dependency.h"
#include "commands/extension.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "access/transam.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "common/cryptohash.h"
#include "common/hashfn.h"
#include "common/sha2.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "storage/lock.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
}

#include <cstring>

#include "pg/calls/aggregate_call.hpp"
#include "pg/planning/distributed_release.hpp"
#include "pg/planning/person_level.hpp"
#include "pg/planning/plan_marks.hpp"
#include "pg/catalog/protected_relations.hpp"
#include "pg/planning/query_builder.hpp"
#include "pg/execution/release_charge.hpp"
#include "pg/trust/release_trust.hpp"
#include "pg/trust/running_statements.hpp"
#include "pg/channels/statement_seal.hpp"

namespace pgdp::pg {
namespace {

bool cache_enabled = true;
int cache_max_age_seconds = 7 * 24 * 3600;
// Bounds of what one entry and one role's entries may store (bytes of the statement's text, its
// epochs and the cells' binary forms);
// set by admins only (PGC_SUSET): an analyst cannot fill the table it cannot delete from.
int cache_max_entry_bytes = 1024 * 1024;
int cache_max_role_bytes = 64 * 1024 * 1024;
// How long a first request waits for a concurrent identical one before it releases uncached.
int cache_lock_timeout_ms = 5000;

// At most this many cells (rows x columns) are stored per statement; larger results are not cached.
constexpr int64 kMaxCells = 100000;
// The lock of first requests: a heavyweight lock with an advisory tag whose fourth field no SQL
// function produces (pg_advisory_* use 1 for a bigint key and 2 for two int keys), so no role can
// take it, wait for it or hold it; the first field is "pgdp".
constexpr int32 kLockSpace = 0x70676470;
constexpr uint16 kFirstRequestLockField = 0x6470;

// Whether the latest statement of this backend with pgdp releases was answered from the cache.
bool latest_answer_cached = false;

// ---- fingerprints ---------------------------------------------------------------------------

// The query tree's text with every parse location (and the statement's position in its string,
// and a query id another module may have set) written as 0: the same statement written with other
// spacing, case or comments has the same fingerprint; other constants, tables or columns do not.
char* normalized_tree(Query* parse) {
    const char* text = nodeToString(parse);
    static const char* const kFields[] = {":location ", ":stmt_location ", ":stmt_len ", ":queryId "};
    StringInfoData out;
    initStringInfo(&out);
    for (const char* p = text; *p != '\0';) {
        bool replaced = false;
        for (const char* field : kFields) {
            const size_t length = std::strlen(field);
            if (std::strncmp(p, field, length) == 0) {
                appendStringInfoString(&out, field);
                appendStringInfoChar(&out, '0');
                p += length;
                if (*p == '-') ++p;
                while (*p >= '0' && *p <= '9') ++p;
                replaced = true;
                break;
            }
        }
        if (!replaced) appendStringInfoChar(&out, *p++);
    }
    return out.data;
}

pg_cryptohash_ctx* begin_sha256() {
    pg_cryptohash_ctx* context = pg_cryptohash_create(PG_SHA256);
    if (context == nullptr || pg_cryptohash_init(context) < 0) elog(ERROR, "pgdp: SHA-256 unavailable");
    return context;
}

void add_bytes(pg_cryptohash_ctx* context, const void* data, size_t length) {
    if (pg_cryptohash_update(context, static_cast<const uint8*>(data), length) < 0) {
        elog(ERROR, "pgdp: SHA-256 failed");
    }
}

void end_sha256(pg_cryptohash_ctx* context, uint8* digest) {
    if (pg_cryptohash_final(context, digest, PG_SHA256_DIGEST_LENGTH) < 0)
        elog(ERROR, "pgdp: SHA-256 failed");
    pg_cryptohash_free(context);
}

// What a statement calls, for its fingerprint (fingerprint_statement).
struct StatementCalls {
    List* user_functions;  // OIDs of functions that are not built in
    bool volatile_call;    // a volatile function, or current_setting(): not cached at all
    bool not_shareable;    // anything but built-in immutable functions, or who is running it
};

// pgdp's own functions and aggregates count as built in (they are the extension's code).
bool is_pgdp_function(Oid function) {
    const Oid extension = get_extension_oid("pgdp", true);
    return OidIsValid(extension) && getExtensionOfObject(ProcedureRelationId, function) == extension;
}

void note_function(Oid function, StatementCalls* calls) {
    if (function >= FirstNormalObjectId && is_pgdp_function(function)) return;
    if (function == F_CURRENT_SETTING_TEXT || function == F_CURRENT_SETTING_TEXT_BOOL)
        calls->volatile_call = true;
    const char volatility = func_volatile(function);
    if (volatility == PROVOLATILE_VOLATILE) calls->volatile_call = true;
    if (volatility != PROVOLATILE_IMMUTABLE || function >= FirstNormalObjectId) calls->not_shareable = true;
    if (function >= FirstNormalObjectId)
        calls->user_functions = list_append_unique_oid(calls->user_functions, function);
}

// ---- catalog reads --------------------------------------------------------------------------

Oid pgdp_relation(const char* name) {
    const Oid schema = get_namespace_oid("pgdp", true);
    return OidIsValid(schema) ? get_relname_relid(name, schema) : InvalidOid;
}

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
char* epoch_of(Oid relation, Snapshot snapshot) {
    char* result = nullptr;
    auto read = [&](TupleDesc descriptor, HeapTuple row) {
        bool is_null = false;
        const int64 epoch = DatumGetInt64(heap_getattr(row, 2, descriptor, &is_null));
        const Datum interval_datum = heap_getattr(row, 4, descriptor, &is_null);
        if (is_null) {
            result = psprintf(INT64_FORMAT, epoch);
        } else {
            const Interval* interval = DatumGetIntervalP(interval_datum);
            const int64 length = interval->time + static_cast<int64>(interval->day) * USECS_PER_DAY;
            const TimestampTz now = GetCurrentStatementStartTimestamp();
            // Windows counted from 2000-01-01 (PostgreSQL's timestamp zero), fixed-length periods.
            const int64 window = length > 0 ? (now >= 0 ? now / length : -((-now + length - 1) / length)) : 0;
            result = psprintf(INT64_FORMAT "/" INT64_FORMAT, epoch, window);
        }
    };
    ScanKeyData key;
    ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(relation));
    if (read_by_key("data_epochs", "data_epochs_pkey", 1, &key, read, snapshot)) return result;
    if (get_rel_relispartition(relation)) {
        List* ancestors = get_partition_ancestors(relation);
        if (ancestors != NIL) {
            ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(llast_oid(ancestors)));
            if (read_by_key("data_epochs", "data_epochs_pkey", 1, &key, read, snapshot)) return result;
        }
    }
    return nullptr;
}

// The cache group of a role, or nullptr.
char* cache_group_of(Oid role) {
    char* group = nullptr;
    ScanKeyData key;
    ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(role));
    read_by_key("cache_groups", "cache_groups_pkey", 1, &key, [&](TupleDesc descriptor, HeapTuple row) {
        bool is_null = false;
        group = pstrdup(NameStr(*DatumGetName(heap_getattr(row, 2, descriptor, &is_null))));
    });
    return group;
}

bool has_row_security(Oid relation) {
    HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relation));
    if (!HeapTupleIsValid(tuple)) return false;
    const bool enabled = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->relrowsecurity;
    ReleaseSysCache(tuple);
    return enabled;
}

// ---- keys -----------------------------------------------------------------------------------

struct CacheKey {
    char* scope;  // "role:<oid>" or "group:<name>"
    uint8 key[PG_SHA256_DIGEST_LENGTH];
    char* epochs;  // "oid:epoch,..." sorted by OID
};

int compare_oids(const void* a, const void* b) {
    const Oid x = *static_cast<const Oid*>(a);
    const Oid y = *static_cast<const Oid*>(b);
    return x < y ? -1 : (x > y ? 1 : 0);
}

// What a plan reads: its range table's relations and, for a release over Citus tables, those of
// its partials queries (which the coordinator's plan does not list).
struct PlanReads {
    List* entries;           // RangeTblEntry* of relations and of views (compat::is_view_reference)
    List* partials_entries;  // those of partials queries (their permissions are checked on a hit)
};

// The partials scans of a plan (the flattened range table keeps no function expressions).
void collect_partials(const Plan* plan, List** calls) {
    if (plan == nullptr) return;
    check_stack_depth();
    if (IsA(plan, FunctionScan)) {
        ListCell* cell;
        foreach (cell, castNode(FunctionScan, plan)->functions) {
            Node* call = lfirst_node(RangeTblFunction, cell)->funcexpr;
            if (is_distributed_partials_call(call)) *calls = lappend(*calls, call);
        }
    }
    ListCell* cell;
    if (IsA(plan, Append)) {
        foreach (cell, castNode(Append, plan)->appendplans)
            collect_partials(static_cast<Plan*>(lfirst(cell)), calls);
    } else if (IsA(plan, MergeAppend)) {
        foreach (cell, castNode(MergeAppend, plan)->mergeplans)
            collect_partials(static_cast<Plan*>(lfirst(cell)), calls);
    } else if (IsA(plan, SubqueryScan)) {
        collect_partials(castNode(SubqueryScan, plan)->subplan, calls);
    }
    collect_partials(plan->lefttree, calls);
    collect_partials(plan->righttree, calls);
}

PlanReads plan_reads(const PlannedStmt* statement) {
    PlanReads reads{NIL, NIL};
    ListCell* cell;
    foreach (cell, statement->rtable) {
        auto* entry = lfirst_node(RangeTblEntry, cell);
        if (entry->rtekind == RTE_RELATION || compat::is_view_reference(entry))
            reads.entries = lappend(reads.entries, entry);
    }
    List* calls = NIL;
    collect_partials(statement->planTree, &calls);
    foreach (cell, statement->subplans) collect_partials(static_cast<Plan*>(lfirst(cell)), &calls);
    foreach (cell, calls) {
        Query* partials = distributed_partials_query(castNode(FuncExpr, lfirst(cell)));
        reads.partials_entries = list_concat(reads.partials_entries, relation_entries((Node*)partials));
    }
    reads.entries = list_concat(reads.entries, reads.partials_entries);
    return reads;
}

// The epochs of the relations a plan reads (not views: their tables are read too); false if one
// of them has no epoch. *views: whether it reads a view.
bool statement_epochs(const PlanReads& reads, Snapshot snapshot, char** epochs, bool* row_security,
                      bool* views) {
    const int count = list_length(reads.entries);
    Oid* relations = static_cast<Oid*>(palloc(sizeof(Oid) * (count + 1)));
    int n = 0;
    *views = false;
    ListCell* cell;
    foreach (cell, reads.entries) {
        const auto* entry = lfirst_node(RangeTblEntry, cell);
        if (compat::is_view_reference(entry)) {
            *views = true;
            continue;
        }
        relations[n++] = entry->relid;
    }
    qsort(relations, n, sizeof(Oid), compare_oids);
    StringInfoData text;
    initStringInfo(&text);
    *row_security = false;
    for (int i = 0; i < n; ++i) {
        if (i > 0 && relations[i] == relations[i - 1]) continue;
        char* epoch = epoch_of(relations[i], snapshot);
        if (epoch == nullptr) return false;
        appendStringInfo(&text, "%s%u:%s", text.len > 0 ? "," : "", relations[i], epoch);
        if (has_row_security(relations[i])) *row_security = true;
    }
    *epochs = text.data;
    return n > 0;
}

bool add_parameters(pg_cryptohash_ctx* hash, ParamListInfo params) {
    const int count = params != nullptr ? params->numParams : 0;
    add_bytes(hash, &count, sizeof(count));
    for (int i = 0; i < count; ++i) {
        ParamExternData workspace;
        const ParamExternData* parameter = params->paramFetch != nullptr
                                               ? params->paramFetch(params, i + 1, false, &workspace)
                                               : &params->params[i];
        add_bytes(hash, &parameter->ptype, sizeof(Oid));
        const char null_flag = parameter->isnull ? 1 : 0;
        add_bytes(hash, &null_flag, 1);
        if (parameter->isnull || !OidIsValid(parameter->ptype)) continue;
        HeapTuple type = SearchSysCache1(TYPEOID, ObjectIdGetDatum(parameter->ptype));
        const bool sendable =
            HeapTupleIsValid(type) && OidIsValid(reinterpret_cast<Form_pg_type>(GETSTRUCT(type))->typsend);
        if (HeapTupleIsValid(type)) ReleaseSysCache(type);
        if (!sendable) return false;  // no binary form to key on: not cached
        Oid send = InvalidOid;
        bool varlena = false;
        getTypeBinaryOutputInfo(parameter->ptype, &send, &varlena);
        bytea* bytes = OidSendFunctionCall(send, parameter->value);
        const int32 length = VARSIZE(bytes) - VARHDRSZ;
        add_bytes(hash, &length, sizeof(length));
        add_bytes(hash, VARDATA(bytes), length);
    }
    return true;
}

// Settings that can change what a statement computes from the same tree (date and time
// conversions, number formatting in text casts) are part of its key.
void add_settings(pg_cryptohash_ctx* hash) {
    static const char* const kSettings[] = {
        "TimeZone",    "DateStyle",  "IntervalStyle", "extra_float_digits",
        "lc_monetary", "lc_numeric", "lc_time",       "bytea_output"};
    for (const char* name : kSettings) {
        const char* value = GetConfigOption(name, true, false);
        add_bytes(hash, name, std::strlen(name) + 1);
        if (value != nullptr) add_bytes(hash, value, std::strlen(value) + 1);
    }
}

bool make_key(QueryDesc* query, const StatementFingerprint& fingerprint, CacheKey* key) {
    bool row_security = false;
    bool views = false;
    const PlanReads reads = plan_reads(query->plannedstmt);
    if (!statement_epochs(reads, query->snapshot, &key->epochs, &row_security, &views)) return false;
    // A Citus release's tables are not in the coordinator's plan, so PostgreSQL's permission
    // check did not see them: checked here as the release's own start would (before any answer).
    if (reads.partials_entries != NIL) {
        (void)ExecCheckRTPerms(reads.partials_entries, true);
        refuse_citus_reads_as_another_role(reads.partials_entries);
    }
    // Roles of one cache group share answers only for statements whose rows cannot depend on who
    // runs them: no row security, no views (a view reads its tables with its owner's rights and
    // may filter on the user), only built-in immutable functions and nothing asking who runs it.
    const bool shareable = !row_security && shareable_plan(query->plannedstmt) && !views;
    char* group = shareable ? cache_group_of(GetSessionUserId()) : nullptr;
    key->scope = group != nullptr ? psprintf("group:%s", group) : psprintf("role:%u", GetSessionUserId());
    pg_cryptohash_ctx* hash = begin_sha256();
    add_bytes(hash, fingerprint.bytes, sizeof(fingerprint.bytes));
    if (!add_parameters(hash, query->params)) {
        pg_cryptohash_free(hash);
        return false;
    }
    add_settings(hash);
    add_bytes(hash, key->epochs, std::strlen(key->epochs));
    end_sha256(hash, key->key);
    return true;
}

// ---- executions -----------------------------------------------------------------------------

enum class Mode { Serving, Storing, Abandoned };

struct CacheExecution {
    CacheExecution* next;
    const EState* estate;
    MemoryContext context;  // the execution's es_query_cxt
    Mode mode;
    CacheKey key;
    // Serving: the stored cells (bytea or NULL), rows x columns.
    int rows;
    int columns;
    Datum* cells;
    bool* cell_nulls;
    int position;
    int running_depth;  // running statements when it was answered (release_trust.hpp)
    // Storing: the cells copied from the run.
    List* copied;  // bytea* or nullptr per cell, row-major
    int copied_rows;
    int64 copied_bytes;  // the statement text's and epochs' sizes and the copied cells'
    bool too_large;      // abandoned for pgdp.release_cache_max_entry_bytes
    bool completed;
};
CacheExecution* executions = nullptr;

void forget_execution(void* argument) {
    for (CacheExecution** link = &executions; *link != nullptr; link = &(*link)->next) {
        if (*link == argument) {
            *link = (*link)->next;
            return;
        }
    }
}

CacheExecution* new_execution(QueryDesc* query, Mode mode, const CacheKey& key) {
    MemoryContext context = query->estate->es_query_cxt;
    auto* execution = static_cast<CacheExecution*>(MemoryContextAllocZero(context, sizeof(CacheExecution)));
    execution->estate = query->estate;
    execution->context = context;
    execution->mode = mode;
    execution->key.scope = MemoryContextStrdup(context, key.scope);
    execution->key.epochs = MemoryContextStrdup(context, key.epochs);
    std::memcpy(execution->key.key, key.key, sizeof(key.key));
    auto* callback =
        static_cast<MemoryContextCallback*>(MemoryContextAllocZero(context, sizeof(MemoryContextCallback)));
    callback->func = forget_execution;
    callback->arg = execution;
    MemoryContextRegisterResetCallback(context, callback);
    execution->next = executions;
    executions = execution;
    return execution;
}

CacheExecution* execution_of(const EState* estate) {
    for (CacheExecution* execution = executions; execution != nullptr; execution = execution->next) {
        if (execution->estate == estate) return execution;
    }
    return nullptr;
}

// The stored answer of a key, into a serving execution; false if none, expired, or stored for
// other result columns.
bool load_answer(QueryDesc* query, const CacheKey& key) {
    ScanKeyData keys[2];
    ScanKeyInit(&keys[0], 1, BTEqualStrategyNumber, F_TEXTEQ, CStringGetTextDatum(key.scope));
    bytea* key_bytes = static_cast<bytea*>(palloc(VARHDRSZ + sizeof(key.key)));
    SET_VARSIZE(key_bytes, VARHDRSZ + sizeof(key.key));
    std::memcpy(VARDATA(key_bytes), key.key, sizeof(key.key));
    ScanKeyInit(&keys[1], 2, BTEqualStrategyNumber, F_BYTEAEQ, PointerGetDatum(key_bytes));
    bool usable = false;
    ArrayType* types = nullptr;
    ArrayType* cells = nullptr;
    int rows = 0;
    MemoryContext context = query->estate->es_query_cxt;
    read_by_key("release_cache", "release_cache_pkey", 2, keys, [&](TupleDesc descriptor, HeapTuple row) {
        bool is_null = false;
        const TimestampTz released_at = DatumGetTimestampTz(heap_getattr(row, 10, descriptor, &is_null));
        const TimestampTz oldest =
            GetCurrentStatementStartTimestamp() - static_cast<int64>(cache_max_age_seconds) * USECS_PER_SEC;
        if (cache_max_age_seconds > 0 && released_at < oldest) return;
        MemoryContext old = MemoryContextSwitchTo(context);
        types = DatumGetArrayTypePCopy(heap_getattr(row, 5, descriptor, &is_null));
        rows = DatumGetInt32(heap_getattr(row, 6, descriptor, &is_null));
        cells = DatumGetArrayTypePCopy(heap_getattr(row, 7, descriptor, &is_null));
        MemoryContextSwitchTo(old);
        usable = true;
    });
    if (!usable) return false;
    const TupleDesc result = query->tupDesc;
    Datum* type_values = nullptr;
    int type_count = 0;
    deconstruct_array(types, OIDOID, sizeof(Oid), true, TYPALIGN_INT, &type_values, nullptr, &type_count);
    if (result == nullptr || type_count != result->natts) return false;
    for (int i = 0; i < type_count; ++i) {
        if (DatumGetObjectId(type_values[i]) != TupleDescAttr(result, i)->atttypid) return false;
    }
    CacheExecution* execution = new_execution(query, Mode::Serving, key);
    execution->running_depth = running_depth();
    MemoryContext old = MemoryContextSwitchTo(context);
    int cell_count = 0;
    deconstruct_array(cells, BYTEAOID, -1, false, TYPALIGN_INT, &execution->cells, &execution->cell_nulls,
                      &cell_count);
    MemoryContextSwitchTo(old);
    execution->rows = rows;
    execution->columns = result->natts;
    if (cell_count != rows * result->natts) {
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("invalid pgdp release cache entry"),
                        errhint("An admin can remove it with pgdp.purge_cache().")));
    }
    return true;
}

bool may_store() { return !RecoveryInProgress() && !XactReadOnly && !IsParallelWorker(); }

// The first-request lock of a key (held to the end of the transaction), waited for at most
// pgdp.release_cache_lock_timeout; false if it could not be had by then. Polled without waiting in
// the lock manager: the wait is bounded and cancellable, and no deadlock can involve it.
bool take_first_request_lock(int32 lock_word) {
    const TimestampTz deadline =
        TimestampTzPlusMilliseconds(GetCurrentTimestamp(), static_cast<int64>(cache_lock_timeout_ms));
    for (;;) {
        LOCKTAG tag;
        SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, static_cast<uint32>(kLockSpace),
                             static_cast<uint32>(lock_word), kFirstRequestLockField);
        if (LockAcquire(&tag, ExclusiveLock, false, true) != LOCKACQUIRE_NOT_AVAIL) return true;
        if (GetCurrentTimestamp() >= deadline) return false;
        (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10, PG_WAIT_EXTENSION);
        ResetLatch(MyLatch);
        CHECK_FOR_INTERRUPTS();
    }
}

// ---- the copying receiver -------------------------------------------------------------------

struct CopyingReceiver {
    DestReceiver receiver;  // first: PostgreSQL calls through it
    DestReceiver* target;
    CacheExecution* execution;
    FmgrInfo* send;
    int columns;
};

void copying_startup(DestReceiver* self, int operation, TupleDesc descriptor) {
    auto* copying = reinterpret_cast<CopyingReceiver*>(self);
    CacheExecution* execution = copying->execution;
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
            execution->mode = Mode::Abandoned;  // not storable in binary form
            break;
        }
        getTypeBinaryOutputInfo(type, &send, &varlena);
        fmgr_info_cxt(send, &copying->send[i], execution->context);
    }
    copying->target->rStartup(copying->target, operation, descriptor);
}

bool copying_receive(TupleTableSlot* slot, DestReceiver* self) {
    auto* copying = reinterpret_cast<CopyingReceiver*>(self);
    CacheExecution* execution = copying->execution;
    if (execution->mode == Mode::Storing) {
        if (static_cast<int64>(execution->copied_rows + 1) * copying->columns > kMaxCells) {
            execution->mode = Mode::Abandoned;
        } else {
            slot_getallattrs(slot);
            MemoryContext old = MemoryContextSwitchTo(execution->context);
            for (int i = 0; i < copying->columns; ++i) {
                bytea* cell =
                    slot->tts_isnull[i] ? nullptr : SendFunctionCall(&copying->send[i], slot->tts_values[i]);
                if (cell != nullptr) execution->copied_bytes += VARSIZE(cell);
                execution->copied = lappend(execution->copied, cell);
            }
            MemoryContextSwitchTo(old);
            ++execution->copied_rows;
            if (execution->copied_bytes > static_cast<int64>(cache_max_entry_bytes)) {
                execution->mode = Mode::Abandoned;  // the copy is dropped with the execution's memory
                execution->too_large = true;
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

Datum cell_array(const CacheExecution& execution) {
    const int count = list_length(execution.copied);
    Datum* values = static_cast<Datum*>(palloc(sizeof(Datum) * (count + 1)));
    bool* nulls = static_cast<bool*>(palloc(sizeof(bool) * (count + 1)));
    int i = 0;
    ListCell* cell;
    foreach (cell, execution.copied) {
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
void store_answer(QueryDesc* query, const CacheExecution& execution) {
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
                       Int32GetDatum(execution.copied_rows),
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
        values[6] = cell_array(execution);
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
        if (cache_max_age_seconds > 0) {
            Oid cutoff_type[1] = {TIMESTAMPTZOID};
            Datum cutoff[1] = {
                TimestampTzGetDatum(GetCurrentTransactionStartTimestamp() -
                                    static_cast<int64>(cache_max_age_seconds) * USECS_PER_SEC)};
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
        if (used + execution.copied_bytes > static_cast<int64>(cache_max_role_bytes)) {
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
        ereport(WARNING,
                (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
                 errmsg("pgdp did not store the release in the release cache: role \"%s\" has %lld bytes "
                        "stored, and this release's %lld bytes would exceed "
                        "pgdp.release_cache_max_role_bytes (%d)",
                        GetUserNameFromId(GetSessionUserId(), false), static_cast<long long>(role_used),
                        static_cast<long long>(execution.copied_bytes), cache_max_role_bytes),
                 errdetail("The release was made and charged; a repeat will be released and charged again."),
                 errhint("An admin can purge entries with pgdp.purge_cache() or raise "
                         "pgdp.release_cache_max_role_bytes.")));
        end_own_notice();
    }
}

}  // namespace

void store_release_if_complete(QueryDesc* query) {
    // Modules that report at the end of a plan (auto_explain) report into a sealed connection.
    seal_if_reading_hidden_rows(query->plannedstmt);
    CacheExecution* execution = execution_of(query->estate);
    if (execution != nullptr && execution->mode == Mode::Storing && execution->completed) {
        store_answer(query, *execution);
    } else if (execution != nullptr && execution->too_large && query->estate->es_finished) {
        begin_own_notice();
        ereport(WARNING,
                (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
                 errmsg("pgdp did not store the release in the release cache: its statement text and result "
                        "exceed pgdp.release_cache_max_entry_bytes (%d bytes)",
                        cache_max_entry_bytes),
                 errdetail("The release was made and charged; a repeat will be released and charged again."),
                 errhint("Ask for fewer or smaller rows with a shorter statement, or ask an admin to raise "
                         "pgdp.release_cache_max_entry_bytes.")));
        end_own_notice();
    }
}

namespace {

// pgdp's own dp_release (the type of the extension's schema; another type of that name is not
// it), which has from_cache as its 9th field since 0.8: true in answers from the cache.
// The verdict for the type last asked about (the hit path asks per column and hit; the catalog
// lookups behind it are for a changed type only). Reset by any pg_type change.
Oid known_type = InvalidOid;
bool known_verdict = false;
void forget_known_type(Datum, int, uint32) { known_type = InvalidOid; }

bool is_release_report(Oid type) {
    static bool callback_registered = false;
    if (!callback_registered) {
        CacheRegisterSyscacheCallback(TYPEOID, forget_known_type, 0);
        callback_registered = true;
    }
    if (OidIsValid(known_type) && type == known_type) return known_verdict;
    if (get_typtype(type) != TYPTYPE_COMPOSITE) return false;
    const char* name = get_typ_typrelid(type) != InvalidOid ? get_rel_name(get_typ_typrelid(type)) : nullptr;
    if (name == nullptr || std::strcmp(name, "dp_release") != 0) return false;
    const Oid extension = get_extension_oid("pgdp", true);
    bool report = OidIsValid(extension) && getExtensionOfObject(TypeRelationId, type) == extension;
    if (report) {
        TupleDesc descriptor = lookup_rowtype_tupdesc(type, -1);
        report = descriptor->natts == 9 && TupleDescAttr(descriptor, 8)->atttypid == BOOLOID &&
                 std::strcmp(NameStr(TupleDescAttr(descriptor, 8)->attname), "from_cache") == 0;
        ReleaseTupleDesc(descriptor);
    }
    known_type = type;
    known_verdict = report;
    return report;
}

Datum marked_from_cache(Datum record, Oid type) {
    HeapTupleHeader header = DatumGetHeapTupleHeader(record);
    TupleDesc descriptor = lookup_rowtype_tupdesc(type, -1);
    HeapTupleData tuple;
    tuple.t_len = HeapTupleHeaderGetDatumLength(header);
    ItemPointerSetInvalid(&tuple.t_self);
    tuple.t_tableOid = InvalidOid;
    tuple.t_data = header;
    Datum values[9];
    bool nulls[9];
    heap_deform_tuple(&tuple, descriptor, values, nulls);
    values[8] = BoolGetDatum(true);
    nulls[8] = false;
    HeapTuple marked = heap_form_tuple(descriptor, values, nulls);
    ReleaseTupleDesc(descriptor);
    return HeapTupleGetDatum(marked);
}

}  // namespace

void define_release_cache_settings() {
    DefineCustomBoolVariable(
        "pgdp.release_cache", "Answer repeated releases from the release cache.",
        "A SELECT with pgdp releases over relations with data epochs is stored and answered "
        "again, at no charge, until an epoch advances. Off: every run is a new release.",
        &cache_enabled, true, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomIntVariable("pgdp.release_cache_max_age", "How long a cached release is answered again.",
                            "Older entries are neither answered nor kept (0: no limit).",
                            &cache_max_age_seconds, 7 * 24 * 3600, 0, INT_MAX, PGC_SUSET, GUC_UNIT_S, nullptr,
                            nullptr, nullptr);
    DefineCustomIntVariable(
        "pgdp.release_cache_max_entry_bytes", "Largest result the release cache stores for one statement.",
        "Bytes of its statement text, epochs and the binary forms of its cells; a larger release is returned "
        "and charged "
        "but not stored (a WARNING says so). Admins only.",
        &cache_max_entry_bytes, 1024 * 1024, 0, INT_MAX, PGC_SUSET, GUC_UNIT_BYTE, nullptr, nullptr, nullptr);
    DefineCustomIntVariable(
        "pgdp.release_cache_max_role_bytes", "Most the release cache stores for the releases of one role.",
        "Bytes of the role's entries (statement texts, epochs, cells); a release that would exceed it is "
        "returned and charged but not stored (a WARNING says so). Admins only.",
        &cache_max_role_bytes, 64 * 1024 * 1024, 0, INT_MAX, PGC_SUSET, GUC_UNIT_BYTE, nullptr, nullptr,
        nullptr);
    DefineCustomIntVariable(
        "pgdp.release_cache_lock_timeout", "How long a first request waits for a concurrent identical one.",
        "After this, the statement is released and charged without the cache (not stored). "
        "Admins only.",
        &cache_lock_timeout_ms, 5000, 0, INT_MAX, PGC_SUSET, GUC_UNIT_MS, nullptr, nullptr, nullptr);
}

bool fingerprint_statement(Query* parse, const ReleaseQuery& analysis, StatementFingerprint* fingerprint) {
    if (parse->commandType != CMD_SELECT || analysis.empty()) return false;
    StatementCalls calls{};
    calls.not_shareable = analysis.asks_who_runs;
    ListCell* cell;
    foreach (cell, analysis.functions) note_function(lfirst_oid(cell), &calls);
    if (calls.volatile_call) return false;
    char* text = normalized_tree(parse);
    pg_cryptohash_ctx* hash = begin_sha256();
    add_bytes(hash, text, std::strlen(text));
    // A function redefined since (CREATE OR REPLACE keeps its OID) is another statement.
    foreach (cell, calls.user_functions) {
        const Oid function = lfirst_oid(cell);
        HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
        const TransactionId version = HeapTupleIsValid(tuple) ? HeapTupleHeaderGetRawXmin(tuple->t_data) : 0;
        if (HeapTupleIsValid(tuple)) ReleaseSysCache(tuple);
        add_bytes(hash, &function, sizeof(function));
        add_bytes(hash, &version, sizeof(version));
    }
    end_sha256(hash, fingerprint->bytes);
    fingerprint->shareable = !calls.not_shareable;
    pfree(text);
    return true;
}

bool answer_from_release_cache(QueryDesc* query) {
    StatementFingerprint fingerprint;
    if (!read_fingerprint(query->plannedstmt, &fingerprint)) return false;  // no release
    latest_answer_cached = false;
    if (!cache_enabled || IsParallelWorker() || query->operation != CMD_SELECT ||
        query->plannedstmt->hasModifyingCTE || query->instrument_options != 0) {
        return false;
    }
    CacheKey key{};
    if (!make_key(query, fingerprint, &key)) return false;
    // An answer is given where a release could be made: not to code of a role the session user
    // does not trust (which could otherwise read the session user's cached releases), not in
    // maintenance operations; refused as the release itself would be.
    authorize_answer(query);
    if (load_answer(query, key)) return latest_answer_cached = true;
    if (!may_store()) return false;
    // First request of this key: wait for a concurrent one to finish, then look again.
    // Per scope: roles of other scopes have nothing to share and must not wait for each other.
    int32 lock_word = 0;
    std::memcpy(&lock_word, key.key, sizeof(lock_word));
    lock_word ^= static_cast<int32>(hash_bytes(reinterpret_cast<const unsigned char*>(key.scope),
                                               static_cast<int>(std::strlen(key.scope))));
    if (!take_first_request_lock(lock_word)) {
        begin_own_notice();
        ereport(
            NOTICE,
            (errmsg("pgdp answered without the release cache: an identical first request is still running"),
             errdetail("Waited pgdp.release_cache_lock_timeout (%d ms); this release is charged and not "
                       "stored.",
                       cache_lock_timeout_ms)));
        end_own_notice();
        return false;
    }
    if (load_answer(query, key)) return latest_answer_cached = true;
    CacheExecution* storing = new_execution(query, Mode::Storing, key);
    // The entry's bytes count the statement's text it stores (a comment can make it megabytes)
    // and its epochs, like the cells: with its 4-byte length.
    storing->copied_bytes =
        static_cast<int64>(std::strlen(query->sourceText != nullptr ? query->sourceText : "")) +
        static_cast<int64>(std::strlen(key.epochs)) + 8;
    if (storing->copied_bytes > static_cast<int64>(cache_max_entry_bytes)) {
        storing->mode = Mode::Abandoned;
        storing->too_large = true;
    }
    return false;
}

bool run_from_release_cache(QueryDesc* query, ScanDirection direction, uint64 count) {
    CacheExecution* execution = execution_of(query->estate);
    if (execution == nullptr || execution->mode != Mode::Serving) return false;
    // Every run, like every run of a charged execution: nothing that became active since (another
    // role's code fetching a cursor) is given the answer.
    require_release_context_since(execution->running_depth, query->plannedstmt);
    query->estate->es_processed = 0;
    if (ScanDirectionIsNoMovement(direction)) {  // FETCH 0: no row
        query->dest->rStartup(query->dest, query->operation, query->tupDesc);
        query->dest->rShutdown(query->dest);
        return true;
    }
    if (ScanDirectionIsBackward(direction)) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("a release answered from the release cache cannot be fetched backwards"),
                        errhint("SET pgdp.release_cache = off for scrollable cursors.")));
    }
    const TupleDesc descriptor = query->tupDesc;
    DestReceiver* destination = query->dest;
    destination->rStartup(destination, query->operation, descriptor);
    TupleTableSlot* slot = MakeSingleTupleTableSlot(descriptor, &TTSOpsVirtual);
    MemoryContext row_context =
        AllocSetContextCreate(CurrentMemoryContext, "pgdp release cache row", ALLOCSET_DEFAULT_SIZES);
    FmgrInfo* receive = static_cast<FmgrInfo*>(palloc0(sizeof(FmgrInfo) * (descriptor->natts + 1)));
    Oid* parameters = static_cast<Oid*>(palloc0(sizeof(Oid) * (descriptor->natts + 1)));
    bool* reports = static_cast<bool*>(palloc0(sizeof(bool) * (descriptor->natts + 1)));
    for (int i = 0; i < descriptor->natts; ++i) {
        Oid function = InvalidOid;
        getTypeBinaryInputInfo(TupleDescAttr(descriptor, i)->atttypid, &function, &parameters[i]);
        fmgr_info(function, &receive[i]);
        reports[i] = is_release_report(TupleDescAttr(descriptor, i)->atttypid);
    }
    uint64 sent = 0;
    while (execution->position < execution->rows && (count == 0 || sent < count)) {
        ExecClearTuple(slot);
        MemoryContextReset(row_context);
        MemoryContext old = MemoryContextSwitchTo(row_context);
        for (int i = 0; i < descriptor->natts; ++i) {
            const int cell = execution->position * execution->columns + i;
            slot->tts_isnull[i] = execution->cell_nulls[cell];
            if (slot->tts_isnull[i]) continue;
            const bytea* bytes = DatumGetByteaPP(execution->cells[cell]);
            StringInfoData buffer;
            initStringInfo(&buffer);
            appendBinaryStringInfo(&buffer, VARDATA_ANY(bytes), VARSIZE_ANY_EXHDR(bytes));
            const Form_pg_attribute attribute = TupleDescAttr(descriptor, i);
            slot->tts_values[i] =
                ReceiveFunctionCall(&receive[i], &buffer, parameters[i], attribute->atttypmod);
            if (reports[i]) slot->tts_values[i] = marked_from_cache(slot->tts_values[i], attribute->atttypid);
        }
        MemoryContextSwitchTo(old);
        ExecStoreVirtualTuple(slot);
        ++execution->position;
        ++sent;
        if (!destination->receiveSlot(slot, destination)) break;
    }
    destination->rShutdown(destination);
    ExecDropSingleTupleTableSlot(slot);
    MemoryContextDelete(row_context);
    query->estate->es_processed = sent;
    return true;
}

void copy_rows_for_release_cache(QueryDesc* query, ScanDirection direction, uint64 count) {
    CacheExecution* execution = execution_of(query->estate);
    if (execution == nullptr || execution->mode != Mode::Storing) return;
    if (ScanDirectionIsNoMovement(direction)) return;  // FETCH 0 runs nothing
    // Only a run to completion in one call is stored (a cursor fetched in parts is not).
    if (count != 0 || !ScanDirectionIsForward(direction) || execution->copied_rows > 0) {
        execution->mode = Mode::Abandoned;
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
    CacheExecution* execution = execution_of(query->estate);
    if (execution == nullptr || query->dest == nullptr || query->dest->receiveSlot != copying_receive) return;
    query->dest = reinterpret_cast<CopyingReceiver*>(query->dest)->target;
    if (execution->mode == Mode::Storing) execution->completed = true;
}

}  // namespace pgdp::pg

extern "C" {
PG_FUNCTION_INFO_V1(pgdp_answered_from_cache);
// True if the latest statement of this session with pgdp releases was answered from the release
// cache (nothing charged), false if it was released and charged (or none ran yet).
Datum pgdp_answered_from_cache(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(pgdp::pg::latest_answer_cached); }
}
