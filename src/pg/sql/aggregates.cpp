// dp_sum, dp_mean, dp_count, dp_variance and dp_stddev: STYPE = internal states in the aggregate
// memory context holding exact fixed-point totals (src/core/clamped_sum.hpp, and for dp_variance
// and dp_stddev src/core/centred_squares.hpp), combine/serialize/deserialize for parallel plans,
// and noise only in the final function (src/core/release_plan.hpp).
//
// The privacy parameters (bounds, epsilon, delta, mechanism) are read from the aggregate call's
// expressions, never from row data: each must be a constant or a query parameter (no column, no
// volatile function), and they are validated on the first call, before any value is looked at.
// An empty group therefore releases noise like any other.
#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "nodes/execnodes.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/regproc.h"
}

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/binned_squares.hpp"
#include "core/centred_squares.hpp"
#include "core/clamped_sum.hpp"
#include "core/estimated_bounds_release.hpp"
#include "core/aggregate_release.hpp"
#include "pg/calls/aggregate_identity.hpp"
#include "pg/calls/call_site.hpp"
#include "pg/calls/parameters.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/base/state_datum.hpp"
#include "pg/execution/release_execution.hpp"
#include "pg/execution/empty_selection.hpp"
#include "pg/base/strong_random.hpp"
#include "pg/planning/plan_marks.hpp"

namespace {

using pgdp::pg::aggregate_context;
using pgdp::pg::AggregateIdentity;
using pgdp::pg::AggregateKind;
using pgdp::pg::call_site;
using pgdp::pg::CallSite;
using pgdp::pg::final_call_site;
using pgdp::pg::is_integer_type;
using pgdp::pg::Parameters;

// The running state: rows seen (non-NULL, non-NaN values; every row for dp_count), the total of
// clamped values in units of 2^unit_exponent and (dp_variance, dp_stddev; 0 otherwise) the total
// of their centred squares in square units.
// palloc guarantees only MAXALIGN (8-byte) alignment, so the 128-bit totals are kept as two
// 64-bit halves rather than as __int128 members (which the compiler may access with 16-byte
// aligned instructions).
// lower and upper: the bounds the state was computed with, checked when parallel workers' partial
// states are combined (a worker evaluates the parameters itself; they must be the charged ones).
struct WideTotal {
    uint64 low;
    int64 high;

    __int128 get() const {
        return static_cast<__int128>(high) * (static_cast<__int128>(1) << 64) + static_cast<__int128>(low);
    }
    void add(__int128 value) {
        const __int128 sum = get() + value;
        low = static_cast<uint64>(sum);
        high = static_cast<int64>(sum >> 64);
    }
};

struct ClampedState {
    int64 rows;
    WideTotal units;
    WideTotal squares;
    double lower;
    double upper;
};
static_assert(alignof(ClampedState) <= MAXIMUM_ALIGNOF, "palloc alignment");

constexpr uint8 kStateFormatVersion = 3;
constexpr int kSerializedStateSize = 1 + 8 + 16 + 16 + 8 + 8;

// dp_sum and dp_mean with a NULL bound (core/estimated_bounds_release.hpp): the bounded state's
// fields (rows and the given bounds; an estimated bound is kEstimatedBound), the layout, then the
// exact sums per log bin, 4696 bytes per group instead of 56 (an 8 kB chunk of the aggregate
// context). dp_variance and dp_stddev: the sums of squares per bin too (core/binned_squares.hpp),
// 9328 bytes, above the allocator's 8 kB chunk limit, so a block of its own of that size.
// Chosen when the group's state is created, from the call's constant bounds: the bounded path is
// unchanged.
enum class EstimatedLayout : int64 { Sums = 1, Squares = 2 };
struct EstimatedState {
    ClampedState head;
    EstimatedLayout layout;
    pgdp::BinnedSums sums;
};
struct EstimatedSquaresState {
    ClampedState head;
    EstimatedLayout layout;  // the same initial fields as EstimatedState
    pgdp::BinnedSquares binned;
};
static_assert(alignof(EstimatedState) <= MAXIMUM_ALIGNOF, "palloc alignment");
static_assert(alignof(EstimatedSquaresState) <= MAXIMUM_ALIGNOF, "palloc alignment");
static_assert(offsetof(EstimatedState, layout) == offsetof(EstimatedSquaresState, layout), "common layout");
const double kEstimatedBound = std::numeric_limits<double>::quiet_NaN();

bool is_estimated(const ClampedState& state) { return std::isnan(state.lower) || std::isnan(state.upper); }

EstimatedLayout layout_of(const ClampedState* state) {
    return reinterpret_cast<const EstimatedState*>(state)->layout;
}

// A zeroed estimated state of the layout, with the given bounds.
ClampedState* new_estimated_state(MemoryContext context, const pgdp::AggregateParameters& p, bool squares) {
    ClampedState* head;
    if (squares) {
        auto* state = static_cast<EstimatedSquaresState*>(
            MemoryContextAllocZero(context, sizeof(EstimatedSquaresState)));
        state->layout = EstimatedLayout::Squares;
        head = &state->head;
    } else {
        auto* state = static_cast<EstimatedState*>(MemoryContextAllocZero(context, sizeof(EstimatedState)));
        state->layout = EstimatedLayout::Sums;
        head = &state->head;
    }
    head->lower = p.estimate_lower ? kEstimatedBound : p.lower;
    head->upper = p.estimate_upper ? kEstimatedBound : p.upper;
    return head;
}

ClampedState* state_of(FunctionCallInfo fcinfo, MemoryContext context, const pgdp::AggregateParameters& p,
                       bool squares) {
    if (!PG_ARGISNULL(0)) return reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(0));
    if (pgdp::estimates_bounds(p)) return new_estimated_state(context, p, squares);
    auto* state = static_cast<ClampedState*>(MemoryContextAllocZero(context, sizeof(ClampedState)));
    state->lower = p.lower;
    state->upper = p.upper;
    return state;
}

