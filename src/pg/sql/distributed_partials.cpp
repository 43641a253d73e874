// The functions a distributed release runs (distributed_release.hpp):
// - pgdp.clamped_units(value, lower, upper), on the workers: one row's clamped value in the exact
//   fixed-point units of the single-node aggregates (core/clamped_sum.hpp), summed there by sum();
// - pgdp.centred_squares(value, lower, upper), on the workers for dp_variance and dp_stddev: the
//   same row's centred square in the square units of core/centred_squares.hpp, summed there too;
// - pgdp.histogram_bin(value, lower, upper, bins) and pgdp.quantile_leaf(value, lower, upper), on
//   the workers for dp_histogram and the quantiles (0.12): one row's bin (core/histogram_release.hpp
//   histogram_bin) and leaf (core/quantile_tree.hpp quantile_row_leaf, NULL for NaN; 0.14: a NULL
//   bound the log-linear map), which the partials group by and count (dp_count_distinct groups by
//   the type's own hash function);
// - pgdp.log_bin(value, lower, upper) and pgdp.binned_units(value, lower, upper), on the workers
//   for dp_sum, dp_mean, dp_variance and dp_stddev with a NULL bound (0.14): one row's log bin and
//   exact units in it (core/binned_sums.hpp binned_units, the single-node transition's map; a NULL
//   bound is a side not clamped), which the partials group by, count and sum;
// - pgdp.distributed_partials(query), on the coordinator: runs the partials query that a charged
//   execution planned (partials.hpp charged_partials_plan) and returns its exact totals to
//   that execution's pgdp calls, and to nothing else.
#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/tstoreReceiver.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/numeric.h"
#include "utils/snapmgr.h"
}

#include <cmath>
#include <cstring>
#include <limits>

#include "core/aggregate_release.hpp"
#include "core/binned_sums.hpp"
#include "core/centred_squares.hpp"
#include "core/clamped_sum.hpp"
#include "core/histogram_release.hpp"
#include "core/quantile_tree.hpp"
#include "pg/base/pg_compat.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/planning/distributed_release.hpp"
#include "pg/execution/partials.hpp"

namespace {

// The units of the bounds a call site last saw (the bounds are the call's constants).
struct UnitsCache {
    double lower;
    double upper;
    int unit_exponent;
    pgdp::CentredSquareUnits squares;  // pgdp.centred_squares only
    bool valid;
};

// The call site's units for its bounds (arguments 1 and 2), computed when they change.
const UnitsCache& units_for(FunctionCallInfo fcinfo, bool with_squares) {
    const double lower = PG_GETARG_FLOAT8(1);
    const double upper = PG_GETARG_FLOAT8(2);
    auto* cache = static_cast<UnitsCache*>(fcinfo->flinfo->fn_extra);
    if (cache == nullptr || !cache->valid || std::memcmp(&cache->lower, &lower, sizeof(double)) != 0 ||
        std::memcmp(&cache->upper, &upper, sizeof(double)) != 0) {
        if (cache == nullptr) {
            cache =
                static_cast<UnitsCache*>(MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(UnitsCache)));
            fcinfo->flinfo->fn_extra = cache;
        }
        int exponent = 0;
        pgdp::CentredSquareUnits squares{};
        cache->valid = false;
        PGDP_GUARDED({
            exponent = pgdp::sum_unit_exponent(lower, upper);
            if (with_squares) squares = pgdp::centred_square_units(lower, upper, exponent);
        });
        *cache = UnitsCache{lower, upper, exponent, squares, true};
    }
    return *cache;
}

