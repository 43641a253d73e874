// Bounds the analyst need not guess (src/core/bounds_estimation.hpp): the log-scale bins, the
// state, the budget split, exact bounds at huge epsilon, the stated coverage over 2000 releases on
// several distributions, and small groups (empty, one row) that never fail.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // Boost cpp_int, as in noise.cpp

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "core/bounds_estimation.hpp"
#include "core/random_source.hpp"
#include "count_release_test_helpers.hpp"

namespace {

using pgdp::kLogBinCount;
using pgdp_test::thrown_argument;

std::vector<std::int64_t> log_counts(const std::vector<double>& values) {
    std::vector<std::int64_t> counts(kLogBinCount, 0);
    for (double x : values) pgdp::add_to_log_histogram(counts.data(), x);
    return counts;
}

pgdp::EstimatedBounds estimate(const pgdp::BoundsParameters& p, const std::vector<std::int64_t>& counts,
                               pgdp::RandomSource& random) {
    return pgdp::estimate_bounds(p, pgdp::plan_bounds_estimation(p), counts.data(), random);
}

// Bins are contiguous and ordered by value, each value lies in its bin's hull, and the binade
// edges are where the definition puts them.
TEST(BoundsEstimation, LogBinsPartitionTheLineByBinades) {
    for (std::size_t i = 0; i + 1 < kLogBinCount; ++i) {
        ASSERT_LT(pgdp::log_bin_lower_edge(i), pgdp::log_bin_upper_edge(i));
        ASSERT_EQ(pgdp::log_bin_upper_edge(i), pgdp::log_bin_lower_edge(i + 1)) << i;
    }
    EXPECT_EQ(pgdp::log_bin_lower_edge(0), -std::ldexp(1.0, 64));
    EXPECT_EQ(pgdp::log_bin_upper_edge(kLogBinCount - 1), std::ldexp(1.0, 64));
    const std::size_t zero = pgdp::kZeroLogBin;
    for (double x :
         {0.0, -0.0, 1e-300, -4e-324, std::ldexp(1.0, -33), -std::nextafter(std::ldexp(1.0, -32), 0.0)}) {
        EXPECT_EQ(pgdp::log_bin(x), zero) << x;
    }
    EXPECT_EQ(pgdp::log_bin(std::ldexp(1.0, -32)), zero + 1);
    EXPECT_EQ(pgdp::log_bin(-std::ldexp(1.0, -32)), zero - 1);
    EXPECT_EQ(pgdp::log_bin(1.0), pgdp::log_bin(std::nextafter(2.0, 0.0)));
    EXPECT_EQ(pgdp::log_bin(2.0), pgdp::log_bin(1.0) + 1);
    EXPECT_EQ(pgdp::log_bin(-1.0), pgdp::log_bin(-std::nextafter(2.0, 0.0)));
    EXPECT_EQ(pgdp::log_bin(-2.0), pgdp::log_bin(-1.0) - 1);
    EXPECT_EQ(pgdp::log_bin(1e300), kLogBinCount - 1);
    EXPECT_EQ(pgdp::log_bin(INFINITY), kLogBinCount - 1);
    EXPECT_EQ(pgdp::log_bin(-INFINITY), 0u);
    EXPECT_EQ(pgdp::log_bin(std::ldexp(1.0, 63)), kLogBinCount - 1);
    EXPECT_EQ(pgdp::log_bin(std::nextafter(std::ldexp(1.0, 63), 0.0)), kLogBinCount - 2);
    std::mt19937_64 generator(5);
    std::uniform_real_distribution<double> exponent(-40, 70);
    for (int i = 0; i < 100000; ++i) {
        const double x = (generator() % 2 ? 1 : -1) * std::exp2(exponent(generator));
        if (std::fabs(x) >= std::ldexp(1.0, 64)) continue;
        const std::size_t bin = pgdp::log_bin(x);
        ASSERT_LE(pgdp::log_bin_lower_edge(bin), x);
        ASSERT_GE(pgdp::log_bin_upper_edge(bin), x);
        // Within a factor of 2 of x (outside the zero bin): the edges are the binade's.
        if (bin != zero) {
            ASSERT_LE(std::fabs(pgdp::log_bin_upper_edge(bin) - pgdp::log_bin_lower_edge(bin)), std::fabs(x));
        }
    }
    std::vector<std::int64_t> counts(kLogBinCount, 0);
    pgdp::add_to_log_histogram(counts.data(), NAN);
    EXPECT_EQ(std::count(counts.begin(), counts.end(), 0), static_cast<long>(kLogBinCount));  // NaN skipped
}

TEST(BoundsEstimation, StateRoundTripsAndRejectsCorruptBytes) {
    std::vector<std::int64_t> counts(kLogBinCount);
    for (std::size_t i = 0; i < kLogBinCount; ++i) counts[i] = static_cast<std::int64_t>(i * i);
    const pgdp::StateBytes bytes = pgdp::serialize_log_histogram(counts.data());
    EXPECT_EQ(bytes.size(), 1 + 4 + 8 * kLogBinCount);
    std::vector<std::int64_t> back(kLogBinCount, -1);
    pgdp::deserialize_log_histogram(bytes.data(), bytes.size(), back.data());
    EXPECT_EQ(back, counts);
    auto rejected = [&](const pgdp::StateBytes& bad) {
        return pgdp_test::rejects_state(
            [&] { pgdp::deserialize_log_histogram(bad.data(), bad.size(), back.data()); });
    };
    pgdp::StateBytes bad = bytes;
    bad[0] = 0;
    EXPECT_TRUE(rejected(bad));
    EXPECT_TRUE(rejected(pgdp::StateBytes(bytes.begin(), bytes.end() - 8)));
    bad = bytes;
    bad[1] = 7;  // another number of bins
    EXPECT_TRUE(rejected(bad));
    bad = bytes;
    bad.back() = 0xff;  // the last count negative
    EXPECT_TRUE(rejected(bad));
}

// The stages spend (bounds_epsilon, 0) and (release_epsilon, delta); calibrated one ulp below each
// (plan_release), they add up to less than the call's epsilon.
TEST(BoundsEstimation, BudgetSplitAddsUpToTheCallsEpsilon) {
    for (double epsilon : {1e-3, 0.1, 1.0, 3.0, 1e6}) {
        for (double share : {0.1, pgdp::kRecommendedBoundsShare, 0.5, 0.9}) {
            const pgdp::BoundsBudgetSplit split = pgdp::split_bounds_budget(epsilon, 1e-6, share);
            const pgdp::Rational spent = pgdp::Rational(std::nextafter(split.bounds_epsilon, 0.0)) +
                                         pgdp::Rational(std::nextafter(split.release_epsilon, 0.0));
            EXPECT_LT(spent, pgdp::Rational(epsilon));
            EXPECT_EQ(split.release_delta, 1e-6);
            EXPECT_NEAR(split.bounds_epsilon, epsilon * share, 1e-15 * epsilon);
        }
    }
    EXPECT_EQ(thrown_argument([] { pgdp::split_bounds_budget(1.0, 0.0, 0.0); }), "bounds_share");
    EXPECT_EQ(thrown_argument([] { pgdp::split_bounds_budget(1.0, 0.0, 1.0); }), "bounds_share");
    EXPECT_EQ(thrown_argument([] { pgdp::split_bounds_budget(-1.0, 0.0, 0.5); }), "epsilon");
    pgdp::BoundsParameters p;
    p.epsilon = 1.0;
    p.trim_share = 0.5;
    EXPECT_EQ(thrown_argument([&] { pgdp::plan_bounds_estimation(p); }), "trim_share");
    p.trim_share = 0.0;
    p.rows_per_unit = 3;
    const pgdp::ReleasePlan plan = pgdp::plan_bounds_estimation(p);
    EXPECT_EQ(plan.mechanism, pgdp::Mechanism::Laplace);
    EXPECT_EQ(plan.sensitivity_int, 3u);  // a unit's 3 rows may fall in 3 bins: L1 = 3
    EXPECT_LE(pgdp::Rational(3) / plan.laplace_scale_int.to_rational(), pgdp::Rational(1.0));
}

// At epsilon 1e6 the noisy counts are exact, every non-empty bin is occupied and, with nothing
// trimmed, the bounds are the binades of the extremes: lower <= min, max <= upper, each within a
// factor of 2 of the extreme it covers.
TEST(BoundsEstimation, HugeEpsilonCoversTheExtremesWithinAFactorOfTwo) {
    pgdp::SeededRandomSource random(40);
    std::mt19937_64 generator(41);
    pgdp::BoundsParameters p;
    p.epsilon = 1e6;
    p.trim_share = 0.0;
    for (int trial = 0; trial < 300; ++trial) {
        const double centre =
            std::ldexp(1.0, static_cast<int>(generator() % 80) - 20) * (trial % 3 == 0 ? -1 : 1);
        std::normal_distribution<double> normal(centre, std::fabs(centre) * (trial % 5));
        std::vector<double> values(1 + generator() % 500);
        for (double& x : values) x = normal(generator);
        const double min = *std::min_element(values.begin(), values.end());
        const double max = *std::max_element(values.begin(), values.end());
        const pgdp::EstimatedBounds b = estimate(p, log_counts(values), random);
        ASSERT_TRUE(b.from_data);
        ASSERT_LE(b.lower, min);
        ASSERT_GE(b.upper, max);
        const double floor = std::ldexp(1.0, pgdp::kLogBinMinExponent);  // the zero bin's half-width
        ASSERT_LE(std::fabs(b.upper - max), std::max(std::fabs(max), floor)) << max << " " << b.upper;
        ASSERT_LE(std::fabs(b.lower - min), std::max(std::fabs(min), floor)) << min << " " << b.lower;
    }
}

struct Distribution {
    const char* name;
    std::function<double(std::mt19937_64&)> draw;
};

// The stated accuracy: with n = 10000 rows, bounds epsilon 0.25 (the recommended quarter of a call's
// epsilon 1) and trim_share 0.02, the bounds leave out at most 2% of the rows in at least 99% of
// releases (checked with 4.5 standard errors over 2000 releases per distribution), and they are
// never wider than 4 times the data's range in 99% of releases (a spurious bin far away has
// probability <= 0.01 by the occupancy threshold and is trimmed when the total allows it).
TEST(BoundsEstimation, BoundsCoverTheStatedShareOver2000Releases) {
    const std::vector<Distribution> distributions = {
        {"normal(100, 15)", [](std::mt19937_64& g) { return std::normal_distribution<double>(100, 15)(g); }},
        {"lognormal(3, 1.5)",
         [](std::mt19937_64& g) { return std::lognormal_distribution<double>(3, 1.5)(g); }},
        {"uniform(-1000, 1000)",
         [](std::mt19937_64& g) { return std::uniform_real_distribution<double>(-1000, 1000)(g); }},
        {"pareto(1.5)",
         [](std::mt19937_64& g) {
             return std::pow(std::uniform_real_distribution<double>(0, 1)(g), -1 / 1.5);
         }},
        {"mixture",
         [](std::mt19937_64& g) {
             return std::bernoulli_distribution(0.7)(g) ? std::normal_distribution<double>(-50, 10)(g)
                                                        : std::normal_distribution<double>(2000, 300)(g);
         }},
        {"exponential(1000)",
         [](std::mt19937_64& g) { return std::exponential_distribution<double>(1000)(g); }},
    };
    pgdp::SeededRandomSource random(2025);
    std::mt19937_64 generator(2026);
    pgdp::BoundsParameters p;
    p.epsilon = pgdp::split_bounds_budget(1.0, 0.0).bounds_epsilon;
    const pgdp::ReleasePlan plan = pgdp::plan_bounds_estimation(p);
    const int runs = 2000;
    for (const Distribution& d : distributions) {
        std::vector<double> values(10000);
        for (double& x : values) x = d.draw(generator);
        std::sort(values.begin(), values.end());
        const auto counts = log_counts(values);
        const double range = values.back() - values.front();
        double covering = 0.0, narrow = 0.0, share_sum = 0.0;
        for (int run = 0; run < runs; ++run) {
            const pgdp::EstimatedBounds b = pgdp::estimate_bounds(p, plan, counts.data(), random);
            ASSERT_TRUE(std::isfinite(b.lower) && std::isfinite(b.upper) && b.lower < b.upper);
            const auto inside = std::upper_bound(values.begin(), values.end(), b.upper) -
                                std::lower_bound(values.begin(), values.end(), b.lower);
            const double share = static_cast<double>(inside) / static_cast<double>(values.size());
            share_sum += share;
            if (share >= 1 - p.trim_share) covering += 1;
            if (b.upper - b.lower <= 4 * range) narrow += 1;
        }
        EXPECT_TRUE(pgdp_test::at_least_rate(covering, runs, 0.99)) << d.name << ": " << covering / runs;
        EXPECT_TRUE(pgdp_test::at_least_rate(narrow, runs, 0.99)) << d.name << ": " << narrow / runs;
        std::printf(
            "[ measured ] %-22s share inside >= 0.98 in %.4f of releases, mean share %.4f, width <= 4 range "
            "in %.4f\n",
            d.name, covering / runs, share_sum / runs, narrow / runs);
    }
}

// Empty and one-row groups: never an exception, never NaN or infinities, lower < upper, at every
// epsilon; an empty group gets the default [-1, 1] in at least 99% of releases (the occupancy
// threshold), and one row at huge epsilon gets its own binade.
TEST(BoundsEstimation, SmallGroupsNeverFail) {
    pgdp::SeededRandomSource random(60);
    const std::vector<double> singles = {0.0, -5.0, 3.25, 1e300, -INFINITY, INFINITY, 1e-40, -7e18};
    for (double epsilon : {1e-3, 0.1, 1.0, 10.0, 1e6}) {
        pgdp::BoundsParameters p;
        p.epsilon = epsilon;
        const pgdp::ReleasePlan plan = pgdp::plan_bounds_estimation(p);
        const std::vector<std::int64_t> empty(kLogBinCount, 0);
        double defaults = 0.0;
        const int runs = 2000;
        for (int run = 0; run < runs; ++run) {
            const pgdp::EstimatedBounds b = pgdp::estimate_bounds(p, plan, empty.data(), random);
            ASSERT_TRUE(std::isfinite(b.lower) && std::isfinite(b.upper) && b.lower < b.upper);
            if (!b.from_data) {
                ASSERT_EQ(b.lower, pgdp::kDefaultLowerBound);
                ASSERT_EQ(b.upper, pgdp::kDefaultUpperBound);
                defaults += 1;
            }
        }
        EXPECT_TRUE(pgdp_test::at_least_rate(defaults, runs, 0.99)) << epsilon << ": " << defaults / runs;
        for (double x : singles) {
            const auto counts = log_counts({x});
            for (int run = 0; run < 200; ++run) {
                const pgdp::EstimatedBounds b = pgdp::estimate_bounds(p, plan, counts.data(), random);
                ASSERT_TRUE(std::isfinite(b.lower) && std::isfinite(b.upper) && b.lower < b.upper);
                if (epsilon == 1e6) {
                    ASSERT_EQ(b.lower, pgdp::log_bin_lower_edge(pgdp::log_bin(x)));
                    ASSERT_EQ(b.upper, pgdp::log_bin_upper_edge(pgdp::log_bin(x)));
                }
            }
        }
    }
}

}  // namespace
