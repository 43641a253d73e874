#include "pg/catalog/epochs.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "datatype/timestamp.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "access/xact.h"
}

namespace pgdp::pg {

Oid pgdp_relation(const char* name) {
    const Oid schema = get_namespace_oid("pgdp", true);
    return OidIsValid(schema) ? get_relname_relid(name, schema) : InvalidOid;
}

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

}  // namespace pgdp::pg