EstimatedState& estimated(ClampedState* state) { return *reinterpret_cast<EstimatedState*>(state); }
EstimatedSquaresState& estimated_squares(ClampedState* state) {
    return *reinterpret_cast<EstimatedSquaresState*>(state);
}

// A row of a call with an estimated bound: clamped to the given side, then binned.
// (core binned_units: the map the Citus workers' pgdp.log_bin and pgdp.binned_units apply too.)
void add_estimated_row(ClampedState* state, double value, const pgdp::AggregateParameters& p) {
    const pgdp::BinnedUnits row = pgdp::binned_units(value, p.estimate_lower ? -HUGE_VAL : p.lower,
                                                     p.estimate_upper ? HUGE_VAL : p.upper);
    if (layout_of(state) == EstimatedLayout::Squares) {
        pgdp::add_binned_square_row(estimated_squares(state).binned, row);
    } else {
        pgdp::add_binned_row(estimated(state).sums, row);
    }
    state->rows += 1;
}

bool same_bounds(const ClampedState& state, const pgdp::AggregateParameters& p) {
    const double lower = p.estimate_lower ? kEstimatedBound : p.lower;
    const double upper = p.estimate_upper ? kEstimatedBound : p.upper;
    return std::memcmp(&state.lower, &lower, sizeof(double)) == 0 &&
           std::memcmp(&state.upper, &upper, sizeof(double)) == 0;
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

[[noreturn]] void refuse_partial_totals(const char* why) {
    ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("invalid partial totals from the distributed tables: %s", why),
                    errhint("Check that every Citus node runs the same pgdp version.")));
}

// A numeric holding an integer as a 128-bit integer (the workers' sum of int8 units).
__int128 integer_numeric(Numeric number) {
    if (numeric_is_nan(number) || numeric_is_inf(number)) refuse_partial_totals("not a finite number");
    const char* text = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(number)));
    const bool negative = *text == '-';
    if (negative) ++text;
    __int128 value = 0;
    constexpr __int128 kLimit = (static_cast<__int128>(1) << 125);
    for (; *text != '\0'; ++text) {
        if (*text < '0' || *text > '9') refuse_partial_totals("not an integer");
        const int digit = *text - '0';
        if (value > (kLimit - digit) / 10) refuse_partial_totals("out of range");  // before it could wrap
        value = value * 10 + digit;
    }
    return negative ? -value : value;
}

