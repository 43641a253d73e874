// The empirical privacy audit (unit/privacy_audit.hpp) of dp_sum and dp_mean with NULL bounds
// (core/estimated_bounds_release.hpp): both stages composed, the released value audited against the
// call's whole epsilon. Neighbours: one row at 2^40 added to a group whose bin at 2^40 holds as
// many rows as the bounds stage's occupancy threshold (there the row decides whether the upper
// bound jumps from the bulk's 2 to 2^41) and which the sum's own noise then also sees. 5e3
// releases per side; a correct mechanism fails with probability <= 1e-5. Measured: epsilon_lb 0.65
// (dp_sum) and 0.45 (dp_mean) of the declared 1; floor 0.2. Checked once with the mechanism at 2.5
// times the declared epsilon (neighbours at its own threshold): epsilon_lb 1.97 and 1.47, the
// test fails (not committed).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/binned_sums.hpp"
#include "core/estimated_bounds_release.hpp"
#include "unit/privacy_audit.hpp"

namespace {

using pgdp::RandomSource;
using pgdp_test::audit_mechanism;
using pgdp_test::expect_audit_within;

const pgdp_test::AuditSettings kSettings = pgdp_test::audit_settings_with(5000);

using Sums = std::shared_ptr<const pgdp::BinnedSums>;

Sums group(std::int64_t extreme_rows, double extreme) {
    auto sums = std::make_shared<pgdp::BinnedSums>();
    *sums = pgdp::BinnedSums{};
    for (int i = 0; i < 100; ++i) pgdp::add_binned_value(*sums, 1.0);
    for (std::int64_t i = 0; i < extreme_rows; ++i) pgdp::add_binned_value(*sums, extreme);
    return sums;
}

struct EstimatedCall {
    pgdp::AggregateKind kind;
    pgdp::AggregateParameters parameters;

    EstimatedCall(pgdp::AggregateKind kind_, double epsilon) : kind(kind_) {
        parameters.estimate_lower = parameters.estimate_upper = true;
        parameters.epsilon = epsilon;
        parameters.mechanism = pgdp::Mechanism::Laplace;
    }
    double operator()(const Sums& sums, RandomSource& random) const {
        return pgdp::release_with_estimated_bounds(kind, parameters, *sums, random).release.value;
    }
};

// The bounds stage's threshold at epsilon / 4 (docs/statistics/histograms.md: tau =
// release_half_width(plan, 0.01 / 193) - 1), rows below which the bin at 2^40 is seldom occupied.
std::int64_t rows_at_threshold(double epsilon) {
    pgdp::BoundsParameters stage;
    stage.epsilon = pgdp::split_bounds_budget(epsilon, 0.0).bounds_epsilon;
    const pgdp::ReleasePlan plan = pgdp::plan_bounds_estimation(stage);
    return static_cast<std::int64_t>(
        std::floor(pgdp::release_half_width(plan, 0.01 / pgdp::kLogBinCount) - plan.granularity));
}

TEST(PrivacyAudit, SumAndMeanWithEstimatedBoundsSpendNoMoreThanTheirBudget) {
    const double epsilon = 1.0;
    const double extreme = std::ldexp(1.0, 40);
    const std::int64_t n = rows_at_threshold(epsilon);
    for (auto kind : {pgdp::AggregateKind::Sum, pgdp::AggregateKind::Mean}) {
        expect_audit_within(kind == pgdp::AggregateKind::Sum ? "dp_sum, NULL bounds, a row at 2^40 eps=1"
                                                             : "dp_mean, NULL bounds, a row at 2^40 eps=1",
                            audit_mechanism(EstimatedCall(kind, epsilon), group(n, extreme),
                                            group(n + 1, extreme), 0.0, kSettings),
                            epsilon, 0.2);
    }
}

}  // namespace
