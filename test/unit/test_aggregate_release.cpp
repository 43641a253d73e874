// The aggregates' privacy arithmetic (core/aggregate_release.hpp): argument validation, the
// sensitivities and dp_mean's budget split against their definitions (docs/privacy.md
// "Aggregates"), exactness at a huge epsilon against sums computed here in long double, the
// ledger's mu^2 against the plans' own (Delta_int / sigma_int)^2, and the *_ci intervals' coverage
// over fixed-seed draws (bounds at pgdp_test::kZ = 4.5 standard errors: a correct implementation
// fails a check with probability < 1e-5).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/aggregate_release.hpp"
#include "core/clamped_sum.hpp"
#include "core/errors.hpp"
#include "aggregate_test_helpers.hpp"
#include "noise_test_helpers.hpp"

namespace {

using pgdp::AggregateKind;
using pgdp::AggregateParameters;
using pgdp::Mechanism;

using pgdp_test::given;

std::string rejected_argument(AggregateKind kind, bool with_interval, const AggregateParameters& p,
                              const char* mechanism) {
    try {
        pgdp::validate_aggregate_parameters(kind, with_interval, p, mechanism);
    } catch (const pgdp::ArgumentError& error) {
        return error.argument();
    }
    return "accepted";
}

// Exact totals of values as the aggregates keep them (clamped, in units of 2^unit_exponent).
pgdp::ExactTotals totals_of(const std::vector<double>& values, const AggregateParameters& p) {
    pgdp::ExactTotals totals;
    for (double v : values) {
        totals.total_units += pgdp::clamped_units(v, p.lower, p.upper, p.unit_exponent);
        totals.rows += 1;
    }
    return totals;
}

TEST(AggregateRelease, ValidationNamesTheArgument) {
    EXPECT_EQ(rejected_argument(AggregateKind::Sum, false, given(5, 1, 1, 0), "laplace"), "lower");
    EXPECT_EQ(rejected_argument(AggregateKind::Sum, false, given(0, INFINITY, 1, 0), "laplace"), "upper");
    EXPECT_EQ(rejected_argument(AggregateKind::Mean, false, given(0, 1, 0, 0), "laplace"), "epsilon");
    EXPECT_EQ(rejected_argument(AggregateKind::Mean, false, given(0, 1, 1, 1e-6), "laplace"), "delta");
    EXPECT_EQ(rejected_argument(AggregateKind::Count, false, given(0, 0, 1, 1e-6), "Gaussian"), "mechanism");
    EXPECT_EQ(rejected_argument(AggregateKind::Count, true, given(0, 0, 1, 1e-6, 1.0), "auto"), "alpha");
    EXPECT_EQ(rejected_argument(AggregateKind::Sum, true, given(0, 1, 1, 1e-6, 0.0), "auto"), "alpha");
    // dp_count has no bounds: whatever the fields hold is ignored.
    EXPECT_EQ(rejected_argument(AggregateKind::Count, false, given(5, 1, 1, 0), "laplace"), "accepted");
    const AggregateParameters count =
        pgdp::validate_aggregate_parameters(AggregateKind::Count, false, given(5, 1, 1, 0, 0.3), "laplace");
    EXPECT_EQ(count.lower, 0.0);
    EXPECT_EQ(count.alpha, 0.0);  // no interval requested
    const AggregateParameters sum =
        pgdp::validate_aggregate_parameters(AggregateKind::Sum, true, given(-3, 1000, 1, 1e-6, 0.05), "tlap");
    EXPECT_EQ(sum.mechanism, Mechanism::TruncatedLaplace);
    EXPECT_EQ(sum.unit_exponent, pgdp::sum_unit_exponent(-3, 1000));
}

// dp_sum: sensitivity max(|lower|, |upper|) (plus at most half an accumulation unit), the whole
// budget; integer columns with integer bounds are released on a grid of at least 1.
TEST(AggregateRelease, SumSensitivityAndGrid) {
    for (Mechanism mechanism : {Mechanism::Laplace, Mechanism::Gaussian, Mechanism::TruncatedLaplace}) {
        const double delta = mechanism == Mechanism::Laplace ? 0.0 : 1e-6;
        const char* name = mechanism == Mechanism::Laplace    ? "laplace"
                           : mechanism == Mechanism::Gaussian ? "gaussian"
                                                              : "tlap";
        const AggregateParameters p =
            pgdp::validate_aggregate_parameters(AggregateKind::Sum, false, given(-250, 40, 0.5, delta), name);
        const pgdp::AggregatePlan plan = pgdp::plan_aggregate_release(AggregateKind::Sum, p);
        EXPECT_EQ(plan.main().mechanism, mechanism);
        EXPECT_EQ(plan.sum.epsilon, 0.5);
        EXPECT_EQ(plan.sum.delta, delta);
        EXPECT_GE(plan.sum.sensitivity, 250.0);
        EXPECT_LE(plan.sum.sensitivity, 250.0 + std::ldexp(1.0, p.unit_exponent - 1));
        EXPECT_GE(static_cast<double>(plan.sum.sensitivity_int) * plan.sum.granularity, plan.sum.sensitivity);

        const AggregateParameters integers = pgdp::validate_aggregate_parameters(
            AggregateKind::Sum, false, given(-250, 40, 1e6, delta, 0.0, true), name);
        EXPECT_GE(pgdp::plan_aggregate_release(AggregateKind::Sum, integers).sum.granularity, 1.0);
    }
}

// dp_mean: half of epsilon and delta to each release; the centred sum has sensitivity
// (upper - lower)/2 plus one unit, the count 1; both releases use one mechanism, so by basic
// composition (001 Lemma 5.3) the call is (epsilon, delta)-DP, or epsilon-DP for Laplace.
TEST(AggregateRelease, MeanSplitsTheBudget) {
    for (const char* name : {"laplace", "gaussian", "tlap", "auto"}) {
        const double delta = std::string(name) == "laplace" ? 0.0 : 2e-6;
        const AggregateParameters p =
            pgdp::validate_aggregate_parameters(AggregateKind::Mean, false, given(10, 30, 0.8, delta), name);
        const pgdp::AggregatePlan plan = pgdp::plan_aggregate_release(AggregateKind::Mean, p);
        EXPECT_EQ(plan.sum.mechanism, plan.count.mechanism) << name;
        EXPECT_EQ(plan.sum.epsilon + plan.count.epsilon, 0.8) << name;
        EXPECT_EQ(plan.sum.epsilon, plan.count.epsilon) << name;
        EXPECT_LE(plan.sum.delta + plan.count.delta, delta) << name;
        if (plan.sum.mechanism == Mechanism::Laplace) {
            EXPECT_EQ(plan.count.delta, 0.0) << name;
        } else {
            EXPECT_EQ(plan.sum.delta, delta / 2) << name;
            EXPECT_EQ(plan.count.delta, delta / 2) << name;
        }
        EXPECT_EQ(plan.sum.sensitivity, 10.0 + std::ldexp(1.0, p.unit_exponent)) << name;
        EXPECT_EQ(plan.count.sensitivity, 1.0) << name;
        EXPECT_EQ(plan.count.sensitivity_int, 1u) << name;  // an integer count on a grid of 1
        // What the ledger charges: the call's epsilon and delta, once.
        const pgdp::ReleaseCharge charge = pgdp::release_charge(p, plan);
        EXPECT_EQ(charge.epsilon, 0.8) << name;
        EXPECT_EQ(charge.delta, plan.sum.mechanism == Mechanism::Laplace ? 0.0 : delta) << name;
        EXPECT_EQ(charge.mechanism, plan.sum.mechanism) << name;
    }
    // auto resolves on the sum and the count follows, even where the count alone would pick another.
    const AggregateParameters p =
        pgdp::validate_aggregate_parameters(AggregateKind::Mean, false, given(0, 1e6, 0.1, 0.7), "auto");
    const pgdp::AggregatePlan plan = pgdp::plan_aggregate_release(AggregateKind::Mean, p);
    EXPECT_EQ(plan.count.mechanism, plan.sum.mechanism);
}

// At epsilon 1e6 the noise is tiny: the releases are the exact results, computed here
// independently in long double, within 40 noise standard deviations (a miss has probability
// below e^-50), and the count on its grid of 1 exactly.
TEST(AggregateRelease, HugeEpsilonReleasesExactValues) {
    std::vector<double> values;
    long double clamped_sum = 0;
    for (int i = 0; i < 1000; ++i) {
        const double v = (i % 37) * 0.25 - 2.0;  // some below the lower bound 0
        values.push_back(v);
        clamped_sum += std::fmin(std::fmax(v, 0.0), 8.0);
    }
    pgdp::SeededRandomSource random(5);
    const AggregateParameters sum_p =
        pgdp::validate_aggregate_parameters(AggregateKind::Sum, false, given(0, 8, 1e6, 0), "laplace");
    const auto sum = pgdp::release_aggregate(sum_p, pgdp::plan_aggregate_release(AggregateKind::Sum, sum_p),
                                             totals_of(values, sum_p), random);
    EXPECT_NEAR(sum.value, static_cast<double>(clamped_sum), 40 * sum.noise_sd);
    EXPECT_LT(sum.noise_sd, 1e-4);

    const AggregateParameters mean_p =
        pgdp::validate_aggregate_parameters(AggregateKind::Mean, false, given(0, 8, 1e6, 1e-9), "gaussian");
    const auto mean = pgdp::release_aggregate(
        mean_p, pgdp::plan_aggregate_release(AggregateKind::Mean, mean_p), totals_of(values, mean_p), random);
    EXPECT_NEAR(mean.value, static_cast<double>(clamped_sum / 1000), 40 * mean.noise_sd);
    EXPECT_LT(mean.noise_sd, 1e-4);

    const AggregateParameters count_p =
        pgdp::validate_aggregate_parameters(AggregateKind::Count, true, given(0, 0, 1e6, 1e-9, 0.01), "tlap");
    const auto count =
        pgdp::release_aggregate(count_p, pgdp::plan_aggregate_release(AggregateKind::Count, count_p),
                                pgdp::ExactTotals{0, 1000}, random);
    EXPECT_EQ(count.value, 1000.0);
    EXPECT_LE(count.ci_lower, 1000.0);
    EXPECT_GE(count.ci_upper, 1000.0);

    // An empty group releases noise around 0, and dp_mean reads a count below 1 as 1.
    const auto empty = pgdp::release_aggregate(
        mean_p, pgdp::plan_aggregate_release(AggregateKind::Mean, mean_p), pgdp::ExactTotals{}, random);
    EXPECT_GE(empty.value, 0.0);
    EXPECT_LE(empty.value, 8.0);
}

// The Gaussian part of the ledger adds (Delta_int / sigma_int)^2 of every Gaussian release of the
// call: for dp_mean the sum's and the count's, rounded up.
TEST(AggregateRelease, GaussianChargeAddsBothHalvesOfTheMean) {
    const AggregateParameters p =
        pgdp::validate_aggregate_parameters(AggregateKind::Mean, false, given(0, 100, 0.5, 1e-6), "gaussian");
    const pgdp::AggregatePlan plan = pgdp::plan_aggregate_release(AggregateKind::Mean, p);
    auto mu2 = [](const pgdp::ReleasePlan& r) {
        const long double d = static_cast<long double>(r.sensitivity_int);
        return d * d / static_cast<long double>(r.gaussian_sigma2_int.to_double());
    };
    const long double expected = mu2(plan.sum) + mu2(plan.count);
    const double charged = pgdp::release_charge(p, plan).gaussian_mu2;
    EXPECT_GE(static_cast<long double>(charged), expected);
    EXPECT_LE(static_cast<long double>(charged), expected * (1 + 1e-14L));

    const AggregateParameters laplace =
        pgdp::validate_aggregate_parameters(AggregateKind::Mean, false, given(0, 100, 0.5, 0), "laplace");
    EXPECT_EQ(pgdp::release_charge(laplace, pgdp::plan_aggregate_release(AggregateKind::Mean, laplace))
                  .gaussian_mu2,
              0.0);
}

// The *_ci intervals hold the exact value with probability >= 1 - alpha (dp_mean's by a union
// bound, so usually more); checked over 20000 fixed-seed releases per form.
TEST(AggregateRelease, IntervalsCoverTheExactValue) {
    const int n = 20000;
    const double alpha = 0.1;
    std::vector<double> values;
    for (int i = 0; i < 200; ++i) values.push_back(10 + (i % 11));
    long double exact_sum = 0;
    for (double v : values) exact_sum += v;
    const double exact[] = {static_cast<double>(exact_sum), static_cast<double>(exact_sum / 200), 200.0};
    const AggregateKind kinds[] = {AggregateKind::Sum, AggregateKind::Mean, AggregateKind::Count};
    for (const char* mechanism : {"laplace", "gaussian", "tlap"}) {
        const double delta = std::string(mechanism) == "laplace" ? 0.0 : 1e-5;
        for (int k = 0; k < 3; ++k) {
            const AggregateParameters p = pgdp::validate_aggregate_parameters(
                kinds[k], true, given(0, 25, 0.3, delta, alpha), mechanism);
            const pgdp::AggregatePlan plan = pgdp::plan_aggregate_release(kinds[k], p);
            const pgdp::ExactTotals totals = totals_of(values, p);
            pgdp::SeededRandomSource random(100 + k);
            int missed = 0;
            for (int i = 0; i < n; ++i) {
                const auto r = pgdp::release_aggregate(p, plan, totals, random);
                ASSERT_LE(r.ci_lower, r.value);
                ASSERT_GE(r.ci_upper, r.value);
                missed += exact[k] < r.ci_lower || exact[k] > r.ci_upper;
            }
            EXPECT_LE(missed, alpha * n + pgdp_test::kZ * std::sqrt(alpha * (1 - alpha) * n))
                << mechanism << " kind " << k;
        }
    }
}

// dp_mean's noise_sd (delta method) matches the spread of its releases when the count is large
// (relative error of the approximation ~ sd(count noise)/count, here < 1 %); the sample standard
// deviation of 20000 draws has a standard error of 0.5 %, so 5 % is > 4.5 standard errors away.
TEST(AggregateRelease, MeanNoiseSdMatchesTheReleases) {
    std::vector<double> values(5000, 3.0);
    const AggregateParameters p =
        pgdp::validate_aggregate_parameters(AggregateKind::Mean, false, given(0, 10, 0.05, 1e-6), "gaussian");
    const pgdp::AggregatePlan plan = pgdp::plan_aggregate_release(AggregateKind::Mean, p);
    const pgdp::ExactTotals totals = totals_of(values, p);
    pgdp::SeededRandomSource random(77);
    const int n = 20000;
    double sum = 0, sum_squares = 0, reported = 0;
    for (int i = 0; i < n; ++i) {
        const auto r = pgdp::release_aggregate(p, plan, totals, random);
        sum += r.value;
        sum_squares += r.value * r.value;
        reported += r.noise_sd;
    }
    const double mean = sum / n;
    const double sd = std::sqrt(sum_squares / n - mean * mean);
    EXPECT_NEAR(sd, reported / n, 0.05 * sd);
    EXPECT_NEAR(mean, 3.0, pgdp_test::kZ * sd / std::sqrt(n));
}

// The dry run's 95 % half-width (value_half_width): the release plan's own, for the statistics
// whose error is known before the rows (a Laplace sum: -b ln(0.05) plus one grid step, here
// b = 40 / 0.5 and a grid far below 1e-3); NaN where
// it depends on the rows (a mean's count, estimated bounds) or nothing is released (dp_groups).
TEST(AggregateRelease, ValueHalfWidthOnlyWhereKnownBeforeTheRows) {
    const AggregateParameters sum =
        pgdp::validate_aggregate_parameters(AggregateKind::Sum, false, given(0, 40, 0.5, 0.0), "laplace");
    const pgdp::AggregatePlan sum_plan = pgdp::plan_aggregate_release(AggregateKind::Sum, sum);
    const double expected = -sum_plan.sum.noise_scale * std::log(0.05) + sum_plan.sum.granularity;
    EXPECT_DOUBLE_EQ(pgdp::value_half_width(sum, sum_plan, 0.05), expected);
    EXPECT_NEAR(pgdp::value_half_width(sum, sum_plan, 0.05), 80.0 * std::log(20.0), 1e-3);

    const AggregateParameters mean =
        pgdp::validate_aggregate_parameters(AggregateKind::Mean, false, given(0, 40, 0.5, 0.0), "laplace");
    EXPECT_TRUE(std::isnan(
        pgdp::value_half_width(mean, pgdp::plan_aggregate_release(AggregateKind::Mean, mean), 0.05)));

    AggregateParameters estimated = sum;
    estimated.estimate_lower = true;
    EXPECT_TRUE(std::isnan(pgdp::value_half_width(estimated, sum_plan, 0.05)));
}

}  // namespace
