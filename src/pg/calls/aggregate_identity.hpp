// What pgdp's aggregates are: one table, kAggregates, from which everything that names an
// aggregate derives (the identities the support functions and the plan walks use, the positions
// of the privacy arguments read_parameters reads). scripts/install-script.sh --check fails when
// the install script's CREATE AGGREGATE statements and this table disagree (a name, a final
// function's C symbol, the number of arguments), so keep each row on one line.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/nodes.h"
}

#include "core/aggregate_release.hpp"

namespace pgdp::pg {

using pgdp::AggregateKind;

// Where a call's privacy arguments are (0-based; -1: none). A value comes first when there are
// bounds (then dp_histogram's bins) and for dp_count_distinct (no bounds); delta and mechanism, both
// optional, follow epsilon; the *_ci forms end with alpha, except the form that stops at epsilon
// (alpha 0.05).
struct ArgumentPositions {
    int lower;
    int upper;
    int epsilon;
    int min_units;   // dp_groups: after the mechanism
    int shape = -1;  // dp_histogram: bins, dp_quantile(s): q, after the bounds (epsilon follows it)
};

struct AggregateDefinition {
    const char* name;  // SQL name
    AggregateKind kind;
    bool with_interval;        // the *_ci forms: a dp_release record with an interval
    const char* final_symbol;  // C symbol of its final functions (AS 'MODULE_PATHNAME', '...')
    ArgumentPositions at;
    int min_arguments;  // the signatures CREATE AGGREGATE declares, fewest and most arguments
    int max_arguments;
};

// clang-format off
inline constexpr AggregateDefinition kAggregates[] = {
    // name         kind                       *_ci   final function         {lower, upper, epsilon, min_units}  arguments
    {"dp_sum",      AggregateKind::Sum,       false, "pgdp_sum_final",      { 1,  2, 3, -1},                     4, 6},
    {"dp_mean",     AggregateKind::Mean,      false, "pgdp_mean_final",     { 1,  2, 3, -1},                     4, 6},
    {"dp_count",    AggregateKind::Count,     false, "pgdp_count_final",    {-1, -1, 0, -1},                     1, 3},
    {"dp_sum_ci",   AggregateKind::Sum,       true,  "pgdp_sum_ci_final",   { 1,  2, 3, -1},                     4, 7},
    {"dp_mean_ci",  AggregateKind::Mean,      true,  "pgdp_mean_ci_final",  { 1,  2, 3, -1},                     4, 7},
    {"dp_count_ci", AggregateKind::Count,     true,  "pgdp_count_ci_final", {-1, -1, 0, -1},                     1, 4},
    {"dp_variance", AggregateKind::Variance,  false, "pgdp_variance_final", { 1,  2, 3, -1},                     4, 6},
    {"dp_stddev",   AggregateKind::StandardDeviation, false, "pgdp_stddev_final", { 1,  2, 3, -1},               4, 6},
    {"dp_variance_ci", AggregateKind::Variance, true, "pgdp_variance_ci_final", { 1,  2, 3, -1},                 4, 7},
    {"dp_stddev_ci", AggregateKind::StandardDeviation, true, "pgdp_stddev_ci_final", { 1,  2, 3, -1},            4, 7},
    // Private group selection: dp_groups(epsilon, delta [, mechanism [, min_units]]) -> boolean.
    {"dp_groups",   AggregateKind::Selection, false, "pgdp_groups_final",   {-1, -1, 0,  3},                     2, 4},
    // dp_histogram(value, lower, upper, bins, epsilon [, delta [, mechanism]]) -> dp_histogram_bin[].
    {"dp_histogram", AggregateKind::Histogram, false, "pgdp_histogram_final", { 1, 2, 4, -1, 3},               5, 7},
    // dp_quantile(value, lower, upper, q, ...) -> float8, dp_quantiles(..., q float8[], ...) -> float8[],
    // dp_median(value, lower, upper, epsilon [, delta [, mechanism]]) -> float8: one noisy tree each.
    {"dp_quantile", AggregateKind::Quantiles, false, "pgdp_quantile_final",   { 1, 2, 4, -1, 3},               5, 7},
    {"dp_quantiles", AggregateKind::Quantiles, false, "pgdp_quantiles_final", { 1, 2, 4, -1, 3},               5, 7},
    {"dp_median",   AggregateKind::Quantiles, false, "pgdp_median_final",     { 1, 2, 3, -1},                  4, 6},
    // dp_count_distinct(value, epsilon [, delta [, mechanism]]) -> bigint: a value, no bounds.
    {"dp_count_distinct", AggregateKind::CountDistinct, false, "pgdp_count_distinct_final", {-1, -1, 1, -1},  2, 4},
};
// clang-format on

// What a pgdp aggregate is, identified by its final function (C symbol in the pgdp library).
struct AggregateIdentity {
    bool is_pgdp;
    AggregateKind kind;
    bool with_interval;  // the *_ci forms: a dp_release record with an interval
    const char* name;    // "dp_sum", "dp_mean_ci", ... (static storage)
    ArgumentPositions at;
    // A form without the bounds, dp_sum(value, epsilon [, delta]) (calls/omitted_bounds.hpp): `at`
    // holds the positions of the form it stands for, valid only once the call was rewritten into it.
    bool omits_bounds = false;
};

// The final function's C symbol of every form without the bounds (it raises: the planner rewrites
// each call into the NULL-bound form before anything runs).
inline constexpr const char* kOmittedBoundsFinalSymbol = "pgdp_omitted_bounds_final";
// Looked up once per aggregate OID per backend (pg_aggregate -> final function -> pg_proc).
AggregateIdentity identify_aggregate(Oid aggfnoid);

// True if an expression or query tree (subqueries included) contains a pgdp aggregate call.
bool contains_release(Node* node);

namespace identity_table {

// Not a pgdp aggregate (read as dp_count's positions, as it always was).
inline constexpr AggregateIdentity kNotPgdp{false, AggregateKind::Count, false, "", {-1, -1, 0, -1}};

constexpr bool same_text(const char* a, const char* b) {
    while (*a != '\0' && *a == *b) ++a, ++b;
    return *a == *b;
}

constexpr AggregateIdentity identity_of(const AggregateDefinition& row) {
    return {true, row.kind, row.with_interval, row.name, row.at};
}

constexpr AggregateIdentity named(const char* name) {
    for (const AggregateDefinition& row : kAggregates) {
        if (same_text(row.name, name)) return identity_of(row);
    }
    return kNotPgdp;
}

// Each row's positions fit its argument counts: a value before the bounds, delta and mechanism
// after epsilon, min_units after the mechanism, alpha last; names and final symbols are unique.
constexpr bool consistent() {
    const int rows = static_cast<int>(sizeof kAggregates / sizeof kAggregates[0]);
    for (int i = 0; i < rows; ++i) {
        const AggregateDefinition& row = kAggregates[i];
        const ArgumentPositions& at = row.at;
        const int alpha = row.with_interval ? 1 : 0;
        if ((at.lower >= 0) != (at.upper >= 0) || (at.lower >= 0 && (at.lower != 1 || at.upper != 2)))
            return false;
        if (at.shape >= 0 && (at.lower < 0 || at.shape != 3)) return false;
        const int unbounded_value = row.kind == AggregateKind::CountDistinct ? 1 : 0;
        if (at.epsilon != (at.lower >= 0 ? 3 + (at.shape >= 0 ? 1 : 0) : unbounded_value)) return false;
        if (at.min_units >= 0 && (at.min_units != at.epsilon + 3 || row.with_interval)) return false;
        if (row.max_arguments != at.epsilon + 3 + (at.min_units >= 0 ? 1 : 0) + alpha) return false;
        // A *_ci form may stop at epsilon (alpha then 0.05); with delta or a mechanism it ends with alpha.
        if (row.min_arguments < at.epsilon + 1 || row.min_arguments > row.max_arguments) return false;
        for (int j = 0; j < i; ++j) {
            if (same_text(kAggregates[j].name, row.name) ||
                same_text(kAggregates[j].final_symbol, row.final_symbol))
                return false;
        }
    }
    return true;
}
static_assert(consistent(), "kAggregates: argument positions, counts or unique names");

}  // namespace identity_table

// The identities the final functions are called with (sql/aggregates.cpp), one per row.
inline constexpr AggregateIdentity kDpSum = identity_table::named("dp_sum");
inline constexpr AggregateIdentity kDpMean = identity_table::named("dp_mean");
inline constexpr AggregateIdentity kDpCount = identity_table::named("dp_count");
inline constexpr AggregateIdentity kDpSumCi = identity_table::named("dp_sum_ci");
inline constexpr AggregateIdentity kDpMeanCi = identity_table::named("dp_mean_ci");
inline constexpr AggregateIdentity kDpCountCi = identity_table::named("dp_count_ci");
inline constexpr AggregateIdentity kDpGroups = identity_table::named("dp_groups");
inline constexpr AggregateIdentity kDpVariance = identity_table::named("dp_variance");
inline constexpr AggregateIdentity kDpStddev = identity_table::named("dp_stddev");
inline constexpr AggregateIdentity kDpVarianceCi = identity_table::named("dp_variance_ci");
inline constexpr AggregateIdentity kDpStddevCi = identity_table::named("dp_stddev_ci");
inline constexpr AggregateIdentity kDpHistogram = identity_table::named("dp_histogram");
inline constexpr AggregateIdentity kDpQuantile = identity_table::named("dp_quantile");
inline constexpr AggregateIdentity kDpQuantiles = identity_table::named("dp_quantiles");
inline constexpr AggregateIdentity kDpMedian = identity_table::named("dp_median");
inline constexpr AggregateIdentity kDpCountDistinct = identity_table::named("dp_count_distinct");
static_assert(kDpSum.is_pgdp && kDpMean.is_pgdp && kDpCount.is_pgdp && kDpSumCi.is_pgdp &&
                  kDpMeanCi.is_pgdp && kDpCountCi.is_pgdp && kDpGroups.is_pgdp && kDpVariance.is_pgdp &&
                  kDpStddev.is_pgdp && kDpVarianceCi.is_pgdp && kDpStddevCi.is_pgdp && kDpHistogram.is_pgdp &&
                  kDpQuantile.is_pgdp && kDpQuantiles.is_pgdp && kDpMedian.is_pgdp &&
                  kDpCountDistinct.is_pgdp,
              "every kDp* identity names a row of kAggregates");

}  // namespace pgdp::pg
