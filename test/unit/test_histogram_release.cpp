// dp_histogram's core (src/core/histogram_release.hpp, count_vector.hpp): bins as PostgreSQL's
// width_bucket, a state that merges exactly and serializes with validation, plans calibrated for
// the whole vector of counts (checked against the privacy criteria computed here), exact releases
// at huge epsilon, and per-bin intervals whose coverage is measured over 2000 releases.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // Boost cpp_int, as in noise.cpp

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/clamped_sum.hpp"
#include "core/count_vector.hpp"
#include "core/exact_sampling.hpp"
#include "core/gaussian_calibration.hpp"
#include "core/histogram_release.hpp"
#include "core/random_source.hpp"
#include "count_release_test_helpers.hpp"

namespace {

using pgdp::HistogramSpec;
using pgdp::Mechanism;
using pgdp::Rational;
using pgdp_test::thrown_argument;

std::size_t bin(double lower, double upper, std::int64_t bins, double value) {
    return pgdp::histogram_bin(pgdp::validate_histogram_spec(lower, upper, bins), value);
}

// width_bucket's definition in exact arithmetic: floor(bins (x - lower) / (upper - lower)) + 1
// inside [lower, upper).
std::size_t exact_bucket(const HistogramSpec& spec, double value) {
    if (value < spec.lower) return 0;
    if (value >= spec.upper) return spec.counts() - 1;
    const Rational q = Rational(spec.bins) * (Rational(value) - Rational(spec.lower)) /
                       (Rational(spec.upper) - Rational(spec.lower));
    return static_cast<std::size_t>(boost::multiprecision::numerator(q) /
                                    boost::multiprecision::denominator(q)) +
           1;
}

TEST(Histogram, ValidationNamesTheArgument) {
    auto spec = [](double lower, double upper, std::int64_t bins) {
        return thrown_argument([&] { pgdp::validate_histogram_spec(lower, upper, bins); });
    };
    EXPECT_EQ(spec(0, 1, 0), "bins");
    EXPECT_EQ(spec(0, 1, -3), "bins");
    EXPECT_EQ(spec(0, 1, pgdp::kMaxHistogramBins + 1), "bins");
    EXPECT_EQ(spec(0, 1, pgdp::kMaxHistogramBins), "no error");
    EXPECT_EQ(spec(NAN, 1, 5), "lower");
    EXPECT_EQ(spec(-INFINITY, 1, 5), "lower");
    EXPECT_EQ(spec(0, INFINITY, 5), "upper");
    EXPECT_EQ(spec(0, NAN, 5), "upper");
    EXPECT_EQ(spec(1, 1, 5), "lower");
    EXPECT_EQ(spec(2, 1, 5), "lower");
    EXPECT_EQ(spec(-1.7e308, 1.7e308, 5), "upper");  // upper - lower overflows
    pgdp::HistogramParameters p;
    p.spec = pgdp::validate_histogram_spec(0, 1, 4);
    p.epsilon = 1.0;
    p.alpha = 1.0;
    auto planned = [&] { return thrown_argument([&] { pgdp::plan_histogram_release(p); }); };
    EXPECT_EQ(planned(), "alpha");
    p.alpha = 0.05;
    p.epsilon = 0.0;
    EXPECT_EQ(planned(), "epsilon");
    p.epsilon = 1.0;
    p.delta = 1e-6;
    EXPECT_EQ(planned(), "delta");  // laplace takes none
    p.delta = 0.0;
    p.rows_per_unit = 0;
    EXPECT_EQ(planned(), "rows_per_unit");
    p.rows_per_unit = 1;
    p.groups_per_unit = 0;
    EXPECT_EQ(planned(), "max_groups_contributed");
}

// PostgreSQL's documented results: width_bucket(5.35, 0.024, 10.06, 5) = 3, and the SQL standard's
// equal-width buckets [lower + (i-1) w, lower + i w) with lower in bucket 1 and upper in bins + 1.
TEST(Histogram, BinsAreWidthBucket) {
    EXPECT_EQ(bin(0.024, 10.06, 5, 5.35), 3u);
    const std::size_t expected[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10};  // x = 0, 10, ..., 110
    for (int i = 0; i <= 11; ++i) EXPECT_EQ(bin(10, 100, 9, 10.0 * i), expected[i]) << 10 * i;
    EXPECT_EQ(bin(0, 1, 4, std::nextafter(0.0, -1.0)), 0u);
    EXPECT_EQ(bin(0, 1, 4, 0.0), 1u);
    EXPECT_EQ(bin(0, 1, 4, std::nextafter(1.0, 0.0)), 4u);  // the quotient rounds to 4: capped
    EXPECT_EQ(bin(0, 1, 4, 1.0), 5u);
    EXPECT_EQ(bin(0, 1, 4, INFINITY), 5u);
    EXPECT_EQ(bin(0, 1, 4, -INFINITY), 0u);
    EXPECT_EQ(bin(0, 1, 4, NAN), 5u);  // width_bucket refuses NaN; the overflow bin counts it
    // Everywhere else, the exact-arithmetic bucket (rounding can only matter within a few ulps of
    // an edge; random doubles land there with negligible probability).
    std::mt19937_64 generator(24);
    for (const auto& [lower, upper, bins] : {std::tuple{-3.5, 1e4, 7}, std::tuple{0.1, 0.3, 10000},
                                             std::tuple{-1e-9, 2e-9, 3}, std::tuple{-1e300, 1e300, 977}}) {
        const HistogramSpec spec = pgdp::validate_histogram_spec(lower, upper, bins);
        std::uniform_real_distribution<double> uniform(lower - (upper - lower) / 8,
                                                       upper + (upper - lower) / 8);
        for (int i = 0; i < 20000; ++i) {
            const double x = uniform(generator);
            ASSERT_EQ(pgdp::histogram_bin(spec, x), exact_bucket(spec, x)) << x;
        }
    }
}

std::vector<std::int64_t> counts_of(const HistogramSpec& spec, const std::vector<double>& values) {
    std::vector<std::int64_t> counts(spec.counts(), 0);
    for (double x : values) pgdp::add_to_histogram(spec, counts.data(), x);
    return counts;
}

// Partial states of any split of the rows, merged in any order and through their bytes, give the
// counts of all rows: what parallel workers and Citus partials rely on.
TEST(Histogram, StatesMergeExactlyInAnyOrderThroughTheirBytes) {
    const HistogramSpec spec = pgdp::validate_histogram_spec(-2, 5, 13);
    std::mt19937_64 generator(3);
    std::normal_distribution<double> normal(1.0, 3.0);
    std::vector<double> values(5000);
    for (double& x : values) x = normal(generator);
    values.push_back(NAN);
    const std::vector<std::int64_t> all = counts_of(spec, values);
    for (int trial = 0; trial < 20; ++trial) {
        std::shuffle(values.begin(), values.end(), generator);
        const std::size_t cut1 = generator() % values.size(), cut2 = generator() % values.size();
        const std::size_t a = std::min(cut1, cut2), b = std::max(cut1, cut2);
        std::vector<std::int64_t> merged(spec.counts(), 0);
        for (auto [from, to] : {std::pair{b, values.size()}, std::pair{std::size_t{0}, a}, std::pair{a, b}}) {
            const auto part =
                counts_of(spec, std::vector<double>(values.begin() + from, values.begin() + to));
            const pgdp::StateBytes bytes = pgdp::serialize_histogram(spec, part.data());
            const pgdp::HistogramState state = pgdp::deserialize_histogram(bytes.data(), bytes.size());
            ASSERT_EQ(state.spec.bins, spec.bins);
            ASSERT_EQ(state.spec.lower, spec.lower);
            ASSERT_EQ(state.spec.upper, spec.upper);
            pgdp::merge_counts(merged.data(), state.counts.data(), merged.size());
        }
        EXPECT_EQ(merged, all);
    }
}

TEST(Histogram, DeserializeRejectsWhatSerializeCannotWrite) {
    const HistogramSpec spec = pgdp::validate_histogram_spec(0, 1, 2);
    const std::int64_t counts[4] = {1, 2, 3, 4};
    const pgdp::StateBytes good = pgdp::serialize_histogram(spec, counts);
    ASSERT_EQ(good.size(), 1u + 8 + 8 + 4 + 4 * 8);
    EXPECT_NO_THROW(pgdp::deserialize_histogram(good.data(), good.size()));
    auto rejected = [](const pgdp::StateBytes& bytes) {
        return pgdp_test::rejects_state([&] { pgdp::deserialize_histogram(bytes.data(), bytes.size()); });
    };
    pgdp::StateBytes bad = good;
    bad[0] = 2;  // version
    EXPECT_TRUE(rejected(bad));
    EXPECT_TRUE(rejected(pgdp::StateBytes(good.begin(), good.end() - 1)));  // truncated
    bad = good;
    bad.push_back(0);  // trailing byte
    EXPECT_TRUE(rejected(bad));
    bad = good;
    bad[good.size() - 1] = 0x80;  // last count negative
    EXPECT_TRUE(rejected(bad));
    bad = good;
    bad[17] = 0;  // bins = 0
    EXPECT_TRUE(rejected(bad));
    bad = good;
    bad[8] = 0xff;  // lower becomes NaN
    bad[7] = 0xff;
    EXPECT_TRUE(rejected(bad));
    EXPECT_TRUE(rejected(pgdp::StateBytes{}));
}

// At epsilon 1e6 (Laplace scale 1e-6) the noise is 0 with probability 1 - 2e-434294: the release
// is the exact counts, the rows are the bins in order and every interval holds its count.
TEST(Histogram, HugeEpsilonReleasesTheExactCounts) {
    pgdp::SeededRandomSource random(5);
    pgdp::HistogramParameters p;
    p.spec = pgdp::validate_histogram_spec(-10, 10, 8);
    p.epsilon = 1e6;
    std::vector<double> values;
    std::mt19937_64 generator(11);
    std::uniform_real_distribution<double> uniform(-14, 14);
    for (int i = 0; i < 3000; ++i) values.push_back(uniform(generator));
    const auto exact = counts_of(p.spec, values);
    for (Mechanism mechanism : {Mechanism::Laplace, Mechanism::Gaussian, Mechanism::TruncatedLaplace}) {
        p.mechanism = mechanism;
        p.delta = mechanism == Mechanism::Laplace ? 0.0 : 1e-9;
        const pgdp::ReleasePlan plan = pgdp::plan_histogram_release(p);
        const auto rows = pgdp::release_histogram(p, plan, exact.data(), random);
        ASSERT_EQ(rows.size(), 10u);
        EXPECT_EQ(rows.front().bin_lower, -INFINITY);
        EXPECT_EQ(rows.front().bin_upper, -10.0);
        EXPECT_EQ(rows.back().bin_lower, 10.0);
        EXPECT_EQ(rows.back().bin_upper, INFINITY);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            EXPECT_EQ(rows[i].count, exact[i]) << pgdp::mechanism_name(mechanism) << " bin " << i;
            EXPECT_LE(rows[i].interval_low, exact[i]);
            EXPECT_GE(rows[i].interval_high, exact[i]);
            if (i >= 1 && i <= 8) {
                EXPECT_DOUBLE_EQ(rows[i].bin_lower, -10.0 + 2.5 * static_cast<double>(i - 1));
                EXPECT_DOUBLE_EQ(rows[i].bin_upper, -10.0 + 2.5 * static_cast<double>(i));
            }
        }
    }
}

