// dp_quantile(value, lower, upper, q, epsilon [, delta [, mechanism]]), dp_quantiles(..., q
// float8[], ...) and dp_median(value, lower, upper, epsilon [, delta [, mechanism]]): the support
// functions. The state is a quantile tree's exact leaf counts (core/quantile_tree.hpp: sparse,
// then dense, at most 512 KiB a group) in the aggregate memory context; combine adds counts,
// serialize/deserialize use the core's validated format; the final function reads every q from
// one noisy tree (one release, one charge: core/quantile_release.hpp).
#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/memutils.h"
}

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/aggregate_release.hpp"
#include "core/quantile_release.hpp"
#include "core/quantile_tree.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/base/state_datum.hpp"
#include "pg/base/strong_random.hpp"
#include "pg/calls/call_site.hpp"

namespace {

using pgdp::pg::aggregate_context;
using pgdp::pg::call_site;
using pgdp::pg::CallSite;

// The core allocates the tree's tables here: memory of the aggregate context, NULL when none is
// left (the core then throws bad_alloc, caught by the exception barrier: no ereport inside C++).
void* allocate_in_context(void* context, std::size_t bytes) {
    return MemoryContextAllocExtended(static_cast<MemoryContext>(context), bytes, MCXT_ALLOC_NO_OOM);
}
void release_in_context(void*, void* block) {
    if (block != nullptr) pfree(block);
}
pgdp::StateMemory memory_of(MemoryContext context) {
    return {allocate_in_context, release_in_context, context};
}

// The call's leaf map and clamping bounds (a NULL bound: the log-linear map, core quantile_parameters),
// fixed when the state is created from the call's constant bounds.
pgdp::QuantileParameters tree_spec(const pgdp::AggregateParameters& p) {
    pgdp::QuantileParameters spec;
    PGDP_GUARDED(spec = pgdp::quantile_parameters(p));
    return spec;
}

pgdp::QuantileTreeState* new_tree(MemoryContext context, const pgdp::AggregateParameters& p) {
    auto* state = static_cast<pgdp::QuantileTreeState*>(
        MemoryContextAllocZero(context, sizeof(pgdp::QuantileTreeState)));
    const pgdp::QuantileParameters spec = tree_spec(p);
    PGDP_GUARDED(*state = pgdp::empty_quantile_tree_for(spec));
    return state;
}

bool same_bounds(const pgdp::QuantileTreeState& state, const pgdp::AggregateParameters& p) {
    const pgdp::QuantileParameters spec = tree_spec(p);
    return state.map == spec.leaf_map && std::memcmp(&state.lower, &spec.lower, sizeof(double)) == 0 &&
           std::memcmp(&state.upper, &spec.upper, sizeof(double)) == 0;
}

[[noreturn]] void refuse_other_tree() {
    // Not reachable while parameters are deterministic (parameters.cpp); refuse rather than release
    // counts made with another leaf map or other bounds than those charged.
    ereport(ERROR,
            (errcode(ERRCODE_INTERNAL_ERROR),
             errmsg("a partial pgdp quantile tree was computed with other bounds than those charged"),
             errhint("Report this query; run it with max_parallel_workers_per_gather = 0 meanwhile.")));
}

[[noreturn]] void out_of_memory() {
    ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory in pgdp")));
}

// The released quantiles of the call, one per level asked, in the caller's order.
double* release_levels(FunctionCallInfo fcinfo, const pgdp::pg::AggregateIdentity& identity, int* count) {
    const CallSite& site = pgdp::pg::final_call_site(fcinfo, identity);
    const pgdp::AggregateParameters& p = site.parameters.privacy;
    static const pgdp::QuantileTreeState kNoRows{};
    pgdp::QuantileTreeState empty = kNoRows;
    const pgdp::QuantileTreeState* state = nullptr;
    if (PG_ARGISNULL(0)) {
        const pgdp::QuantileParameters spec = tree_spec(p);
        PGDP_GUARDED(empty = pgdp::empty_quantile_tree_for(spec));
        state = &empty;
    } else {
        state = reinterpret_cast<pgdp::QuantileTreeState*>(PG_GETARG_POINTER(0));
        if (!same_bounds(*state, p)) refuse_other_tree();
    }
    *count = site.parameters.quantile_count;
    auto* released = static_cast<double*>(palloc(sizeof(double) * Max(*count, 1)));
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    const double* levels = site.parameters.quantile_levels;
    const int n = *count;
    PGDP_GUARDED({
        const std::vector<double> q(levels, levels + n);
        const std::vector<double> values = pgdp::release_quantiles(site.plan.quantiles, *state, q, random);
        std::copy(values.begin(), values.end(), released);
    });
    return released;
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_quantile_transfn);
PG_FUNCTION_INFO_V1(pgdp_quantile_combine);
PG_FUNCTION_INFO_V1(pgdp_quantile_serialize);
PG_FUNCTION_INFO_V1(pgdp_quantile_deserialize);
PG_FUNCTION_INFO_V1(pgdp_quantile_final);
PG_FUNCTION_INFO_V1(pgdp_quantiles_final);
PG_FUNCTION_INFO_V1(pgdp_median_final);

// (state, value float8, lower, upper, [q,] epsilon [, delta [, mechanism]]): NULL and NaN values
// are not counted (as for dp_sum); others are clamped to [lower, upper].
// A distributed call (the Citus split) has two more arguments, a leaf and the rows a worker counted
// in it, and adds those instead.
Datum pgdp_quantile_transfn(PG_FUNCTION_ARGS) {
    MemoryContext context = aggregate_context(fcinfo);
    pgdp::QuantileTreeState* state;
    const CallSite* site;
    if (!PG_ARGISNULL(0) && fcinfo->flinfo->fn_extra != nullptr) {
        site = static_cast<const CallSite*>(fcinfo->flinfo->fn_extra);
        state = reinterpret_cast<pgdp::QuantileTreeState*>(PG_GETARG_POINTER(0));
    } else {
        site = &call_site(fcinfo, false);
        state = PG_ARGISNULL(0) ? new_tree(context, site->parameters.privacy)
                                : reinterpret_cast<pgdp::QuantileTreeState*>(PG_GETARG_POINTER(0));
    }
    if (site->partial_totals) {
        const pgdp::pg::PartialCount partial = pgdp::pg::partial_count(fcinfo, INT4OID);
        if (partial.keyed) {
            const pgdp::StateMemory memory = memory_of(context);
            PGDP_GUARDED(pgdp::add_partial_leaf_count(*state, partial.key, partial.count, memory));
        }
        PG_RETURN_POINTER(state);
    }
    if (!PG_ARGISNULL(1)) {
        const double value = PG_GETARG_FLOAT8(1);
        const pgdp::StateMemory memory = memory_of(context);
        PGDP_GUARDED(pgdp::add_to_quantile_tree(*state, value, memory));
    }
    PG_RETURN_POINTER(state);
}

Datum pgdp_quantile_combine(PG_FUNCTION_ARGS) {
    MemoryContext context = aggregate_context(fcinfo);
    if (PG_ARGISNULL(1)) {
        if (PG_ARGISNULL(0)) PG_RETURN_NULL();
        PG_RETURN_POINTER(PG_GETARG_POINTER(0));
    }
    const auto* other = reinterpret_cast<pgdp::QuantileTreeState*>(PG_GETARG_POINTER(1));
    const pgdp::AggregateParameters& p = call_site(fcinfo, false).parameters.privacy;
    if (!same_bounds(*other, p)) refuse_other_tree();
    pgdp::QuantileTreeState* state = PG_ARGISNULL(0)
                                         ? new_tree(context, p)
                                         : reinterpret_cast<pgdp::QuantileTreeState*>(PG_GETARG_POINTER(0));
    if (!same_bounds(*state, p)) refuse_other_tree();
    const pgdp::StateMemory memory = memory_of(context);
    PGDP_GUARDED(pgdp::merge_quantile_trees(*state, *other, memory));
    PG_RETURN_POINTER(state);
}

Datum pgdp_quantile_serialize(PG_FUNCTION_ARGS) {
    (void)aggregate_context(fcinfo);
    const auto* state = reinterpret_cast<pgdp::QuantileTreeState*>(PG_GETARG_POINTER(0));
    bytea* out = nullptr;
    PGDP_GUARDED(out = pgdp::pg::state_bytea_or_null(pgdp::serialize_quantile_tree(*state)));
    if (out == nullptr) out_of_memory();
    PG_RETURN_BYTEA_P(out);
}

Datum pgdp_quantile_deserialize(PG_FUNCTION_ARGS) {
    MemoryContext context = aggregate_context(fcinfo);
    bytea* in = PG_GETARG_BYTEA_PP(0);
    const auto* data = reinterpret_cast<const unsigned char*>(VARDATA_ANY(in));
    const size_t size = VARSIZE_ANY_EXHDR(in);
    auto* state = static_cast<pgdp::QuantileTreeState*>(
        MemoryContextAllocZero(context, sizeof(pgdp::QuantileTreeState)));
    const pgdp::StateMemory memory = memory_of(context);
    PGDP_GUARDED(*state = pgdp::deserialize_quantile_tree(data, size, memory));
    PG_RETURN_POINTER(state);
}

// dp_quantile: the one level asked.
Datum pgdp_quantile_final(PG_FUNCTION_ARGS) {
    int count = 0;
    const double* released = release_levels(fcinfo, pgdp::pg::kDpQuantile, &count);
    PG_RETURN_FLOAT8(released[0]);
}

// dp_median: q = 0.5.
Datum pgdp_median_final(PG_FUNCTION_ARGS) {
    int count = 0;
    const double* released = release_levels(fcinfo, pgdp::pg::kDpMedian, &count);
    PG_RETURN_FLOAT8(released[0]);
}

// dp_quantiles: every level asked, in the order asked (non-decreasing in q).
Datum pgdp_quantiles_final(PG_FUNCTION_ARGS) {
    int count = 0;
    const double* released = release_levels(fcinfo, pgdp::pg::kDpQuantiles, &count);
    Datum* elements = static_cast<Datum*>(palloc(sizeof(Datum) * count));
    for (int i = 0; i < count; ++i) elements[i] = Float8GetDatum(released[i]);
    PG_RETURN_ARRAYTYPE_P(
        construct_array(elements, count, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

}  // extern "C"
