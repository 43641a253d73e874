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
#include "port/pg_bswap.h"
#include "executor/executor.h"
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

#include "pg/base/sha256.hpp"
#include "pg/calls/aggregate_call.hpp"
#include "pg/planning/distributed_release.hpp"
#include "pg/planning/person_level.hpp"
#include "pg/planning/plan_marks.hpp"
#include "pg/catalog/protected_relations.hpp"
#include "pg/planning/query_builder.hpp"
#include "pg/catalog/epochs.hpp"
#include "pg/execution/authorize.hpp"
#include "pg/execution/dry_run.hpp"
#include "pg/execution/release_execution.hpp"
#include "pg/trust/release_trust.hpp"
#include "pg/trust/running_statements.hpp"
#include "pg/channels/statement_seal.hpp"

namespace pgdp::pg {

ReleaseCacheSettings release_cache_settings{true, 7 * 24 * 3600, 1024 * 1024, 64 * 1024 * 1024, 5000};

namespace {

// The lock of first requests: a heavyweight lock with an advisory tag whose fourth field no SQL
// function produces (pg_advisory_* use 1 for a bigint key and 2 for two int keys), so no role can
// take it, wait for it or hold it; the first field is "pgdp".
constexpr int32 kLockSpace = 0x70676470;
constexpr uint16 kFirstRequestLockField = 0x6470;

// Whether the latest statement of this backend with pgdp releases was answered from the cache.
bool latest_answer_cached = false;

// ---- keys -----------------------------------------------------------------------------------

int compare_oids(const void* a, const void* b) {
    const Oid x = *static_cast<const Oid*>(a);
    const Oid y = *static_cast<const Oid*>(b);
    return x < y ? -1 : (x > y ? 1 : 0);
}

// What a plan reads: its range table's relations and, for a release over Citus tables, those of
// its partials queries (which the coordinator's plan does not list).
struct PlanReads {
    List* entries;               // RangeTblEntry* of relations and of views (compat::is_view_reference)
    List* partials_entries;      // those of partials queries
    List* partials_permissions;  // their compat::Permission entries (checked on a hit)
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
    PlanReads reads{NIL, NIL, NIL};
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
        reads.partials_permissions =
            list_concat(reads.partials_permissions, relation_permissions((Node*)partials));
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
        compat::check_permissions(reads.partials_permissions);
        refuse_citus_reads_as_another_role(reads.partials_permissions);
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

bool is_release_report(Oid type);

// A dp_release stored before the type gained fields (0.12's nine, before the bounds of 0.13) is
// not this statement's answer: its binary form (a record's, which begins with its number of
// fields) would not be received as the current type. It is answered afresh (and charged), and
// the new release replaces the stored one.
bool reports_have_current_fields(const ServedRows& served, TupleDesc result) {
    for (int column = 0; column < result->natts; ++column) {
        const Oid type = TupleDescAttr(result, column)->atttypid;
        if (!is_release_report(type)) continue;
        TupleDesc descriptor = lookup_rowtype_tupdesc(type, -1);
        const int fields = descriptor->natts;
        ReleaseTupleDesc(descriptor);
        for (int row = 0; row < served.rows; ++row) {
            const int cell = row * served.columns + column;
            if (served.cell_nulls[cell]) continue;
            const bytea* bytes = DatumGetByteaPP(served.cells[cell]);
            if (VARSIZE_ANY_EXHDR(bytes) < 4) return false;
            uint32 stored = 0;
            std::memcpy(&stored, VARDATA_ANY(bytes), 4);
            if (static_cast<int>(pg_ntoh32(stored)) != fields) return false;
        }
    }
    return true;
}

// The stored answer of the execution's key, which it then serves; false if none, expired, or
// stored for other result columns.
bool load_answer(QueryDesc* query, ReleaseExecution& execution) {
    const CacheKey& key = execution.key;
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
        const TimestampTz oldest = GetCurrentStatementStartTimestamp() -
                                   static_cast<int64>(release_cache_settings.max_age_seconds) * USECS_PER_SEC;
        if (release_cache_settings.max_age_seconds > 0 && released_at < oldest) return;
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
    ServedRows& served = execution.served;
    MemoryContext old = MemoryContextSwitchTo(context);
    int cell_count = 0;
    deconstruct_array(cells, BYTEAOID, -1, false, TYPALIGN_INT, &served.cells, &served.cell_nulls,
                      &cell_count);
    MemoryContextSwitchTo(old);
    served.rows = rows;
    served.columns = result->natts;
    if (cell_count != rows * result->natts) {
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("invalid pgdp release cache entry"),
                        errhint("An admin can remove it with pgdp.purge_cache().")));
    }
    if (!reports_have_current_fields(served, result)) return false;
    execution.cache = CacheMode::Serving;
    return true;
}

// The key, in the execution's memory.
void keep_key(ReleaseExecution& execution, const CacheKey& key) {
    execution.key.scope = MemoryContextStrdup(execution.context, key.scope);
    execution.key.epochs = MemoryContextStrdup(execution.context, key.epochs);
    std::memcpy(execution.key.key, key.key, sizeof(key.key));
}

bool may_store() { return !RecoveryInProgress() && !XactReadOnly && !IsParallelWorker(); }

// The first-request lock of a key (held to the end of the transaction), waited for at most
// pgdp.release_cache_lock_timeout; false if it could not be had by then. Polled without waiting in
// the lock manager: the wait is bounded and cancellable, and no deadlock can involve it.
bool take_first_request_lock(int32 lock_word) {
    const TimestampTz deadline = TimestampTzPlusMilliseconds(
        GetCurrentTimestamp(), static_cast<int64>(release_cache_settings.lock_timeout_ms));
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

// ---- serving --------------------------------------------------------------------------------

// pgdp's own dp_release (the type of the extension's schema; another type of that name is not
// it), which has from_cache as its 9th field since 0.8: true in answers from the cache (0.13 adds
// the bounds after it; they are stored with the rest of the record).
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
        report = descriptor->natts >= 9 && TupleDescAttr(descriptor, 8)->atttypid == BOOLOID &&
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
    Datum* values = static_cast<Datum*>(palloc(sizeof(Datum) * descriptor->natts));
    bool* nulls = static_cast<bool*>(palloc(sizeof(bool) * descriptor->natts));
    heap_deform_tuple(&tuple, descriptor, values, nulls);
    values[8] = BoolGetDatum(true);
    nulls[8] = false;
    HeapTuple marked = heap_form_tuple(descriptor, values, nulls);
    ReleaseTupleDesc(descriptor);
    return HeapTupleGetDatum(marked);
}

// The dp_release field from_cache (its 9th) as a column of its own: (dp_sum_ci(...)).* writes one
// column per field. True if the expression computing result column `column` of `plan` is that
// field, directly or passed up from a lower node (a sort, a limit, a subquery, a CTE); a column of
// anything else (a constant named from_cache) is left as stored.
bool is_from_cache_field(const PlannedStmt* statement, const Plan* plan, int column) {
    check_stack_depth();
    if (plan == nullptr || column < 1 || column > list_length(plan->targetlist)) return false;
    const Expr* expression = list_nth_node(TargetEntry, plan->targetlist, column - 1)->expr;
    if (IsA(expression, FieldSelect)) {
        const auto* field = castNode(FieldSelect, expression);
        return field->fieldnum == 9 && is_release_report(exprType((Node*)field->arg));
    }
    if (!IsA(expression, Var)) return false;
    const auto* var = castNode(Var, expression);
    if (var->varno == OUTER_VAR) return is_from_cache_field(statement, plan->lefttree, var->varattno);
    if (var->varno == INNER_VAR) return is_from_cache_field(statement, plan->righttree, var->varattno);
    if (IsA(plan, SubqueryScan) &&
        var->varno == static_cast<int>(castNode(SubqueryScan, plan)->scan.scanrelid))
        return is_from_cache_field(statement, castNode(SubqueryScan, plan)->subplan, var->varattno);
    if (IsA(plan, CteScan) && var->varno == static_cast<int>(castNode(CteScan, plan)->scan.scanrelid)) {
        const int id = castNode(CteScan, plan)->ctePlanId;
        if (id < 1 || id > list_length(statement->subplans)) return false;
        return is_from_cache_field(statement, static_cast<Plan*>(list_nth(statement->subplans, id - 1)),
                                   var->varattno);
    }
    return false;
}

}  // namespace

