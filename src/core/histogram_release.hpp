// dp_histogram(value, lower, upper, bins, epsilon [, delta]): counts of `bins` equal-width bins
// over [lower, upper) plus an underflow bin (value < lower) and an overflow bin (value >= upper,
// +Infinity and NaN), released at once as rows a chart can plot (bin bounds, count, interval).
// The bin of a value is PostgreSQL's width_bucket(value, lower, upper, bins) for float8 (0 for
// underflow, bins + 1 for overflow; inside, as float.c's width_bucket_float8 computes it today:
// bins * ((x - lower) / (upper - lower)) truncated, capped at bins - 1, plus 1); a NaN value, which
// width_bucket refuses, is counted in the overflow bin (PostgreSQL sorts NaN above every number), so every
// row is counted once. Privacy: count_vector.hpp and docs/statistics/histograms.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/random_source.hpp"
#include "core/release_plan.hpp"
#include "core/state_bytes.hpp"

namespace pgdp {

// The most bins a histogram accepts: its state is bins + 2 int64 counts per group (80 kB at the
// cap), and a chart of more bins is not read by anyone.
constexpr std::int64_t kMaxHistogramBins = 10000;

// dp_histogram's per-bin interval: P(exact count outside) <= 0.05, each bin on its own.
constexpr double kHistogramAlpha = 0.05;

struct HistogramSpec {
    double lower = 0.0;
    double upper = 0.0;
    std::int32_t bins = 0;

    std::size_t counts() const { return static_cast<std::size_t>(bins) + 2; }  // with under/overflow
};

// lower < upper, both finite with a finite difference (ArgumentError naming "lower" or "upper");
// 1 <= bins <= kMaxHistogramBins (ArgumentError naming "bins").
HistogramSpec validate_histogram_spec(double lower, double upper, std::int64_t bins);

// The bin of value: 0 (value < lower), 1..bins, or bins + 1 (value >= upper, or NaN).
std::size_t histogram_bin(const HistogramSpec& spec, double value);

// counts has spec.counts() entries; adds one row of value.
inline void add_to_histogram(const HistogramSpec& spec, std::int64_t* counts, double value) {
    ++counts[histogram_bin(spec, value)];
}

// Citus (aggregate_release.hpp DistributedForm::BinCounts): adds a worker's count of the rows in
// one bin. CorruptStateError unless 0 <= bin <= bins + 1, count >= 0 and the bin's count stays
// below 2^63: no count a worker sends can make a state no rows could have made.
void add_partial_bin_count(const HistogramSpec& spec, std::int64_t* counts, std::int64_t bin,
                           std::int64_t count);

// State bytes: version, lower, upper, bins, then spec.counts() non-negative counts.
StateBytes serialize_histogram(const HistogramSpec& spec, const std::int64_t* counts);
struct HistogramState {
    HistogramSpec spec;
    std::vector<std::int64_t> counts;
};
// CorruptStateError for anything serialize_histogram cannot have written (also invalid specs).
HistogramState deserialize_histogram(const unsigned char* data, std::size_t size);

struct HistogramParameters {
    HistogramSpec spec;
    double epsilon = 0.0;
    double delta = 0.0;
    Mechanism mechanism = Mechanism::Laplace;
    double alpha = kHistogramAlpha;     // per-bin interval: P(exact count outside) <= alpha
    std::uint32_t rows_per_unit = 1;    // person level: rows one unit keeps per group (k)
    std::uint32_t groups_per_unit = 1;  // person level: groups one unit may change (m)
};

// The plan of every bin (plan_count_vector over spec.counts() coordinates). Validates epsilon,
// delta, alpha, rows_per_unit and groups_per_unit (ArgumentError naming them).
ReleasePlan plan_histogram_release(const HistogramParameters& parameters);

// One row of the result. Bin 0 is [-Infinity, lower), bin bins + 1 is [upper, +Infinity] (and NaN).
struct HistogramBin {
    double bin_lower;
    double bin_upper;
    std::int64_t count;          // noisy count, at least 0 (post-processing)
    std::int64_t interval_low;   // the exact count lies in [interval_low, interval_high] with
    std::int64_t interval_high;  // probability >= 1 - alpha (each bin on its own)
};

// counts: the exact counts (spec.counts() entries). One noise draw per bin.
std::vector<HistogramBin> release_histogram(const HistogramParameters& parameters, const ReleasePlan& plan,
                                            const std::int64_t* counts, RandomSource& random);

}  // namespace pgdp
