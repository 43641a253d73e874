#include "core/cpp_only.hpp"
// GCC 12 reports a false -Wmaybe-uninitialized inside Boost's cpp_int (as budget_accounting.cpp).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "core/exponential_quantile.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/exact_sampling.hpp"
#include "core/quantile_release.hpp"
#include "core/quantile_tree.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

constexpr std::uint64_t kGridSteps = std::uint64_t{1} << kExponentialQuantileGridBits;
constexpr int kWeightBits = 62;               // the reference run's proposal weight is 2^62
constexpr long double kWeightMargin = 1e-9L;  // relative margin of the proposal weights

using Run = ExponentialQuantileSampler::Run;

std::uint64_t distance_to(std::uint64_t k, std::uint64_t low, std::uint64_t high) {
    if (k < low) return low - k;
    if (k > high) return k - high;
    return 0;
}

// floor(q n), exactly: q = M 2^e with an integer M < 2^53.
std::uint64_t target_rank(double q, std::uint64_t n) {
    if (q == 0.0) return 0;
    int exponent = 0;
    const double mantissa = std::frexp(q, &exponent);
    const auto integer = static_cast<unsigned __int128>(std::ldexp(mantissa, 53));
    const int shift = 53 - exponent;  // >= 52 since q <= 1
    if (shift >= 128) return 0;
    return static_cast<std::uint64_t>((integer * n) >> shift);
}

std::vector<Run> utility_runs(const std::vector<std::uint64_t>& positions, std::uint64_t k) {
    std::vector<Run> runs;
    std::uint64_t below = 0;      // rows at earlier positions
    std::uint64_t next_free = 0;  // the first grid point not in a run yet
    for (std::size_t i = 0; i < positions.size();) {
        const std::uint64_t position = positions[i];
        std::size_t end = i;
        while (end < positions.size() && positions[end] == position) ++end;
        const std::uint64_t ties = end - i;
        if (position > next_free)
            runs.push_back({next_free, position - next_free, distance_to(k, below, below)});
        runs.push_back({position, 1, distance_to(k, below, below + ties)});
        below += ties;
        next_free = position + 1;
        i = end;
    }
    if (next_free <= kGridSteps)
        runs.push_back({next_free, kGridSteps + 1 - next_free, distance_to(k, below, below)});
    return runs;
}

BigInt to_big(unsigned __int128 value) {
    BigInt big = BigInt(static_cast<std::uint64_t>(value >> 64));
    big <<= 64;
    big += BigInt(static_cast<std::uint64_t>(value));
    return big;
}

}  // namespace

ExponentialQuantileInput prepare_exponential_quantile(const std::vector<double>& values, double lower,
                                                      double upper) {
    (void)empty_quantile_tree(lower, upper);  // the bounds' checks
    if (values.size() > (std::size_t{1} << 31))
        throw std::length_error("exponential quantile: more than 2^31 values");
    ExponentialQuantileInput input{lower, upper, {}};
    input.positions.reserve(values.size());
    for (double value : values) {
        if (std::isnan(value)) continue;
        const double clamped = std::min(std::max(value, lower), upper);
        const double position = (clamped - lower) / (upper - lower) * static_cast<double>(kGridSteps);
        input.positions.push_back(std::min(static_cast<std::uint64_t>(position), kGridSteps));
    }
    std::sort(input.positions.begin(), input.positions.end());
    return input;
}

ExponentialQuantileSampler::ExponentialQuantileSampler(const ExponentialQuantileInput& input, double q,
                                                       double epsilon)
    : lower_(input.lower), upper_(input.upper) {
    require_quantile_levels({q});
    require_epsilon(epsilon);
    runs_ = utility_runs(input.positions, target_rank(q, input.positions.size()));

    // beta = p / 2^64 >= exp(-epsilon / 2): rounded up with a margin far above exp's error.
    const long double two64 = 18446744073709551616.0L;
    const long double beta_estimate = std::exp(-static_cast<long double>(epsilon) / 2) * (1 + 1e-12L);
    // At least 2^-64: above exp(-epsilon/2) for epsilon > 88.7, where the mechanism then runs at
    // epsilon' = 128 ln 2 < epsilon.
    p_ = beta_estimate >= 1.0L ? static_cast<unsigned __int128>(1) << 64
                               : std::max<unsigned __int128>(1, std::ceil(beta_estimate * two64));
    const long double log_beta = std::log(static_cast<long double>(p_) / two64);

    // The reference run: the largest approximate weight m beta^d.
    auto log_weight = [&](const Run& run) {
        return std::log(static_cast<long double>(run.size)) +
               static_cast<long double>(run.distance) * log_beta;
    };
    reference_ = 0;
    for (std::size_t g = 1; g < runs_.size(); ++g) {
        if (log_weight(runs_[g]) > log_weight(runs_[reference_])) reference_ = g;
    }
    const Run& ref = runs_[reference_];

    // Proposal weights P_g >= 2^62 (m_g / m_ref) beta^(d_g - d_ref), and their prefix sums.
    prefix_.assign(runs_.size() + 1, 0);
    proposal_.resize(runs_.size());
    for (std::size_t g = 0; g < runs_.size(); ++g) {
        const long double shift = (static_cast<long double>(runs_[g].distance) - ref.distance) * log_beta;
        const long double ratio = static_cast<long double>(runs_[g].size) / ref.size;
        const long double scaled = std::ldexp(ratio * std::exp(shift), kWeightBits) * (1 + kWeightMargin);
        proposal_[g] = scaled >= 1.0L ? static_cast<std::uint64_t>(std::ceil(scaled)) : 1;
        prefix_[g + 1] = prefix_[g] + proposal_[g];
    }
}

double ExponentialQuantileSampler::sample(RandomSource& random) const {
    const Run& ref = runs_[reference_];
    const BigInt total = to_big(prefix_.back());
    const BigInt p = to_big(p_);
    for (;;) {
        const auto u = static_cast<unsigned __int128>(uniform_below(total, random));
        const std::size_t g = std::upper_bound(prefix_.begin(), prefix_.end(), u) - prefix_.begin() - 1;
        // Accept with 2^62 m_g beta^(d_g - d_ref) / (m_ref P_g), beta = p / 2^64, exactly.
        BigInt numerator = BigInt(runs_[g].size) << kWeightBits;
        BigInt denominator = BigInt(ref.size) * BigInt(proposal_[g]);
        if (runs_[g].distance >= ref.distance) {
            const auto steps = static_cast<unsigned>(runs_[g].distance - ref.distance);
            numerator *= boost::multiprecision::pow(p, steps);
            denominator <<= 64 * steps;
        } else {
            const auto steps = static_cast<unsigned>(ref.distance - runs_[g].distance);
            numerator <<= 64 * steps;
            denominator *= boost::multiprecision::pow(p, steps);
        }
        if (numerator > denominator)
            throw std::logic_error("exponential quantile: proposal below the target");
        if (!sample_bernoulli(Rational(numerator, denominator), random)) continue;
        const std::uint64_t point = runs_[g].first + random.uniform_below(runs_[g].size);
        const double position = static_cast<double>(point) / static_cast<double>(kGridSteps);
        return std::min(std::max(lower_ + position * (upper_ - lower_), lower_), upper_);
    }
}

double release_exponential_quantile(const ExponentialQuantileInput& input, double q, double epsilon,
                                    RandomSource& random) {
    return ExponentialQuantileSampler(input, q, epsilon).sample(random);
}

}  // namespace pgdp