void define_release_cache_settings() {
    DefineCustomBoolVariable(
        "pgdp.release_cache", "Answer repeated releases from the release cache.",
        "A SELECT with pgdp releases over relations with data epochs is stored and answered "
        "again, at no charge, until an epoch advances. Off: every run is a new release.",
        &release_cache_settings.enabled, true, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomIntVariable("pgdp.release_cache_max_age", "How long a cached release is answered again.",
                            "Older entries are neither answered nor kept (0: no limit).",
                            &release_cache_settings.max_age_seconds, 7 * 24 * 3600, 0, INT_MAX, PGC_SUSET,
                            GUC_UNIT_S, nullptr, nullptr, nullptr);
    DefineCustomIntVariable(
        "pgdp.release_cache_max_entry_bytes", "Largest result the release cache stores for one statement.",
        "Bytes of its statement text, epochs and the binary forms of its cells; a larger release is returned "
        "and charged "
        "but not stored (a WARNING says so). Admins only.",
        &release_cache_settings.max_entry_bytes, 1024 * 1024, 0, INT_MAX, PGC_SUSET, GUC_UNIT_BYTE, nullptr,
        nullptr, nullptr);
    DefineCustomIntVariable(
        "pgdp.release_cache_max_role_bytes", "Most the release cache stores for the releases of one role.",
        "Bytes of the role's entries (statement texts, epochs, cells); a release that would exceed it is "
        "returned and charged but not stored (a WARNING says so). Admins only.",
        &release_cache_settings.max_role_bytes, 64 * 1024 * 1024, 0, INT_MAX, PGC_SUSET, GUC_UNIT_BYTE,
        nullptr, nullptr, nullptr);
    DefineCustomIntVariable(
        "pgdp.release_cache_lock_timeout", "How long a first request waits for a concurrent identical one.",
        "After this, the statement is released and charged without the cache (not stored). "
        "Admins only.",
        &release_cache_settings.lock_timeout_ms, 5000, 0, INT_MAX, PGC_SUSET, GUC_UNIT_MS, nullptr, nullptr,
        nullptr);
}

bool answer_from_release_cache(QueryDesc* query) {
    StatementFingerprint fingerprint;
    if (!read_fingerprint(query->plannedstmt, &fingerprint)) return false;  // no release
    const bool dry = is_dry_run(query);
    if (!dry) latest_answer_cached = false;
    if (!release_cache_settings.enabled || IsParallelWorker() || query->operation != CMD_SELECT ||
        query->plannedstmt->hasModifyingCTE || query->instrument_options != 0) {
        return false;
    }
    CacheKey key{};
    if (!make_key(query, fingerprint, &key)) return false;
    // An answer is given where a release could be made: not to code of a role the session user
    // does not trust (which could otherwise read the session user's cached releases), not in
    // maintenance operations; refused as the release itself would be.
    ReleaseExecution& execution = begin_release_execution(query);
    authorize(query, execution, Purpose::CachedAnswer);
    keep_key(execution, key);
    if (dry) {
        // A dry run looks the answer up only (no lock, nothing stored), and goes on to the charge
        // for the releases it reports.
        if (load_answer(query, execution)) note_dry_run_cached();
        execution.cache = CacheMode::None;
        return false;
    }
    if (load_answer(query, execution)) return latest_answer_cached = true;
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
                       release_cache_settings.lock_timeout_ms)));
        end_own_notice();
        return false;
    }
    if (load_answer(query, execution)) return latest_answer_cached = true;
    execution.cache = CacheMode::Storing;
    // The entry's bytes count the statement's text it stores (a comment can make it megabytes)
    // and its epochs, like the cells: with its 4-byte length.
    execution.copied.bytes =
        static_cast<int64>(std::strlen(query->sourceText != nullptr ? query->sourceText : "")) +
        static_cast<int64>(std::strlen(key.epochs)) + 8;
    if (execution.copied.bytes > static_cast<int64>(release_cache_settings.max_entry_bytes)) {
        execution.cache = CacheMode::Abandoned;
        execution.copied.too_large = true;
    }
    return false;
}