// A numeric holding a non-negative integer below 2^192 (the workers' sum of squared bin units).
pgdp::SplitUint192 unsigned_numeric(Numeric number) {
    if (numeric_is_nan(number) || numeric_is_inf(number)) refuse_partial_totals("not a finite number");
    const char* text = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(number)));
    pgdp::SplitUint192 value{};
    if (!pgdp::parse_decimal_u192(text, value)) refuse_partial_totals("a sum of squares out of range");
    return value;
}

// A distributed call with an estimated bound, whose partials are grouped by log bin (0.14): one
// (group, bin) row's rows, bin and exact totals, added to the bin state exactly as a deserialized
// bin is validated (core add_partial_bin, add_partial_bin_squares: XX001, the state unchanged, for
// totals no rows of the bin give). A NULL bin is the rows of NULL or NaN values only: none.
Datum add_partial_bin_totals(FunctionCallInfo fcinfo, ClampedState* state, const CallSite& site, int first) {
    const int rows_at = first + 1;
    const int key_at = first + (site.squares ? 3 : 2);
    const int64 rows = PG_ARGISNULL(rows_at) ? 0 : PG_GETARG_INT64(rows_at);
    if (rows < 0) refuse_partial_totals("negative row count");
    if (get_fn_expr_argtype(fcinfo->flinfo, key_at) != INT4OID)
        refuse_partial_totals("a call with an estimated bound without the rows' log bins");
    if (PG_ARGISNULL(key_at)) {
        if (rows != 0) refuse_partial_totals("rows without a log bin");
        PG_RETURN_POINTER(state);
    }
    const int32 bin = PG_GETARG_INT32(key_at);
    if (bin < 0 || bin >= static_cast<int32>(pgdp::kLogBinCount))
        refuse_partial_totals("a log bin out of range");
    const __int128 sum = PG_ARGISNULL(key_at + 1) ? 0 : integer_numeric(PG_GETARG_NUMERIC(key_at + 1));
    if (site.squares) {
        if (layout_of(state) != EstimatedLayout::Squares)
            refuse_partial_totals("a variance state without its sums of squares");
        const pgdp::SplitUint192 squares =
            PG_ARGISNULL(key_at + 2) ? pgdp::SplitUint192{} : unsigned_numeric(PG_GETARG_NUMERIC(key_at + 2));
        PGDP_GUARDED(pgdp::add_partial_bin_squares(estimated_squares(state).binned,
                                                   static_cast<std::size_t>(bin), rows, sum, squares));
    } else {
        if (layout_of(state) != EstimatedLayout::Sums)
            refuse_partial_totals("a sum state of the wrong layout");
        PGDP_GUARDED(pgdp::add_partial_bin(estimated(state).sums, static_cast<std::size_t>(bin), rows, sum));
    }
    state->rows += rows;
    PG_RETURN_POINTER(state);
}

// A distributed call (plan_marks.hpp reads_partial_totals): its last arguments are one group's
// exact totals from the workers (parameters.hpp partial_argument_count), sum(clamped_units)
// (numeric; NULL for no rows or dp_count), the rows counted, for dp_variance and dp_stddev
// sum(centred_squares) (numeric; NULL for no rows), then for dp_sum, dp_mean, dp_variance and
// dp_stddev the row's log bin, sum(binned_units) and the sum of their squares (NULL constants
// unless the bounds may be estimated). A total no row set within [lower, upper] can give is
// refused, so the release's sensitivity holds whatever a worker computed. With bins, a group's
// totals come in several rows (one per bin), each checked and added.
Datum add_partial_totals(FunctionCallInfo fcinfo, ClampedState* state, const CallSite& site) {
    const pgdp::AggregateParameters& p = site.parameters.privacy;
    const int first = PG_NARGS() - pgdp::pg::partial_argument_count(site.kind);
    if (pgdp::estimates_bounds(p)) return add_partial_bin_totals(fcinfo, state, site, first);
    const int last = first + 1;  // the rows
    const int64 rows = PG_ARGISNULL(last) ? 0 : PG_GETARG_INT64(last);
    if (rows < 0) refuse_partial_totals("negative row count");
    __int128 total = PG_ARGISNULL(last - 1) ? 0 : integer_numeric(PG_GETARG_NUMERIC(last - 1));
    __int128 low = 0;
    __int128 high = 0;
    if (p.lower != 0.0 || p.upper != 0.0) {
        low = pgdp::clamped_units(p.lower, p.lower, p.upper, p.unit_exponent);
        high = pgdp::clamped_units(p.upper, p.lower, p.upper, p.unit_exponent);
    }
    if (total < low * rows || total > high * rows)
        refuse_partial_totals("a total outside [lower, upper] per row");
    if (site.squares) {
        const __int128 squares = PG_ARGISNULL(last + 1) ? 0 : integer_numeric(PG_GETARG_NUMERIC(last + 1));
        if (squares < 0 || squares > static_cast<__int128>(site.square_units.largest) * rows)
            refuse_partial_totals("a sum of squares outside [0, (upper - lower)^2/4] per row");
        state->squares.add(squares);
    }
    state->rows += rows;
    state->units.add(total);
    PG_RETURN_POINTER(state);
}

