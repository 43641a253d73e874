// dp_sum, dp_mean and dp_count: STYPE = internal states in the aggregate memory context holding
// exact fixed-point totals (src/core/clamped_sum.hpp), combine/serialize/deserialize for
// parallel plans, and noise only in the final function (src/core/release_plan.hpp).
//
// The privacy parameters (bounds, epsilon, delta, mechanism) are read from the aggregate call's
// expressions, never from row data: each must be a constant or a query parameter (no column, no
// volatile function), and they are validated on the first call, before any value is looked at.
// An empty group therefore releases noise like any other.
#include "pg/postgres_headers.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "nodes/execnodes.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
}

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>

#include "core/clamped_sum.hpp"
#include "core/release_plan.hpp"
#include "core/validate.hpp"
#include "pg/aggregate_call.hpp"
#include "pg/cpp_boundary.hpp"
#include "pg/release_charge.hpp"
#include "pg/strong_random.hpp"

namespace {

using pgdp::pg::AggregateKind;
using pgdp::pg::Parameters;
using pgdp::pg::build_plans;
using pgdp::pg::is_integer_type;

// The running state: rows seen (non-NULL, non-NaN values; every row for dp_count) and the total of
// clamped values in units of 2^unit_exponent.
// palloc guarantees only MAXALIGN (8-byte) alignment, so the 128-bit total is kept as two
// 64-bit halves rather than as an __int128 member (which the compiler may access with 16-byte
// aligned instructions).
// lower and upper: the bounds the state was computed with, checked when parallel workers' partial
// states are combined (a worker evaluates the parameters itself; they must be the charged ones).
struct ClampedState {
    int64 rows;
    uint64 total_low;
    int64 total_high;
    double lower;
    double upper;

    __int128 total() const {
        return static_cast<__int128>(total_high) * (static_cast<__int128>(1) << 64) +
               static_cast<__int128>(total_low);
    }
    void set_total(__int128 value) {
        total_low = static_cast<uint64>(value);
        total_high = static_cast<int64>(value >> 64);
    }
    void add(__int128 value) { set_total(total() + value); }
};
static_assert(alignof(ClampedState) <= MAXIMUM_ALIGNOF, "palloc alignment");

constexpr uint8 kStateFormatVersion = 2;
constexpr int kSerializedStateSize = 1 + 8 + 16 + 8 + 8;

// The release plans of a final function call site, built once and destroyed with fn_mcxt.
struct FinalCache {  // over-aligned (Boost rationals): see allocate_final_cache
    Parameters parameters;
    bool planned;
    int plain_final_calls;   // final calls of a plain (ungrouped) aggregate
    pgdp::ReleasePlan value_plan;  // the (centred) sum
    pgdp::ReleasePlan count_plan;  // dp_mean and dp_count
};

// The call's parameters as evaluated before the execution started (release_charge.hpp), cached
// per call site; transition and final functions never evaluate them again.
const Parameters* parameters_of(FunctionCallInfo fcinfo, bool final_call) {
    if (fcinfo->flinfo->fn_extra != nullptr) return static_cast<Parameters*>(fcinfo->flinfo->fn_extra);
    if (AggGetAggref(fcinfo) == nullptr || !IsA(fcinfo->context, AggState)) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("pgdp aggregates cannot be used as window functions"),
                        errhint("Use the aggregate with GROUP BY instead of OVER (...).")));
    }
    const Parameters& parameters = pgdp::pg::call_parameters(fcinfo, final_call);
    auto* cached = static_cast<Parameters*>(MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(Parameters)));
    *cached = parameters;
    fcinfo->flinfo->fn_extra = cached;
    return cached;
}

MemoryContext aggregate_context(FunctionCallInfo fcinfo) {
    MemoryContext context = nullptr;
    const int how = AggCheckCallContext(fcinfo, &context);
    if (how == AGG_CONTEXT_WINDOW) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("pgdp aggregates cannot be used as window functions"),
                        errhint("Each window frame would be a separate release; use GROUP BY.")));
    }
    if (how == 0) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("pgdp aggregate support function called outside an aggregate")));
    }
    return context;
}

