#include "core/cpp_only.hpp"
#include "core/histogram_release.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/count_vector.hpp"
#include "core/errors.hpp"
#include "core/state_bytes.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

constexpr std::uint8_t kHistogramStateVersion = 1;

// Left edge of bin j + 1 (j = 0..bins): the bounds themselves at both ends.
double bin_edge(const HistogramSpec& spec, std::int32_t j) {
    if (j == 0) return spec.lower;
    if (j == spec.bins) return spec.upper;
    return spec.lower + (spec.upper - spec.lower) * j / spec.bins;
}

}  // namespace

HistogramSpec validate_histogram_spec(double lower, double upper, std::int64_t bins) {
    if (!std::isfinite(lower)) {
        throw ArgumentError("lower", "lower must be a finite number, got " + shown(lower),
                            "The bins cover [lower, upper); values outside fall in the underflow and "
                            "overflow bins.");
    }
    if (!std::isfinite(upper)) {
        throw ArgumentError("upper", "upper must be a finite number, got " + shown(upper),
                            "The bins cover [lower, upper); values outside fall in the underflow and "
                            "overflow bins.");
    }
    if (!(lower < upper)) {
        throw ArgumentError("lower",
                            "lower (" + shown(lower) + ") must be below upper (" + shown(upper) + ")",
                            "Pass the smaller bound first, as for width_bucket.");
    }
    require_usable_bounds(lower, upper);
    if (bins < 1 || bins > kMaxHistogramBins) {
        throw ArgumentError(
            "bins",
            "bins must lie in [1, " + std::to_string(kMaxHistogramBins) + "], got " + std::to_string(bins),
            "bins is the number of equal-width bins between lower and upper.");
    }
    return HistogramSpec{lower, upper, static_cast<std::int32_t>(bins)};
}

std::size_t histogram_bin(const HistogramSpec& spec, double value) {
    if (value < spec.lower) return 0;
    if (!(value < spec.upper)) return spec.counts() - 1;  // >= upper, +Infinity, NaN
    // width_bucket_float8: the quotient may round up to bins, which would be a lie.
    const auto bin =
        static_cast<std::int32_t>(spec.bins * ((value - spec.lower) / (spec.upper - spec.lower)));
    return static_cast<std::size_t>(std::min(bin, spec.bins - 1)) + 1;
}

void add_partial_bin_count(const HistogramSpec& spec, std::int64_t* counts, std::int64_t bin,
                           std::int64_t count) {
    if (bin < 0 || bin > static_cast<std::int64_t>(spec.bins) + 1)
        throw CorruptStateError("histogram partial: bin " + std::to_string(bin) + " is not a bin");
    if (count < 0) throw CorruptStateError("histogram partial: a negative count");
    std::int64_t total;
    if (__builtin_add_overflow(counts[bin], count, &total))
        throw CorruptStateError("histogram partial: a bin counts more than 2^63 - 1 rows");
    counts[bin] = total;
}

StateBytes serialize_histogram(const HistogramSpec& spec, const std::int64_t* counts) {
    StateWriter writer(kHistogramStateVersion);
    writer.put_f64(spec.lower);
    writer.put_f64(spec.upper);
    writer.put_u32(static_cast<std::uint32_t>(spec.bins));
    put_counts(writer, counts, spec.counts());
    return writer.take();
}

HistogramState deserialize_histogram(const unsigned char* data, std::size_t size) {
    StateReader reader(data, size, kHistogramStateVersion, "histogram state");
    HistogramState state;
    const double lower = reader.get_f64();
    const double upper = reader.get_f64();
    const std::uint32_t bins = reader.get_u32();
    try {
        state.spec = validate_histogram_spec(lower, upper, bins);
    } catch (const ArgumentError& error) {
        reader.fail(error.what());
    }
    if (reader.remaining() != 8 * state.spec.counts()) reader.fail("its length does not match its bins");
    state.counts.resize(state.spec.counts());
    get_counts(reader, state.counts.data(), state.counts.size());
    reader.expect_end();
    return state;
}

ReleasePlan plan_histogram_release(const HistogramParameters& parameters) {
    require_alpha(parameters.alpha);
    return plan_count_vector(parameters.epsilon, parameters.delta, parameters.mechanism,
                             parameters.spec.counts(), parameters.rows_per_unit, parameters.groups_per_unit);
}

std::vector<HistogramBin> release_histogram(const HistogramParameters& parameters, const ReleasePlan& plan,
                                            const std::int64_t* counts, RandomSource& random) {
    const HistogramSpec& spec = parameters.spec;
    const double half_width = release_half_width(plan, parameters.alpha);
    std::vector<HistogramBin> rows(spec.counts());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        HistogramBin& row = rows[i];
        const auto j = static_cast<std::int32_t>(i);
        row.bin_lower = i == 0 ? -INFINITY : bin_edge(spec, j - 1);
        row.bin_upper = i + 1 == rows.size() ? INFINITY : bin_edge(spec, j);
        const std::int64_t noisy = noisy_count(plan, counts[i], random);
        // Post-processing of the noisy count: a count is never negative, and the exact count is
        // an integer, so the interval noisy +- half_width shrinks to the integers in it, at least 0.
        row.count = std::max<std::int64_t>(noisy, 0);
        const double raw = static_cast<double>(noisy);
        row.interval_low = std::max<std::int64_t>(static_cast<std::int64_t>(std::ceil(raw - half_width)), 0);
        row.interval_high =
            std::max<std::int64_t>(static_cast<std::int64_t>(std::floor(raw + half_width)), 0);
    }
    return rows;
}

}  // namespace pgdp
