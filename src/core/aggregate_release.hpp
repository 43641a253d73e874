// The privacy arithmetic of the aggregates dp_sum, dp_mean, dp_count, dp_variance and dp_stddev
// (and their *_ci forms),
// free of PostgreSQL: validate a call's privacy parameters, plan its releases (the sensitivity
// of each released total and dp_mean's budget split), release from exact totals, and say what the
// budget ledger is charged. The shim (src/pg/sql/aggregates.cpp) only reads arguments and keeps the
// exact totals; the same API noises totals computed elsewhere. docs/privacy.md "Aggregates".
#pragma once

#include <cstdint>
#include <string_view>

#include "core/histogram_release.hpp"
#include "core/partition_selection.hpp"
#include "core/quantile_plan.hpp"
#include "core/random_source.hpp"
#include "core/release_plan.hpp"

namespace pgdp {

// Selection: dp_groups, the private selection of a group (keep or drop, from its unit count).
// Variance and StandardDeviation (population): one plan and release (variance_release.hpp), the
// latter reports the square root. Histogram: dp_histogram, the counts of equal-width bins and the
// two outer bins, one release (histogram_release.hpp). Quantiles: dp_quantile, dp_quantiles and
// dp_median, any number of quantiles from one noisy quantile tree (quantile_release.hpp).
// CountDistinct: dp_count_distinct, the number of distinct values (distinct_count.hpp).
enum class AggregateKind {
    Sum,
    Mean,
    Count,
    Selection,
    Variance,
    StandardDeviation,
    Histogram,
    Quantiles,
    CountDistinct
};

// The aggregates that read a value clamped to bounds (value, lower, upper, epsilon, ...).
constexpr bool reads_bounded_value(AggregateKind kind) {
    return kind == AggregateKind::Sum || kind == AggregateKind::Mean || kind == AggregateKind::Variance ||
           kind == AggregateKind::StandardDeviation;
}

// The aggregates whose state is not a set of totals (a histogram, a quantile tree, a set of
// hashes): their person-level form caps each unit's rows per group (has_row_capped_person_form),
// their Citus form groups the workers' rows by a state key (distributed_form below).
constexpr bool keeps_own_state(AggregateKind kind) {
    return kind == AggregateKind::Histogram || kind == AggregateKind::Quantiles ||
           kind == AggregateKind::CountDistinct;
}

// The aggregates whose person-level form caps each unit's rows per group (k = rows_per_unit
// rows for dp_histogram and the quantiles, c distinct values for dp_count_distinct) before the
// release over the capped rows, calibrated for k (or c) and m (src/pg/planning/person_level.cpp).
constexpr bool has_row_capped_person_form(AggregateKind kind) {
    return kind == AggregateKind::Histogram || kind == AggregateKind::Quantiles ||
           kind == AggregateKind::CountDistinct;
}

// How a statistic's exact state crosses from Citus workers to the coordinator (the distributed
// split, src/pg/planning/distributed_release.cpp; docs/privacy.md "Distributed tables"). Totals:
// sums and counts of the group, added on the coordinator. The others are counts per state key,
// the workers grouping the level's rows by one more key, a public function of one row's value:
// BinCounts its histogram bin, LeafCounts its quantile-tree leaf, DistinctHashes its 64-bit hash.
// Counts add and hashes union exactly in any order, so the coordinator rebuilds the single-node
// state of every group. None: not split (the shim refuses the call over distributed tables).
enum class DistributedForm { None, Totals, BinCounts, LeafCounts, DistinctHashes };

constexpr DistributedForm distributed_form(AggregateKind kind) {
    switch (kind) {
        case AggregateKind::Sum:
        case AggregateKind::Mean:
        case AggregateKind::Count:
        case AggregateKind::Selection:
        case AggregateKind::Variance:
        case AggregateKind::StandardDeviation:
            return DistributedForm::Totals;
        case AggregateKind::Histogram:
            return DistributedForm::BinCounts;
        case AggregateKind::Quantiles:
            return DistributedForm::LeafCounts;
        case AggregateKind::CountDistinct:
            return DistributedForm::DistinctHashes;
    }
    return DistributedForm::None;
}

// The aggregates a query level over Citus distributed tables may compute (split as above).
constexpr bool has_distributed_form(AggregateKind kind) {
    return distributed_form(kind) != DistributedForm::None;
}

// The distributed forms whose workers group by a state key besides the level's own keys.
constexpr bool groups_by_state_key(DistributedForm form) {
    return form == DistributedForm::BinCounts || form == DistributedForm::LeafCounts ||
           form == DistributedForm::DistinctHashes;
}

// The aggregates that also accumulate centred squares (centred_squares.hpp).
constexpr bool reads_squares(AggregateKind kind) {
    return kind == AggregateKind::Variance || kind == AggregateKind::StandardDeviation;
}

// The privacy parameters of one aggregate call.
struct AggregateParameters {
    double lower = 0.0;  // dp_sum, dp_mean: clamping bounds
    double upper = 0.0;
    // dp_sum, dp_mean: the bound was NULL, estimated in the release (estimated_bounds_release.hpp);
    // lower/upper then hold nothing for that side.
    bool estimate_lower = false;
    bool estimate_upper = false;
    double epsilon = 0.0;
    double delta = 0.0;
    Mechanism mechanism = Mechanism::Laplace;  // as requested (may be Auto)
    bool integer_values = false;               // the value column has an integer type (dp_sum, dp_mean)
    int unit_exponent = 0;                     // accumulation unit 2^e of the exact total (clamped_sum.hpp)
    double alpha = 0.0;  // *_ci forms: P(exact value outside the interval) <= alpha; else 0
    // Person-level releases (issue 10): how many groups one privacy unit may change (its rows
    // bounded per group beforehand); every plan covers all of them (plan_release). 1: row level.
    std::uint32_t groups_per_unit = 1;
    // Person-level dp_histogram and quantiles: rows one unit keeps per group (k); dp_count_distinct:
    // its distinct values per group (c). The rewrite caps them (has_row_capped_person_form). 1: row level.
    std::uint32_t rows_per_unit = 1;
    // dp_groups: the partition selection mechanism and the pre-threshold (partition_selection.hpp).
    PartitionSelectionMechanism selection_mechanism = PartitionSelectionMechanism::Auto;
    std::int64_t min_units = 1;
    // dp_histogram: the number of equal-width bins between lower and upper.
    std::int64_t bins = 0;
};

// Validates the parameters the user gave (bounds for dp_sum and dp_mean, epsilon and delta for
// the mechanism named, alpha when with_interval) and returns them completed (mechanism parsed,
// unit_exponent). Throws ArgumentError naming the argument.
AggregateParameters validate_aggregate_parameters(AggregateKind kind, bool with_interval,
                                                  AggregateParameters given, std::string_view mechanism_name);

// The releases of one call: dp_sum releases `sum`, dp_count `count`, dp_mean both (`sum` is then
// the sum of value - midpoint), dp_variance and dp_stddev those two and `squares`, the sum of
// (value - midpoint)^2; dp_groups its `selection`; dp_histogram every bin's count with `count`
// (plan_histogram_release). Plain data.
struct AggregatePlan {
    AggregateKind kind;
    ReleasePlan sum;
    ReleasePlan count;
    ReleasePlan squares;
    PartitionSelectionPlan selection;
    QuantilePlan quantiles;

