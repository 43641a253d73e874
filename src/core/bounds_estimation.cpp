#include "core/cpp_only.hpp"
#include "core/bounds_estimation.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "core/count_vector.hpp"
#include "core/errors.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

constexpr std::uint8_t kLogHistogramStateVersion = 1;
// Probability that any of the bins of an empty group is occupied (a union bound over the bins).
constexpr double kEmptyBinsOccupiedProbability = 0.01;

// The exponent k of bin i (|x| in [2^k, 2^(k+1))); only for bins other than the zero bin.
int bin_exponent(std::size_t bin) {
    return bin < kZeroLogBin ? kLogBinMaxExponent - static_cast<int>(bin)
                             : kLogBinMinExponent + static_cast<int>(bin - kZeroLogBin - 1);
}

}  // namespace

std::size_t log_bin(double value) {
    const double magnitude = std::fabs(value);
    if (!(magnitude >= std::ldexp(1.0, kLogBinMinExponent))) return kZeroLogBin;
    // ilogb is floor(log2 |x|) exactly (INT_MAX for infinity); values past 2^64 join the top bin.
    const int k = std::min(std::ilogb(magnitude), kLogBinMaxExponent);
    const auto offset = static_cast<std::size_t>(k - kLogBinMinExponent);
    return value > 0 ? kZeroLogBin + 1 + offset : kZeroLogBin - 1 - offset;
}

double log_bin_lower_edge(std::size_t bin) {
    if (bin == kZeroLogBin) return -std::ldexp(1.0, kLogBinMinExponent);
    const int k = bin_exponent(bin);
    return bin < kZeroLogBin ? -std::ldexp(1.0, k + 1) : std::ldexp(1.0, k);
}

double log_bin_upper_edge(std::size_t bin) {
    if (bin == kZeroLogBin) return std::ldexp(1.0, kLogBinMinExponent);
    const int k = bin_exponent(bin);
    return bin < kZeroLogBin ? -std::ldexp(1.0, k) : std::ldexp(1.0, k + 1);
}

StateBytes serialize_log_histogram(const std::int64_t* counts) {
    StateWriter writer(kLogHistogramStateVersion);
    writer.put_u32(static_cast<std::uint32_t>(kLogBinCount));
    put_counts(writer, counts, kLogBinCount);
    return writer.take();
}

void deserialize_log_histogram(const unsigned char* data, std::size_t size, std::int64_t* counts) {
    StateReader reader(data, size, kLogHistogramStateVersion, "bounds state");
    if (reader.get_u32() != kLogBinCount || reader.remaining() != 8 * kLogBinCount) {
        reader.fail("its length does not match the bins");
    }
    get_counts(reader, counts, kLogBinCount);
    reader.expect_end();
}

BoundsBudgetSplit split_bounds_budget(double epsilon, double delta, double share) {
    require_epsilon(epsilon);
    if (!(share > 0.0 && share < 1.0)) {
        throw ArgumentError("bounds_share",
                            "bounds_share must lie in the open interval (0, 1), got " + shown(share),
                            "bounds_share is the part of epsilon spent estimating the bounds, e.g. 0.25.");
    }
    // Each stage calibrates one ulp below its epsilon (plan_release), which absorbs the rounding
    // of the subtraction: the two calibrated epsilons add up to less than epsilon.
    BoundsBudgetSplit split{};
    split.bounds_epsilon = epsilon * share;
    split.release_epsilon = epsilon - split.bounds_epsilon;
    split.release_delta = delta;
    return split;
}

ReleasePlan plan_bounds_estimation(const BoundsParameters& parameters) {
    if (!(parameters.trim_share >= 0.0 && parameters.trim_share < 0.5)) {
        throw ArgumentError("trim_share",
                            "trim_share must lie in [0, 0.5), got " + shown(parameters.trim_share),
                            "trim_share is the share of the data the estimated bounds may leave out.");
    }
    return plan_count_vector(parameters.epsilon, 0.0, Mechanism::Laplace, kLogBinCount,
                             parameters.rows_per_unit, parameters.groups_per_unit);
}

EstimatedBounds estimate_bounds(const BoundsParameters& parameters, const ReleasePlan& plan,
                                const std::int64_t* counts, RandomSource& random) {
    std::vector<std::int64_t> noisy(kLogBinCount);
    for (std::size_t i = 0; i < kLogBinCount; ++i) noisy[i] = noisy_count(plan, counts[i], random);
    // Everything below is post-processing of the noisy counts (001 Lemma 5.3).
    // The noise exceeds `margin` in one bin with probability <= p / bins (the continuous tail
    // bound, without release_half_width's extra grid step: the counts are integers on grid 1).
    const double margin =
        release_half_width(plan, kEmptyBinsOccupiedProbability / kLogBinCount) - plan.granularity;
    std::vector<std::size_t> occupied;
    double total = 0.0;
    for (std::size_t i = 0; i < kLogBinCount; ++i) {
        if (static_cast<double>(noisy[i]) > margin) {
            occupied.push_back(i);
            total += static_cast<double>(noisy[i]);
        }
    }
    if (occupied.empty()) {
        return EstimatedBounds{kDefaultLowerBound, kDefaultUpperBound, false, kZeroLogBin, kZeroLogBin};
    }
    // Trim whole bins while the exact counts they hold are, with the margin per bin, at most
    // trim_share / 2 of the exact total of the occupied bins (at least total - |occupied| margin).
    const double budget = parameters.trim_share / 2 * (total - static_cast<double>(occupied.size()) * margin);
    std::size_t low = 0;
    double trimmed = 0.0;
    while (low + 1 < occupied.size() &&
           trimmed + static_cast<double>(noisy[occupied[low]]) + static_cast<double>(low + 1) * margin <=
               budget) {
        trimmed += static_cast<double>(noisy[occupied[low]]);
        ++low;
    }
    std::size_t high = occupied.size() - 1;
    trimmed = 0.0;
    for (std::size_t removed = 1; high > low && trimmed + static_cast<double>(noisy[occupied[high]]) +
                                                        static_cast<double>(removed) * margin <=
                                                    budget;
         ++removed) {
        trimmed += static_cast<double>(noisy[occupied[high]]);
        --high;
    }
    return EstimatedBounds{log_bin_lower_edge(occupied[low]), log_bin_upper_edge(occupied[high]), true,
                           occupied[low], occupied[high]};
}

}  // namespace pgdp