ClampedState* state_of(FunctionCallInfo fcinfo, MemoryContext context, const Parameters& parameters) {
    if (!PG_ARGISNULL(0)) return reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(0));
    auto* state = static_cast<ClampedState*>(MemoryContextAllocZero(context, sizeof(ClampedState)));
    state->lower = parameters.lower;
    state->upper = parameters.upper;
    return state;
}

bool same_bounds(const ClampedState& state, const Parameters& parameters) {
    return std::memcmp(&state.lower, &parameters.lower, sizeof(double)) == 0 &&
           std::memcmp(&state.upper, &parameters.upper, sizeof(double)) == 0;
}

// The value as float8; NaN for NaN inputs (skipped by the caller).
double value_as_double(FunctionCallInfo fcinfo, Oid type) {
    switch (type) {
        case INT2OID:
            return PG_GETARG_INT16(1);
        case INT4OID:
            return PG_GETARG_INT32(1);
        case INT8OID:
            return static_cast<double>(PG_GETARG_INT64(1));
        case FLOAT4OID:
            return PG_GETARG_FLOAT4(1);
        case NUMERICOID: {
            Numeric number = PG_GETARG_NUMERIC(1);
            if (numeric_is_nan(number)) return std::numeric_limits<double>::quiet_NaN();
            // No overflow error: a huge value becomes +-Infinity and is clamped like any other, so no
            // error can depend on the data.
            return DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, NumericGetDatum(number)));
        }
        default:
            return PG_GETARG_FLOAT8(1);
    }
}

void destroy_final_cache(void* argument) {
    auto* cache = static_cast<FinalCache*>(argument);
    if (cache->planned) {
        cache->value_plan.~ReleasePlan();
        cache->count_plan.~ReleasePlan();
    }
}

// The final function's cache: parameters (validated) and, once built, the release plans.
FinalCache* final_cache_of(FunctionCallInfo fcinfo) {
    auto* cache = static_cast<FinalCache*>(fcinfo->flinfo->fn_extra);
    if (cache != nullptr) return cache;
    const Parameters* parameters = parameters_of(fcinfo, true);  // sets fn_extra
    // palloc aligns to 8 bytes; FinalCache needs alignof(FinalCache), so over-allocate and align.
    char* raw = static_cast<char*>(
        MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(FinalCache) + alignof(FinalCache)));
    const uintptr_t address = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (address + alignof(FinalCache) - 1) & ~(uintptr_t)(alignof(FinalCache) - 1);
    cache = reinterpret_cast<FinalCache*>(aligned);
    cache->parameters = *parameters;
    MemoryContextCallback* callback = static_cast<MemoryContextCallback*>(
        MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(MemoryContextCallback)));
    callback->func = destroy_final_cache;
    callback->arg = cache;
    MemoryContextRegisterResetCallback(fcinfo->flinfo->fn_mcxt, callback);
    fcinfo->flinfo->fn_extra = cache;
    return cache;
}

// Builds the plans of this call site (once). Runs inside the barrier.
void plan_releases(FinalCache& cache, AggregateKind kind) {
    if (cache.planned) return;
    pgdp::ReleasePlan value_plan{};
    pgdp::ReleasePlan count_plan{};
    build_plans(cache.parameters, kind, value_plan, count_plan);
    new (&cache.value_plan) pgdp::ReleasePlan(std::move(value_plan));
    new (&cache.count_plan) pgdp::ReleasePlan(std::move(count_plan));
    cache.planned = true;
}

__int128 noisy_count(const pgdp::ReleasePlan& plan, int64 rows, pgdp::RandomSource& random) {
    return pgdp::units_to_grid(rows, 0, plan.granularity) + pgdp::sample_release_noise(plan, random);
}