// What a row adds on a worker, as the single-node transition adds it: its clamped units, or with
// `square` its centred square in square units; NULL for NaN (no row). A numeric value too large
// for a double becomes +-Infinity and is clamped, as in the transition.
Datum row_units(FunctionCallInfo fcinfo, bool numeric, bool square) {
    double value;
    if (numeric) {
        Numeric number = PG_GETARG_NUMERIC(0);
        if (numeric_is_nan(number)) PG_RETURN_NULL();
        value = DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, NumericGetDatum(number)));
    } else {
        value = PG_GETARG_FLOAT8(0);
        if (std::isnan(value)) PG_RETURN_NULL();
    }
    const UnitsCache& cache = units_for(fcinfo, square);
    const int64 units = pgdp::clamped_units(value, cache.lower, cache.upper, cache.unit_exponent);
    PG_RETURN_INT64(square ? pgdp::centred_square(units, cache.squares) : units);
}

// One row's value for pgdp.log_bin and pgdp.binned_units, as the single-node transition reads it
// (numeric through float8 without overflow: a huge value becomes +-Infinity, then +-2^64); false
// for NULL and NaN (no row). Integers and real arrive as float8 (the implicit casts are exact for
// int2, int4 and real, and round int8 as the transition's static_cast does).
bool binned_row(FunctionCallInfo fcinfo, bool numeric, pgdp::BinnedUnits* row) {
    if (PG_ARGISNULL(0)) return false;
    double value;
    if (numeric) {
        Numeric number = PG_GETARG_NUMERIC(0);
        if (numeric_is_nan(number)) return false;
        value = DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, NumericGetDatum(number)));
    } else {
        value = PG_GETARG_FLOAT8(0);
        if (std::isnan(value)) return false;
    }
    // A NULL bound is estimated on the coordinator: that side is not clamped.
    const double lower = PG_ARGISNULL(1) ? -HUGE_VAL : PG_GETARG_FLOAT8(1);
    const double upper = PG_ARGISNULL(2) ? HUGE_VAL : PG_GETARG_FLOAT8(2);
    *row = pgdp::binned_units(value, lower, upper);
    return true;
}

// The validated histogram bounds and bins of a call site (arguments 1 to 3), computed when they
// change: an invalid one ereports 22023 whatever the rows (the coordinator refused it before any
// charge anyway).
struct SpecCache {
    double lower;
    double upper;
    int32 bins;
    pgdp::HistogramSpec spec;
    bool valid;
};

const SpecCache& histogram_spec_for(FunctionCallInfo fcinfo) {
    // Not STRICT in SQL, so that a NULL bound (bounds the coordinator would estimate, which the
    // split does not do) fails the statement instead of counting no row.
    for (int i = 1; i < 4; ++i) {
        if (PG_ARGISNULL(i)) {
            ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                            errmsg("pgdp.histogram_bin needs its %s",
                                   i == 1 ? "lower bound" : (i == 2 ? "upper bound" : "bins")),
                            errhint("Distributed releases do not estimate bounds; pass lower and upper.")));
        }
    }
    const double lower = PG_GETARG_FLOAT8(1);
    const double upper = PG_GETARG_FLOAT8(2);
    const int32 bins = PG_GETARG_INT32(3);
    auto* cache = static_cast<SpecCache*>(fcinfo->flinfo->fn_extra);
    if (cache == nullptr) {
        cache = static_cast<SpecCache*>(MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(SpecCache)));
        fcinfo->flinfo->fn_extra = cache;
    }
    if (!cache->valid || std::memcmp(&cache->lower, &lower, sizeof(double)) != 0 ||
        std::memcmp(&cache->upper, &upper, sizeof(double)) != 0 || cache->bins != bins) {
        cache->valid = false;
        pgdp::HistogramSpec spec{};
        PGDP_GUARDED(spec = pgdp::validate_histogram_spec(lower, upper, bins));
        *cache = SpecCache{lower, upper, bins, spec, true};
    }
    return *cache;
}

// The leaf map and clamping bounds of a quantile call site's bounds (arguments 1 and 2, each
// possibly NULL: the log-linear map), computed when they change by the core's
// quantile_leaf_spec, the map and bounds the coordinator's state is made with; an invalid bound
// ereports 22023 whatever the rows (the coordinator refused it before any charge anyway).
struct LeafSpecCache {
    bool lower_null;
    bool upper_null;
    double lower;
    double upper;
    pgdp::QuantileLeafSpec spec;
    bool valid;
};

