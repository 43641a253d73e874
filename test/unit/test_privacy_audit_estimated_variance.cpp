// The empirical privacy audit (unit/privacy_audit.hpp) of dp_variance and dp_stddev with NULL
// bounds (core/estimated_bounds_release.hpp release_variance_with_estimated_bounds): both stages
// composed, the released value audited against the call's whole epsilon. Neighbours as for
// dp_sum's (test_privacy_audit_estimated_bounds.cpp): one row at 2^40 added to a group whose bin
// at 2^40 holds as many rows as the bounds stage's occupancy threshold, so that the row decides
// whether the upper bound jumps from the bulk's 2 to 2^41, and the variance's own noise then sees
// it too. 2e4 releases per side (at 5e3 the bound, 0.199, fell just short of the floor); a correct
// mechanism fails with probability <= 1e-5. Measured: epsilon_lb 0.32 of the declared 1 for both
// (dp_stddev is a function of the same release); floor 0.2. Checked once with the mechanism at
// 2.5 times the declared epsilon (neighbours at its own threshold): epsilon_lb 1.25, the test
// fails (not committed).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>

#include "core/binned_squares.hpp"
#include "core/estimated_bounds_release.hpp"
#include "unit/privacy_audit.hpp"

namespace {

using pgdp::RandomSource;
using pgdp_test::audit_mechanism;
using pgdp_test::expect_audit_within;

const pgdp_test::AuditSettings kSettings = pgdp_test::audit_settings_with(20000);

using Squares = std::shared_ptr<const pgdp::BinnedSquares>;

Squares group(std::int64_t extreme_rows, double extreme) {
    auto binned = std::make_shared<pgdp::BinnedSquares>();
    *binned = pgdp::BinnedSquares{};
    for (int i = 0; i < 100; ++i) pgdp::add_binned_square_value(*binned, 1.0);
    for (std::int64_t i = 0; i < extreme_rows; ++i) pgdp::add_binned_square_value(*binned, extreme);
    return binned;
}

struct EstimatedVarianceCall {
    pgdp::AggregateKind kind;
    pgdp::AggregateParameters parameters;

    EstimatedVarianceCall(pgdp::AggregateKind kind_, double epsilon) : kind(kind_) {
        parameters.estimate_lower = parameters.estimate_upper = true;
        parameters.epsilon = epsilon;
        parameters.mechanism = pgdp::Mechanism::Laplace;
    }
    double operator()(const Squares& binned, RandomSource& random) const {
        return pgdp::release_variance_with_estimated_bounds(kind, parameters, *binned, random).release.value;
    }
};

// The bounds stage's threshold at epsilon / 4 (as in test_privacy_audit_estimated_bounds.cpp).
std::int64_t rows_at_threshold(double epsilon) {
    pgdp::BoundsParameters stage;
    stage.epsilon = pgdp::split_bounds_budget(epsilon, 0.0).bounds_epsilon;
    const pgdp::ReleasePlan plan = pgdp::plan_bounds_estimation(stage);
    return static_cast<std::int64_t>(
        std::floor(pgdp::release_half_width(plan, 0.01 / pgdp::kLogBinCount) - plan.granularity));
}

TEST(PrivacyAudit, VarianceAndStddevWithEstimatedBoundsSpendNoMoreThanTheirBudget) {
    const double epsilon = 1.0;
    const double extreme = std::ldexp(1.0, 40);
    const std::int64_t n = rows_at_threshold(epsilon);
    for (auto kind : {pgdp::AggregateKind::Variance, pgdp::AggregateKind::StandardDeviation}) {
        expect_audit_within(kind == pgdp::AggregateKind::Variance
                                ? "dp_variance, NULL bounds, a row at 2^40 eps=1"
                                : "dp_stddev, NULL bounds, a row at 2^40 eps=1",
                            audit_mechanism(EstimatedVarianceCall(kind, epsilon), group(n, extreme),
                                            group(n + 1, extreme), 0.0, kSettings),
                            epsilon, 0.2);
    }
}

}  // namespace