// What a final function releases: the value and, for the *_ci aggregates, an interval that
// holds the exact value with probability >= 1 - alpha and the noise's standard deviation. All
// are computed from noisy values and public parameters only (post-processing).
struct Release {
    double value;
    double ci_lower;
    double ci_upper;
    double noise_sd;
};

// Per-row fast path: once this call site's parameters are validated and its state exists, the
// context checks (done on the first row of each group) are not repeated.
bool established(FunctionCallInfo fcinfo) {
    return !PG_ARGISNULL(0) && fcinfo->flinfo->fn_extra != nullptr;
}

Datum clamped_transition(FunctionCallInfo fcinfo) {
    const Parameters* p;
    ClampedState* state;
    if (established(fcinfo)) {
        p = static_cast<const Parameters*>(fcinfo->flinfo->fn_extra);
        state = reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(0));
    } else {
        MemoryContext context = aggregate_context(fcinfo);
        p = parameters_of(fcinfo, false);
        state = state_of(fcinfo, context, *p);
    }
    if (!PG_ARGISNULL(1)) {
        const double value = value_as_double(fcinfo, p->value_type);
        if (!std::isnan(value)) {
            state->add(pgdp::clamped_units(value, p->lower, p->upper, p->unit_exponent));
            state->rows += 1;
        }
    }
    PG_RETURN_POINTER(state);
}

Datum count_transition(FunctionCallInfo fcinfo) {
    if (established(fcinfo)) {
        reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(0))->rows += 1;
        PG_RETURN_POINTER(PG_GETARG_POINTER(0));
    }
    MemoryContext context = aggregate_context(fcinfo);
    const Parameters* p = parameters_of(fcinfo, false);
    ClampedState* state = state_of(fcinfo, context, *p);
    state->rows += 1;
    PG_RETURN_POINTER(state);
}

const ClampedState* final_state(FunctionCallInfo fcinfo) {
    static const ClampedState empty{0, 0, 0, 0.0, 0.0};
    return PG_ARGISNULL(0) ? &empty : reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(0));
}

// Runs inside the barrier.
Release release_sum(FinalCache& cache, const ClampedState& state, pgdp::RandomSource& random) {
    plan_releases(cache, AggregateKind::Sum);
    const pgdp::ReleasePlan& plan = cache.value_plan;
    const __int128 grid = pgdp::units_to_grid(state.total(), cache.parameters.unit_exponent, plan.granularity);
    Release out{};
    out.value = pgdp::grid_units_to_double(grid + pgdp::sample_release_noise(plan, random), plan.granularity);
    out.noise_sd = std::sqrt(plan.noise_variance);
    if (cache.parameters.alpha > 0.0) {
        const double half = pgdp::release_half_width(plan, cache.parameters.alpha);
        out.ci_lower = out.value - half;
        out.ci_upper = out.value + half;
    }
    return out;
}

Release release_count(FinalCache& cache, int64 rows, pgdp::RandomSource& random) {
    plan_releases(cache, AggregateKind::Count);
    const pgdp::ReleasePlan& plan = cache.count_plan;
    Release out{};
    out.value = pgdp::grid_units_to_double(noisy_count(plan, rows, random), plan.granularity);
    out.noise_sd = std::sqrt(plan.noise_variance);
    if (cache.parameters.alpha > 0.0) {
        const double half = pgdp::release_half_width(plan, cache.parameters.alpha);
        out.ci_lower = out.value - half;
        out.ci_upper = out.value + half;
    }
    return out;
}