const pgdp::QuantileLeafSpec& leaf_spec_for(FunctionCallInfo fcinfo) {
    const bool lower_null = PG_ARGISNULL(1);
    const bool upper_null = PG_ARGISNULL(2);
    const double lower = lower_null ? 0.0 : PG_GETARG_FLOAT8(1);
    const double upper = upper_null ? 0.0 : PG_GETARG_FLOAT8(2);
    auto* cache = static_cast<LeafSpecCache*>(fcinfo->flinfo->fn_extra);
    if (cache == nullptr) {
        cache = static_cast<LeafSpecCache*>(
            MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(LeafSpecCache)));
        fcinfo->flinfo->fn_extra = cache;
    }
    if (!cache->valid || cache->lower_null != lower_null || cache->upper_null != upper_null ||
        std::memcmp(&cache->lower, &lower, sizeof(double)) != 0 ||
        std::memcmp(&cache->upper, &upper, sizeof(double)) != 0) {
        cache->valid = false;
        pgdp::QuantileLeafSpec spec{};
        PGDP_GUARDED(spec = pgdp::quantile_leaf_spec(lower_null, lower, upper_null, upper));
        *cache = LeafSpecCache{lower_null, upper_null, lower, upper, spec, true};
    }
    return cache->spec;
}

[[noreturn]] void refuse_outside_release(const char* why) {
    ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                    errmsg("pgdp.distributed_partials runs only inside the releases pgdp plans"),
                    errdetail("%s", why),
                    errhint("Call dp_sum, dp_mean or dp_count on the distributed table instead.")));
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_clamped_units_float8);
PG_FUNCTION_INFO_V1(pgdp_clamped_units_numeric);
PG_FUNCTION_INFO_V1(pgdp_centred_squares_float8);
PG_FUNCTION_INFO_V1(pgdp_centred_squares_numeric);
PG_FUNCTION_INFO_V1(pgdp_distributed_partials);
PG_FUNCTION_INFO_V1(pgdp_histogram_bin);
PG_FUNCTION_INFO_V1(pgdp_quantile_leaf);
PG_FUNCTION_INFO_V1(pgdp_log_bin_float8);
PG_FUNCTION_INFO_V1(pgdp_log_bin_numeric);
PG_FUNCTION_INFO_V1(pgdp_binned_units_float8);
PG_FUNCTION_INFO_V1(pgdp_binned_units_numeric);

// round(clamp(value, lower, upper) / 2^e) with e from the bounds (pgdp.clamped_units), and its
// centred square in the bounds' square units (pgdp.centred_squares, dp_variance and dp_stddev).
Datum pgdp_clamped_units_float8(PG_FUNCTION_ARGS) { return row_units(fcinfo, false, false); }
Datum pgdp_clamped_units_numeric(PG_FUNCTION_ARGS) { return row_units(fcinfo, true, false); }
Datum pgdp_centred_squares_float8(PG_FUNCTION_ARGS) { return row_units(fcinfo, false, true); }
Datum pgdp_centred_squares_numeric(PG_FUNCTION_ARGS) { return row_units(fcinfo, true, true); }

// (value, lower, upper, bins): the bin dp_histogram counts the value in, 0 to bins + 1 (NaN in the
// last, as in the transition).
Datum pgdp_histogram_bin(PG_FUNCTION_ARGS) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    const SpecCache& cache = histogram_spec_for(fcinfo);
    PG_RETURN_INT32(static_cast<int32>(pgdp::histogram_bin(cache.spec, PG_GETARG_FLOAT8(0))));
}

// (value, lower, upper): the quantile-tree leaf of the clamped value, 0 to 65535, in the leaf map
// of the bounds (a NULL bound: the log-linear map, 0.14), computed by the transition's own
// quantile_row_leaf; NULL for a NULL or NaN value (no row, as in the transition).
Datum pgdp_quantile_leaf(PG_FUNCTION_ARGS) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    const pgdp::QuantileLeafSpec& spec = leaf_spec_for(fcinfo);
    const double value = PG_GETARG_FLOAT8(0);
    if (std::isnan(value)) PG_RETURN_NULL();
    PG_RETURN_INT32(static_cast<int32>(pgdp::quantile_row_leaf(spec, value)));
}