// Per-row fast path: once this call site exists and its group's state does, the context checks
// (done on the first row of each group) are not repeated.
bool established(FunctionCallInfo fcinfo) { return !PG_ARGISNULL(0) && fcinfo->flinfo->fn_extra != nullptr; }

Datum clamped_transition(FunctionCallInfo fcinfo) {
    const Parameters* parameters;
    ClampedState* state;
    const CallSite* site;
    if (established(fcinfo)) {
        site = static_cast<const CallSite*>(fcinfo->flinfo->fn_extra);
        parameters = &site->parameters;
        state = reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(0));
    } else {
        MemoryContext context = aggregate_context(fcinfo);
        site = &call_site(fcinfo, false);
        parameters = &site->parameters;
        state = state_of(fcinfo, context, parameters->privacy, site->squares);
    }
    if (site->partial_totals) return add_partial_totals(fcinfo, state, *site);
    if (!PG_ARGISNULL(1)) {
        const double value = value_as_double(fcinfo, parameters->value_type);
        if (!std::isnan(value)) {
            const pgdp::AggregateParameters& p = parameters->privacy;
            if (pgdp::estimates_bounds(p)) {
                add_estimated_row(state, value, p);
                PG_RETURN_POINTER(state);
            }
            const int64 units = pgdp::clamped_units(value, p.lower, p.upper, p.unit_exponent);
            state->units.add(units);
            if (site->squares) state->squares.add(pgdp::centred_square(units, site->square_units));
            state->rows += 1;
        }
    }
    PG_RETURN_POINTER(state);
}

Datum count_transition(FunctionCallInfo fcinfo) {
    if (established(fcinfo) && !static_cast<const CallSite*>(fcinfo->flinfo->fn_extra)->partial_totals) {
        reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(0))->rows += 1;
        PG_RETURN_POINTER(PG_GETARG_POINTER(0));
    }
    MemoryContext context = aggregate_context(fcinfo);
    const CallSite& site = call_site(fcinfo, false);
    ClampedState* state = state_of(fcinfo, context, site.parameters.privacy, false);
    if (site.partial_totals) return add_partial_totals(fcinfo, state, site);
    state->rows += 1;
    PG_RETURN_POINTER(state);
}

const ClampedState* final_state(FunctionCallInfo fcinfo) {
    static const ClampedState empty{0, {0, 0}, {0, 0}, 0.0, 0.0};
    return PG_ARGISNULL(0) ? &empty : reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(0));
}

// The clamping bounds a *_ci release used (dp_release's lower_bound and upper_bound, 0.13): the
// given bounds or the estimated ones; none for dp_count_ci.
struct ReportedBounds {
    bool known;
    double lower;
    double upper;
};

// How each privacy unit's contribution was bounded: NULL unless the release is person-level (a
// release over a plain relation bounds each row by the clamping bounds alone).
struct ReportedContribution {
    bool person_level;
    int groups_per_unit;  // m: the groups a unit kept (1 when ungrouped)
    int rows_per_unit;    // the values a unit kept per group (1: its total, mean or presence)
};