Release release_mean(FinalCache& cache, const ClampedState& state, pgdp::RandomSource& random) {
    plan_releases(cache, AggregateKind::Mean);
    const Parameters& p = cache.parameters;
    // Sum of (value - midpoint) in half units: 2 total - rows (lower_units + upper_units).
    const __int128 bound_units = static_cast<__int128>(pgdp::clamped_units(p.lower, p.lower, p.upper, p.unit_exponent)) +
                                 pgdp::clamped_units(p.upper, p.lower, p.upper, p.unit_exponent);
    const __int128 centred = 2 * state.total() - static_cast<__int128>(state.rows) * bound_units;
    const pgdp::ReleasePlan& sum_plan = cache.value_plan;
    const pgdp::ReleasePlan& count_plan = cache.count_plan;
    const __int128 sum_grid = pgdp::units_to_grid(centred, p.unit_exponent - 1, sum_plan.granularity);
    const double noisy_sum =
        pgdp::grid_units_to_double(sum_grid + pgdp::sample_release_noise(sum_plan, random), sum_plan.granularity);
    const double count =
        pgdp::grid_units_to_double(noisy_count(count_plan, state.rows, random), count_plan.granularity);
    const double midpoint = p.lower + (p.upper - p.lower) / 2.0;
    auto clamp = [&](double x) { return std::fmin(std::fmax(x, p.lower), p.upper); };
    // Post-processing: a count below 1 is read as 1; the mean is clamped to the bounds.
    const double divisor = std::fmax(count, 1.0);
    Release out{};
    out.value = clamp(midpoint + noisy_sum / divisor);
    // Delta method: sd of (S + m N_err)/N with m the released mean's offset from the midpoint.
    const double offset = noisy_sum / divisor;
    out.noise_sd = std::sqrt(sum_plan.noise_variance + offset * offset * count_plan.noise_variance) / divisor;
    if (p.alpha > 0.0) {
        // Union bound: the sum and the count each miss with probability alpha/2; every ratio of
        // values inside both intervals lies between the corner ratios.
        const double sum_half = pgdp::release_half_width(sum_plan, p.alpha / 2);
        const double count_half = pgdp::release_half_width(count_plan, p.alpha / 2);
        const double smallest_count = count - count_half;
        if (smallest_count <= 0.0) {
            out.ci_lower = p.lower;
            out.ci_upper = p.upper;
        } else {
            const double corners[4] = {(noisy_sum - sum_half) / smallest_count, (noisy_sum - sum_half) / (count + count_half),
                                       (noisy_sum + sum_half) / smallest_count, (noisy_sum + sum_half) / (count + count_half)};
            out.ci_lower = clamp(midpoint + *std::min_element(corners, corners + 4));
            out.ci_upper = clamp(midpoint + *std::max_element(corners, corners + 4));
        }
    }
    return out;
}

Datum release_record(FunctionCallInfo fcinfo, const Release& release, const Parameters& parameters,
                     pgdp::Mechanism mechanism) {
    TupleDesc descriptor;
    if (get_call_result_type(fcinfo, nullptr, &descriptor) != TYPEFUNC_COMPOSITE) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("dp_release must be returned as a record")));
    }
    descriptor = BlessTupleDesc(descriptor);
    const char* name = pgdp::mechanism_name(mechanism).data();  // a string literal
    Datum values[6] = {Float8GetDatum(release.value), Float8GetDatum(release.ci_lower),
                       Float8GetDatum(release.ci_upper), Float8GetDatum(release.noise_sd),
                       Float8GetDatum(parameters.alpha), CStringGetTextDatum(name)};
    bool nulls[6] = {false, false, false, false, false, false};
    return HeapTupleGetDatum(heap_form_tuple(descriptor, values, nulls));
}

Datum typed_value(const Release& release, Oid type, bool is_mean) {
    if (type == NUMERICOID) return DirectFunctionCall1(float8_numeric, Float8GetDatum(release.value));
    if (!is_mean && is_integer_type(type)) {
        const double limit = 9223372036854775807.0;
        return Int64GetDatum(static_cast<int64>(std::fmax(-limit, std::fmin(release.value, limit - 1024.0))));
    }
    return Float8GetDatum(release.value);
}

