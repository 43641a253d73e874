// Releases from the quantile tree (src/core/quantile_release.cpp): the plan's calibration checked
// against the privacy criteria computed here (the node-count vector's L1 and L2 sensitivity,
// derived in docs/statistics/quantiles.md and checked on data below), exactness at huge epsilon
// against percentile_disc of the clamped values, bounds and monotonicity in q, one noisy tree per
// release, and argument errors that name the argument.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/count_vector.hpp"
#include "core/errors.hpp"
#include "core/quantile_release.hpp"
#include "core/quantile_tree.hpp"
#include "core/random_source.hpp"
#include "quantile_test_helpers.hpp"

namespace {

using pgdp::Mechanism;
using pgdp::QuantileParameters;
using pgdp::QuantilePlan;

const pgdp::StateMemory kHeap = pgdp::heap_state_memory();

struct OwnedTree {
    pgdp::QuantileTreeState state;
    OwnedTree(const std::vector<double>& values, double lower, double upper)
        : state(pgdp::empty_quantile_tree(lower, upper)) {
        for (double x : values) pgdp::add_to_quantile_tree(state, x, kHeap);
    }
    ~OwnedTree() { pgdp::free_quantile_tree(state, kHeap); }
    OwnedTree(const OwnedTree&) = delete;
    OwnedTree& operator=(const OwnedTree&) = delete;
};

QuantileParameters parameters(double epsilon, double delta, Mechanism mechanism, double lower = 0.0,
                              double upper = 100.0) {
    return QuantileParameters{lower, upper, epsilon, delta, mechanism, 1, 1};
}

// Balle-Wang: delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu) (000 eq. 11).
long double gaussian_profile(long double mu, long double epsilon) {
    auto Phi = [](long double x) { return 0.5L * std::erfc(-x / std::sqrt(2.0L)); };
    return Phi(mu / 2 - epsilon / mu) - std::exp(epsilon) * Phi(-mu / 2 - epsilon / mu);
}

TEST(QuantileRelease, BadInputNamesTheArgument) {
    auto levels = [](std::vector<double> q) { return [q] { pgdp::require_quantile_levels(q); }; };
    EXPECT_EQ(pgdp_test::rejected_argument(levels({})), "q");
    EXPECT_EQ(pgdp_test::rejected_argument(levels({0.5, 1.5})), "q");
    EXPECT_EQ(pgdp_test::rejected_argument(levels({-0.1})), "q");
    EXPECT_EQ(pgdp_test::rejected_argument(levels({NAN})), "q");
    EXPECT_EQ(pgdp_test::rejected_argument(levels(std::vector<double>(1001, 0.5))), "q");
    EXPECT_EQ(pgdp_test::rejected_argument(levels(std::vector<double>(1000, 0.5))), "no error");
    EXPECT_EQ(pgdp_test::rejected_argument(levels({0.0, 1.0})), "no error");
    auto plan = [](QuantileParameters p) { return [p] { (void)pgdp::plan_quantile_release(p); }; };
    EXPECT_EQ(pgdp_test::rejected_argument(plan(parameters(1.0, 0.0, Mechanism::Laplace, 5.0, 1.0))),
              "lower");
    EXPECT_EQ(pgdp_test::rejected_argument(plan(parameters(1.0, 0.0, Mechanism::Laplace, 1.0, 1.0))),
              "upper");
    EXPECT_EQ(pgdp_test::rejected_argument(plan(parameters(1.0, 0.0, Mechanism::Laplace, 0.0, INFINITY))),
              "upper");
    EXPECT_EQ(pgdp_test::rejected_argument(plan(parameters(0.0, 0.0, Mechanism::Laplace))), "epsilon");
    EXPECT_EQ(pgdp_test::rejected_argument(plan(parameters(NAN, 0.0, Mechanism::Laplace))), "epsilon");
    EXPECT_EQ(pgdp_test::rejected_argument(plan(parameters(1.0, 1e-6, Mechanism::Laplace))), "delta");
    EXPECT_EQ(pgdp_test::rejected_argument(plan(parameters(1.0, 0.0, Mechanism::Gaussian))), "delta");
    EXPECT_EQ(pgdp_test::rejected_argument(plan(parameters(1.0, 0.6, Mechanism::TruncatedLaplace))), "delta");
    QuantileParameters rows = parameters(1.0, 0.0, Mechanism::Laplace);
    rows.rows_per_unit = 0;
    EXPECT_EQ(pgdp_test::rejected_argument(plan(rows)), "rows_per_unit");
    rows.rows_per_unit = pgdp::kMaxRowsPerUnit + 1;
    EXPECT_EQ(pgdp_test::rejected_argument(plan(rows)), "rows_per_unit");
    QuantileParameters groups = parameters(1.0, 0.0, Mechanism::Laplace);
    groups.groups_per_unit = 0;
    EXPECT_EQ(pgdp_test::rejected_argument(plan(groups)), "max_groups_contributed");
    groups.groups_per_unit = 250001;  // 4 level vectors per group: 4 m <= 1000000
    EXPECT_EQ(pgdp_test::rejected_argument(plan(groups)), "max_groups_contributed");
    groups.groups_per_unit = 250000;
    EXPECT_EQ(pgdp_test::rejected_argument(plan(groups)), "no error");
    EXPECT_EQ(pgdp_test::rejected_argument([] { (void)pgdp::parse_mechanism("exponential"); }), "mechanism");
    EXPECT_EQ(pgdp_test::rejected_argument(plan(parameters(1e-200, 0.0, Mechanism::Laplace))),
              "range:epsilon");
}

// The sensitivity the plans are calibrated to, checked on data: one unit's r rows change the
// node counts of one group by L1 = 4 r exactly and L2^2 <= 4 r^2 (nodes computed here from the
// leaf: the level-L node of leaf j is j >> 4 (4 - L)).
TEST(QuantileRelease, NodeCountSensitivityIsFourRowsInL1AndTwoRowsInL2) {
    std::mt19937_64 generator(11);
    for (int r : {1, 2, 5, 40}) {
        for (int trial = 0; trial < 200; ++trial) {
            std::map<std::pair<int, std::uint32_t>, long> change;
            for (int row = 0; row < r; ++row) {
                // Rows of one unit: sometimes all alike, sometimes spread over the bounds.
                const double x =
                    trial % 2 ? 0.25 : std::uniform_real_distribution<double>(-1.0, 2.0)(generator);
                const std::uint32_t leaf = pgdp::quantile_leaf(x, 0.0, 1.0);
                for (int level = 1; level <= 4; ++level) ++change[{level, leaf >> (4 * (4 - level))}];
            }
            double l1 = 0.0, l2squared = 0.0;
            for (const auto& node : change) {
                l1 += std::abs(node.second);
                l2squared += static_cast<double>(node.second) * node.second;
            }
            ASSERT_EQ(l1, 4.0 * r);
            ASSERT_LE(l2squared, 4.0 * r * r);
        }
    }
}

TEST(QuantileRelease, LaplacePlansCoverTheL1OfEveryGroupAUnitChanges) {
    for (std::int64_t r : {1, 3, 1000, 1000000}) {
        for (std::uint32_t m : {1u, 4u}) {
            for (double epsilon : {0.01, 1.0, 50.0}) {
                QuantileParameters p = parameters(epsilon, 0.0, Mechanism::Laplace);
                p.rows_per_unit = r;
                p.groups_per_unit = m;
                const QuantilePlan plan = pgdp::plan_quantile_release(p);
                EXPECT_EQ(plan.nodes.mechanism, Mechanism::Laplace);
                EXPECT_EQ(plan.nodes.granularity, 1.0);  // counts are not rounded
                EXPECT_EQ(plan.level_vectors, 4 * m);
                EXPECT_EQ(plan.nodes.sensitivity_int, static_cast<std::uint64_t>(r));  // per level
                // Discrete Laplace of scale t over vectors of L1 4 r m: (4 r m / t)-DP.
                EXPECT_LE(pgdp::Rational(4 * r * m) / plan.nodes.laplace_scale_int.to_rational(),
                          pgdp::Rational(epsilon));
                EXPECT_LE(plan.nodes.noise_scale, 4.0 * r * m / epsilon * (1 + 1e-5));
            }
        }
    }
}

TEST(QuantileRelease, GaussianPlansCoverTheL2OfEveryGroupAUnitChanges) {
    for (std::int64_t r : {1, 3}) {
        for (std::uint32_t m : {1u, 5u}) {
            for (double epsilon : {0.1, 1.0, 8.0}) {
                const double delta = 1e-7;
                QuantileParameters p = parameters(epsilon, delta, Mechanism::Gaussian);
                p.rows_per_unit = r;
                p.groups_per_unit = m;
                const QuantilePlan plan = pgdp::plan_quantile_release(p);
                ASSERT_EQ(plan.nodes.granularity, 1.0);
                EXPECT_EQ(plan.level_vectors, 4 * m);
                // L2 = 2 sqrt(m) r counts against sigma_int: the Gaussian meets (epsilon, delta).
                const long double sigma = std::sqrt(plan.nodes.gaussian_sigma2_int.to_double());
                const long double mu = 2.0L * std::sqrt(static_cast<long double>(m)) * r / sigma;
                EXPECT_LE(gaussian_profile(mu, epsilon), delta) << r << " " << m << " " << epsilon;
                EXPECT_GE(sigma, 8.0L);  // the discrete correction is negligible (CKS 2020)
                // and not needlessly more noise: at 0.9 sigma the profile exceeds delta (unless
                // sigma is the floor of 8).
                if (sigma > 9.0L) {
                    EXPECT_GT(gaussian_profile(mu / 0.9L, epsilon), delta);
                }
            }
        }
    }
    // A grid g coarser than one count (tiny epsilon) with r = 3 rows per unit: a level's rounded
    // counts move by at most floor(3/g) + 1 at each of at most 3 nodes, an L2 norm of at most
    // floor(3/g) + sqrt(3) grid steps per level; the plan's per-level bound must cover it and
    // meet (epsilon, delta) over the 4 levels.
    QuantileParameters p = parameters(1e-4, 1e-7, Mechanism::Gaussian);
    p.rows_per_unit = 3;
    const QuantilePlan plan = pgdp::plan_quantile_release(p);
    const double g = plan.nodes.granularity;
    ASSERT_GT(g, 1.0);
    EXPECT_GE(static_cast<double>(plan.nodes.sensitivity_int), std::floor(3.0 / g) + std::sqrt(3.0));
    const long double sigma = std::sqrt(plan.nodes.gaussian_sigma2_int.to_double());
    EXPECT_LE(gaussian_profile(2.0L * plan.nodes.sensitivity_int / sigma, 1e-4), 1e-7);
}

TEST(QuantileRelease, AutoTakesTheLeastNodeNoise) {
    for (double delta : {1e-9, 1e-5, 0.1}) {
        QuantileParameters p = parameters(1.0, delta, Mechanism::Auto);
        const QuantilePlan chosen = pgdp::plan_quantile_release(p);
        for (Mechanism m : {Mechanism::Laplace, Mechanism::Gaussian, Mechanism::TruncatedLaplace}) {
            p.mechanism = m;
            p.delta = m == Mechanism::Laplace ? 0.0 : delta;
            EXPECT_LE(chosen.nodes.noise_variance, pgdp::plan_quantile_release(p).nodes.noise_variance);
        }
    }
    EXPECT_EQ(pgdp::plan_quantile_release(parameters(1.0, 0.0, Mechanism::Auto)).nodes.mechanism,
              Mechanism::Laplace);
}

TEST(QuantileRelease, ChargeIsOneReleaseForAllLevels) {
    const QuantileParameters laplace = parameters(0.5, 0.0, Mechanism::Laplace);
    const pgdp::ReleaseCharge charge =
        pgdp::quantile_release_charge(laplace, pgdp::plan_quantile_release(laplace));
    EXPECT_EQ(charge.epsilon, 0.5);
    EXPECT_EQ(charge.delta, 0.0);
    EXPECT_EQ(charge.mechanism_name, "laplace");
    EXPECT_EQ(charge.gaussian_mu2, 0.0);
    const QuantileParameters gaussian = parameters(1.0, 1e-6, Mechanism::Gaussian);
    const QuantilePlan plan = pgdp::plan_quantile_release(gaussian);
    const pgdp::ReleaseCharge g = pgdp::quantile_release_charge(gaussian, plan);
    // 4 coordinates of (1 / sigma_int)^2 each, rounded up.
    const double sigma2 = plan.nodes.gaussian_sigma2_int.to_double();
    EXPECT_GE(g.gaussian_mu2, 4.0 / sigma2);
    EXPECT_LE(g.gaussian_mu2, 4.0 / sigma2 * (1 + 1e-12));
    EXPECT_EQ(g.delta, 1e-6);
}

TEST(QuantileRelease, HugeEpsilonReleasesPercentileDiscWithinOneLeaf) {
    // percentile_disc (not percentile_cont): the tree at noise 0 descends to the leaf of the row
    // ceil(q n) and interpolates inside it, so it is within one leaf width of that row's value.
    pgdp::SeededRandomSource random(12);
    std::vector<double> q{0.0, 1e-9, 0.01, 0.1, 0.25, 0.3, 1.0 / 3, 0.5, 0.7, 0.75, 0.9, 0.99, 1.0};
    std::mt19937_64 generator(13);
    for (int i = 0; i < 20; ++i) q.push_back(std::uniform_real_distribution<double>(0.0, 1.0)(generator));
    for (const std::string shape : {"uniform", "skewed", "ties"}) {
        for (std::size_t n : {1u, 2u, 7u, 10u, 1000u, 100000u}) {
            const pgdp_test::QuantileData data = pgdp_test::make_quantile_data(shape, n, 14 + n);
            const OwnedTree tree(data.values, data.lower, data.upper);
            for (auto [mechanism, delta] :
                 {std::pair{Mechanism::Laplace, 0.0}, std::pair{Mechanism::TruncatedLaplace, 1e-9}}) {
                const QuantilePlan plan =
                    pgdp::plan_quantile_release(parameters(1e6, delta, mechanism, data.lower, data.upper));
                const std::vector<double> released = pgdp::release_quantiles(plan, tree.state, q, random);
                const double leaf_width = (data.upper - data.lower) / 65536;
                for (std::size_t i = 0; i < q.size(); ++i) {
                    const double expected = pgdp_test::percentile_disc(data.values, q[i]);
                    EXPECT_NEAR(released[i], expected, leaf_width * (1 + 1e-9))
                        << shape << " n=" << n << " q=" << q[i];
                }
            }
        }
    }
}

TEST(QuantileRelease, QuantilesAreWithinBoundsAndMonotoneInQ) {
    pgdp::SeededRandomSource random(15);
    std::mt19937_64 generator(16);
    for (const std::string shape : {"uniform", "skewed", "ties"}) {
        for (std::size_t n : {0u, 1u, 3u, 50u, 20000u}) {
            pgdp_test::QuantileData data = pgdp_test::make_quantile_data(shape, n, 17 + n);
            const OwnedTree tree(data.values, data.lower, data.upper);
            for (auto [mechanism, epsilon, delta] :
                 {std::tuple{Mechanism::Laplace, 0.01, 0.0}, std::tuple{Mechanism::Laplace, 1.0, 0.0},
                  std::tuple{Mechanism::Gaussian, 0.5, 1e-6},
                  std::tuple{Mechanism::TruncatedLaplace, 2.0, 1e-6}}) {
                const QuantilePlan plan = pgdp::plan_quantile_release(
                    parameters(epsilon, delta, mechanism, data.lower, data.upper));
                for (int trial = 0; trial < 20; ++trial) {
                    // Levels in any order, with repeats and the ends.
                    std::vector<double> q{1.0, 0.0, 0.5, 0.5};
                    for (int i = 0; i < 30; ++i)
                        q.push_back(std::uniform_real_distribution<double>(0.0, 1.0)(generator));
                    const std::vector<double> released = pgdp::release_quantiles(plan, tree.state, q, random);
                    ASSERT_EQ(released.size(), q.size());
                    for (std::size_t i = 0; i < q.size(); ++i) {
                        ASSERT_FALSE(std::isnan(released[i]));
                        ASSERT_GE(released[i], data.lower);
                        ASSERT_LE(released[i], data.upper);
                        for (std::size_t j = 0; j < q.size(); ++j) {
                            if (q[i] <= q[j]) {
                                ASSERT_LE(released[i], released[j]) << q[i] << " " << q[j];
                            }
                        }
                    }
                }
            }
        }
    }
}

// Counts the random bytes a release consumes.
class CountingSource final : public pgdp::RandomSource {
public:
    explicit CountingSource(std::uint64_t seed) : inner_(seed) {}
    void fill(unsigned char* out, std::size_t n) override {
        bytes += n;
        inner_.fill(out, n);
    }
    std::size_t bytes = 0;

private:
    pgdp::SeededRandomSource inner_;
};

TEST(QuantileRelease, AllLevelsReadOneNoisyTree) {
    // Asking for the same level many times reads the same nodes: no further noise is drawn,
    // and the answers are those of a single ask (same seed, same tree).
    const pgdp_test::QuantileData data = pgdp_test::make_quantile_data("skewed", 5000, 18);
    const OwnedTree tree(data.values, data.lower, data.upper);
    const QuantilePlan plan =
        pgdp::plan_quantile_release(parameters(1.0, 0.0, Mechanism::Laplace, data.lower, data.upper));
    CountingSource once(19), many(19);
    const double single = pgdp::release_quantiles(plan, tree.state, {0.5}, once)[0];
    const std::vector<double> repeated =
        pgdp::release_quantiles(plan, tree.state, std::vector<double>(500, 0.5), many);
    EXPECT_EQ(once.bytes, many.bytes);
    for (double v : repeated) EXPECT_EQ(v, single);
}

TEST(QuantileRelease, EmptyAndTinyGroupsReleaseTheNoisyTree) {
    pgdp::SeededRandomSource random(21);
    for (std::size_t n : {0u, 1u, 2u}) {
        const std::vector<double> values(n, 42.0);
        const OwnedTree tree(values, 0.0, 100.0);
        for (Mechanism mechanism : {Mechanism::Laplace, Mechanism::Gaussian, Mechanism::TruncatedLaplace}) {
            const QuantilePlan plan = pgdp::plan_quantile_release(
                parameters(0.1, mechanism == Mechanism::Laplace ? 0.0 : 1e-6, mechanism));
            for (int trial = 0; trial < 200; ++trial) {
                for (double v : pgdp::release_quantiles(plan, tree.state, {0.0, 0.5, 1.0}, random)) {
                    ASSERT_TRUE(v >= 0.0 && v <= 100.0) << v;
                }
            }
        }
    }
}

TEST(QuantileRelease, StateAndPlanMustShareBounds) {
    const OwnedTree tree({1.0}, 0.0, 10.0);
    const QuantilePlan plan =
        pgdp::plan_quantile_release(parameters(1.0, 0.0, Mechanism::Laplace, 0.0, 11.0));
    pgdp::SeededRandomSource random(22);
    EXPECT_THROW(pgdp::release_quantiles(plan, tree.state, {0.5}, random), std::invalid_argument);
}

}  // namespace
