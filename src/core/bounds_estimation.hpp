// Clamping bounds the analyst need not guess (issue 24 part 5): a first stage of a release that
// estimates [lower, upper] privately from a part of the call's budget. One pass: the state is a
// log-scale histogram of the values (plain int64 counts, exact merge, serialized), kept next to
// the statistic's own state; the estimate is one vector release of its counts with exact
// discrete noise followed by post-processing that never fails:
//
//   * bins, in increasing order of value: (-inf, -2^63], ..., (-2^(k+1), -2^k], ...,
//     (-2^-31, -2^-32], then the zero bin (-2^-32, 2^-32), then [2^-32, 2^-31), ...,
//     [2^63, +inf): 96 exponents k = -32..63 per sign, 193 bins (1544 bytes of state). Every
//     int8 and every float8 of magnitude 2.3e-10 .. 1.8e19 falls in a bin of its own binade;
//     magnitudes below 2^-32 count as zero, above 2^64 as 2^64 (the estimate's largest bound);
//   * every bin's count is released with the plan of count_vector.hpp (a unit's rows may fall in
//     several bins);
//   * a bin is occupied if its noisy count exceeds the noise's (1 - p/193) quantile, p = 0.01, so
//     that all 193 bins of an empty group stay unoccupied with probability >= 0.99;
//   * the bounds are the outer edges of the lowest and highest occupied bins, after trimming from
//     each end whole occupied bins whose noisy counts (plus the noise's half-width per bin) add up
//     to at most trim_share / 2 of the occupied bins' noisy total (less its half-widths);
//   * no occupied bin (an empty or very small group): the default bounds [-1, 1].
//
// Bounds are always finite bin edges (powers of two up to 2^64, or the default) with lower <
// upper; they depend on the data only through the noisy counts, so they, and the default, are
// valid DP outputs. Edges are exact powers of two, so each bin lies wholly inside or outside the
// bounds: a statistic that keeps per-bin partial sums clamps in the same pass (a bin below the
// bounds contributes count * lower, above count * upper, inside its own sum).
// docs/statistics/histograms.md "Bounds the analyst need not guess".
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/random_source.hpp"
#include "core/release_plan.hpp"
#include "core/state_bytes.hpp"

namespace pgdp {

constexpr int kLogBinMinExponent = -32;
constexpr int kLogBinMaxExponent = 63;
constexpr std::size_t kLogBinsPerSign = kLogBinMaxExponent - kLogBinMinExponent + 1;
constexpr std::size_t kLogBinCount = 2 * kLogBinsPerSign + 1;
constexpr std::size_t kZeroLogBin = kLogBinsPerSign;  // the bin of 0

// The recommended share of a call's epsilon spent on the bounds (the rest on the statistic).
constexpr double kRecommendedBoundsShare = 0.25;
// The default share of the data the bounds may leave out (half below, half above).
constexpr double kDefaultTrimShare = 0.02;
// Bounds when no bin is occupied.
constexpr double kDefaultLowerBound = -1.0;
constexpr double kDefaultUpperBound = 1.0;

// The bin of a value, 0..kLogBinCount-1 in increasing order of value. value must not be NaN
// (the statistics skip NaN rows, as dp_sum does).
std::size_t log_bin(double value);
// The closed hull [lower edge, upper edge] of bin i (the outer bins' hulls end at -+2^64).
double log_bin_lower_edge(std::size_t bin);
double log_bin_upper_edge(std::size_t bin);

// counts has kLogBinCount entries. NaN values are not counted.
inline void add_to_log_histogram(std::int64_t* counts, double value) {
    if (value == value) ++counts[log_bin(value)];
}

StateBytes serialize_log_histogram(const std::int64_t* counts);
// counts receives kLogBinCount counts; CorruptStateError for bytes serialize did not write.
void deserialize_log_histogram(const unsigned char* data, std::size_t size, std::int64_t* counts);

// A call's budget split between the bounds stage and the statistic's release (basic
// composition, 001 Lemma 5.3: the two stages together spend (epsilon, delta)). The bounds stage
// is pure epsilon-DP (discrete Laplace), so all of delta goes to the release.
struct BoundsBudgetSplit {
    double bounds_epsilon;
    double release_epsilon;
    double release_delta;
};
// share in (0, 1) (ArgumentError naming "bounds_share"); epsilon as for every release.
BoundsBudgetSplit split_bounds_budget(double epsilon, double delta, double share = kRecommendedBoundsShare);

struct BoundsParameters {
    double epsilon = 0.0;  // the bounds stage's own epsilon (BoundsBudgetSplit::bounds_epsilon)
    double trim_share = kDefaultTrimShare;  // in [0, 0.5)
    std::uint32_t rows_per_unit = 1;        // person level (count_vector.hpp)
    std::uint32_t groups_per_unit = 1;
};

// The plan of every log bin: discrete Laplace, plan_count_vector over kLogBinCount bins.
// ArgumentError naming "epsilon", "trim_share", "rows_per_unit" or "max_groups_contributed".
ReleasePlan plan_bounds_estimation(const BoundsParameters& parameters);

struct EstimatedBounds {
    double lower;
    double upper;
    bool from_data;         // false: no occupied bin, the default bounds
    std::size_t lower_bin;  // the bins the bounds close (kZeroLogBin for the default)
    std::size_t upper_bin;
};

// counts: the exact log-bin counts. Never throws for any counts, never returns NaN or infinities.
EstimatedBounds estimate_bounds(const BoundsParameters& parameters, const ReleasePlan& plan,
                                const std::int64_t* counts, RandomSource& random);

}  // namespace pgdp