// (value, lower, upper), a bound NULL when estimated: the log bin (0 to 192) of the value clamped to
// the given bound(s) and +-2^64, and its exact units in that bin; NULL for NULL and NaN (no row).
Datum pgdp_log_bin_float8(PG_FUNCTION_ARGS) {
    pgdp::BinnedUnits row{};
    if (!binned_row(fcinfo, false, &row)) PG_RETURN_NULL();
    PG_RETURN_INT32(static_cast<int32>(row.bin));
}
Datum pgdp_log_bin_numeric(PG_FUNCTION_ARGS) {
    pgdp::BinnedUnits row{};
    if (!binned_row(fcinfo, true, &row)) PG_RETURN_NULL();
    PG_RETURN_INT32(static_cast<int32>(row.bin));
}
Datum pgdp_binned_units_float8(PG_FUNCTION_ARGS) {
    pgdp::BinnedUnits row{};
    if (!binned_row(fcinfo, false, &row)) PG_RETURN_NULL();
    PG_RETURN_INT64(row.units);
}
Datum pgdp_binned_units_numeric(PG_FUNCTION_ARGS) {
    pgdp::BinnedUnits row{};
    if (!binned_row(fcinfo, true, &row)) PG_RETURN_NULL();
    PG_RETURN_INT64(row.units);
}

Datum pgdp_distributed_partials(PG_FUNCTION_ARGS) {
    auto* result = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
    if (result == nullptr || !IsA(result, ReturnSetInfo) || (result->allowedModes & SFRM_Materialize) == 0 ||
        result->expectedDesc == nullptr || result->econtext == nullptr) {
        refuse_outside_release("It was not called as the function scan of such a plan.");
    }
    // The plan the charged execution made of this very call (ereports otherwise).
    const PlannedStmt* planned =
        pgdp::pg::charged_partials_plan(result->econtext->ecxt_estate, fcinfo->flinfo->fn_expr);
    MemoryContext per_query = result->econtext->ecxt_per_query_memory;
    MemoryContext old = MemoryContextSwitchTo(per_query);
    Tuplestorestate* store = tuplestore_begin_heap(true, false, work_mem);
    TupleDesc descriptor = CreateTupleDescCopy(result->expectedDesc);
    PlannedStmt* statement = static_cast<PlannedStmt*>(copyObjectImpl(planned));
    MemoryContextSwitchTo(old);
    DestReceiver* destination = CreateDestReceiver(DestTuplestore);
    SetTuplestoreDestReceiverParams(destination, store, per_query, false, nullptr, nullptr);
    QueryDesc* query = CreateQueryDesc(statement, debug_query_string != nullptr ? debug_query_string : "",
                                       GetActiveSnapshot(), InvalidSnapshot, destination,
                                       result->econtext->ecxt_param_list_info, nullptr, 0);
    const int nest_level = pgdp::pg::pin_partials_settings();
    ExecutorStart(query, 0);
    bool same_columns = query->tupDesc->natts == descriptor->natts;
    for (int i = 0; same_columns && i < descriptor->natts; ++i) {
        same_columns = TupleDescAttr(query->tupDesc, i)->atttypid == TupleDescAttr(descriptor, i)->atttypid;
    }
    if (!same_columns) {
        ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                        errmsg("pgdp partials query returned other columns than planned")));
    }
    pgdp::pg::compat::run_to_completion(query);
    ExecutorFinish(query);
    ExecutorEnd(query);
    AtEOXact_GUC(true, nest_level);
    FreeQueryDesc(query);
    destination->rDestroy(destination);
    result->returnMode = SFRM_Materialize;
    result->setResult = store;
    result->setDesc = descriptor;
    return (Datum)0;
}

}  // extern "C"