// The common part of every final function: parameters and plans (cached per call site), the
// state (an empty one for a group without rows), the random source, and the release computed
// behind the exception barrier. Only plain data is alive when an error is raised here.
Release final_release(FunctionCallInfo fcinfo, AggregateKind kind, FinalCache** cache_out) {
    (void)aggregate_context(fcinfo);
    // Released only for a call charged by this execution (release_charge.hpp), and only while no
    // other role's code has become active since the charge (a cursor fetched from such code).
    FinalCache* cache = final_cache_of(fcinfo);
    pgdp::pg::require_release_still_allowed(fcinfo);
    // A plain aggregate has one group: a second final call means the executor computed it again
    // (a rescan), which would be a second release of one charge.
    if (castNode(Agg, castNode(AggState, fcinfo->context)->ss.ps.plan)->aggstrategy == AGG_PLAIN &&
        ++cache->plain_final_calls > castNode(AggState, fcinfo->context)->maxsets) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("a pgdp aggregate was evaluated twice for one charge"),
                        errhint("Compute the release once, e.g. in a MATERIALIZED CTE.")));
    }
    const ClampedState* state = final_state(fcinfo);
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    Release release{};
    switch (kind) {
        case AggregateKind::Sum:
            PGDP_GUARDED(release = release_sum(*cache, *state, random));
            break;
        case AggregateKind::Mean:
            PGDP_GUARDED(release = release_mean(*cache, *state, random));
            break;
        case AggregateKind::Count:
            PGDP_GUARDED(release = release_count(*cache, state->rows, random));
            break;
    }
    *cache_out = cache;
    return release;
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_clamped_transfn);
PG_FUNCTION_INFO_V1(pgdp_clamped_ci_transfn);
PG_FUNCTION_INFO_V1(pgdp_count_transfn);
PG_FUNCTION_INFO_V1(pgdp_count_ci_transfn);
PG_FUNCTION_INFO_V1(pgdp_state_combine);
PG_FUNCTION_INFO_V1(pgdp_state_serialize);
PG_FUNCTION_INFO_V1(pgdp_state_deserialize);
PG_FUNCTION_INFO_V1(pgdp_sum_final);
PG_FUNCTION_INFO_V1(pgdp_mean_final);
PG_FUNCTION_INFO_V1(pgdp_count_final);
PG_FUNCTION_INFO_V1(pgdp_sum_ci_final);
PG_FUNCTION_INFO_V1(pgdp_mean_ci_final);
PG_FUNCTION_INFO_V1(pgdp_count_ci_final);

// (state, value, lower, upper, epsilon [, delta [, mechanism]]) for dp_sum and dp_mean.
Datum pgdp_clamped_transfn(PG_FUNCTION_ARGS) { return clamped_transition(fcinfo); }
// The same with a trailing alpha, for dp_sum_ci and dp_mean_ci.
Datum pgdp_clamped_ci_transfn(PG_FUNCTION_ARGS) { return clamped_transition(fcinfo); }
// (state, epsilon [, delta [, mechanism]]) for dp_count: every row counts.
Datum pgdp_count_transfn(PG_FUNCTION_ARGS) { return count_transition(fcinfo); }
Datum pgdp_count_ci_transfn(PG_FUNCTION_ARGS) { return count_transition(fcinfo); }

Datum pgdp_state_combine(PG_FUNCTION_ARGS) {
    MemoryContext context = aggregate_context(fcinfo);
    if (PG_ARGISNULL(1)) {
        if (PG_ARGISNULL(0)) PG_RETURN_NULL();
        PG_RETURN_POINTER(PG_GETARG_POINTER(0));
    }
    const auto* other = reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(1));
    const Parameters* p = fcinfo->flinfo->fn_extra != nullptr ? static_cast<const Parameters*>(fcinfo->flinfo->fn_extra)
                                                                : parameters_of(fcinfo, false);
    if (!same_bounds(*other, *p)) {
        // Not reachable while parameters are deterministic (aggregate_call.cpp); refuse rather than
        // release a total computed with other bounds than those charged.
        ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                        errmsg("a partial pgdp aggregate was computed with other bounds than those charged"),
                        errhint("Report this query; run it with max_parallel_workers_per_gather = 0 meanwhile.")));
    }
    ClampedState* state = state_of(fcinfo, context, *p);  // a fresh copy with the bounds when arg 0 is NULL
    state->rows += other->rows;
    state->add(other->total());
    PG_RETURN_POINTER(state);
}