// Row level: one row moves one bin by 1, so each bin is a scalar release of sensitivity 1. Person
// level (k rows per unit per group, m groups): the Laplace per bin at scale k m / epsilon (L1 k per
// group); the truncated Laplace at (epsilon/m, delta/m) with sensitivity k (shifts c_i with sum
// c_i <= k compose to at most that, docs/statistics/histograms.md).
TEST(Histogram, LaplaceFamilyPlansCoverTheVector) {
    for (std::uint32_t k : {1u, 3u, 1000u}) {
        for (std::uint32_t m : {1u, 4u}) {
            const double epsilon = 0.7;
            const pgdp::ReleasePlan laplace =
                pgdp::plan_count_vector(epsilon, 0.0, Mechanism::Laplace, 12, k, m);
            EXPECT_EQ(laplace.granularity, 1.0);
            EXPECT_EQ(laplace.sensitivity_int, k);
            EXPECT_LE(Rational(k) * m / laplace.laplace_scale_int.to_rational(), Rational(epsilon));
            const pgdp::ReleasePlan tlap =
                pgdp::plan_count_vector(epsilon, 1e-6, Mechanism::TruncatedLaplace, 12, k, m);
            EXPECT_EQ(tlap.granularity, 1.0);
            EXPECT_EQ(tlap.sensitivity_int, k);
            EXPECT_LE(Rational(k) * m / tlap.laplace_scale_int.to_rational(), Rational(epsilon));
        }
    }
    // The largest k keeps the grid at 1 (no count is rounded) even at large epsilon.
    const auto plan = pgdp::plan_count_vector(1e6, 0.0, Mechanism::Laplace, 3, pgdp::kMaxRowsPerUnit, 1);
    EXPECT_EQ(plan.granularity, 1.0);
    EXPECT_EQ(thrown_argument([] {
                  pgdp::plan_count_vector(1.0, 0.0, Mechanism::Laplace, 3, pgdp::kMaxRowsPerUnit + 1, 1);
              }),
              "rows_per_unit");
}

