// dp_variance and dp_stddev (core/variance_release.hpp, core/centred_squares.hpp): the exact
// accumulation of centred squares against 128-bit-free big-integer arithmetic, the sensitivities
// and the budget split against their derivation (docs/statistics/variance.md), exactness at a huge
// epsilon against an independent two-pass variance in 50-digit floating point, the bounds of every
// release, and, over fixed-seed draws, the intervals' coverage and the delta-method noise_sd
// (bounds at pgdp_test::kZ = 4.5 standard errors: a correct implementation fails a check with
// probability < 1e-5).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/aggregate_release.hpp"
#include "core/centred_squares.hpp"
#include "core/clamped_sum.hpp"
#include "core/errors.hpp"
#include "core/variance_release.hpp"
#include "aggregate_test_helpers.hpp"
#include "noise_test_helpers.hpp"

namespace {

using Big = boost::multiprecision::cpp_int;
using Float50 = boost::multiprecision::cpp_bin_float_50;
using pgdp::AggregateKind;
using pgdp::AggregateParameters;
using pgdp::Mechanism;

AggregateParameters validated(AggregateKind kind, double lower, double upper, double epsilon, double delta,
                              const char* mechanism, double alpha = 0.0) {
    return pgdp::validate_aggregate_parameters(
        kind, alpha > 0.0, pgdp_test::given(lower, upper, epsilon, delta, alpha), mechanism);
}

std::string rejected_argument(double lower, double upper, double epsilon, const char* mechanism = "laplace") {
    try {
        validated(AggregateKind::Variance, lower, upper, epsilon, 0.0, mechanism);
    } catch (const pgdp::ArgumentError& error) {
        return error.argument();
    }
    return "accepted";
}

// The totals as the shim's transition accumulates them (sql/aggregates.cpp).
pgdp::ExactTotals totals_of(const std::vector<double>& values, const AggregateParameters& p) {
    const pgdp::CentredSquareUnits squares = pgdp::centred_square_units(p.lower, p.upper, p.unit_exponent);
    pgdp::ExactTotals totals;
    for (double v : values) {
        const std::int64_t units = pgdp::clamped_units(v, p.lower, p.upper, p.unit_exponent);
        totals.total_units += units;
        totals.square_units += pgdp::centred_square(units, squares);
        totals.rows += 1;
    }
    return totals;
}

// The population variance of the clamped values, two passes in 50 digits.
Float50 two_pass_variance(const std::vector<double>& values, double lower, double upper) {
    Float50 mean = 0;
    for (double v : values) mean += Float50(std::fmin(std::fmax(v, lower), upper));
    mean /= values.size();
    Float50 sum = 0;
    for (double v : values) {
        const Float50 d = Float50(std::fmin(std::fmax(v, lower), upper)) - mean;
        sum += d * d;
    }
    return sum / values.size();
}

TEST(VarianceRelease, ValidationNamesTheArgument) {
    EXPECT_EQ(rejected_argument(5, 1, 1), "lower");
    EXPECT_EQ(rejected_argument(std::nan(""), 1, 1), "lower");
    EXPECT_EQ(rejected_argument(0, INFINITY, 1), "upper");
    EXPECT_EQ(rejected_argument(0, 1, 0), "epsilon");
    EXPECT_EQ(rejected_argument(0, 1, std::nan("")), "epsilon");
    EXPECT_EQ(rejected_argument(0, 1, 1, "gauss"), "mechanism");
    // (upper - lower)^2 / 4 must be a normal double, and so its accumulation unit.
    EXPECT_EQ(rejected_argument(-1e160, 1e160, 1), "upper");
    EXPECT_EQ(rejected_argument(0, 1e-200, 1), "upper");
    EXPECT_EQ(rejected_argument(-1e150, 1e150, 1), "accepted");
    EXPECT_EQ(rejected_argument(0, 1e-100, 1), "accepted");
    EXPECT_EQ(rejected_argument(3, 3, 1), "accepted");  // every variance is 0
}

// Each row's centred square is round((2u - lower_units - upper_units)^2 / 2^k) (ties up), computed
// here with unbounded integers; k is the least shift that keeps the largest square below 2^62,
// so a total over fewer than 2^63 rows stays below 2^125.
TEST(VarianceRelease, CentredSquaresAreExactAndFit) {
    const double bounds[][2] = {{0, 1},     {-3, 1000},        {1e6, 1e6 + 1},    {-1e150, 1e150 / 3},
                                {0.1, 0.3}, {-1e-100, 1e-100}, {-4.5e18, 4.6e18}, {7, 7}};
    for (const auto& b : bounds) {
        const int e = pgdp::sum_unit_exponent(b[0], b[1]);
        const pgdp::CentredSquareUnits units = pgdp::centred_square_units(b[0], b[1], e);
        const Big low = pgdp::clamped_units(b[0], b[0], b[1], e);
        const Big high = pgdp::clamped_units(b[1], b[0], b[1], e);
        const Big spread = high - low;
        EXPECT_EQ(Big(units.spread), spread);
        EXPECT_EQ(Big(units.bounds_units), low + high);
        EXPECT_LT(Big(units.largest), Big(1) << 62) << b[0] << " " << b[1];
        if (units.shift > 0) {
            EXPECT_GE(spread * spread, Big(1) << (61 + units.shift));  // the least shift
        }
        EXPECT_EQ(units.square_exponent, 2 * (e - 1) + units.shift);
        for (int i = 0; i <= 400; ++i) {
            const double v = b[0] + (b[1] - b[0]) * (i / 400.0) * 1.1 - (b[1] - b[0]) * 0.05;
            const std::int64_t u = pgdp::clamped_units(v, b[0], b[1], e);
            const Big centred = 2 * Big(u) - low - high;
            const Big square = centred * centred;
            const Big expected =
                units.shift == 0 ? square : (square + (Big(1) << (units.shift - 1))) >> units.shift;
            ASSERT_EQ(Big(pgdp::centred_square(u, units)), expected) << v;
            ASSERT_LE(Big(pgdp::centred_square(u, units)), Big(units.largest));
        }
    }
}

// epsilon_i proportional to (c_i Delta_i)^(2/3) with c_i Delta_i = 1 : 2 : 1: the shares add up
// to exactly 1 and the sum's is 2^(2/3) times the others'. The plans' epsilons (and deltas) add
// up to at most the call's, one mechanism for all three ('auto' resolved on the squares), and the
// sensitivities are R^2/4, R/2 and 1 (up to the accumulation units' rounding).
TEST(VarianceRelease, BudgetSplitAndSensitivities) {
    const pgdp::VarianceShares shares = pgdp::variance_budget_shares();
    EXPECT_EQ(shares.squares + shares.sum + shares.count, 1.0);
    EXPECT_EQ(shares.squares, shares.count);
    EXPECT_NEAR(shares.sum / shares.squares, std::pow(2.0, 2.0 / 3.0), 1e-15);
    for (const char* name : {"laplace", "gaussian", "tlap", "auto"}) {
        const double delta = std::string(name) == "laplace" ? 0.0 : 3e-6;
        for (double epsilon : {0.1, 0.7, 1.0, 3.3, 1e-3, 123.456}) {
            const AggregateParameters p = validated(AggregateKind::Variance, 10, 30, epsilon, delta, name);
            const pgdp::AggregatePlan plan = pgdp::plan_aggregate_release(AggregateKind::Variance, p);
            EXPECT_EQ(plan.sum.mechanism, plan.squares.mechanism) << name;
            EXPECT_EQ(plan.count.mechanism, plan.squares.mechanism) << name;
            const long double spent =
                static_cast<long double>(plan.squares.epsilon) + plan.sum.epsilon + plan.count.epsilon;
            EXPECT_LE(spent, static_cast<long double>(epsilon)) << name;
            EXPECT_GT(spent, epsilon * (1 - 1e-15)) << name;
            EXPECT_LE(static_cast<long double>(plan.squares.delta) + plan.sum.delta + plan.count.delta,
                      static_cast<long double>(delta))
                << name;
            EXPECT_NEAR(plan.sum.epsilon / plan.squares.epsilon, std::pow(2.0, 2.0 / 3.0), 1e-12) << name;
            EXPECT_NEAR(plan.squares.sensitivity, 100.0, 100.0 * 1e-15) << name;
            EXPECT_GE(plan.squares.sensitivity, 100.0) << name;
            EXPECT_EQ(plan.sum.sensitivity, 10.0) << name;  // (30 - 10)/2: exact in units
            EXPECT_EQ(plan.count.sensitivity, 1.0) << name;
            const pgdp::ReleaseCharge charge = pgdp::release_charge(p, plan);
            EXPECT_EQ(charge.epsilon, epsilon) << name;
            EXPECT_EQ(charge.delta, plan.squares.mechanism == Mechanism::Laplace ? 0.0 : delta) << name;
            EXPECT_EQ(charge.mechanism, plan.squares.mechanism) << name;
        }
    }
}

// The split minimises the worst-case first-order noise variance of the estimate,
// sum_i c_i^2 Var(noise_i) with c = (1, R, R^2/4) for (squares, sum, count) (the 1/n^2 factor is
// common): for Laplace exactly (a grid search over all splits finds none better by more than its
// step allows), and for the Gaussian and the truncated Laplace it beats fixed thirds and is within
// 3 % of the grid's best. The bound is what each plan's noise_variance gives.
TEST(VarianceRelease, SplitMinimisesTheWorstCaseError) {
    const double lower = -2, upper = 6, range = upper - lower;
    for (const char* name : {"laplace", "gaussian", "tlap"}) {
        const bool pure = std::string(name) == "laplace";
        const double epsilon = 0.9, delta = pure ? 0.0 : 1e-6;
        const Mechanism mechanism = pgdp::parse_mechanism(name);
        const AggregateParameters p = validated(AggregateKind::Variance, lower, upper, epsilon, delta, name);
        const pgdp::AggregatePlan plan = pgdp::plan_aggregate_release(AggregateKind::Variance, p);
        auto bound = [&](double w_squares, double w_sum) {
            const double w_count = 1 - w_squares - w_sum;
            const auto squares =
                pgdp::plan_release(epsilon * w_squares, delta * w_squares, mechanism,
                                   plan.squares.sensitivity, plan.squares.granularity, false);
            const auto sum = pgdp::plan_release(epsilon * w_sum, delta * w_sum, mechanism,
                                                plan.sum.sensitivity, plan.sum.granularity, false);
            const auto count =
                pgdp::plan_release(epsilon * w_count, delta * w_count, mechanism, 1.0, 1.0, true);
            return squares.noise_variance + range * range * sum.noise_variance +
                   std::pow(range * range / 4, 2) * count.noise_variance;
        };
        const pgdp::VarianceShares shares = pgdp::variance_budget_shares();
        const double ours = bound(shares.squares, shares.sum);
        EXPECT_LT(ours, bound(1.0 / 3, 1.0 / 3)) << name;
        double best = ours;
        for (int i = 1; i < 50; ++i) {
            for (int j = 1; i + j < 50; ++j) best = std::fmin(best, bound(i / 50.0, j / 50.0));
        }
        EXPECT_GE(best, ours * (pure ? 0.999 : 0.97)) << name;
    }
}

// At epsilon 1e6 the noise is tiny: dp_variance and dp_stddev release the variance of the clamped
// values computed here independently (two passes, 50 digits), within 40 noise standard
// deviations (plus 1e-12 R^2 for the accumulation units), for every mechanism.
TEST(VarianceRelease, HugeEpsilonReleasesTheExactVariance) {
    struct Case {
        double lower, upper;
        std::vector<double> values;
    };
    std::vector<Case> cases;
    Case spread{-2, 8, {}};
    for (int i = 0; i < 1000; ++i) spread.values.push_back((i % 37) * 0.3 - 3.0);
    cases.push_back(spread);
    Case offset{1e6, 1e6 + 100, {}};  // far from 0: the centring keeps the squares small
    for (int i = 0; i < 500; ++i) offset.values.push_back(1e6 + (i * 7919 % 113) * 0.9);
    cases.push_back(offset);
    Case constant{-5, 5, std::vector<double>(300, 2.5)};
    cases.push_back(constant);
    Case one{0, 1, {0.25}};
    cases.push_back(one);
    pgdp::SeededRandomSource random(11);
    for (const Case& c : cases) {
        const double exact = static_cast<double>(two_pass_variance(c.values, c.lower, c.upper));
        const double tolerance = 1e-12 * (c.upper - c.lower) * (c.upper - c.lower);
        for (const char* name : {"laplace", "gaussian", "tlap"}) {
            const double delta = std::string(name) == "laplace" ? 0.0 : 1e-9;
            for (AggregateKind kind : {AggregateKind::Variance, AggregateKind::StandardDeviation}) {
                const AggregateParameters p = validated(kind, c.lower, c.upper, 1e6, delta, name);
                const auto plan = pgdp::plan_aggregate_release(kind, p);
                const auto r = pgdp::release_aggregate(p, plan, totals_of(c.values, p), random);
                if (kind == AggregateKind::Variance) {
                    EXPECT_NEAR(r.value, exact, 40 * r.noise_sd + tolerance) << name << " " << c.lower;
                } else {
                    EXPECT_NEAR(r.value * r.value, exact,
                                40 * r.noise_sd * (2 * r.value) + 40 * r.noise_sd * r.noise_sd + tolerance)
                        << name << " " << c.lower;
                }
            }
        }
    }
}

// Whatever the noise, a variance lies in [0, (upper - lower)^2 / 4] and a standard deviation in
// [0, (upper - lower) / 2]: post-processing of the three noisy totals, checked on the data that
// push hardest (empty, one row, all at one bound, half at each) at a small epsilon.
TEST(VarianceRelease, ReleasesStayInsideTheirRange) {
    const std::vector<std::vector<double>> data = {
        {}, {5}, std::vector<double>(50, 10), std::vector<double>(50, 0), {0, 10, 0, 10, 0, 10}};
    pgdp::SeededRandomSource random(3);
    for (const auto& values : data) {
        for (AggregateKind kind : {AggregateKind::Variance, AggregateKind::StandardDeviation}) {
            const AggregateParameters p = validated(kind, 0, 10, 0.05, 1e-6, "gaussian", 0.05);
            const auto plan = pgdp::plan_aggregate_release(kind, p);
            const auto totals = totals_of(values, p);
            const double top = kind == AggregateKind::Variance ? 25.0 : 5.0;
            for (int i = 0; i < 2000; ++i) {
                const auto r = pgdp::release_aggregate(p, plan, totals, random);
                ASSERT_GE(r.value, 0.0);
                ASSERT_LE(r.value, top);
                ASSERT_GE(r.ci_lower, 0.0);
                ASSERT_LE(r.ci_upper, top);
                ASSERT_LE(r.ci_lower, r.value);
                ASSERT_GE(r.ci_upper, r.value);
            }
        }
    }
}

// The *_ci intervals hold the exact variance (standard deviation) with probability >= 1 - alpha:
// a union bound over the three releases, each within its half-width at alpha/3, and the exact
// range of S2/n - (S1/n)^2 over that box (variance_release.cpp variance_range). Checked over 4000
// fixed-seed releases per (mechanism, statistic, data set), on data where the noise matters (the
// intervals are far narrower than the trivial [0, R^2/4]).
TEST(VarianceRelease, IntervalsCoverTheExactValue) {
    const int n = 4000;
    const double alpha = 0.1;
    std::vector<std::vector<double>> data(2);
    for (int i = 0; i < 400; ++i) data[0].push_back(2 + (i % 13) * 0.5);       // inside [0, 10]
    for (int i = 0; i < 300; ++i) data[1].push_back(i % 2 == 0 ? -1.0 : 9.5);  // near the bounds, clamped
    for (const auto& values : data) {
        const double variance = static_cast<double>(two_pass_variance(values, 0, 10));
        for (const char* mechanism : {"laplace", "gaussian", "tlap"}) {
            const double delta = std::string(mechanism) == "laplace" ? 0.0 : 1e-5;
            for (AggregateKind kind : {AggregateKind::Variance, AggregateKind::StandardDeviation}) {
                const double exact = kind == AggregateKind::Variance ? variance : std::sqrt(variance);
                const AggregateParameters p = validated(kind, 0, 10, 1.0, delta, mechanism, alpha);
                const auto plan = pgdp::plan_aggregate_release(kind, p);
                const auto totals = totals_of(values, p);
                pgdp::SeededRandomSource random(40 + static_cast<int>(kind));
                int missed = 0;
                double width = 0;
                for (int i = 0; i < n; ++i) {
                    const auto r = pgdp::release_aggregate(p, plan, totals, random);
                    missed += exact < r.ci_lower || exact > r.ci_upper;
                    width += r.ci_upper - r.ci_lower;
                }
                EXPECT_LE(missed, alpha * n + pgdp_test::kZ * std::sqrt(alpha * (1 - alpha) * n))
                    << mechanism << " kind " << static_cast<int>(kind);
                const double trivial = kind == AggregateKind::Variance ? 25.0 : 5.0;
                EXPECT_LT(width / n, 0.5 * trivial) << mechanism;
            }
        }
    }
}

// noise_sd (delta method) matches the spread of the releases when the count is large (its
// approximation error ~ sd(count noise)/count and the second-order terms, here < 2 %); the sample
// standard deviation of 4000 draws has a standard error of ~1.1 %, so 8 % is > 4.5 of them away.
// The releases' mean is the exact value within 4.5 standard errors (no bias at first order).
TEST(VarianceRelease, NoiseSdMatchesTheReleases) {
    std::vector<double> values;
    for (int i = 0; i < 5000; ++i) values.push_back(i % 2 == 0 ? 2.0 : 6.0);  // variance 4
    for (AggregateKind kind : {AggregateKind::Variance, AggregateKind::StandardDeviation}) {
        const AggregateParameters p = validated(kind, 0, 10, 0.3, 1e-6, "gaussian");
        const auto plan = pgdp::plan_aggregate_release(kind, p);
        const auto totals = totals_of(values, p);
        pgdp::SeededRandomSource random(77);
        const int n = 4000;
        pgdp_test::Moments moments;
        double reported = 0;
        for (int i = 0; i < n; ++i) {
            const auto r = pgdp::release_aggregate(p, plan, totals, random);
            moments.add(r.value);
            reported += r.noise_sd;
        }
        const double mean = moments.mean();
        const double sd = std::sqrt(moments.second() - mean * mean);
        EXPECT_NEAR(sd, reported / n, 0.08 * sd) << static_cast<int>(kind);
        const double exact = kind == AggregateKind::Variance ? 4.0 : 2.0;
        EXPECT_NEAR(mean, exact, pgdp_test::kZ * sd / std::sqrt(n) + 0.002 * exact) << static_cast<int>(kind);
    }
}

// The Gaussian part of the ledger adds (Delta_int / sigma_int)^2 of the three Gaussian releases.
TEST(VarianceRelease, GaussianChargeAddsTheThreeReleases) {
    const AggregateParameters p = validated(AggregateKind::StandardDeviation, 0, 100, 0.5, 1e-6, "gaussian");
    const pgdp::AggregatePlan plan = pgdp::plan_aggregate_release(AggregateKind::StandardDeviation, p);
    auto mu2 = [](const pgdp::ReleasePlan& r) {
        const long double d = static_cast<long double>(r.sensitivity_int);
        return d * d / static_cast<long double>(r.gaussian_sigma2_int.to_double());
    };
    const long double expected = mu2(plan.squares) + mu2(plan.sum) + mu2(plan.count);
    const double charged = pgdp::release_charge(p, plan).gaussian_mu2;
    EXPECT_GE(static_cast<long double>(charged), expected);
    EXPECT_LE(static_cast<long double>(charged), expected * (1 + 1e-14L));
}

}  // namespace
