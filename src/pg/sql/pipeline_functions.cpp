// SQL functions of the release pipeline (pgdp.sql.in): what its rewrites call, its triggers on
// pgdp's tables, and what it reports.
#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "commands/trigger.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/rel.h"
}

#include <cstdint>

#include "pg/base/cpp_boundary.hpp"
#include "pg/base/strong_random.hpp"
#include "pg/catalog/protected_relations.hpp"
#include "pg/execution/release_cache.hpp"
#include "pg/planning/row_safe_functions.hpp"
#include "pg/trust/chargeable_session.hpp"

namespace {

TriggerData* trigger_of(FunctionCallInfo fcinfo, const char* function) {
    if (!CALLED_AS_TRIGGER(fcinfo)) {
        ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                        errmsg("%s must be called as a trigger", function)));
    }
    return reinterpret_cast<TriggerData*>(fcinfo->context);
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_bounding_rank);

// pgdp.bounding_rank(): 63 uniform bits from the release CSPRNG, the order in which a grouped
// person-level release keeps a unit's groups (person_level.cpp, bounded_level). Fresh per row,
// so a unit's choice depends on no other unit's rows; no setseed() reaches it (random() would).
Datum pgdp_bounding_rank(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    std::uint64_t bits = 0;
    PGDP_GUARDED(bits = random.next_u64());
    PG_RETURN_INT64(static_cast<int64>(bits >> 1));
}

PG_FUNCTION_INFO_V1(pgdp_invalidate_plans);

// Trigger on pgdp.protected_relations and pgdp.public_relations: a change of a relation's
// protection or public status invalidates the cached plans that read it, so prepared statements
// are planned again under the new catalog rather than refused as stale (is_person_level_plan
// refuses them meanwhile: fail closed).
Datum pgdp_invalidate_plans(PG_FUNCTION_ARGS) {
    TriggerData* trigger = trigger_of(fcinfo, "pgdp.invalidate_plans()");
    HeapTuple rows[2] = {trigger->tg_trigtuple, trigger->tg_newtuple};
    for (HeapTuple row : rows) {
        if (row == nullptr) continue;
        bool is_null = true;
        // Column 1 of both tables: relation regclass.
        const Datum value = heap_getattr(row, 1, RelationGetDescr(trigger->tg_relation), &is_null);
        if (!is_null) pgdp::pg::invalidate_plans_reading(DatumGetObjectId(value));
    }
    return PointerGetDatum(nullptr);  // an AFTER trigger: the result is ignored
}

PG_FUNCTION_INFO_V1(pgdp_invalidate_chargeable_sessions);

// Statement trigger on pgdp.budgets and pgdp.access_grants (rows added or removed, a role
// changed, TRUNCATE): every backend asks again whether its session can be charged.
Datum pgdp_invalidate_chargeable_sessions(PG_FUNCTION_ARGS) {
    TriggerData* trigger = trigger_of(fcinfo, "pgdp.invalidate_chargeable_sessions()");
    pgdp::pg::announce_chargeable_roles_changed(RelationGetRelid(trigger->tg_relation));
    return PointerGetDatum(nullptr);
}

PG_FUNCTION_INFO_V1(pgdp_answered_from_cache);

// True if the latest statement of this session with pgdp releases was answered from the release
// cache (nothing charged), false if it was released and charged (or none ran yet).
Datum pgdp_answered_from_cache(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    PG_RETURN_BOOL(pgdp::pg::latest_release_answered_from_cache());
}

PG_FUNCTION_INFO_V1(pgdp_row_safe_functions);

// pgdp.row_safe_functions(): the allow-list of DP-only levels, one regprocedure per row.
Datum pgdp_row_safe_functions(PG_FUNCTION_ARGS) {
    auto* result = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
    InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC | MAT_SRF_BLESS);
    ListCell* cell;
    foreach (cell, pgdp::pg::row_safe_functions()) {
        Datum value[1] = {ObjectIdGetDatum(lfirst_oid(cell))};
        bool null[1] = {false};
        tuplestore_putvalues(result->setResult, result->setDesc, value, null);
    }
    return static_cast<Datum>(0);
}

}  // extern "C"