ReportedContribution contribution_of(const Parameters& parameters) {
    return ReportedContribution{parameters.person_level, static_cast<int>(parameters.privacy.groups_per_unit),
                                static_cast<int>(parameters.privacy.rows_per_unit)};
}

// The *_ci forms return a dp_release record: the release, its interval and noise, (0.8) the
// epsilon and delta it was charged and from_cache (false here; the release cache sets it when it
// answers the stored row again), (0.13) the bounds it used and (0.16) the groups and rows per
// unit it bounded each privacy unit to. A 0.7 catalog's dp_release has the first six fields only,
// a 0.8 to 0.12 one the first nine, a 0.13 to 0.15 one the first eleven.
Datum release_record(FunctionCallInfo fcinfo, const pgdp::AggregateRelease& release, double alpha,
                     pgdp::Mechanism mechanism, const pgdp::ReleaseCharge& charged,
                     const ReportedBounds& bounds, const ReportedContribution& contribution) {
    TupleDesc descriptor;
    if (get_call_result_type(fcinfo, nullptr, &descriptor) != TYPEFUNC_COMPOSITE) {
        ereport(ERROR,
                (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("dp_release must be returned as a record")));
    }
    descriptor = BlessTupleDesc(descriptor);
    const char* name = pgdp::mechanism_name(mechanism).data();  // a string literal
    Datum values[13] = {Float8GetDatum(release.value),
                        Float8GetDatum(release.ci_lower),
                        Float8GetDatum(release.ci_upper),
                        Float8GetDatum(release.noise_sd),
                        Float8GetDatum(alpha),
                        CStringGetTextDatum(name),
                        Float8GetDatum(charged.epsilon),
                        Float8GetDatum(charged.delta),
                        BoolGetDatum(false),
                        Float8GetDatum(bounds.lower),
                        Float8GetDatum(bounds.upper),
                        Int32GetDatum(contribution.groups_per_unit),
                        Int32GetDatum(contribution.rows_per_unit)};
    bool nulls[13] = {};
    nulls[9] = nulls[10] = !bounds.known;
    nulls[11] = nulls[12] = !contribution.person_level;
    if (descriptor->natts != 6 && descriptor->natts != 9 && descriptor->natts != 11 &&
        descriptor->natts != 13) {
        ereport(ERROR,
                (errcode(ERRCODE_DATATYPE_MISMATCH), errmsg("dp_release has an unexpected number of fields"),
                 errhint("ALTER EXTENSION pgdp UPDATE.")));
    }
    return HeapTupleGetDatum(heap_form_tuple(descriptor, values, nulls));
}

// The plain forms return the value in the aggregate's result type: numeric for numeric values,
// bigint for dp_count and dp_sum over integers (saturated), float8 otherwise.
Datum typed_value(const pgdp::AggregateRelease& release, Oid type, AggregateKind kind) {
    if (type == NUMERICOID) return DirectFunctionCall1(float8_numeric, Float8GetDatum(release.value));
    if ((kind == AggregateKind::Sum || kind == AggregateKind::Count) && is_integer_type(type)) {
        const double limit = 9223372036854775807.0;
        return Int64GetDatum(static_cast<int64>(std::fmax(-limit, std::fmin(release.value, limit - 1024.0))));
    }
    return Float8GetDatum(release.value);
}

