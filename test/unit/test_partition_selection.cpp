// DP partition selection (src/core/partition_selection, near_truncated_geometric): the keep
// probability against independent 50-digit references (test/reference/partition_selection.csv),
// the DP constraints checked exactly in rational arithmetic by this test, the threshold
// mechanisms' keep probabilities recomputed here from their discrete laws, empirical keep rates
// (kZ = 4.5 standard errors: a correct sampler fails one check with probability 6.8e-6), Auto
// against brute force, the pre-threshold shift and the argument validation.
// GCC 12 reports a false -Wmaybe-uninitialized inside boost::rational::normalize (Boost 1.74).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include <boost/multiprecision/cpp_int.hpp>

#include "core/errors.hpp"
#include "core/near_truncated_geometric.hpp"
#include "core/partition_selection.hpp"
#include "core/random_source.hpp"
#include "unit/noise_test_helpers.hpp"
#include "unit/reference_csv.hpp"

namespace {

using boost::multiprecision::cpp_int;
using boost::multiprecision::cpp_rational;
using pgdp::PartitionSelectionMechanism;
using pgdp::PartitionSelectionPlan;
using pgdp_test::kZ;

constexpr auto kGeometric = PartitionSelectionMechanism::NearTruncatedGeometric;
constexpr auto kLaplace = PartitionSelectionMechanism::LaplaceThreshold;
constexpr auto kGaussian = PartitionSelectionMechanism::GaussianThreshold;
constexpr auto kAuto = PartitionSelectionMechanism::Auto;

// The exact rational value of a finite double.
cpp_rational exact(double x) {
    int e;
    const double m = std::frexp(x, &e);
    const auto mantissa = static_cast<std::int64_t>(std::ldexp(m, 53));
    e -= 53;
    if (e >= 0) return cpp_rational(cpp_int(mantissa) << e);
    return cpp_rational(cpp_int(mantissa), cpp_int(1) << -e);
}

// A rational lower bound of e^x for rational x >= 0: the Taylor partial sum (every term > 0).
cpp_rational exp_lower(const cpp_rational& x) {
    cpp_rational sum = 1, term = 1;
    for (int k = 1; k <= 80; ++k) {
        term = term * x / k;
        sum += term;
    }
    return sum;
}

// delta_r = the plan's d / 2^64 is a lower bound of delta' = 1 - (1 - delta)^(1/m): checked
// exactly here ((1 - delta_r)^m >= 1 - delta), and that it is not needlessly low.
cpp_rational checked_group_delta(const pgdp::NearTruncatedGeometric& g, double delta, int m) {
    const cpp_rational low(cpp_int(g.d_numerator), cpp_int(1) << 64);
    cpp_rational power = 1;
    for (int i = 0; i < m; ++i) power *= 1 - low;
    EXPECT_GE(power, 1 - exact(delta)) << "delta_r > delta' at delta=" << delta << " m=" << m;
    const long double want = -std::expm1(std::log1p(-static_cast<long double>(delta)) / m);
    EXPECT_GE(low.convert_to<long double>(), want * (1 - 1e-12L) - std::ldexp(1.0L, -64));
    return low;
}

struct Case {
    double epsilon;
    double delta;
    int m;
};

// The (epsilon, delta, m) of the reference file, in its order.
std::vector<std::pair<Case, std::vector<long double>>> reference_cases() {
    pgdp_test::ReferenceCsv csv("reference/partition_selection.csv");
    std::vector<std::pair<Case, std::vector<long double>>> out;
    for (std::size_t r = 0; r < csv.size(); ++r) {
        const Case c{csv.num(r, "epsilon"), csv.num(r, "delta"), static_cast<int>(csv.num(r, "max_groups"))};
        if (out.empty() || out.back().first.epsilon != c.epsilon || out.back().first.delta != c.delta ||
            out.back().first.m != c.m) {
            out.push_back({c, {0.0L}});  // pi(0) = 0
        }
        EXPECT_EQ(csv.num(r, "n"), static_cast<double>(out.back().second.size()));
        out.back().second.push_back(csv.ld(r, "pi"));
    }
    return out;
}

long double grid_value(const PartitionSelectionPlan& plan, std::uint64_t n) {
    return std::ldexp(static_cast<long double>(pgdp::ntg_keep_numerator(plan.geometric, n)), -64);
}

TEST(PartitionSelection, GeometricMatchesIndependentReference) {
    const auto cases = reference_cases();
    ASSERT_GE(cases.size(), 10u);
    pgdp_test::FailureLog log;
    int rows = 0;
    for (const auto& [c, pi] : cases) {
        const PartitionSelectionPlan plan =
            pgdp::plan_partition_selection(c.epsilon, c.delta, c.m, kGeometric);
        const long double delta_group = -std::expm1(std::log1p(-static_cast<long double>(c.delta)) / c.m);
        const long double grid = std::ldexp(1.0L, -64);
        // Rounding down to the grid loses <= 2^-64 per step, and delta' itself is floored to the
        // grid (relative 2^-64 / delta', carried by the geometric growth); e^eps is lowered by
        // 1e-16 relative per step.
        const long double relative = 4.0L * grid / delta_group;
        // Past the reference's last n, the exact pi is 1 (and stays 1).
        const std::uint64_t last = std::max<std::uint64_t>(pi.size() - 1, plan.geometric.n_one) + 2;
        for (std::uint64_t n = 0; n <= last; ++n) {
            const long double want = n < pi.size() ? pi[n] : 1.0L;
            const long double got = grid_value(plan, n);
            const long double nl = static_cast<long double>(n);
            const long double below = want * (relative + nl * 1e-15L) + (nl + 1.0L) * grid;
            ++rows;
            if (got > want + grid || got < want - below) {
                log.fail("eps=" + pgdp_test::fmt(c.epsilon) + " delta=" + pgdp_test::fmt(c.delta) +
                         " m=" + std::to_string(c.m) + " n=" + std::to_string(n) + ": got " +
                         pgdp_test::fmt(got) + ", reference " + pgdp_test::fmt(want));
            }
            // The double report is the grid value rounded to nearest.
            EXPECT_EQ(pgdp::partition_keep_probability(plan, static_cast<std::int64_t>(n)),
                      static_cast<double>(got));
        }
        // pi reaches 1 at most one step after the exact one does.
        EXPECT_LE(plan.geometric.n_one, pi.size()) << c.epsilon << " " << c.delta << " " << c.m;
        EXPECT_GE(plan.geometric.n_one + 1, pi.size() - 1) << c.epsilon << " " << c.delta << " " << c.m;
    }
    EXPECT_EQ(log.count(), 0) << "of " << rows << " rows";
    EXPECT_GE(rows, 1200);
}

// The per-group DP constraints, checked here in exact rational arithmetic for every n with a
// rational lower bound of e^(eps/m) and of delta' (near_truncated_geometric.hpp lists them).
TEST(PartitionSelection, GeometricMeetsDpConstraintsExactly) {
    const std::vector<Case> cases = {{1, 1e-6, 1},   {0.1, 1e-5, 1}, {0.5, 1e-10, 1}, {3, 1e-3, 1},
                                     {10, 1e-12, 1}, {1, 1e-6, 3},   {2, 1e-8, 10},   {0.25, 1e-4, 2},
                                     {1, 0.3, 1},    {40, 1e-9, 1},  {0.01, 1e-3, 1}, {1, 0.999, 1}};
    const cpp_int two64 = cpp_int(1) << 64;
    for (const Case& c : cases) {
        const PartitionSelectionPlan plan =
            pgdp::plan_partition_selection(c.epsilon, c.delta, c.m, kGeometric);
        const cpp_rational e_eps = exp_lower(exact(c.epsilon) / c.m);
        const cpp_rational delta = checked_group_delta(plan.geometric, c.delta, c.m);
        cpp_rational previous = 0;
        int failures = 0;
        for (std::uint64_t n = 1; n <= plan.geometric.n_one + 1; ++n) {
            const auto numerator = pgdp::ntg_keep_numerator(plan.geometric, n);
            const cpp_int p = (cpp_int(static_cast<std::uint64_t>(numerator >> 64)) << 64) +
                              cpp_int(static_cast<std::uint64_t>(numerator));
            const cpp_rational pi(p, two64);
            const bool ok = pi >= previous && pi <= 1 &&               // monotone, a probability
                            pi <= e_eps * previous + delta &&          // K1
                            1 - previous <= e_eps * (1 - pi) + delta;  // D1
            // K2, D2 follow from monotonicity: previous <= pi <= e^eps pi + delta, and
            // 1 - pi <= 1 - previous <= e^eps (1 - previous) + delta.
            if (!ok && ++failures <= 5)
                ADD_FAILURE() << c.epsilon << " " << c.delta << " " << c.m << " n=" << n;
            previous = pi;
        }
        EXPECT_EQ(previous, 1) << "pi(n_one) = 1";
    }
}

// A source that returns a fixed 64-bit value: the keep decision is U < P(n), exactly.
class FixedSource final : public pgdp::RandomSource {
public:
    explicit FixedSource(std::uint64_t value) : value_(value) {}
    void fill(unsigned char* out, std::size_t n) override {
        for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<unsigned char>(value_ >> (8 * (i % 8)));
    }

private:
    std::uint64_t value_;
};

TEST(PartitionSelection, GeometricSamplingComparesIntegers) {
    const PartitionSelectionPlan plan = pgdp::plan_partition_selection(1.0, 1e-3, 1, kGeometric);
    for (std::uint64_t n = 1; n < plan.geometric.n_one; ++n) {
        const auto p = static_cast<std::uint64_t>(pgdp::ntg_keep_numerator(plan.geometric, n));
        ASSERT_GT(p, 0u);
        FixedSource just_below(p - 1), at(p);
        EXPECT_TRUE(pgdp::keep_partition(plan, static_cast<std::int64_t>(n), just_below)) << n;
        EXPECT_FALSE(pgdp::keep_partition(plan, static_cast<std::int64_t>(n), at)) << n;
    }
    FixedSource largest(~std::uint64_t{0});
    EXPECT_TRUE(pgdp::keep_partition(plan, static_cast<std::int64_t>(plan.geometric.n_one), largest));
    EXPECT_TRUE(pgdp::keep_partition(plan, std::int64_t{1} << 62, largest));
    FixedSource zero(0);
    EXPECT_FALSE(pgdp::keep_partition(plan, 0, zero));
}

// Empirical keep frequency within kZ standard errors of p.
void expect_rate(int kept, int trials, long double p, const std::string& what) {
    const double rate = static_cast<double>(kept) / trials;
    const double pd = static_cast<double>(p);
    const double se = std::sqrt(pd * (1 - pd) / trials);
    if (pd == 0.0 || pd == 1.0) {
        EXPECT_EQ(rate, pd) << what;
    } else {
        EXPECT_NEAR(rate, pd, kZ * se + 1e-12) << what << " (p=" << pd << ", trials=" << trials << ")";
    }
}

TEST(PartitionSelectionStatistics, GeometricKeepRateIsReferencePi) {
    const auto cases = reference_cases();
    pgdp::SeededRandomSource random(1001);
    constexpr int kTrials = 20000;
    int checks = 0;
    for (const auto& [c, pi] : cases) {
        const PartitionSelectionPlan plan =
            pgdp::plan_partition_selection(c.epsilon, c.delta, c.m, kGeometric);
        // n = 1, around the 50 % point, and a few in between.
        std::vector<std::size_t> ns = {1};
        for (std::size_t n = 1; n < pi.size(); ++n)
            if (pi[n] >= 0.01L && pi[n] <= 0.99L && (n % 3 == 0 || ns.size() < 3)) ns.push_back(n);
        if (ns.size() > 6) ns.resize(6);
        for (std::size_t n : ns) {
            int kept = 0;
            for (int t = 0; t < kTrials; ++t)
                kept += pgdp::keep_partition(plan, static_cast<std::int64_t>(n), random);
            expect_rate(kept, kTrials, pi[n], "geometric n=" + std::to_string(n));
            ++checks;
        }
    }
    EXPECT_GE(checks, 30);
}

// ---- threshold mechanisms: exact keep probabilities recomputed here --------------------------

// P[count + Z >= tau] for the discrete Laplace of scale t, summing its pmf in long double.
long double laplace_keep(long double t, std::int64_t count, std::int64_t tau) {
    const long double q = std::exp(-1.0L / t);
    const long double norm = (1 - q) / (1 + q);
    long double sum = 0;
    const std::int64_t span = static_cast<std::int64_t>(80 * t) + 50;
    for (std::int64_t z = -span; z <= span; ++z)
        if (count + z >= tau) sum += norm * std::pow(q, static_cast<long double>(std::llabs(z)));
    return sum;
}

// P[count + Z >= tau] for N_Z(0, sigma2), normalising by the direct sum.
long double gaussian_keep(long double sigma2, std::int64_t count, std::int64_t tau) {
    const std::int64_t span = static_cast<std::int64_t>(40 * std::sqrt(sigma2)) + 50;
    long double total = 0, kept = 0;
    for (std::int64_t z = -span; z <= span; ++z) {
        const long double f = std::exp(-static_cast<long double>(z * z) / (2 * sigma2));
        total += f;
        if (count + z >= tau) kept += f;
    }
    return kept / total;
}

long double keep_exact(const PartitionSelectionPlan& plan, std::int64_t n) {
    const std::int64_t count = n - (plan.min_units - 1);
    if (count <= 0) return 0;
    if (plan.mechanism == kLaplace)
        return laplace_keep(plan.laplace_scale.to_rational().convert_to<long double>(), count,
                            plan.threshold);
    return gaussian_keep(plan.gaussian_sigma2.to_rational().convert_to<long double>(), count, plan.threshold);
}

const std::vector<Case> kThresholdCases = {{1, 1e-6, 1}, {0.5, 1e-3, 1}, {1, 1e-6, 3},
                                           {2, 1e-5, 5}, {0.3, 0.01, 2}, {1, 0.05, 1}};

TEST(PartitionSelection, LaplaceThresholdIsTheLeastWithSingleUnitBelowDeltaPrime) {
    for (const Case& c : kThresholdCases) {
        const PartitionSelectionPlan plan = pgdp::plan_partition_selection(c.epsilon, c.delta, c.m, kLaplace);
        const long double t = plan.laplace_scale.to_rational().convert_to<long double>();
        EXPECT_GE(plan.laplace_scale.to_rational(), cpp_rational(c.m) / exact(c.epsilon));  // (eps/m)-DP
        const long double delta_group = -std::expm1(std::log1p(-static_cast<long double>(c.delta)) / c.m);
        const long double single = laplace_keep(t, 1, plan.threshold);
        EXPECT_LE(single, delta_group) << c.epsilon << " " << c.delta << " " << c.m;
        // One less would exceed it (the least integer threshold >= 2).
        if (plan.threshold > 2) {
            EXPECT_GT(laplace_keep(t, 1, plan.threshold - 1), delta_group * (1 - 1e-9L));
        }
        // ZetaSQL's continuous tau = 1 - (m/eps) ln(2 delta'), rounded up, is within one unit.
        const long double zetasql = std::ceil(1 - (c.m / c.epsilon) * std::log(2 * delta_group));
        EXPECT_LE(std::fabs(static_cast<long double>(plan.threshold) - zetasql), 1.0L) << c.epsilon;
        for (std::int64_t n : {1, 2, 5, 20, 100})
            EXPECT_NEAR(pgdp::partition_keep_probability(plan, n),
                        static_cast<double>(laplace_keep(t, n, plan.threshold)), 1e-12)
                << n;
    }
}

// ZetaSQL's rule rounded up is not enough for the discrete Laplace: an example where it keeps a
// single-unit group with probability > delta (the reason for the discrete threshold).
TEST(PartitionSelection, ContinuousZetaSqlThresholdCanExceedDeltaOnTheDiscreteLaplace) {
    bool found = false;
    for (double eps : {0.5, 1.0, 2.0, 3.0, 5.0})
        for (double delta : {1e-3, 1e-5, 1e-6, 1e-8}) {
            const long double tau = std::ceil(1 - std::log(2 * static_cast<long double>(delta)) / eps);
            if (laplace_keep(1.0L / eps, 1, static_cast<std::int64_t>(tau)) > delta) found = true;
        }
    EXPECT_TRUE(found);
}

TEST(PartitionSelection, GaussianThresholdSpendsAtMostDelta) {
    for (const Case& c : kThresholdCases) {
        const PartitionSelectionPlan plan =
            pgdp::plan_partition_selection(c.epsilon, c.delta, c.m, kGaussian);
        const long double s2 = plan.gaussian_sigma2.to_rational().convert_to<long double>();
        // Threshold: each of a unit's <= m new groups is kept with probability q, some of them
        // with 1 - (1 - q)^m <= delta/2.
        const long double q = gaussian_keep(s2, 1, plan.threshold);
        EXPECT_LE(-std::expm1(c.m * std::log1p(-q)), c.delta / 2)
            << c.epsilon << " " << c.delta << " " << c.m;
        const long double eps_g = c.epsilon + std::log1p(-static_cast<long double>(c.delta) / 2);
        if (c.m == 1) {
            // CKS Theorem 7 at sensitivity 1, evaluated here by direct sums:
            // delta(eps) = P[Y > eps s^2 - 1/2] - e^eps P[Y > eps s^2 + 1/2] <= delta / 2.
            const long double x = eps_g * s2;
            const long double profile =
                gaussian_keep(s2, 0, static_cast<std::int64_t>(std::floor(x - 0.5L)) + 1) -
                std::exp(eps_g) * gaussian_keep(s2, 0, static_cast<std::int64_t>(std::floor(x + 0.5L)) + 1);
            EXPECT_LE(profile, c.delta / 2 * (1 + 1e-9)) << c.epsilon << " " << c.delta;
        } else {
            // m coordinates, sensitivity 1 each: the Balle-Wang profile of mu = sqrt(m / s^2),
            // evaluated here, at most delta/2 (the discrete correction is < 1e-540 at s >= 8).
            ASSERT_GE(s2, 64.0L);
            const long double mu = std::sqrt(c.m / s2);
            auto Phi = [](long double x) { return 0.5L * std::erfc(-x / std::sqrt(2.0L)); };
            const long double profile =
                Phi(mu / 2 - eps_g / mu) - std::exp(eps_g) * Phi(-mu / 2 - eps_g / mu);
            EXPECT_LE(profile, c.delta / 2) << c.epsilon << " " << c.delta << " " << c.m;
        }
        for (std::int64_t n : {1, 2, 5, 20, 100})
            EXPECT_NEAR(pgdp::partition_keep_probability(plan, n),
                        static_cast<double>(gaussian_keep(s2, n, plan.threshold)), 1e-12)
                << n;
    }
}

TEST(PartitionSelectionStatistics, ThresholdKeepRatesMatchTheirDiscreteLaws) {
    pgdp::SeededRandomSource random(2002);
    constexpr int kTrials = 20000;
    int checks = 0;
    for (auto mechanism : {kLaplace, kGaussian})
        for (const Case& c : kThresholdCases) {
            const PartitionSelectionPlan plan =
                pgdp::plan_partition_selection(c.epsilon, c.delta, c.m, mechanism);
            for (std::int64_t n : {std::int64_t{1}, plan.threshold - 3, plan.threshold, plan.threshold + 4}) {
                if (n < 1) continue;
                int kept = 0;
                for (int t = 0; t < kTrials; ++t) kept += pgdp::keep_partition(plan, n, random);
                expect_rate(kept, kTrials, keep_exact(plan, n),
                            std::string(pgdp::partition_selection_mechanism_name(mechanism)) +
                                " n=" + std::to_string(n));
                ++checks;
            }
        }
    EXPECT_GE(checks, 40);
}

// A unit alone in its groups: at delta = 0.05 the event "some of its m groups is kept" is
// visible, and must have probability <= delta (within kZ standard errors).
TEST(PartitionSelectionStatistics, SingleUnitGroupsAreKeptWithProbabilityAtMostDelta) {
    pgdp::SeededRandomSource random(3003);
    constexpr int kTrials = 20000;
    const double delta = 0.05;
    for (auto mechanism : {kGeometric, kLaplace, kGaussian})
        for (int m : {1, 3}) {
            const PartitionSelectionPlan plan = pgdp::plan_partition_selection(1.0, delta, m, mechanism);
            int any = 0;
            for (int t = 0; t < kTrials; ++t) {
                bool kept = false;
                for (int g = 0; g < m; ++g) kept |= pgdp::keep_partition(plan, 1, random);
                any += kept;
            }
            const double rate = static_cast<double>(any) / kTrials;
            EXPECT_LE(rate, delta + kZ * std::sqrt(delta * (1 - delta) / kTrials))
                << pgdp::partition_selection_mechanism_name(mechanism) << " m=" << m;
        }
    // m = 1, geometric: exactly delta (pi(1) = delta on the grid, delta = 0.05 rounded down).
    const PartitionSelectionPlan plan = pgdp::plan_partition_selection(1.0, delta, 1, kGeometric);
    EXPECT_NEAR(pgdp::partition_keep_probability(plan, 1), delta, 1e-18);
}

TEST(PartitionSelectionStatistics, NoisyCountIsUnbiasedFarAboveTheThreshold) {
    pgdp::SeededRandomSource random(4004);
    constexpr int kTrials = 20000;
    for (auto mechanism : {kLaplace, kGaussian}) {
        const PartitionSelectionPlan plan = pgdp::plan_partition_selection(1.0, 1e-6, 2, mechanism);
        const std::int64_t n = plan.threshold + 1000;  // kept with probability 1 - 1e-100
        pgdp_test::Moments moments;
        for (int t = 0; t < kTrials; ++t) {
            const pgdp::PartitionDecision d = pgdp::select_partition(plan, n, random);
            ASSERT_TRUE(d.keep && d.has_noisy_count);
            moments.add(static_cast<double>(d.noisy_count - n));
        }
        const double var = plan.noise_sd * plan.noise_sd;
        EXPECT_NEAR(moments.mean(), 0.0, kZ * moments.mean_se(var))
            << pgdp::partition_selection_mechanism_name(mechanism);
        // Second moment: variance within 5 % (kurtosis <= 6: se of E X^2 <= sqrt(5/N) var = 1.6 %).
        EXPECT_NEAR(moments.second(), var, 0.05 * var) << pgdp::partition_selection_mechanism_name(mechanism);
    }
    // A dropped group has no noisy count; the geometric mechanism never has one.
    const PartitionSelectionPlan laplace = pgdp::plan_partition_selection(1.0, 1e-6, 1, kLaplace);
    const pgdp::PartitionDecision dropped = pgdp::select_partition(laplace, 0, random);
    EXPECT_FALSE(dropped.keep || dropped.has_noisy_count);
    const PartitionSelectionPlan geometric = pgdp::plan_partition_selection(1.0, 1e-6, 1, kGeometric);
    const pgdp::PartitionDecision kept = pgdp::select_partition(geometric, 1000, random);
    EXPECT_TRUE(kept.keep);
    EXPECT_FALSE(kept.has_noisy_count);
}

// ---- auto, pre-threshold, plain data, validation ---------------------------------------------

TEST(PartitionSelection, AutoPicksTheFewestUnitsForHalfKeep) {
    std::map<PartitionSelectionMechanism, int> picked;
    for (double eps : {0.5, 1.0, 3.0})
        for (double delta : {1e-3, 1e-6, 1e-9})
            for (int m : {1, 2, 3, 5, 10}) {
                // Brute force: scan n until the keep probability reaches 1/2.
                bool have = false;
                PartitionSelectionMechanism best = kGeometric;
                std::int64_t best_n = 0;
                for (auto mechanism : {kGeometric, kLaplace, kGaussian}) {
                    PartitionSelectionPlan plan;
                    try {
                        plan = pgdp::plan_partition_selection(eps, delta, m, mechanism);
                    } catch (const pgdp::RangeError&) {
                        continue;
                    }
                    std::int64_t n = 1;
                    while (pgdp::partition_keep_probability(plan, n) < 0.5) ++n;
                    EXPECT_EQ(pgdp::partition_units_for_half(plan), n);
                    if (!have || n < best_n) {
                        best = mechanism;
                        best_n = n;
                        have = true;
                    }
                }
                ASSERT_TRUE(have);
                const PartitionSelectionPlan chosen = pgdp::plan_partition_selection(eps, delta, m, kAuto);
                EXPECT_EQ(chosen.mechanism, best) << eps << " " << delta << " " << m;
                ++picked[chosen.mechanism];
            }
    // The grid exercises more than one winner.
    EXPECT_GE(picked.size(), 2u);
}

TEST(PartitionSelection, MinimumUnitsShiftsTheMechanism) {
    for (auto mechanism : {kGeometric, kLaplace, kGaussian}) {
        const PartitionSelectionPlan plain = pgdp::plan_partition_selection(1.0, 1e-5, 2, mechanism);
        const PartitionSelectionPlan shifted = pgdp::plan_partition_selection(1.0, 1e-5, 2, mechanism, 10);
        for (std::int64_t n = 0; n < 10; ++n)
            EXPECT_EQ(pgdp::partition_keep_probability(shifted, n), 0.0) << n;
        for (std::int64_t n = 10; n < 60; ++n)
            EXPECT_EQ(pgdp::partition_keep_probability(shifted, n),
                      pgdp::partition_keep_probability(plain, n - 9))
                << n;
        EXPECT_EQ(pgdp::partition_units_for_half(shifted), pgdp::partition_units_for_half(plain) + 9);
        pgdp::SeededRandomSource random(5005);
        for (int t = 0; t < 2000; ++t) EXPECT_FALSE(pgdp::keep_partition(shifted, 9, random));
    }
}

TEST(PartitionSelection, PlansArePlainData) {
    const PartitionSelectionPlan plan = pgdp::plan_partition_selection(0.1, 1e-5, 1, kGeometric);
    PartitionSelectionPlan copy;
    std::memcpy(static_cast<void*>(&copy), &plan, sizeof plan);
    for (std::int64_t n = 0; n <= static_cast<std::int64_t>(plan.geometric.n_one) + 1; ++n)
        EXPECT_EQ(pgdp::partition_keep_probability(copy, n), pgdp::partition_keep_probability(plan, n));
}

template <typename F>
void expect_argument_error(F f, const std::string& argument) {
    try {
        f();
        ADD_FAILURE() << "no error, expected one naming " << argument;
    } catch (const pgdp::ArgumentError& e) {
        EXPECT_EQ(e.argument(), argument) << e.what();
        EXPECT_FALSE(e.hint().empty());
        EXPECT_NE(std::string(e.what()).find(argument), std::string::npos) << e.what();
    }
}

TEST(PartitionSelection, ValidationNamesTheArgument) {
    for (auto mechanism : {kGeometric, kLaplace, kGaussian, kAuto}) {
        for (double eps : {0.0, -1.0, std::nan(""), HUGE_VAL})
            expect_argument_error([&] { pgdp::plan_partition_selection(eps, 1e-6, 1, mechanism); },
                                  "epsilon");
        for (double delta : {0.0, 1.0, -1e-6, 1.5, std::nan("")})
            expect_argument_error([&] { pgdp::plan_partition_selection(1.0, delta, 1, mechanism); }, "delta");
        for (std::int64_t m : {std::int64_t{0}, std::int64_t{-3}, pgdp::kMaxGroupsPerUnit + 1})
            expect_argument_error([&] { pgdp::plan_partition_selection(1.0, 1e-6, m, mechanism); },
                                  "max_groups_contributed");
        for (std::int64_t k : {std::int64_t{0}, std::int64_t{-1}, pgdp::kMaxMinUnits + 1})
            expect_argument_error([&] { pgdp::plan_partition_selection(1.0, 1e-6, 1, mechanism, k); },
                                  "min_units");
    }
    expect_argument_error([] { pgdp::parse_partition_selection_mechanism("geometric"); }, "mechanism");
    for (auto mechanism : {kGeometric, kLaplace, kGaussian, kAuto})
        EXPECT_EQ(
            pgdp::parse_partition_selection_mechanism(pgdp::partition_selection_mechanism_name(mechanism)),
            mechanism);
}

TEST(PartitionSelection, RangeErrorsNameTheArgumentAndAutoFallsBack) {
    // delta' below 2^-50: the geometric selection refuses; Auto uses a threshold mechanism.
    try {
        pgdp::plan_partition_selection(1.0, 1e-17, 1, kGeometric);
        ADD_FAILURE() << "no error";
    } catch (const pgdp::RangeError& e) {
        EXPECT_EQ(e.argument(), "delta");
    }
    EXPECT_NE(pgdp::plan_partition_selection(1.0, 1e-17, 1, kAuto).mechanism, kGeometric);
    // Gaussian needs epsilon > -ln(1 - delta/2).
    try {
        pgdp::plan_partition_selection(1e-3, 0.1, 1, kGaussian);
        ADD_FAILURE() << "no error";
    } catch (const pgdp::RangeError& e) {
        EXPECT_EQ(e.argument(), "epsilon");
    }
}

}  // namespace
