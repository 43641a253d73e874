// The empirical privacy audit (unit/privacy_audit.hpp, docs/statistics/audit.md) of the quantile tree
// (release_quantiles) and of the exponential mechanism (ExponentialQuantileSampler).
//
// Tree neighbours: an empty group and the same group with one unit's rows at the lower bound,
// released at q = 0. The descent for q = 0 takes, on each level, the first child whose noisy count
// is positive; the rows add r to the counts of leaf 0's path, so the event "the result lies in leaf
// 0" has probability prod over the 4 levels of P(r + Z > 0) against P(Z > 0): for the discrete
// Laplace of scale 4 r / epsilon the ratio is about e^epsilon (e^(epsilon/4) a level), the whole
// budget, in an event of probability 0.04 to 0.1. The audit therefore sees most of epsilon.
//
// Releases per side: 5e4 (not the default 2e5) for the tree: one release of the tree draws up to
// 64 node noises (about 40 us, ten times a scalar release); at 5e4 the event's probabilities are
// still estimated to about 3 % (relative), enough for the floor below.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/exponential_quantile.hpp"
#include "core/quantile_release.hpp"
#include "core/quantile_tree.hpp"
#include "unit/privacy_audit.hpp"

namespace {

const pgdp::StateMemory kHeap = pgdp::heap_state_memory();

// A group's tree built from its rows, freed with the scope.
struct Group {
    pgdp::QuantileTreeState state;
    explicit Group(const std::vector<double>& rows) : state(pgdp::empty_quantile_tree(0.0, 100.0)) {
        for (double x : rows) pgdp::add_to_quantile_tree(state, x, kHeap);
    }
    ~Group() { pgdp::free_quantile_tree(state, kHeap); }
    Group(const Group&) = delete;
    Group& operator=(const Group&) = delete;
};

pgdp_test::AuditResult audit_tree_minimum(double epsilon, std::int64_t rows_per_unit) {
    pgdp::QuantileParameters p;
    p.lower = 0.0;
    p.upper = 100.0;
    p.epsilon = epsilon;
    p.rows_per_unit = rows_per_unit;
    const pgdp::QuantilePlan plan = pgdp::plan_quantile_release(p);
    const Group empty({}), with_unit(std::vector<double>(static_cast<std::size_t>(rows_per_unit), 0.0));
    const auto release = [&plan](const pgdp::QuantileTreeState* state, pgdp::RandomSource& random) {
        return pgdp::release_quantiles(plan, *state, {0.0}, random)[0];
    };
    pgdp_test::AuditSettings settings;
    settings.releases_per_side = 50000;
    return pgdp_test::audit_mechanism(release, &empty.state, &with_unit.state, 0.0, settings);
}

// The Laplace tree shows about 90 % of epsilon here (docs/statistics/quantiles.md); floor 1/2.
TEST(PrivacyAudit, QuantileTreeSpendsNoMoreThanItsBudget) {
    pgdp_test::expect_audit_within("dp_quantiles laplace eps=1 q=0", audit_tree_minimum(1.0, 1), 1.0, 0.5);
}

// Three rows of one unit in the group (rows_per_unit = 3): the node noise is calibrated to
// L1 = 12, and the unit's rows move leaf 0's path by 3 on each level.
TEST(PrivacyAudit, QuantileTreeCoversSeveralRowsOfOneUnit) {
    pgdp_test::expect_audit_within("dp_quantiles laplace eps=1 rows_per_unit=3 q=0",
                                   audit_tree_minimum(1.0, 3), 1.0, 0.5);
}

// The log-linear leaf map (NULL bounds): the same noise, another map of the value line. Neighbours:
// an empty group and one row at -510.5 * 2^55 (leaf 256: children 0, 1, 0, 0 on the 4 levels,
// the lowest leaf whose path is not behind a used leaf's). For q = 0 the descent takes the first
// positive child on each level; on level 2 child 0 holds only unused leaves and leaf 255, noise on
// both sides, so "the result lies in leaf 256" has probability P(Z <= 0) prod_4 P(1 + Z > 0)
// against P(Z <= 0) prod_4 P(Z > 0): the ratio of the linear audit (about e^eps) in an event half
// as likely. The auditor's events are thresholds on the output, and below leaf 256 lie leaf 255
// and the unused leaves, where noise sends half the descents on both sides (for q = 0 a descent
// ends on the lower edge of its node: -2^64 there, -511 * 2^55 in leaf 256); so the audited output
// is a post-processing of the release (no more private than it: 001 Lemma 5.3) that moves -2^64
// above all others, which makes "leaf 256" a threshold event. Floor 1/2 as for the linear tree.
// planned_epsilon: the epsilon the tree is calibrated for (the audit declares 1).
pgdp_test::AuditResult audit_log_tree_minimum(double planned_epsilon) {
    const double limit = std::ldexp(1.0, 64);
    pgdp::QuantileParameters p;
    p.leaf_map = pgdp::QuantileLeafMap::LogLinear;
    p.lower = -limit;
    p.upper = limit;
    p.epsilon = planned_epsilon;
    const pgdp::QuantilePlan plan = pgdp::plan_quantile_release(p);
    pgdp::QuantileTreeState empty = pgdp::empty_log_quantile_tree(-limit, limit);
    pgdp::QuantileTreeState with_row = pgdp::empty_log_quantile_tree(-limit, limit);
    pgdp::add_to_quantile_tree(with_row, std::ldexp(-510.5, 55), kHeap);
    const auto release = [&plan](const pgdp::QuantileTreeState* state, pgdp::RandomSource& random) {
        const double value = pgdp::release_quantiles(plan, *state, {0.0}, random)[0];
        return value <= -std::ldexp(1.0, 64) ? std::ldexp(1.0, 65) : value;
    };
    pgdp_test::AuditSettings settings;
    settings.releases_per_side = 50000;
    const pgdp_test::AuditResult result =
        pgdp_test::audit_mechanism(release, &empty, &with_row, 0.0, settings);
    pgdp::free_quantile_tree(with_row, kHeap);
    return result;
}

TEST(PrivacyAudit, LogLinearQuantileTreeSpendsNoMoreThanItsBudget) {
    ASSERT_EQ(pgdp::log_quantile_leaf(std::ldexp(-510.5, 55)), 256u);
    pgdp_test::expect_audit_within("dp_quantiles NULL bounds laplace eps=1 q=0", audit_log_tree_minimum(1.0),
                                   1.0, 0.5);
}

// The exponential mechanism for the median of {40, 60, 80} against {40, 60, 80, 100}: the row
// added at the upper bound moves the target rank floor(n/2) from 1 to 2, so the zero-distance
// interval moves from [40, 60] to [60, 80] and every other interval's distance changes by one.
// The event {M > 80} has probabilities about 0.115 and 0.206 (ratio e^(0.58 epsilon)): the
// weight and the normaliser do not both move by beta against it, so the audit shows part of
// epsilon; floor 1/4.
TEST(PrivacyAudit, ExponentialQuantileSpendsNoMoreThanItsBudget) {
    const pgdp::ExponentialQuantileInput d =
        pgdp::prepare_exponential_quantile({40.0, 60.0, 80.0}, 0.0, 100.0);
    const pgdp::ExponentialQuantileInput d_prime =
        pgdp::prepare_exponential_quantile({40.0, 60.0, 80.0, 100.0}, 0.0, 100.0);
    const auto release = [](const pgdp::ExponentialQuantileInput* input, pgdp::RandomSource& random) {
        return pgdp::release_exponential_quantile(*input, 0.5, 1.0, random);
    };
    pgdp_test::expect_audit_within("exponential quantile eps=1 q=0.5",
                                   pgdp_test::audit_mechanism(release, &d, &d_prime, 0.0), 1.0, 0.25);
}

}  // namespace