// Every final function: the call site's plan (the one charged), the state (an empty one for a group
// without rows), the release computed behind the exception barrier (only plain data is alive
// when an error is raised here), and the result in the aggregate's form.
// dp_sum, dp_mean, dp_variance and dp_stddev with a NULL bound: both stages from the state's
// binned sums (and squares; an empty group: empty ones), with the mechanism the call was charged for.
// The *_ci forms: the release's interval for the bounds it used, reported in the dp_release.
Datum finish_estimated(FunctionCallInfo fcinfo, const AggregateIdentity& identity, const CallSite& site) {
    pgdp::AggregateParameters parameters = site.parameters.privacy;
    parameters.mechanism = site.plan.main().mechanism;
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    pgdp::EstimatedBoundsRelease release;
    pgdp::ReleaseCharge charged{};
    auto* state = PG_ARGISNULL(0) ? nullptr : reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(0));
    if (site.squares) {
        static const pgdp::BinnedSquares empty{};
        if (state != nullptr && layout_of(state) != EstimatedLayout::Squares) {
            ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                            errmsg("a pgdp variance state without its sums of squares")));
        }
        const pgdp::BinnedSquares& binned = state == nullptr ? empty : estimated_squares(state).binned;
        PGDP_GUARDED({
            release = pgdp::release_variance_with_estimated_bounds(identity.kind, parameters, binned, random);
            if (identity.with_interval) charged = pgdp::release_charge(site.parameters.privacy, site.plan);
        });
    } else {
        static const pgdp::BinnedSums empty{};
        if (state != nullptr && layout_of(state) != EstimatedLayout::Sums) {
            ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("a pgdp sum state of the wrong layout")));
        }
        const pgdp::BinnedSums& sums = state == nullptr ? empty : estimated(state).sums;
        PGDP_GUARDED({
            release = pgdp::release_with_estimated_bounds(identity.kind, parameters, sums, random);
            if (identity.with_interval) charged = pgdp::release_charge(site.parameters.privacy, site.plan);
        });
    }
    if (identity.with_interval) {
        // The interval is the release's at the bounds it used, which are reported with it
        // (post-processing of the bounds stage: docs/privacy.md "Bounds the analyst need not guess").
        return release_record(fcinfo, release.release, parameters.alpha, parameters.mechanism, charged,
                              ReportedBounds{true, release.bounds.lower, release.bounds.upper},
                              contribution_of(site.parameters));
    }
    return typed_value(release.release, site.parameters.value_type, identity.kind);
}

Datum finish(FunctionCallInfo fcinfo, const AggregateIdentity& identity) {
    const CallSite& site = final_call_site(fcinfo, identity);
    if (pgdp::estimates_bounds(site.parameters.privacy)) return finish_estimated(fcinfo, identity, site);
    const ClampedState* state = final_state(fcinfo);
    const pgdp::ExactTotals totals{state->units.get(), state->rows, state->squares.get()};
    const pgdp::AggregateParameters& parameters = site.parameters.privacy;
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    pgdp::AggregateRelease release;
    pgdp::ReleaseCharge charged{};
    bool keep = false;
    PGDP_GUARDED({
        if (identity.kind == AggregateKind::Selection) {
            // The keep decision is sampled exactly (partition_selection.hpp); no noisy count leaves.
            keep = pgdp::release_selection(site.plan, totals.rows, random).keep;
        } else {
            release = pgdp::release_aggregate(parameters, site.plan, totals, random);
            if (identity.with_interval) charged = pgdp::release_charge(parameters, site.plan);
        }
    });
    if (identity.kind == AggregateKind::Selection) {
        pgdp::pg::note_group_selection(fcinfo, keep);
        return BoolGetDatum(keep);
    }
    if (identity.with_interval) {
        const bool bounded = identity.kind != AggregateKind::Count;  // dp_count_ci reads no value
        return release_record(fcinfo, release, parameters.alpha, site.plan.main().mechanism, charged,
                              ReportedBounds{bounded, parameters.lower, parameters.upper},
                              contribution_of(site.parameters));
    }
    return typed_value(release, site.parameters.value_type, identity.kind);
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
PG_FUNCTION_INFO_V1(pgdp_groups_final);
PG_FUNCTION_INFO_V1(pgdp_variance_final);
PG_FUNCTION_INFO_V1(pgdp_stddev_final);
PG_FUNCTION_INFO_V1(pgdp_variance_ci_final);
PG_FUNCTION_INFO_V1(pgdp_stddev_ci_final);

// (state, value, lower, upper, epsilon [, delta [, mechanism]]) for dp_sum, dp_mean, dp_variance
// and dp_stddev (the call site knows which: the last two also total the centred squares).
Datum pgdp_clamped_transfn(PG_FUNCTION_ARGS) { return clamped_transition(fcinfo); }
// The same with a trailing alpha, for dp_sum_ci, dp_mean_ci, dp_variance_ci and dp_stddev_ci.
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
    const CallSite& site = call_site(fcinfo, false);
    const pgdp::AggregateParameters& p = site.parameters.privacy;
    if (!same_bounds(*other, p)) {
        // Not reachable while parameters are deterministic (parameters.cpp); refuse rather than
        // release a total computed with other bounds than those charged.
        ereport(ERROR,
                (errcode(ERRCODE_INTERNAL_ERROR),
                 errmsg("a partial pgdp aggregate was computed with other bounds than those charged"),
                 errhint("Report this query; run it with max_parallel_workers_per_gather = 0 meanwhile.")));
    }
    // A fresh copy with the bounds when arg 0 is NULL.
    ClampedState* state = state_of(fcinfo, context, p, site.squares);
    if (pgdp::estimates_bounds(p)) {
        const EstimatedLayout layout = site.squares ? EstimatedLayout::Squares : EstimatedLayout::Sums;
        if (layout_of(state) != layout || layout_of(other) != layout) {
            ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                            errmsg("partial pgdp aggregate states of different layouts")));
        }
        auto* from = const_cast<ClampedState*>(other);
        if (site.squares) {
            pgdp::merge_binned_squares(estimated_squares(state).binned, estimated_squares(from).binned);
        } else {
            pgdp::merge_binned_sums(estimated(state).sums, estimated(from).sums);
        }
        state->rows += other->rows;
        PG_RETURN_POINTER(state);
    }
    state->rows += other->rows;
    state->units.add(other->units.get());
    state->squares.add(other->squares.get());
    PG_RETURN_POINTER(state);
}