Datum pgdp_state_serialize(PG_FUNCTION_ARGS) {
    (void)aggregate_context(fcinfo);
    const auto* state = reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(0));
    bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + kSerializedStateSize));
    SET_VARSIZE(out, VARHDRSZ + kSerializedStateSize);
    char* data = VARDATA(out);
    data[0] = static_cast<char>(kStateFormatVersion);
    std::memcpy(data + 1, &state->rows, 8);
    std::memcpy(data + 9, &state->total_low, 8);
    std::memcpy(data + 17, &state->total_high, 8);
    std::memcpy(data + 25, &state->lower, 8);
    std::memcpy(data + 33, &state->upper, 8);
    PG_RETURN_BYTEA_P(out);
}

Datum pgdp_state_deserialize(PG_FUNCTION_ARGS) {
    MemoryContext context = aggregate_context(fcinfo);
    bytea* in = PG_GETARG_BYTEA_PP(0);
    const char* data = VARDATA_ANY(in);
    if (VARSIZE_ANY_EXHDR(in) != kSerializedStateSize || static_cast<uint8>(data[0]) != kStateFormatVersion) {
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("invalid pgdp aggregate state (size %d, version %d)",
                               static_cast<int>(VARSIZE_ANY_EXHDR(in)),
                               VARSIZE_ANY_EXHDR(in) > 0 ? static_cast<int>(static_cast<uint8>(data[0])) : -1)));
    }
    auto* state = static_cast<ClampedState*>(MemoryContextAllocZero(context, sizeof(ClampedState)));
    std::memcpy(&state->rows, data + 1, 8);
    std::memcpy(&state->total_low, data + 9, 8);
    std::memcpy(&state->total_high, data + 17, 8);
    std::memcpy(&state->lower, data + 25, 8);
    std::memcpy(&state->upper, data + 33, 8);
    if (state->rows < 0) {
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("invalid pgdp aggregate state (negative row count)")));
    }
    PG_RETURN_POINTER(state);
}

Datum pgdp_sum_final(PG_FUNCTION_ARGS) {
    FinalCache* cache = nullptr;
    const Release release = final_release(fcinfo, AggregateKind::Sum, &cache);
    PG_RETURN_DATUM(typed_value(release, cache->parameters.value_type, false));
}

Datum pgdp_mean_final(PG_FUNCTION_ARGS) {
    FinalCache* cache = nullptr;
    const Release release = final_release(fcinfo, AggregateKind::Mean, &cache);
    PG_RETURN_DATUM(typed_value(release, cache->parameters.value_type, true));
}

Datum pgdp_count_final(PG_FUNCTION_ARGS) {
    FinalCache* cache = nullptr;
    const Release release = final_release(fcinfo, AggregateKind::Count, &cache);
    PG_RETURN_DATUM(typed_value(release, INT8OID, false));
}

Datum pgdp_sum_ci_final(PG_FUNCTION_ARGS) {
    FinalCache* cache = nullptr;
    const Release release = final_release(fcinfo, AggregateKind::Sum, &cache);
    PG_RETURN_DATUM(release_record(fcinfo, release, cache->parameters, cache->value_plan.mechanism));
}

Datum pgdp_mean_ci_final(PG_FUNCTION_ARGS) {
    FinalCache* cache = nullptr;
    const Release release = final_release(fcinfo, AggregateKind::Mean, &cache);
    PG_RETURN_DATUM(release_record(fcinfo, release, cache->parameters, cache->value_plan.mechanism));
}

Datum pgdp_count_ci_final(PG_FUNCTION_ARGS) {
    FinalCache* cache = nullptr;
    const Release release = final_release(fcinfo, AggregateKind::Count, &cache);
    PG_RETURN_DATUM(release_record(fcinfo, release, cache->parameters, cache->count_plan.mechanism));
}

}  // extern "C"