    // The plan reported and charged as the call's mechanism, noise scale and sensitivity.
    const ReleasePlan& main() const {
        if (kind == AggregateKind::Count || kind == AggregateKind::Histogram ||
            kind == AggregateKind::CountDistinct)
            return count;
        if (kind == AggregateKind::Quantiles) return quantiles.nodes;
        return reads_squares(kind) ? squares : sum;
    }
};

// Throws ArgumentError/RangeError for parameters no release can honour (plan_release).
AggregatePlan plan_aggregate_release(AggregateKind kind, const AggregateParameters& parameters);

// The statistics that take NULL bounds (0.12, 0.13): estimated inside the release (dp_sum, dp_mean,
// dp_variance, dp_stddev and their *_ci forms) or a log-linear quantile tree (the quantiles).
// The one list the shim's refusal and the core's validation both read.
constexpr bool accepts_null_bounds(AggregateKind kind) {
    return kind == AggregateKind::Sum || kind == AggregateKind::Mean || reads_squares(kind) ||
           kind == AggregateKind::Quantiles;
}

// The statistics whose Citus state key takes NULL bounds: the quantiles (0.14), whose NULL bound
// selects the log-linear leaf map, a fixed function of one row and the call's constants that the
// workers compute (quantile_leaf_spec). dp_sum, dp_mean, dp_variance and dp_stddev take NULL bounds
// over Citus through per-bin partials instead (the shim's reads_partial_bins); the histogram's
// NULL bounds are refused before any charge.
constexpr bool distributes_null_bounds(AggregateKind kind) { return kind == AggregateKind::Quantiles; }

constexpr bool estimates_bounds(const AggregateParameters& parameters) {
    return parameters.estimate_lower || parameters.estimate_upper;
}

// What an aggregate computed exactly: the total of clamped values in units of 2^unit_exponent
// (dp_sum, dp_mean, dp_variance, dp_stddev), the rows counted and (dp_variance, dp_stddev) the
// total of centred squares in square units (centred_squares.hpp).
struct ExactTotals {
    __int128 total_units = 0;
    std::int64_t rows = 0;
    __int128 square_units = 0;
};

// What a call releases: the value and, for the *_ci forms (alpha > 0), an interval holding the
// exact value with probability >= 1 - alpha; noise_sd is the noise's standard deviation (for
// dp_mean, dp_variance and dp_stddev a delta-method estimate). All computed from noisy values and
// public parameters.
struct AggregateRelease {
    double value = 0.0;
    double ci_lower = 0.0;
    double ci_upper = 0.0;
    double noise_sd = 0.0;
};

AggregateRelease release_aggregate(const AggregateParameters& parameters, const AggregatePlan& plan,
                                   const ExactTotals& totals, RandomSource& random);

// One release of a total already on the plan's grid (units_to_grid): plus one draw of the plan's
// noise, in value units.
double noisy_grid_value(const ReleasePlan& plan, __int128 grid_units, RandomSource& random);

// dp_groups: keep the group of `units` privacy units or not (select_partition).
PartitionDecision release_selection(const AggregatePlan& plan, std::int64_t units, RandomSource& random);

// dp_histogram: the histogram's shape and release parameters of a validated call.
HistogramParameters histogram_parameters(const AggregateParameters& parameters);

struct DistinctCountParameters;
// dp_count_distinct: the release parameters of a validated call (one value per unit and group at
// row level).
DistinctCountParameters distinct_count_parameters(const AggregateParameters& parameters);

// dp_quantile, dp_quantiles, dp_median: the tree's release parameters of a validated call (the
// levels q are the release's, not the plan's: every q reads the same noisy tree).
QuantileParameters quantile_parameters(const AggregateParameters& parameters);

// The leaf map and clamping bounds of a quantile call's bounds (lower_null, upper_null: that bound
// is NULL, its value ignored), validated as a call's bounds are before its charge (ArgumentError
// naming lower or upper): the map and bounds of quantile_parameters for the same bounds, which
// the single-node state is made with. pgdp.quantile_leaf, the Citus workers' state key, reads its
// rows' leaves with it (quantile_row_leaf).
QuantileLeafSpec quantile_leaf_spec(bool lower_null, double lower, bool upper_null, double upper);

// What the ledger charges for one release of the call.
struct ReleaseCharge {
    Mechanism mechanism;              // resolved (dp_groups: unused, see mechanism_name)
    std::string_view mechanism_name;  // as the ledger records it (a string literal)
    double epsilon;                   // as given (the ledger charges its shortest decimal)
    double delta;                     // 0 for Laplace
    double noise_scale;               // of the main release, value units
    double sensitivity;               // of the main release, value units
    // Gaussian accounting: sum over the call's Gaussian releases of (Delta_int / sigma_int)^2,
    // rounded up; 0 unless every one of them is eligible for the Gaussian part.
    double gaussian_mu2;
};

ReleaseCharge release_charge(const AggregateParameters& parameters, const AggregatePlan& plan);

// The half-width a with P(|noise| > a) = alpha of the noise on a call's released value, known
// before any row is read: dp_sum and dp_count (given bounds), each bin of dp_histogram, the
// distinct count. NaN where it depends on the data (a mean's or variance's error depends on the
// count, estimated bounds on the rows, a quantile on the tree's counts) or no value is released
// (dp_groups).
double value_half_width(const AggregateParameters& parameters, const AggregatePlan& plan, double alpha);

}  // namespace pgdp