Datum pgdp_state_serialize(PG_FUNCTION_ARGS) {
    (void)aggregate_context(fcinfo);
    const auto* state = reinterpret_cast<ClampedState*>(PG_GETARG_POINTER(0));
    if (is_estimated(*state)) {
        // The given bounds (kEstimatedBound for an estimated one), then the binned sums.
        // Built inside the barrier, the bytea by state_bytea_or_null: no palloc (which may ereport)
        // while the vector is alive.
        bytea* out = nullptr;
        PGDP_GUARDED({
            pgdp::StateBytes bytes =
                layout_of(state) == EstimatedLayout::Squares
                    ? pgdp::serialize_binned_squares(
                          reinterpret_cast<const EstimatedSquaresState*>(state)->binned)
                    : pgdp::serialize_binned_sums(reinterpret_cast<const EstimatedState*>(state)->sums);
            const auto* bounds = reinterpret_cast<const unsigned char*>(&state->lower);
            bytes.insert(bytes.end(), bounds, bounds + 8);
            bounds = reinterpret_cast<const unsigned char*>(&state->upper);
            bytes.insert(bytes.end(), bounds, bounds + 8);
            out = pgdp::pg::state_bytea_or_null(bytes);
        });
        if (out == nullptr) ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory in pgdp")));
        PG_RETURN_BYTEA_P(out);
    }
    bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + kSerializedStateSize));
    SET_VARSIZE(out, VARHDRSZ + kSerializedStateSize);
    char* data = VARDATA(out);
    data[0] = static_cast<char>(kStateFormatVersion);
    std::memcpy(data + 1, &state->rows, 8);
    std::memcpy(data + 9, &state->units.low, 8);
    std::memcpy(data + 17, &state->units.high, 8);
    std::memcpy(data + 25, &state->squares.low, 8);
    std::memcpy(data + 33, &state->squares.high, 8);
    std::memcpy(data + 41, &state->lower, 8);
    std::memcpy(data + 49, &state->upper, 8);
    PG_RETURN_BYTEA_P(out);
}