TEST(Histogram, IntegersSaturateAtTheInt64Range) {
    EXPECT_EQ(pgdp::saturating_int64(1e19), std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(pgdp::saturating_int64(-1e19), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(pgdp::saturating_int64(-9223372036854775808.0), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(pgdp::saturating_int64(9223372036854774784.0), 9223372036854774784);
    EXPECT_EQ(pgdp::saturating_int64(INFINITY), std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(pgdp::saturating_int64(NAN), 0);
    EXPECT_EQ(pgdp::saturating_int64(-42.0), -42);
}

long double balle_wang_delta(long double mu, long double epsilon) {
    auto Phi = [](long double x) { return 0.5L * std::erfc(-x / std::sqrt(2.0L)); };
    return Phi(mu / 2 - epsilon / mu) - std::exp(epsilon) * Phi(-mu / 2 - epsilon / mu);
}

// Gaussian, k > 1: a unit's rows spread over bins shift the vector by at most L2 = sqrt(m) s_int
// grid units; sigma_int must meet the Balle-Wang profile there (with sigma_int >= 8, the discrete
// correction is negligible: docs/privacy.md "Releases over m groups"). k = 1 is the scalar plan.
TEST(Histogram, GaussianPlansMeetTheProfileAtTheVectorsL2Norm) {
    for (std::uint32_t k : {2u, 10u}) {
        for (std::uint32_t m : {1u, 3u}) {
            for (double epsilon : {0.3, 2.0}) {
                const double delta = 1e-7;
                const pgdp::ReleasePlan plan =
                    pgdp::plan_count_vector(epsilon, delta, Mechanism::Gaussian, 50, k, m);
                EXPECT_GE(plan.sensitivity_int, k);
                const long double sigma2 = plan.gaussian_sigma2_int.to_double();
                ASSERT_GE(sigma2, 64.0L);
                const long double mu =
                    std::sqrt(m * std::pow(static_cast<long double>(plan.sensitivity_int), 2) / sigma2);
                EXPECT_LE(balle_wang_delta(mu, epsilon), delta) << k << " " << m << " " << epsilon;
            }
        }
    }
    const pgdp::ReleasePlan one = pgdp::plan_count_vector(0.5, 1e-6, Mechanism::Gaussian, 50, 1, 1);
    const pgdp::ReleasePlan scalar = pgdp::plan_release(0.5, 1e-6, Mechanism::Gaussian, 1.0, 1.0, true, 1);
    EXPECT_EQ(one.gaussian_sigma2_int.to_rational(), scalar.gaussian_sigma2_int.to_rational());
}

// The ledger's Gaussian part is charged the vector's mu^2 = m s_int^2 / sigma_int^2 (never less)
// when sigma_int >= 8, otherwise nothing there (the release then goes to the basic part, as do
// the Laplace family's).
TEST(Histogram, ChargesTheVectorsMu2) {
    for (std::uint32_t k : {1u, 4u}) {
        for (std::uint32_t m : {1u, 5u}) {
            const pgdp::ReleasePlan plan = pgdp::plan_count_vector(0.8, 1e-6, Mechanism::Gaussian, 20, k, m);
            const pgdp::ReleaseCharge charge = pgdp::count_release_charge(0.8, 1e-6, plan, m);
            const Rational mu2 = Rational(m) * Rational(plan.sensitivity_int) *
                                 Rational(plan.sensitivity_int) / plan.gaussian_sigma2_int.to_rational();
            if (plan.gaussian_sigma2_int.to_rational() < 64) {
                EXPECT_EQ(charge.gaussian_mu2, 0.0) << k << " " << m;
                continue;
            }
            EXPECT_GE(Rational(charge.gaussian_mu2), mu2) << k << " " << m;
            EXPECT_LE(charge.gaussian_mu2, static_cast<double>(mu2) * (1 + 1e-12));
            EXPECT_EQ(charge.epsilon, 0.8);
            EXPECT_EQ(charge.delta, 1e-6);
        }
    }
    const pgdp::ReleasePlan laplace = pgdp::plan_count_vector(0.8, 0.0, Mechanism::Laplace, 20, 3, 2);
    const pgdp::ReleaseCharge charge = pgdp::count_release_charge(0.8, 0.0, laplace, 2);
    EXPECT_EQ(charge.gaussian_mu2, 0.0);
    EXPECT_EQ(charge.mechanism_name, "laplace");
    EXPECT_EQ(charge.sensitivity, 3.0);
}

// At a tiny epsilon the Gaussian's grid is coarser than 1 and counts are rounded; the rounded
// shift of any way of spreading k rows over the bins must stay within sensitivity_int in L2
// (checked by enumerating every spread over 3 bins from several starting counts).
TEST(Histogram, RoundedCountsOnACoarseGridStayWithinTheL2Bound) {
    const std::uint32_t k = 7;
    const pgdp::ReleasePlan plan = pgdp::plan_count_vector(2e-4, 1e-6, Mechanism::Gaussian, 3, k, 1);
    ASSERT_GT(plan.granularity, 1.0);
    std::mt19937_64 generator(8);
    for (int start = 0; start < 200; ++start) {
        const std::int64_t base[3] = {static_cast<std::int64_t>(generator() % 100000),
                                      static_cast<std::int64_t>(generator() % 100000),
                                      static_cast<std::int64_t>(generator() % 100000)};
        for (std::uint32_t c0 = 0; c0 <= k; ++c0) {
            for (std::uint32_t c1 = 0; c0 + c1 <= k; ++c1) {
                for (std::uint32_t c2 = 0; c0 + c1 + c2 <= k; ++c2) {
                    const std::uint32_t c[3] = {c0, c1, c2};
                    double norm2 = 0.0;
                    for (int i = 0; i < 3; ++i) {
                        const auto shift =
                            static_cast<double>(pgdp::units_to_grid(base[i] + c[i], 0, plan.granularity) -
                                                pgdp::units_to_grid(base[i], 0, plan.granularity));
                        norm2 += shift * shift;
                    }
                    ASSERT_LE(norm2, std::pow(static_cast<double>(plan.sensitivity_int), 2));
                }
            }
        }
    }
    const long double mu =
        plan.sensitivity_int / std::sqrt(static_cast<long double>(plan.gaussian_sigma2_int.to_double()));
    EXPECT_LE(balle_wang_delta(mu, 2e-4L), 1e-6L);
}

// 2000 releases of a 12-bin histogram at epsilon 1: every bin's interval holds its exact count with
// probability >= 1 - alpha (checked per bin, 4.5 standard errors), counts are never negative, and a
// large bin's count is unbiased (empty bins are biased upwards by the clamping at 0).
TEST(Histogram, IntervalsCoverEachBinOver2000Releases) {
    pgdp::SeededRandomSource random(2024);
    pgdp::HistogramParameters p;
    p.spec = pgdp::validate_histogram_spec(0, 100, 10);
    p.epsilon = 1.0;
    p.alpha = 0.1;
    std::vector<std::int64_t> exact = {0, 3, 0, 10, 500, 40, 1, 0, 0, 7, 2, 0};
    for (Mechanism mechanism : {Mechanism::Laplace, Mechanism::Gaussian}) {
        p.mechanism = mechanism;
        p.delta = mechanism == Mechanism::Laplace ? 0.0 : 1e-6;
        const pgdp::ReleasePlan plan = pgdp::plan_histogram_release(p);
        const int runs = 2000;
        std::vector<double> covered(exact.size(), 0.0);
        pgdp_test::Moments large_bin;
        for (int run = 0; run < runs; ++run) {
            const auto rows = pgdp::release_histogram(p, plan, exact.data(), random);
            for (std::size_t i = 0; i < rows.size(); ++i) {
                ASSERT_GE(rows[i].count, 0);
                ASSERT_LE(rows[i].interval_low, rows[i].count);
                ASSERT_GE(rows[i].interval_high, rows[i].count);
                if (rows[i].interval_low <= exact[i] && exact[i] <= rows[i].interval_high) covered[i] += 1;
            }
            large_bin.add(static_cast<double>(rows[4].count - exact[4]));
        }
        for (std::size_t i = 0; i < exact.size(); ++i) {
            EXPECT_TRUE(pgdp_test::at_least_rate(covered[i], runs, 1 - p.alpha))
                << pgdp::mechanism_name(mechanism) << " bin " << i << ": " << covered[i] / runs;
        }
        EXPECT_LE(std::fabs(large_bin.mean()), pgdp_test::kZ * large_bin.mean_se(plan.noise_variance));
    }
}

}  // namespace
