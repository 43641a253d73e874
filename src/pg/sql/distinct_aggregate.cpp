// dp_count_distinct(value, epsilon [, delta [, mechanism]]): the support functions. The state is a
// set of the values' 64-bit hashes (the type's extended hash function with the call's collation,
// seed 0) in the aggregate memory context (core/distinct_count.hpp: 16-32 bytes a distinct value,
// at most 2^24 of them); combine is the union, serialize/deserialize use the core's validated
// format; the final function releases the number of hashes (one release, sensitivity 1: a row adds
// at most one hash, a collision only lowers the count).
#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "utils/memutils.h"
}

#include <new>

#include "core/count_vector.hpp"
#include "core/distinct_count.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/base/state_datum.hpp"
#include "pg/base/strong_random.hpp"
#include "pg/calls/call_site.hpp"

namespace {

using pgdp::pg::aggregate_context;
using pgdp::pg::call_site;
using pgdp::pg::CallSite;

// The core's table grows through this: zeroed slots of the aggregate context (MCXT_ALLOC_HUGE: a
// large set passes 1 GB of slots only past the core's cap), bad_alloc when memory ran out (caught
// by the exception barrier: no ereport inside C++), and frees the old slots.
struct SlotMemory {
    MemoryContext context;

    std::uint64_t* operator()(std::uint64_t* old_slots, std::uint64_t, std::uint64_t new_count) const {
        if (new_count == 0) {
            if (old_slots != nullptr) pfree(old_slots);
            return nullptr;
        }
        void* slots = MemoryContextAllocExtended(context, new_count * sizeof(std::uint64_t),
                                                 MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM | MCXT_ALLOC_ZERO);
        if (slots == nullptr) throw std::bad_alloc();
        return static_cast<std::uint64_t*>(slots);
    }
};

pgdp::DistinctHashTable* new_table(MemoryContext context) {
    return static_cast<pgdp::DistinctHashTable*>(
        MemoryContextAllocZero(context, sizeof(pgdp::DistinctHashTable)));
}

pgdp::DistinctHashTable* table_of(FunctionCallInfo fcinfo, int argument, MemoryContext context) {
    if (PG_ARGISNULL(argument)) {
        auto* table = new_table(context);
        *table = pgdp::DistinctHashTable{};
        return table;
    }
    return reinterpret_cast<pgdp::DistinctHashTable*>(PG_GETARG_POINTER(argument));
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_count_distinct_transfn);
PG_FUNCTION_INFO_V1(pgdp_count_distinct_combine);
PG_FUNCTION_INFO_V1(pgdp_count_distinct_serialize);
PG_FUNCTION_INFO_V1(pgdp_count_distinct_deserialize);
PG_FUNCTION_INFO_V1(pgdp_count_distinct_final);

// (state, value anyelement, epsilon [, delta [, mechanism]]): NULL values are not counted (as
// count(DISTINCT)). A distributed call (the Citus split) has two more arguments, a value's hash
// (computed on a worker as here) and the rows a worker counted with it, and adds the hash instead.
Datum pgdp_count_distinct_transfn(PG_FUNCTION_ARGS) {
    MemoryContext context = aggregate_context(fcinfo);
    const CallSite& site = call_site(fcinfo, false);
    pgdp::DistinctHashTable* table = table_of(fcinfo, 0, context);
    if (site.partial_totals) {
        const pgdp::pg::PartialCount partial = pgdp::pg::partial_count(fcinfo, INT8OID);
        if (partial.keyed) {
            const SlotMemory grow{context};
            const auto hash = static_cast<std::uint64_t>(partial.key);
            PGDP_GUARDED(pgdp::add_partial_distinct(*table, hash, partial.count, grow));
        }
        PG_RETURN_POINTER(table);
    }
    if (!PG_ARGISNULL(1)) {
        const std::uint64_t hash = DatumGetUInt64(FunctionCall2Coll(
            const_cast<FmgrInfo*>(&site.value_hash), site.collation, PG_GETARG_DATUM(1), UInt64GetDatum(0)));
        const SlotMemory grow{context};
        PGDP_GUARDED(pgdp::add_distinct(*table, hash, grow));
    }
    PG_RETURN_POINTER(table);
}

Datum pgdp_count_distinct_combine(PG_FUNCTION_ARGS) {
    MemoryContext context = aggregate_context(fcinfo);
    if (PG_ARGISNULL(1)) {
        if (PG_ARGISNULL(0)) PG_RETURN_NULL();
        PG_RETURN_POINTER(PG_GETARG_POINTER(0));
    }
    const auto* other = reinterpret_cast<pgdp::DistinctHashTable*>(PG_GETARG_POINTER(1));
    pgdp::DistinctHashTable* table = table_of(fcinfo, 0, context);
    const SlotMemory grow{context};
    PGDP_GUARDED(pgdp::merge_distinct(*table, *other, grow));
    PG_RETURN_POINTER(table);
}

Datum pgdp_count_distinct_serialize(PG_FUNCTION_ARGS) {
    (void)aggregate_context(fcinfo);
    const auto* table = reinterpret_cast<pgdp::DistinctHashTable*>(PG_GETARG_POINTER(0));
    bytea* out = nullptr;
    PGDP_GUARDED(out = pgdp::pg::state_bytea_or_null(pgdp::serialize_distinct(*table)));
    if (out == nullptr) ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory in pgdp")));
    PG_RETURN_BYTEA_P(out);
}

Datum pgdp_count_distinct_deserialize(PG_FUNCTION_ARGS) {
    MemoryContext context = aggregate_context(fcinfo);
    bytea* in = PG_GETARG_BYTEA_PP(0);
    const auto* data = reinterpret_cast<const unsigned char*>(VARDATA_ANY(in));
    const size_t size = VARSIZE_ANY_EXHDR(in);
    auto* table = new_table(context);
    *table = pgdp::DistinctHashTable{};
    const SlotMemory grow{context};
    PGDP_GUARDED({
        const pgdp::DistinctStateView view = pgdp::read_distinct_state(data, size);
        table->cap = view.cap;
        for (std::uint64_t i = 0; i < view.count; ++i) pgdp::add_distinct(*table, view.hash(i), grow);
    });
    PG_RETURN_POINTER(table);
}

// One release of the number of distinct hashes (an empty group's too).
Datum pgdp_count_distinct_final(PG_FUNCTION_ARGS) {
    const CallSite& site = pgdp::pg::final_call_site(fcinfo, pgdp::pg::kDpCountDistinct);
    const std::uint64_t distinct =
        PG_ARGISNULL(0) ? 0 : reinterpret_cast<pgdp::DistinctHashTable*>(PG_GETARG_POINTER(0))->size;
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    pgdp::AggregateRelease release;
    PGDP_GUARDED(release =
                     pgdp::release_distinct_count(pgdp::distinct_count_parameters(site.parameters.privacy),
                                                  site.plan.count, distinct, random));
    PG_RETURN_INT64(pgdp::saturating_int64(release.value));
}

}  // extern "C"
