// Differentially private quantiles from a quantile tree (core/quantile_tree.hpp): the plan fixes
// the noise of the node counts from the call's constant parameters; the release noises every
// node count the descent reads (drawn lazily, each at most once, so all q of a call share one
// noisy tree: one release, one charge), descends by noisy counts and interpolates inside the
// node it stops at. docs/statistics/quantiles.md has the privacy argument.
//
// Sensitivity (per group): a row is counted in one node of each of the 4 levels below the root
// (the root's count is never read), so adding or removing a row changes 4 node counts by 1.
// A privacy unit with at most r rows in the group (rows_per_unit) changes, on each level, node
// counts whose changes add up to at most r in absolute value: L1 <= 4 r over the tree, and
// since on one level sum d_i^2 <= (sum |d_i|)^2 <= r^2, L2 <= sqrt(4) r = 2 r. The Laplace
// family is calibrated to L1 = 4 r, the Gaussian to L2 = 2 r (each level a count vector of
// core/count_vector.hpp changed by r rows). Over m groups a unit may change (groups_per_unit),
// L1 = 4 m r and L2 = 2 sqrt(m) r. Google's library states the same as L0 = m * height
// partitions, Linf = max contributions per partition.
//
// Empty or tiny groups: the descent reads noise only (or mostly), so the released quantiles are
// those of the noisy tree: spread over [lower, upper] by the noise, monotone in q, never NaN,
// never an error. A descent stops early (and interpolates over the whole node it is in) when
// every child's noisy count is at or below 0 (kQuantileNoiseThreshold).
#pragma once

#include <cstdint>
#include <vector>

#include "core/aggregate_release.hpp"
#include "core/quantile_plan.hpp"
#include "core/quantile_tree.hpp"
#include "core/random_source.hpp"
#include "core/release_plan.hpp"

namespace pgdp {

// The most quantile levels one call may ask for.
constexpr std::size_t kMaxQuantileLevels = 1000;
// Children whose noisy count is at most this many noise standard deviations are read as empty
// (post-processing: it only reads noisy counts and public parameters). 0: only negative and
// zero counts; thresholds of 1, 2 and 3 standard deviations were measured no more accurate
// (docs/statistics/quantiles.md).
constexpr double kQuantileNoiseThreshold = 0.0;

// The empty state of the call's leaf map and bounds (validated: ArgumentError naming "lower" or
// "upper").
QuantileTreeState empty_quantile_tree_for(const QuantileParameters& parameters);

// q: non-empty, at most kMaxQuantileLevels levels, each in [0, 1] (not NaN). ArgumentError("q").
void require_quantile_levels(const std::vector<double>& q);

// Validates the bounds (lower < upper, finite), epsilon and delta for the mechanism,
// rows_per_unit (count_vector.hpp's limit) and groups_per_unit (at most 250000: 4 m level
// vectors), resolves Auto (the least node-noise variance among the valid mechanisms' plans)
// and plans the node noise. ArgumentError or RangeError naming the argument.
QuantilePlan plan_quantile_release(const QuantileParameters& parameters);

// The quantiles at levels q (validated: require_quantile_levels) of one noisy tree: each in
// [lower, upper], non-decreasing in q (post-processing), never NaN. At huge epsilon the result
// for q lies in (the closure of) the leaf of percentile_disc(q) of the clamped values (the
// smallest value whose share of rows at or below it is >= q), for either leaf map.
std::vector<double> release_quantiles(const QuantilePlan& plan, const QuantileTreeState& state,
                                      const std::vector<double>& q, RandomSource& random);

// What the ledger charges for one call (all q together).
ReleaseCharge quantile_release_charge(const QuantileParameters& parameters, const QuantilePlan& plan);

}  // namespace pgdp