bool run_from_release_cache(QueryDesc* query, ScanDirection direction, uint64 count) {
    ReleaseExecution* execution = release_execution_of(query->estate);
    if (execution == nullptr || execution->cache != CacheMode::Serving) return false;
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
    // The from_cache field written as a column of its own ((dp_sum_ci(...)).*) says true too.
    bool* from_cache_columns = static_cast<bool*>(palloc0(sizeof(bool) * (descriptor->natts + 1)));
    int column = 0;
    ListCell* cell;
    foreach (cell, query->plannedstmt->planTree->targetlist) {
        if (lfirst_node(TargetEntry, cell)->resjunk) continue;
        if (column < descriptor->natts && TupleDescAttr(descriptor, column)->atttypid == BOOLOID) {
            from_cache_columns[column] = is_from_cache_field(query->plannedstmt, query->plannedstmt->planTree,
                                                             foreach_current_index (cell) + 1);
        }
        ++column;
    }
    uint64 sent = 0;
    while (execution->served.position < execution->served.rows && (count == 0 || sent < count)) {
        ExecClearTuple(slot);
        MemoryContextReset(row_context);
        MemoryContext old = MemoryContextSwitchTo(row_context);
        for (int i = 0; i < descriptor->natts; ++i) {
            const int cell = execution->served.position * execution->served.columns + i;
            slot->tts_isnull[i] = execution->served.cell_nulls[cell];
            if (slot->tts_isnull[i]) continue;
            const bytea* bytes = DatumGetByteaPP(execution->served.cells[cell]);
            StringInfoData buffer;
            initStringInfo(&buffer);
            appendBinaryStringInfo(&buffer, VARDATA_ANY(bytes), VARSIZE_ANY_EXHDR(bytes));
            const Form_pg_attribute attribute = TupleDescAttr(descriptor, i);
            slot->tts_values[i] =
                ReceiveFunctionCall(&receive[i], &buffer, parameters[i], attribute->atttypmod);
            if (reports[i]) slot->tts_values[i] = marked_from_cache(slot->tts_values[i], attribute->atttypid);
            if (from_cache_columns[i]) slot->tts_values[i] = BoolGetDatum(true);
        }
        MemoryContextSwitchTo(old);
        ExecStoreVirtualTuple(slot);
        ++execution->served.position;
        ++sent;
        if (!destination->receiveSlot(slot, destination)) break;
    }
    destination->rShutdown(destination);
    ExecDropSingleTupleTableSlot(slot);
    MemoryContextDelete(row_context);
    query->estate->es_processed = sent;
    return true;
}

bool latest_release_answered_from_cache() { return latest_answer_cached; }

}  // namespace pgdp::pg