Datum pgdp_state_deserialize(PG_FUNCTION_ARGS) {
    MemoryContext context = aggregate_context(fcinfo);
    bytea* in = PG_GETARG_BYTEA_PP(0);
    const char* data = VARDATA_ANY(in);
    const bool binned_sums =
        VARSIZE_ANY_EXHDR(in) > 16 && static_cast<uint8>(data[0]) == pgdp::kBinnedSumsStateVersion;
    const bool binned_squares =
        VARSIZE_ANY_EXHDR(in) > 16 && static_cast<uint8>(data[0]) == pgdp::kBinnedSquaresStateVersion;
    if (binned_sums || binned_squares) {
        const std::size_t size = VARSIZE_ANY_EXHDR(in) - 16;
        const auto* bytes = reinterpret_cast<const unsigned char*>(data);
        pgdp::AggregateParameters unknown;
        unknown.estimate_lower = true;  // the bounds are read from the bytes below
        ClampedState* head = new_estimated_state(context, unknown, binned_squares);
        if (binned_squares) {
            pgdp::BinnedSquares& binned = estimated_squares(head).binned;
            PGDP_GUARDED(pgdp::deserialize_binned_squares(bytes, size, binned));
            head->rows = pgdp::binned_rows(binned.sums);
        } else {
            pgdp::BinnedSums& sums = estimated(head).sums;
            PGDP_GUARDED(pgdp::deserialize_binned_sums(bytes, size, sums));
            head->rows = pgdp::binned_rows(sums);
        }
        std::memcpy(&head->lower, data + size, 8);
        std::memcpy(&head->upper, data + size + 8, 8);
        if (!is_estimated(*head)) {
            ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                            errmsg("invalid pgdp aggregate state (binned sums without an estimated bound)")));
        }
        PG_RETURN_POINTER(head);
    }
    if (VARSIZE_ANY_EXHDR(in) != kSerializedStateSize || static_cast<uint8>(data[0]) != kStateFormatVersion) {
        ereport(ERROR,
                (errcode(ERRCODE_DATA_CORRUPTED),
                 errmsg("invalid pgdp aggregate state (size %d, version %d)",
                        static_cast<int>(VARSIZE_ANY_EXHDR(in)),
                        VARSIZE_ANY_EXHDR(in) > 0 ? static_cast<int>(static_cast<uint8>(data[0])) : -1)));
    }
    auto* state = static_cast<ClampedState*>(MemoryContextAllocZero(context, sizeof(ClampedState)));
    std::memcpy(&state->rows, data + 1, 8);
    std::memcpy(&state->units.low, data + 9, 8);
    std::memcpy(&state->units.high, data + 17, 8);
    std::memcpy(&state->squares.low, data + 25, 8);
    std::memcpy(&state->squares.high, data + 33, 8);
    std::memcpy(&state->lower, data + 41, 8);
    std::memcpy(&state->upper, data + 49, 8);
    if (state->rows < 0 || state->squares.get() < 0) {
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("invalid pgdp aggregate state (negative row count or sum of squares)")));
    }
    PG_RETURN_POINTER(state);
}

// One body for all eleven (their identities are rows of aggregate_identity.hpp kAggregates).
Datum pgdp_sum_final(PG_FUNCTION_ARGS) { return finish(fcinfo, pgdp::pg::kDpSum); }
Datum pgdp_mean_final(PG_FUNCTION_ARGS) { return finish(fcinfo, pgdp::pg::kDpMean); }
Datum pgdp_count_final(PG_FUNCTION_ARGS) { return finish(fcinfo, pgdp::pg::kDpCount); }
Datum pgdp_sum_ci_final(PG_FUNCTION_ARGS) { return finish(fcinfo, pgdp::pg::kDpSumCi); }
Datum pgdp_mean_ci_final(PG_FUNCTION_ARGS) { return finish(fcinfo, pgdp::pg::kDpMeanCi); }
Datum pgdp_count_ci_final(PG_FUNCTION_ARGS) { return finish(fcinfo, pgdp::pg::kDpCountCi); }
Datum pgdp_groups_final(PG_FUNCTION_ARGS) { return finish(fcinfo, pgdp::pg::kDpGroups); }
Datum pgdp_variance_final(PG_FUNCTION_ARGS) { return finish(fcinfo, pgdp::pg::kDpVariance); }
Datum pgdp_stddev_final(PG_FUNCTION_ARGS) { return finish(fcinfo, pgdp::pg::kDpStddev); }
Datum pgdp_variance_ci_final(PG_FUNCTION_ARGS) { return finish(fcinfo, pgdp::pg::kDpVarianceCi); }
Datum pgdp_stddev_ci_final(PG_FUNCTION_ARGS) { return finish(fcinfo, pgdp::pg::kDpStddevCi); }

}  // extern "C"
