// Accuracy of the two quantile mechanisms on the same data (docs/statistics/quantiles.md, the table):
// 2000 releases per (shape, epsilon) with a fixed seed, rank errors at the tree's resolution
// (65536 cells) and at full resolution. Each mechanism's rank error is checked against a bound
// derived in the draft, which a release exceeds with probability at most 1e-3; a check fails if
// more than 10 of 2000 releases exceed it (P[Binomial(2000, 1e-3) > 10] < 1e-5).
// PGDP_PRINT_ACCURACY=1 prints the table.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/exponential_quantile.hpp"
#include "core/quantile_release.hpp"
#include "core/quantile_tree.hpp"
#include "core/random_source.hpp"
#include "quantile_test_helpers.hpp"

namespace {

constexpr int kReleases = 2000;
constexpr std::size_t kRows = 100000;
constexpr double kFailure = 1e-3;  // per release and level
constexpr int kMostExceedances = 10;

// The tree (Laplace of scale t >= 4 / epsilon counts, kQuantileNoiseThreshold = 0): the rank error
// is at most S / n, S the sum of |Z| over the at most 64 nodes one descent reads (the draft,
// "Accuracy"), a sum of 64 independent discrete Laplace magnitudes. Chernoff:
// P(S >= s) <= min over lambda of E[exp(lambda |Z|)]^64 exp(-lambda s), with
// E[exp(lambda |Z|)] = (1 - a)/(1 + a) (1 + 2 a e^lambda / (1 - a e^lambda)), a = exp(-1/t).
double tree_bound(double t, double n) {
    static_assert(pgdp::kQuantileNoiseThreshold == 0.0, "the bound assumes weights max(0, noisy count)");
    const double a = std::exp(-1.0 / t);
    double best = INFINITY;
    for (int step = 1; step < 2000; ++step) {
        const double lambda = step / 2000.0 / t;  // a e^lambda < 1
        const double log_mgf =
            std::log((1 - a) / (1 + a) * (1 + 2 * a * std::exp(lambda) / (1 - a * std::exp(lambda))));
        best = std::min(best, (64 * log_mgf - std::log(kFailure)) / lambda);
    }
    return best / n;
}

// The exponential mechanism: P(d >= D) <= (2^32 + 1) exp(-epsilon D / 2), plus one row for
// floor(q n) against q n.
double exponential_bound(double epsilon, double n) {
    return (2.0 * (std::log(4294967297.0) + std::log(1.0 / kFailure)) / epsilon + 1.0) / n;
}

TEST(QuantileAccuracy, BothMechanismsStayWithinTheirRankErrorBounds) {
    const bool print = std::getenv("PGDP_PRINT_ACCURACY") != nullptr;
    if (print) {
        std::printf(
            "| data | epsilon | q | tree mean | tree p95 | exp. mech. mean | exp. mech. p95 | tree mean "
            "(values) | "
            "exp. mech. mean (values) |\n|---|---|---|---|---|---|---|---|---|\n");
    }
    const std::vector<double> levels{0.1, 0.5, 0.9};
    pgdp::SeededRandomSource random(41);
    const pgdp::StateMemory heap = pgdp::heap_state_memory();
    for (const std::string shape : {"uniform", "skewed", "ties"}) {
        const pgdp_test::QuantileData data = pgdp_test::make_quantile_data(shape, kRows, 42);
        const pgdp_test::CellRanks cells(data);
        pgdp::QuantileTreeState tree = pgdp::empty_quantile_tree(data.lower, data.upper);
        for (double x : data.values) pgdp::add_to_quantile_tree(tree, x, heap);
        const pgdp::ExponentialQuantileInput input =
            pgdp::prepare_exponential_quantile(data.values, data.lower, data.upper);
        for (double epsilon : {0.1, 1.0, 10.0}) {
            pgdp::QuantileParameters p;
            p.lower = data.lower;
            p.upper = data.upper;
            p.epsilon = epsilon;
            const pgdp::QuantilePlan plan = pgdp::plan_quantile_release(p);
            std::vector<std::vector<double>> tree_cell(levels.size()), tree_value(levels.size());
            for (int r = 0; r < kReleases; ++r) {
                const std::vector<double> released = pgdp::release_quantiles(plan, tree, levels, random);
                for (std::size_t i = 0; i < levels.size(); ++i) {
                    tree_cell[i].push_back(cells.error(levels[i], released[i]));
                    tree_value[i].push_back(pgdp_test::rank_error(data.values, levels[i], released[i]));
                }
            }
            for (std::size_t i = 0; i < levels.size(); ++i) {
                const pgdp::ExponentialQuantileSampler sampler(input, levels[i], epsilon);
                std::vector<double> exp_cell, exp_value;
                for (int r = 0; r < kReleases; ++r) {
                    const double v = sampler.sample(random);
                    exp_cell.push_back(cells.error(levels[i], v));
                    exp_value.push_back(pgdp_test::rank_error(data.values, levels[i], v));
                }
                int tree_over = 0, exp_over = 0;
                for (double e : tree_cell[i]) tree_over += e > tree_bound(plan.nodes.noise_scale, kRows);
                for (double e : exp_cell) exp_over += e > exponential_bound(epsilon, kRows);
                EXPECT_LE(tree_over, kMostExceedances)
                    << shape << " epsilon=" << epsilon << " q=" << levels[i];
                EXPECT_LE(exp_over, kMostExceedances)
                    << shape << " epsilon=" << epsilon << " q=" << levels[i];
                if (print) {
                    const auto tc = pgdp_test::summarize(tree_cell[i]), ec = pgdp_test::summarize(exp_cell);
                    const auto tv = pgdp_test::summarize(tree_value[i]), ev = pgdp_test::summarize(exp_value);
                    std::printf("| %s | %g | %g | %.2e | %.2e | %.2e | %.2e | %.2e | %.2e |\n", shape.c_str(),
                                epsilon, levels[i], tc.mean, tc.p95, ec.mean, ec.p95, tv.mean, ev.mean);
                }
            }
        }
        pgdp::free_quantile_tree(tree, heap);
    }
    if (print) {
        std::printf("bounds (P >= 1 - 1e-3 per release): tree %.2e %.2e %.2e, exp. mech. %.2e %.2e %.2e\n",
                    tree_bound(40, kRows), tree_bound(4, kRows), tree_bound(0.4, kRows),
                    exponential_bound(0.1, kRows), exponential_bound(1, kRows), exponential_bound(10, kRows));
    }
}

// NULL bounds (the log-linear leaf map) against well-guessed bounds ([0, 200] for lognormal(2, 1),
// whose 99.9th percentile is 162) on the same sample: the median's rank error. The tree bound
// above holds for either map (its argument counts rows in the nodes a descent reads, whatever
// values the leaves stand for), at the map's own resolution (the rank among the leaves). The
// rank errors of the values themselves are printed (PGDP_PRINT_ACCURACY=1) for
// docs/statistics/quantiles.md section 4.
TEST(QuantileAccuracy, NullBoundsMedianStaysWithinTheTreeBoundAsTheBoundedOne) {
    const bool print = std::getenv("PGDP_PRINT_ACCURACY") != nullptr;
    if (print) {
        std::printf(
            "| n | epsilon | NULL bounds mean | NULL bounds p95 | [0, 200] mean | [0, 200] p95 |\n"
            "|---|---|---|---|---|---|\n");
    }
    const double limit = std::ldexp(1.0, 64);
    const pgdp::StateMemory heap = pgdp::heap_state_memory();
    pgdp::SeededRandomSource random(43);
    for (std::size_t n : {1000u, 100000u}) {
        const pgdp_test::QuantileData data =
            pgdp_test::make_quantile_data("skewed", n, 44);  // lognormal(2, 1)
        std::vector<double> leaves;  // the values' log-linear leaves, sorted as the values
        for (double x : data.values) leaves.push_back(pgdp::log_quantile_leaf(x));
        pgdp::QuantileTreeState log_tree = pgdp::empty_log_quantile_tree(-limit, limit);
        pgdp::QuantileTreeState bounded_tree = pgdp::empty_quantile_tree(0.0, 200.0);
        for (double x : data.values) {
            pgdp::add_to_quantile_tree(log_tree, x, heap);
            pgdp::add_to_quantile_tree(bounded_tree, x, heap);
        }
        for (double epsilon : {0.1, 1.0, 10.0}) {
            pgdp::QuantileParameters p;
            p.epsilon = epsilon;
            p.lower = 0.0;
            p.upper = 200.0;
            const pgdp::QuantilePlan bounded = pgdp::plan_quantile_release(p);
            p.leaf_map = pgdp::QuantileLeafMap::LogLinear;
            p.lower = -limit;
            p.upper = limit;
            const pgdp::QuantilePlan unbounded = pgdp::plan_quantile_release(p);
            std::vector<double> log_value, bounded_value;
            int log_over = 0;
            const double bound = tree_bound(unbounded.nodes.noise_scale, static_cast<double>(n));
            for (int r = 0; r < kReleases; ++r) {
                const double a = pgdp::release_quantiles(unbounded, log_tree, {0.5}, random)[0];
                const double b = pgdp::release_quantiles(bounded, bounded_tree, {0.5}, random)[0];
                log_over += pgdp_test::rank_error(leaves, 0.5, pgdp::log_quantile_leaf(a)) > bound;
                log_value.push_back(pgdp_test::rank_error(data.values, 0.5, a));
                bounded_value.push_back(pgdp_test::rank_error(data.values, 0.5, b));
            }
            EXPECT_LE(log_over, kMostExceedances) << "n=" << n << " epsilon=" << epsilon;
            if (print) {
                const auto l = pgdp_test::summarize(log_value), b = pgdp_test::summarize(bounded_value);
                std::printf("| %zu | %g | %.2e | %.2e | %.2e | %.2e |\n", n, epsilon, l.mean, l.p95, b.mean,
                            b.p95);
            }
        }
        pgdp::free_quantile_tree(log_tree, heap);
        pgdp::free_quantile_tree(bounded_tree, heap);
    }
}

}  // namespace
