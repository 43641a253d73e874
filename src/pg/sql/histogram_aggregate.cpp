// dp_histogram(value, lower, upper, bins, epsilon [, delta [, mechanism]]): the support functions.
// The state is the exact count of every bin (bins + 2 int64 counts with the two outer bins, in the
// aggregate memory context); combine adds counts, serialize/deserialize use the core's validated
// format (core/histogram_release.hpp); the final function noises every bin at once (one release,
// one charge) and returns the bins as a dp_histogram_bin[] a chart can plot.
#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"
}

#include <algorithm>
#include <cstring>

#include "core/count_vector.hpp"
#include "core/histogram_release.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/base/state_datum.hpp"
#include "pg/base/strong_random.hpp"
#include "pg/calls/call_site.hpp"

namespace {

using pgdp::pg::aggregate_context;
using pgdp::pg::call_site;
using pgdp::pg::CallSite;

// The exact counts of one group and the histogram they were counted for (checked when parallel
// workers' states are combined: a worker evaluates the parameters itself).
struct HistogramCounts {
    double lower;
    double upper;
    int64 bins;
    int64 counts[FLEXIBLE_ARRAY_MEMBER];  // bins + 2: [0] below lower, [bins + 1] from upper on (and NaN)

    pgdp::HistogramSpec spec() const { return {lower, upper, static_cast<int32>(bins)}; }
};

HistogramCounts* new_counts(MemoryContext context, const pgdp::HistogramSpec& spec) {
    auto* state = static_cast<HistogramCounts*>(
        MemoryContextAllocZero(context, offsetof(HistogramCounts, counts) + sizeof(int64) * spec.counts()));
    state->lower = spec.lower;
    state->upper = spec.upper;
    state->bins = spec.bins;
    return state;
}

pgdp::HistogramSpec charged_spec(const CallSite& site) {
    const pgdp::AggregateParameters& p = site.parameters.privacy;
    return {p.lower, p.upper, static_cast<int32>(p.bins)};
}

bool same_histogram(const HistogramCounts& state, const pgdp::HistogramSpec& spec) {
    return std::memcmp(&state.lower, &spec.lower, sizeof(double)) == 0 &&
           std::memcmp(&state.upper, &spec.upper, sizeof(double)) == 0 && state.bins == spec.bins;
}

[[noreturn]] void refuse_other_histogram() {
    // Not reachable while parameters are deterministic (parameters.cpp); refuse rather than release
    // counts made for another histogram than the one charged.
    ereport(ERROR,
            (errcode(ERRCODE_INTERNAL_ERROR),
             errmsg("a partial dp_histogram was computed for another histogram than the one charged"),
             errhint("Report this query; run it with max_parallel_workers_per_gather = 0 meanwhile.")));
}

// Plain memory or NULL (no ereport while a C++ object is alive in the caller).
void* allocate_or_null(MemoryContext context, Size size) {
    return MemoryContextAllocExtended(context, size, MCXT_ALLOC_NO_OOM);
}

[[noreturn]] void out_of_memory() {
    ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory in pgdp")));
}

// The result's element type, dp_histogram_bin (looked up from the final function's result type).
TupleDesc bin_descriptor(FunctionCallInfo fcinfo, Oid* element_type) {
    const Oid result_type = get_fn_expr_rettype(fcinfo->flinfo);
    *element_type = get_element_type(result_type);
    TupleDesc descriptor =
        OidIsValid(*element_type) ? lookup_rowtype_tupdesc_copy(*element_type, -1) : nullptr;
    if (descriptor == nullptr || descriptor->natts != 7) {
        ereport(ERROR,
                (errcode(ERRCODE_DATATYPE_MISMATCH), errmsg("dp_histogram must return dp_histogram_bin[]"),
                 errhint("ALTER EXTENSION pgdp UPDATE.")));
    }
    return BlessTupleDesc(descriptor);
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_histogram_transfn);
PG_FUNCTION_INFO_V1(pgdp_histogram_combine);
PG_FUNCTION_INFO_V1(pgdp_histogram_serialize);
PG_FUNCTION_INFO_V1(pgdp_histogram_deserialize);
PG_FUNCTION_INFO_V1(pgdp_histogram_final);

// (state, value float8, lower, upper, bins, epsilon [, delta [, mechanism]]): NULL values are not
// counted; every other value, NaN included, lands in one bin. A distributed call (the Citus split)
// has two more arguments, a bin and the rows a worker counted in it, and adds those instead.
Datum pgdp_histogram_transfn(PG_FUNCTION_ARGS) {
    HistogramCounts* state;
    const CallSite* site;
    if (!PG_ARGISNULL(0) && fcinfo->flinfo->fn_extra != nullptr) {
        site = static_cast<const CallSite*>(fcinfo->flinfo->fn_extra);
        state = reinterpret_cast<HistogramCounts*>(PG_GETARG_POINTER(0));
    } else {
        MemoryContext context = aggregate_context(fcinfo);
        site = &call_site(fcinfo, false);
        state = PG_ARGISNULL(0) ? new_counts(context, charged_spec(*site))
                                : reinterpret_cast<HistogramCounts*>(PG_GETARG_POINTER(0));
    }
    if (site->partial_totals) {
        const pgdp::pg::PartialCount partial = pgdp::pg::partial_count(fcinfo, INT4OID);
        if (partial.keyed) {
            const pgdp::HistogramSpec spec = state->spec();
            PGDP_GUARDED(pgdp::add_partial_bin_count(spec, state->counts, partial.key, partial.count));
        }
        PG_RETURN_POINTER(state);
    }
    if (!PG_ARGISNULL(1)) pgdp::add_to_histogram(state->spec(), state->counts, PG_GETARG_FLOAT8(1));
    PG_RETURN_POINTER(state);
}

Datum pgdp_histogram_combine(PG_FUNCTION_ARGS) {
    MemoryContext context = aggregate_context(fcinfo);
    if (PG_ARGISNULL(1)) {
        if (PG_ARGISNULL(0)) PG_RETURN_NULL();
        PG_RETURN_POINTER(PG_GETARG_POINTER(0));
    }
    const auto* other = reinterpret_cast<HistogramCounts*>(PG_GETARG_POINTER(1));
    const pgdp::HistogramSpec spec = charged_spec(call_site(fcinfo, false));
    if (!same_histogram(*other, spec)) refuse_other_histogram();
    HistogramCounts* state = PG_ARGISNULL(0) ? new_counts(context, spec)
                                             : reinterpret_cast<HistogramCounts*>(PG_GETARG_POINTER(0));
    if (!same_histogram(*state, spec)) refuse_other_histogram();
    PGDP_GUARDED(pgdp::merge_counts(state->counts, other->counts, spec.counts()));
    PG_RETURN_POINTER(state);
}

Datum pgdp_histogram_serialize(PG_FUNCTION_ARGS) {
    (void)aggregate_context(fcinfo);
    const auto* state = reinterpret_cast<HistogramCounts*>(PG_GETARG_POINTER(0));
    bytea* out = nullptr;
    PGDP_GUARDED(out =
                     pgdp::pg::state_bytea_or_null(pgdp::serialize_histogram(state->spec(), state->counts)));
    if (out == nullptr) out_of_memory();
    PG_RETURN_BYTEA_P(out);
}

Datum pgdp_histogram_deserialize(PG_FUNCTION_ARGS) {
    MemoryContext context = aggregate_context(fcinfo);
    bytea* in = PG_GETARG_BYTEA_PP(0);
    const auto* data = reinterpret_cast<const unsigned char*>(VARDATA_ANY(in));
    const size_t size = VARSIZE_ANY_EXHDR(in);
    HistogramCounts* state = nullptr;
    PGDP_GUARDED({
        const pgdp::HistogramState read = pgdp::deserialize_histogram(data, size);
        state = static_cast<HistogramCounts*>(allocate_or_null(
            context, offsetof(HistogramCounts, counts) + sizeof(int64) * read.counts.size()));
        if (state != nullptr) {
            state->lower = read.spec.lower;
            state->upper = read.spec.upper;
            state->bins = read.spec.bins;
            std::copy(read.counts.begin(), read.counts.end(), state->counts);
        }
    });
    if (state == nullptr) out_of_memory();
    PG_RETURN_POINTER(state);
}

// One release of every bin's count (an empty group's too: all zero counts, noised like any other).
Datum pgdp_histogram_final(PG_FUNCTION_ARGS) {
    const CallSite& site = pgdp::pg::final_call_site(fcinfo, pgdp::pg::kDpHistogram);
    const pgdp::HistogramSpec spec = charged_spec(site);
    const size_t n = spec.counts();
    const HistogramCounts* state =
        PG_ARGISNULL(0) ? nullptr : reinterpret_cast<HistogramCounts*>(PG_GETARG_POINTER(0));
    if (state != nullptr && !same_histogram(*state, spec)) refuse_other_histogram();
    int64* empty = state == nullptr ? static_cast<int64*>(palloc0(sizeof(int64) * n)) : nullptr;
    const int64* counts = state != nullptr ? state->counts : empty;
    auto* rows = static_cast<pgdp::HistogramBin*>(palloc(sizeof(pgdp::HistogramBin) * n));
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    PGDP_GUARDED({
        const std::vector<pgdp::HistogramBin> released = pgdp::release_histogram(
            pgdp::histogram_parameters(site.parameters.privacy), site.plan.count, counts, random);
        std::copy(released.begin(), released.end(), rows);
    });
    Oid element_type = InvalidOid;
    TupleDesc descriptor = bin_descriptor(fcinfo, &element_type);
    const char* mechanism = pgdp::mechanism_name(site.plan.count.mechanism).data();  // a string literal
    Datum* elements = static_cast<Datum*>(palloc(sizeof(Datum) * n));
    for (size_t i = 0; i < n; ++i) {
        const pgdp::HistogramBin& row = rows[i];
        Datum values[7] = {Int32GetDatum(static_cast<int32>(i)), Float8GetDatum(row.bin_lower),
                           Float8GetDatum(row.bin_upper),        Int64GetDatum(row.count),
                           Int64GetDatum(row.interval_low),      Int64GetDatum(row.interval_high),
                           CStringGetTextDatum(mechanism)};
        bool nulls[7] = {false, false, false, false, false, false, false};
        elements[i] = HeapTupleGetDatum(heap_form_tuple(descriptor, values, nulls));
    }
    int16 length;
    bool by_value;
    char alignment;
    get_typlenbyvalalign(element_type, &length, &by_value, &alignment);
    PG_RETURN_ARRAYTYPE_P(
        construct_array(elements, static_cast<int>(n), element_type, length, by_value, alignment));
}

}  // extern "C"
