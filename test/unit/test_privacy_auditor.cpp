// The privacy auditor itself (unit/privacy_audit.hpp): its Clopper-Pearson bounds against the
// binomial law summed here directly and against their closed forms at 0 and n hits, the
// thresholds fixed by the pilot, and that it finds no evidence between identical mechanisms (true
// epsilon 0), and its mu bound on a discrete Gaussian of known mu. That it catches a leak:
// PrivacyAuditor.CatchesASumPlannedAtHalfItsSensitivity in test_privacy_audit_aggregates.cpp.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/exact_sampling.hpp"
#include "core/release_plan.hpp"
#include "unit/privacy_audit.hpp"

namespace {

using pgdp::RandomSource;
using pgdp_test::audit_mechanism;
using pgdp_test::AuditSettings;

// P[Bin(n, p) <= k] by summing the probability mass function in long double (lgamma).
long double binomial_cdf(std::size_t k, std::size_t n, long double p) {
    long double total = 0.0L;
    for (std::size_t j = 0; j <= k; ++j) {
        const long double log_pmf =
            std::lgamma(static_cast<long double>(n) + 1) - std::lgamma(static_cast<long double>(j) + 1) -
            std::lgamma(static_cast<long double>(n - j) + 1) + j * std::log(p) + (n - j) * std::log1p(-p);
        total += std::exp(log_pmf);
    }
    return total;
}

// The upper bound u solves P[Bin(n, u) <= k] = level, the lower bound l solves
// P[Bin(n, l) >= k] = level (the defining equations of Clopper-Pearson).
TEST(PrivacyAuditor, ClopperPearsonBoundsSolveTheBinomialTails) {
    for (const double level : {1e-3, 2.6e-8}) {
        for (const auto& [k, n] : std::vector<std::pair<std::size_t, std::size_t>>{
                 {1, 50}, {37, 1000}, {500, 1000}, {4900, 20000}}) {
            const double lower = pgdp_test::clopper_pearson_lower(k, n, level);
            const double upper = pgdp_test::clopper_pearson_upper(k, n, level);
            EXPECT_LT(lower, static_cast<double>(k) / n);
            EXPECT_GT(upper, static_cast<double>(k) / n);
            EXPECT_NEAR(binomial_cdf(k, n, upper), level, 1e-6 * level) << k << " of " << n;
            EXPECT_NEAR(1 - binomial_cdf(k - 1, n, lower), level, 1e-6 * level) << k << " of " << n;
        }
        // Closed forms: no hit, upper = 1 - level^(1/n); all hits, lower = level^(1/n).
        EXPECT_EQ(pgdp_test::clopper_pearson_lower(0, 200000, level), 0.0);
        EXPECT_NEAR(pgdp_test::clopper_pearson_upper(0, 200000, level), -std::expm1(std::log(level) / 200000),
                    1e-12);
        EXPECT_NEAR(pgdp_test::clopper_pearson_lower(200000, 200000, level),
                    std::exp(std::log(level) / 200000), 1e-12);
        EXPECT_EQ(pgdp_test::clopper_pearson_upper(200000, 200000, level), 1.0);
    }
}

// The thresholds are the pooled pilot's quantiles at tail probabilities 0.5 down to
// smallest_tail, both tails, without repeats.
TEST(PrivacyAuditor, ThresholdsAreQuantilesOfThePilot) {
    std::vector<double> pilot;
    for (int i = 0; i < 10001; ++i)
        pilot.push_back(10000 - i);  // 0..10000 decreasing: the pilot need not be sorted
    AuditSettings settings;
    settings.tail_levels = 3;
    settings.smallest_tail = 0.01;  // tails 0.5, 0.0707, 0.01 (ratio sqrt(0.02))
    EXPECT_EQ(pgdp_test::audit_thresholds(pilot, settings),
              (std::vector<double>{100, 707, 5000, 9293, 9900}));
    // A release with two values gives two thresholds, whatever the levels.
    EXPECT_EQ(pgdp_test::audit_thresholds({0, 1, 1, 0, 1}, AuditSettings{}), (std::vector<double>{0, 1}));
}

// Epsilon 0 exactly: both sides draw the same law. Every bound holds with probability >=
// 1 - 1e-5, so the audit finds nothing (epsilon_lb = 0), at any seed but with probability 1e-5.
TEST(PrivacyAuditor, IdenticalMechanismsShowNoPrivacyLoss) {
    const pgdp::ReleasePlan plan = pgdp::plan_release(1.0, 0.0, pgdp::Mechanism::Laplace, 1.0, 0.0, false);
    const auto release = [&](int, RandomSource& random) {
        return static_cast<double>(pgdp::sample_release_noise(plan, random));
    };
    for (std::uint64_t seed : {1, 2, 3}) {
        AuditSettings settings;
        settings.seed = seed;
        const auto result = audit_mechanism(release, 0, 1, 0.0, settings);
        EXPECT_EQ(result.epsilon_lower_bound, 0.0) << pgdp_test::describe_audit("identical", result, 1.0);
    }
}

// A release with atoms: clamp(x + Z, -1, 1) for the discrete Laplace Z of scale 1/epsilon, on
// x = 0 against x = 1. Its outputs are the atoms -1, 0, 1, each with likelihood ratio exactly
// e^epsilon between the sides (P[Z <= -1] / P[Z <= -2], P[Z = 0] / P[Z = -1], P[Z >= 0] /
// P[Z >= 1]): epsilon-DP and no better. The pilot's quantiles are the atoms themselves, and the
// strict events at them ({M < 0} = {M = -1}, {M > 0} = {M = 1}, ...) are the up- and down-sets of
// the atoms: the audit must find most of epsilon (the best event, {M = -1}, has probabilities 0.27
// and 0.10, as dp_count's) and never more.
TEST(PrivacyAuditor, AuditsAReleaseWithAtoms) {
    const double epsilon = 1.0;
    // dp_count's plan: grid 1, so the noise is an integer count.
    const pgdp::ReleasePlan plan = pgdp::plan_release(epsilon, 0.0, pgdp::Mechanism::Laplace, 1.0, 1.0, true);
    const auto release = [&](int x, RandomSource& random) {
        const auto noisy = static_cast<double>(x + pgdp::sample_release_noise(plan, random));
        return std::fmin(std::fmax(noisy, -1.0), 1.0);
    };
    AuditSettings settings = pgdp_test::audit_settings_with(50000);
    std::vector<double> pilot = pgdp_test::draw_releases(release, 0, 2000, 99, 1);
    EXPECT_EQ(pgdp_test::audit_thresholds(pilot, settings), (std::vector<double>{-1, 0, 1}));
    pgdp_test::expect_audit_within("clamped discrete laplace (atoms -1, 0, 1) eps=1",
                                   audit_mechanism(release, 0, 1, 0.0, settings), epsilon, 0.8);
}

// mu_lower_bound on the discrete Gaussian of sigma 20 shifted by 6 (mu = 0.3; at sigma 20 the
// discrete law's trade-off is the continuous one's up to terms in exp(-2 pi^2 sigma^2)): at most
// 0.3 and most of it; shifted by 9 (mu 0.45) against a declared 0.3 it is above 0.3: caught.
TEST(PrivacyAuditor, BoundsTheMuOfAGaussian) {
    const pgdp::Rational sigma2(400);
    const auto release = [&](int shift, RandomSource& random) {
        return static_cast<double>(shift) +
               pgdp::sample_discrete_gaussian(sigma2, random).convert_to<double>();
    };
    const AuditSettings settings = pgdp_test::audit_settings_with(200000);
    pgdp_test::expect_mu_audit_within("discrete gaussian sigma=20 shift 6 (mu 0.3)",
                                      pgdp_test::audit_mechanism_mu(release, 0, 6, settings), 0.3, 0.85);
    const auto leaky = pgdp_test::audit_mechanism_mu(release, 0, 9, settings);
    EXPECT_GT(leaky.mu_lower_bound, 0.3) << "mu 0.45 not told from a declared 0.3: " << leaky.mu_lower_bound;
}

}  // namespace
