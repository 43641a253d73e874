// Bounds the analyst need not guess for dp_variance and dp_stddev (src/core/binned_squares.hpp,
// release_variance_with_estimated_bounds): the per-bin sums of squares give the floored total of
// the centred squares of the clamped values exactly (checked against a direct per-row sum in wide
// exact integers), one row moves that floor by at most the sensitivity the plan charges, partial
// states merge in any order, serialization round-trips and corrupt states are rejected; the
// two-stage release matches the clamped data's population variance at a huge epsilon and never
// fails, goes negative or beyond (upper - lower)^2/4 on empty and one-row groups.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // Boost cpp_int, as in noise.cpp

#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "core/binned_squares.hpp"
#include "core/centred_squares.hpp"
#include "core/clamped_sum.hpp"
#include "core/errors.hpp"
#include "core/estimated_bounds_release.hpp"
#include "core/random_source.hpp"
#include "core/state_bytes.hpp"

namespace {

using pgdp::BinnedSquares;
// Fixed width (GCC 16 and the dynamic cpp_int, test_binned_sums.cpp): values up to 2^64 in units
// of 2^-200 are below 2^264, their squares below 2^528, a few thousand of them below 2^545.
using Exact = boost::multiprecision::number<boost::multiprecision::cpp_int_backend<
    1024, 1024, boost::multiprecision::signed_magnitude, boost::multiprecision::unchecked, void>>;
constexpr int kReferenceExponent = -200;  // finer than every value, bound and centre used here

std::unique_ptr<BinnedSquares> binned(const std::vector<double>& values) {
    auto out = std::make_unique<BinnedSquares>();
    *out = BinnedSquares{};
    for (double x : values) pgdp::add_binned_square_value(*out, x);
    return out;
}

// x as an exact number of 2^-200 (x a multiple of it).
Exact in_reference_units(double x) {
    if (x == 0.0) return 0;
    int exponent = 0;
    const double fraction = std::frexp(x, &exponent);
    const Exact mantissa = static_cast<long long>(std::ldexp(fraction, 53));
    return mantissa << (exponent - 53 - kReferenceExponent);
}

// What the state keeps of a row: clamped to +-2^64, the zero bin's values rounded to 2^-84.
double kept(double x) {
    double k = std::fmin(std::fmax(x, -pgdp::kBinnedValueLimit), pgdp::kBinnedValueLimit);
    if (std::fabs(k) < std::ldexp(1.0, -32)) k = std::ldexp(std::nearbyint(std::ldexp(k, 84)), -84);
    return k;
}

pgdp::CentredSquaresFrame frame_for(double lower, double upper) {
    const int e = pgdp::sum_unit_exponent(lower, upper);
    const pgdp::CentredSquareUnits units = pgdp::centred_square_units(lower, upper, e);
    return pgdp::CentredSquaresFrame{lower, upper, units.bounds_units, e, units.square_exponent};
}

// floor(sum over rows of (clamp(kept(x)) - c)^2 / 2^f), row by row.
__int128 direct_centred_squares_floor(const std::vector<double>& values, const pgdp::CentredSquaresFrame& f) {
    const Exact centre = Exact(f.centre_half_units) << (f.unit_exponent - 1 - kReferenceExponent);
    Exact total = 0;  // units of 2^-400
    for (double x : values) {
        const Exact offset = in_reference_units(std::fmin(std::fmax(kept(x), f.lower), f.upper)) - centre;
        total += offset * offset;
    }
    const Exact q = total >> (f.square_exponent - 2 * kReferenceExponent);
    return static_cast<__int128>(static_cast<long long>(q >> 62)) * (static_cast<__int128>(1) << 62) +
           static_cast<long long>(q & ((Exact(1) << 62) - 1));
}

std::vector<double> random_values(std::mt19937_64& rng, int n) {
    std::uniform_int_distribution<int> exponent(-40, 66);
    std::uniform_real_distribution<double> unit(1.0, 2.0);
    std::bernoulli_distribution negative(0.4);
    std::vector<double> values;
    for (int i = 0; i < n; ++i) {
        double x = std::ldexp(unit(rng), exponent(rng));
        if (negative(rng)) x = -x;
        if (i % 17 == 0) x = 0.0;
        if (i % 29 == 0) x = std::round(x);
        values.push_back(x);
    }
    return values;
}

TEST(BinnedSquares, CentredSquaresAreExactForEveryPairOfBinEdges) {
    std::mt19937_64 rng(21);
    for (int round = 0; round < 40; ++round) {
        const std::vector<double> values = random_values(rng, 1 + round * 25);
        const auto state = binned(values);
        std::uniform_int_distribution<std::size_t> bin(0, pgdp::kLogBinCount - 1);
        for (int pair = 0; pair < 20; ++pair) {
            std::size_t a = bin(rng), b = bin(rng);
            if (a > b) std::swap(a, b);
            const pgdp::CentredSquaresFrame f =
                frame_for(pgdp::log_bin_lower_edge(a), pgdp::log_bin_upper_edge(b));
            ASSERT_TRUE(pgdp::clamped_centred_square_units(*state, f) ==
                        direct_centred_squares_floor(values, f))
                << "round " << round << " bins " << a << ".." << b;
        }
    }
}

// A given bound the rows were clamped to as they arrived, the other side a bin edge beyond it.
TEST(BinnedSquares, CentredSquaresAreExactWithAGivenBound) {
    std::mt19937_64 rng(22);
    for (int round = 0; round < 200; ++round) {
        std::vector<double> values = random_values(rng, 50);
        const double given = std::ldexp(std::uniform_real_distribution<double>(-1.0, 1.0)(rng),
                                        std::uniform_int_distribution<int>(-30, 62)(rng));
        ASSERT_TRUE(pgdp::is_binned_grid_value(given));
        const bool upper_given = round % 2 == 0;
        for (double& x : values) x = upper_given ? std::fmin(x, given) : std::fmax(x, given);
        const auto state = binned(values);
        pgdp::AggregateParameters p;
        p.estimate_lower = upper_given;
        p.estimate_upper = !upper_given;
        (upper_given ? p.upper : p.lower) = given;
        pgdp::EstimatedBounds estimate{};
        const std::size_t edge = std::uniform_int_distribution<std::size_t>(0, pgdp::kLogBinCount - 1)(rng);
        estimate.lower = pgdp::log_bin_lower_edge(edge);
        estimate.upper = pgdp::log_bin_upper_edge(edge);
        const pgdp::ReleaseBounds bounds = pgdp::bounds_for_release(p, estimate);
        const pgdp::CentredSquaresFrame f = frame_for(bounds.lower, bounds.upper);
        ASSERT_TRUE(pgdp::clamped_centred_square_units(*state, f) == direct_centred_squares_floor(values, f))
            << "round " << round << " given " << given << " bounds " << bounds.lower << ", " << bounds.upper;
    }
}

// Adding one row (at a bound, at the centre, anywhere, outside) moves the floor by at most the
// sensitivity, and that sensitivity exceeds the bounded path's largest rounded square only by the
// bounds' rounding to units: the centre is at most one half unit off the midpoint, so a centred
// value is at most D + 1 half units, its square at most (D^2 + 2D + 1) / 2^k square units.
TEST(BinnedSquares, OneRowMovesTheFloorByAtMostTheSensitivity) {
    std::mt19937_64 rng(23);
    for (int round = 0; round < 300; ++round) {
        const std::vector<double> values = random_values(rng, 30);
        std::uniform_int_distribution<std::size_t> bin(0, pgdp::kLogBinCount - 1);
        std::size_t a = bin(rng), b = bin(rng);
        if (a > b) std::swap(a, b);
        const double lower = pgdp::log_bin_lower_edge(a);
        const double upper = round % 3 == 0
                                 ? std::ldexp(std::uniform_real_distribution<double>(1.0, 2.0)(rng),
                                              std::uniform_int_distribution<int>(-20, 62)(rng))
                                 : pgdp::log_bin_upper_edge(b);
        if (!(lower < upper)) continue;
        const pgdp::CentredSquaresFrame f = frame_for(lower, upper);
        const std::int64_t sensitivity = pgdp::floored_squares_sensitivity(f);
        const pgdp::CentredSquareUnits units = pgdp::centred_square_units(lower, upper, f.unit_exponent);
        EXPECT_LE(sensitivity, units.largest + 2 + ((2 * units.spread + 1) >> units.shift));
        const __int128 before = direct_centred_squares_floor(values, f);
        for (double x : {lower, upper, (lower + upper) / 2, values[round % 30], -1e30, 1e30}) {
            std::vector<double> more = values;
            more.push_back(x);
            const __int128 moved = direct_centred_squares_floor(more, f) - before;
            ASSERT_GE(moved, 0);
            ASSERT_LE(moved, sensitivity) << "round " << round << " x " << x;
        }
    }
}

TEST(BinnedSquares, MergeIsExactInAnyOrder) {
    std::mt19937_64 rng(24);
    const std::vector<double> values = random_values(rng, 3000);
    const auto whole = binned(values);
    std::vector<std::unique_ptr<BinnedSquares>> parts;
    for (int p = 0; p < 5; ++p) {
        parts.push_back(
            binned(std::vector<double>(values.begin() + p * 600, values.begin() + (p + 1) * 600)));
    }
    const int orders[2][5] = {{0, 1, 2, 3, 4}, {4, 2, 0, 3, 1}};
    for (const auto& order : orders) {
        auto merged = std::make_unique<BinnedSquares>();
        *merged = BinnedSquares{};
        for (int i : order) pgdp::merge_binned_squares(*merged, *parts[i]);
        for (std::size_t i = 0; i < pgdp::kLogBinCount; ++i) {
            ASSERT_EQ(merged->sums.counts[i], whole->sums.counts[i]);
            ASSERT_TRUE(merged->sums.sums[i].get() == whole->sums.sums[i].get());
            for (int limb = 0; limb < 3; ++limb)
                ASSERT_EQ(merged->squares[i].limbs[limb], whole->squares[i].limbs[limb]);
        }
    }
}

// The 192-bit per-bin total carries across limbs: 2^40 rows of 2^64 (m = 2^53 in the top bin)
// would not fit 128 bits of square units; added in 2^20 merges of 2^20 rows each.
TEST(BinnedSquares, SquaresCarryAcrossLimbs) {
    auto chunk = binned(std::vector<double>(1, pgdp::kBinnedValueLimit));
    const std::size_t top = pgdp::kLogBinCount - 1;
    for (int doubling = 0; doubling < 40; ++doubling) {
        auto copy = std::make_unique<BinnedSquares>(*chunk);
        pgdp::merge_binned_squares(*chunk, *copy);
    }
    // 2^40 rows of m^2 = 2^106: 2^146 = limb 2 holding 2^18.
    EXPECT_EQ(chunk->squares[top].limbs[0], 0u);
    EXPECT_EQ(chunk->squares[top].limbs[1], 0u);
    EXPECT_EQ(chunk->squares[top].limbs[2], std::uint64_t{1} << 18);
    EXPECT_EQ(chunk->sums.counts[top], std::int64_t{1} << 40);
}

TEST(BinnedSquares, SerializationRoundTripsAndRejectsCorruptStates) {
    std::mt19937_64 rng(25);
    const auto state = binned(random_values(rng, 500));
    const pgdp::StateBytes bytes = pgdp::serialize_binned_squares(*state);
    auto back = std::make_unique<BinnedSquares>();
    pgdp::deserialize_binned_squares(bytes.data(), bytes.size(), *back);
    for (std::size_t i = 0; i < pgdp::kLogBinCount; ++i) {
        ASSERT_EQ(back->sums.counts[i], state->sums.counts[i]);
        ASSERT_TRUE(back->sums.sums[i].get() == state->sums.sums[i].get());
        for (int limb = 0; limb < 3; ++limb)
            ASSERT_EQ(back->squares[i].limbs[limb], state->squares[i].limbs[limb]);
    }
    auto corrupt = [&](pgdp::StateBytes b) {
        EXPECT_THROW(pgdp::deserialize_binned_squares(b.data(), b.size(), *back), pgdp::CorruptStateError);
    };
    pgdp::StateBytes wrong_version = bytes;
    wrong_version[0] = pgdp::kBinnedSumsStateVersion;
    corrupt(wrong_version);
    corrupt(pgdp::StateBytes(bytes.begin(), bytes.end() - 1));
    // Find an occupied bin of the positive side.
    std::size_t bin = pgdp::kZeroLogBin + 1;
    while (state->sums.counts[bin] < 2) ++bin;
    const std::size_t at = 5 + 48 * bin;
    // Squares too small for the sum (Cauchy-Schwarz): the low limb and the middle limb cleared.
    pgdp::StateBytes small = bytes;
    for (int i = 24; i < 40; ++i) small.at(at + i) = 0;
    corrupt(small);
    // Squares too large for the bin's range: the top limb raised.
    pgdp::StateBytes large = bytes;
    large.at(at + 40) ^= 0x10;
    corrupt(large);
    // Squares of an empty bin.
    pgdp::StateBytes empty_bin = bytes;
    std::size_t free_bin = 0;
    while (state->sums.counts[free_bin] != 0) ++free_bin;
    empty_bin.at(5 + 48 * free_bin + 24) = 1;  // at(): GCC 16 warned on [] here
    corrupt(empty_bin);
    // A negative count.
    pgdp::StateBytes negative = bytes;
    negative.at(5 + 7) = 0x80;
    corrupt(negative);
}

pgdp::AggregateParameters estimated_parameters(double epsilon) {
    pgdp::AggregateParameters p;
    p.estimate_lower = p.estimate_upper = true;
    p.epsilon = epsilon;
    p.mechanism = pgdp::Mechanism::Laplace;
    return p;
}

long double population_variance(const std::vector<double>& values, double lower, double upper) {
    long double sum = 0, squares = 0;
    for (double x : values) sum += std::fmin(std::fmax(x, lower), upper);
    const long double mean = sum / values.size();
    for (double x : values) {
        const long double d = std::fmin(std::fmax(x, lower), upper) - mean;
        squares += d * d;
    }
    return squares / values.size();
}

// At a huge epsilon the bounds follow the estimate's rule: values -3..96 (1% each) and outliers
// of 0.05% and 0.1% beyond: those bins are trimmed, the bounds are [-4, 128] and the release is
// the population variance of the values clamped to them.
TEST(EstimatedBoundsVariance, HugeEpsilonReleasesTheClampedVariance) {
    pgdp::SeededRandomSource random(26);
    std::vector<double> values;
    for (int i = 1; i <= 20000; ++i) values.push_back(i % 100 - 3 + 0.25 * (i % 3));
    for (int i = 0; i < 5; ++i) values.push_back(-500000.0);
    for (int i = 0; i < 10; ++i) values.push_back(1000000.0);
    const auto state = binned(values);
    const auto p = estimated_parameters(1e9);
    const auto variance =
        pgdp::release_variance_with_estimated_bounds(pgdp::AggregateKind::Variance, p, *state, random);
    EXPECT_EQ(variance.bounds.lower, -4.0);
    EXPECT_EQ(variance.bounds.upper, 128.0);
    EXPECT_NEAR(variance.release.value, static_cast<double>(population_variance(values, -4, 128)), 1e-6);
    const auto deviation = pgdp::release_variance_with_estimated_bounds(
        pgdp::AggregateKind::StandardDeviation, p, *state, random);
    EXPECT_NEAR(deviation.release.value, std::sqrt(static_cast<double>(population_variance(values, -4, 128))),
                1e-6);
    // A given lower above every value but the outliers: all rows at 1000 but those trimmed (at 1024).
    std::vector<double> raised = values;
    for (double& x : raised) x = std::fmax(x, 1000.0);
    const auto raised_state = binned(raised);
    auto given = p;
    given.estimate_lower = false;
    given.lower = 1000.0;
    const auto one_sided = pgdp::release_variance_with_estimated_bounds(pgdp::AggregateKind::Variance, given,
                                                                        *raised_state, random);
    EXPECT_EQ(one_sided.bounds.lower, 1000.0);
    EXPECT_EQ(one_sided.bounds.upper, 1024.0);
    EXPECT_NEAR(one_sided.release.value, static_cast<double>(population_variance(raised, 1000, 1024)), 1e-6);
}

TEST(EstimatedBoundsVariance, EmptyAndOneRowGroupsNeverFail) {
    pgdp::SeededRandomSource random(27);
    for (double epsilon : {0.01, 0.1, 1.0, 1e9}) {
        for (auto kind : {pgdp::AggregateKind::Variance, pgdp::AggregateKind::StandardDeviation}) {
            for (const std::vector<double>& values :
                 {std::vector<double>{}, std::vector<double>{2.5}, std::vector<double>{-1e300},
                  std::vector<double>{0.0}, std::vector<double>{1e-300, -1e-300}}) {
                const auto state = binned(values);
                for (int repeat = 0; repeat < 20; ++repeat) {
                    const auto out = pgdp::release_variance_with_estimated_bounds(
                        kind, estimated_parameters(epsilon), *state, random);
                    const double range = out.bounds.upper - out.bounds.lower;
                    const double largest =
                        kind == pgdp::AggregateKind::Variance ? range * range / 4 : range / 2;
                    ASSERT_TRUE(std::isfinite(out.release.value));
                    ASSERT_GE(out.release.value, 0.0);
                    ASSERT_LE(out.release.value, largest);
                    if (epsilon == 1e9 && values.size() == 1 && std::fabs(values[0]) < 1e3) {
                        // The variance within 1e-6 of 0, so its square root within 1e-3.
                        ASSERT_LT(out.release.value, kind == pgdp::AggregateKind::Variance ? 1e-6 : 1e-3);
                    }
                }
            }
        }
    }
}

TEST(EstimatedBoundsVariance, GivenBoundsOffTheBinGridAreRefusedNamingTheArgument) {
    auto p = estimated_parameters(1.0);
    p.estimate_lower = false;
    p.lower = 1e-30;
    try {
        pgdp::require_estimable_bounds(pgdp::AggregateKind::Variance, p);
        FAIL() << "1e-30 next to an estimated upper was accepted";
    } catch (const pgdp::ArgumentError& e) {
        EXPECT_EQ(e.argument(), "lower");
    }
    p.lower = std::ldexp(1.0, -84);
    EXPECT_NO_THROW(pgdp::require_estimable_bounds(pgdp::AggregateKind::StandardDeviation, p));
    p.lower = 1e-30;  // dp_sum accepts it (its total is floored, no squares)
    EXPECT_NO_THROW(pgdp::require_estimable_bounds(pgdp::AggregateKind::Sum, p));
}

}  // namespace
