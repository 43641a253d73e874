// Releases over m groups (plan_release's groups_per_unit, issue 10): one privacy unit changes up
// to m per-group releases, each by at most the sensitivity. Checked against the privacy criteria
// themselves, computed here independently of the planner: the Laplace family per coordinate at
// (epsilon/m, delta/m) (basic composition, 001 Lemma 5.3), the Gaussian by the Balle-Wang profile
// (000 eq. 11) of mu = sqrt(m) Delta_int / sigma_int with sigma_int >= 8 (docs/privacy.md).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/aggregate_release.hpp"
#include "core/errors.hpp"
#include "core/gaussian_calibration.hpp"
#include "core/release_plan.hpp"
#include "core/truncated_laplace.hpp"
#include "noise_test_helpers.hpp"

namespace {

using pgdp::Mechanism;
using pgdp::ReleasePlan;

// Balle-Wang: delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), in long double.
long double gaussian_profile(long double mu, long double epsilon) {
    auto Phi = [](long double x) { return 0.5L * std::erfc(-x / std::sqrt(2.0L)); };
    return Phi(mu / 2 - epsilon / mu) - std::exp(epsilon) * Phi(-mu / 2 - epsilon / mu);
}

TEST(GroupsPerUnit, LaplaceCoordinatesSpendEpsilonOverM) {
    for (std::uint32_t m : {2u, 5u, 100u}) {
        for (double epsilon : {0.1, 1.0, 7.0}) {
            const ReleasePlan plan = pgdp::plan_release(epsilon, 0.0, Mechanism::Laplace, 3.0, 0.0, false, m);
            // m coordinates, each shifted by sensitivity_int: privacy loss m D / t <= epsilon.
            EXPECT_LE(pgdp::Rational(plan.sensitivity_int) * m / plan.laplace_scale_int.to_rational(),
                      pgdp::Rational(epsilon));
            // and not much more noise than needed: t <= (1 + 2^-18) m D_int / epsilon.
            const double needed = m * static_cast<double>(plan.sensitivity_int) / epsilon;
            EXPECT_LE(plan.laplace_scale_int.to_double(), needed * (1 + std::ldexp(1.0, -18)));
            EXPECT_EQ(plan.epsilon, epsilon);  // reported as given, charged as given
        }
    }
}

TEST(GroupsPerUnit, TruncatedLaplaceCoordinatesSpendDeltaOverM) {
    for (std::uint32_t m : {2u, 8u}) {
        for (double delta : {1e-9, 1e-4}) {
            const double epsilon = 0.9;
            const ReleasePlan plan =
                pgdp::plan_release(epsilon, delta, Mechanism::TruncatedLaplace, 2.0, 0.0, false, m);
            const long double t = plan.laplace_scale_int.to_double();
            EXPECT_LE(pgdp::Rational(plan.sensitivity_int) / plan.laplace_scale_int.to_rational(),
                      pgdp::Rational(epsilon / m));
            // Mass of the sensitivity_int outermost points on one side <= delta / m.
            const long double q = std::exp(-1.0L / t);
            const long double K = static_cast<long double>(plan.bound_int);
            const long double D = static_cast<long double>(plan.sensitivity_int);
            const long double normaliser = 1 + 2 * q * (1 - std::pow(q, K)) / (1 - q);
            const long double outer = std::pow(q, K - D + 1) * (1 - std::pow(q, D)) / (1 - q) / normaliser;
            EXPECT_LE(outer, delta / m * (1 + 1e-9L));
        }
    }
}

TEST(GroupsPerUnit, GaussianCoordinatesMeetTheProfileAtSqrtM) {
    for (std::uint32_t m : {2u, 9u, 50u}) {
        for (double epsilon : {0.2, 1.0, 4.0}) {
            for (double delta : {1e-10, 1e-5}) {
                const ReleasePlan plan =
                    pgdp::plan_release(epsilon, delta, Mechanism::Gaussian, 5.0, 0.0, false, m);
                const long double sigma2 = plan.gaussian_sigma2_int.to_double();
                ASSERT_GE(sigma2, 64.0L);  // sigma_int >= 8
                const long double mu = std::sqrt(m * static_cast<long double>(plan.sensitivity_int) *
                                                 static_cast<long double>(plan.sensitivity_int) / sigma2);
                EXPECT_LE(gaussian_profile(mu, epsilon), delta) << m << " " << epsilon << " " << delta;
                // Close to the continuous optimum at L2 = sqrt(m) sensitivity_int on the grid (the
                // grid's rounding is charged to the sensitivity; then the 2^-16 search step only).
                const double optimum =
                    pgdp::analytic_gaussian_sigma(
                        epsilon, delta,
                        std::sqrt(static_cast<double>(m)) * static_cast<double>(plan.sensitivity_int)) *
                    plan.granularity;
                EXPECT_GE(plan.noise_scale, optimum * (1 - 1e-6));
                EXPECT_LE(plan.noise_scale, optimum * (1 + 1e-3));
            }
        }
    }
}

TEST(GroupsPerUnit, RowLevelIsUnchangedAndMIsValidated) {
    const ReleasePlan one = pgdp::plan_release(0.5, 1e-6, Mechanism::Gaussian, 3.0, 0.0, false, 1);
    const ReleasePlan same = pgdp::plan_release(0.5, 1e-6, Mechanism::Gaussian, 3.0, 0.0, false);
    EXPECT_EQ(one.gaussian_sigma2_int.to_rational(), same.gaussian_sigma2_int.to_rational());
    EXPECT_EQ(one.granularity, same.granularity);
    try {
        pgdp::plan_release(0.5, 0.0, Mechanism::Laplace, 3.0, 0.0, false, 0);
        FAIL() << "m = 0 accepted";
    } catch (const pgdp::ArgumentError& error) {
        EXPECT_EQ(error.argument(), "max_groups_contributed");
    }
    pgdp::AggregateParameters p;
    p.epsilon = 1.0;
    p.groups_per_unit = 0;
    EXPECT_THROW(pgdp::validate_aggregate_parameters(pgdp::AggregateKind::Count, false, p, "laplace"),
                 pgdp::ArgumentError);
}

// auto over m groups compares the three mechanisms at the parameters each would use.
TEST(GroupsPerUnit, AutoComparesAtTheMAdjustedParameters) {
    for (std::uint32_t m : {1u, 4u, 25u}) {
        for (double epsilon : {0.1, 1.0}) {
            const double delta = 1e-6;
            const double laplace = 2.0 * std::pow(m * 1.0 / epsilon, 2);
            const double gaussian =
                std::pow(pgdp::analytic_gaussian_sigma(epsilon, delta, std::sqrt(1.0 * m)), 2);
            const double tlap = pgdp::truncated_laplace_params(epsilon / m, delta / m, 1.0).power;
            Mechanism best = Mechanism::Laplace;
            double variance = laplace;
            if (gaussian < variance) best = Mechanism::Gaussian, variance = gaussian;
            if (tlap < variance) best = Mechanism::TruncatedLaplace;
            EXPECT_EQ(pgdp::plan_release(epsilon, delta, Mechanism::Auto, 1.0, 0.0, false, m).mechanism, best)
                << m << " " << epsilon;
        }
    }
}

// The ledger's Gaussian part is charged all m coordinates: m (Delta_int / sigma_int)^2 per release.
TEST(GroupsPerUnit, GaussianChargeCountsEveryCoordinate) {
    pgdp::AggregateParameters p;
    p.epsilon = 1.0;
    p.delta = 1e-6;
    p.groups_per_unit = 6;
    p = pgdp::validate_aggregate_parameters(pgdp::AggregateKind::Count, false, p, "gaussian");
    const pgdp::AggregatePlan plan = pgdp::plan_aggregate_release(pgdp::AggregateKind::Count, p);
    const long double d = static_cast<long double>(plan.count.sensitivity_int);
    const long double expected =
        6 * d * d / static_cast<long double>(plan.count.gaussian_sigma2_int.to_double());
    const double charged = pgdp::release_charge(p, plan).gaussian_mu2;
    EXPECT_GE(static_cast<long double>(charged), expected);
    EXPECT_LE(static_cast<long double>(charged), expected * (1 + 1e-14L));
}

}  // namespace
