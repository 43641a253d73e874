// dp_sum and dp_mean with bounds the analyst need not guess (issue 24 part 5): NULL for lower,
// upper or both. One call, one charge of its (epsilon, delta), two stages (basic composition,
// 001 Lemma 5.3): the bounds stage (bounds_estimation.hpp) on split_bounds_budget's share of
// epsilon, then the statistic's own release (aggregate_release.hpp) with the remaining epsilon,
// all of delta and the estimated bounds, on the exact clamped totals of the binned sums
// (binned_sums.hpp). A given bound is kept and the rows were clamped to it as they arrived.
// docs/privacy.md "Bounds the analyst need not guess".
#pragma once

#include "core/aggregate_release.hpp"
#include "core/binned_squares.hpp"
#include "core/binned_sums.hpp"
#include "core/random_source.hpp"

namespace pgdp {

// The largest magnitude of a bound given next to an estimated one (2^63: every bin edge the
// estimate can return on the bound's far side then exists).
constexpr double kLargestBoundNextToEstimate = 9223372036854775808.0;

// Validates the given side(s) of a call with estimated bounds (finite, magnitude at most 2^63;
// for Variance and StandardDeviation also 0 or at least 2^-32 in magnitude, is_binned_grid_value:
// ArgumentError naming "lower" or "upper"). Sum, Mean, Variance, StandardDeviation and the
// quantiles only (ArgumentError otherwise).
void require_estimable_bounds(AggregateKind kind, const AggregateParameters& parameters);

// The parameters the charge is planned with: each estimated bound replaced by the widest the
// estimate can return (-+2^64), the release's share of epsilon. The charged plan's sensitivity and
// noise scale are then upper bounds of the release's; its mechanism is the one the release uses.
// The result has no estimated bound.
AggregateParameters widest_bounds_parameters(const AggregateParameters& parameters);

// The bounds a release uses: estimated sides from the estimate, given sides as given; an
// estimate on the wrong side of a given bound is replaced by the nearest bin edge strictly
// beyond it (post-processing of the estimate and public values), so lower < upper always and
// every bin lies wholly below, inside or above them once rows were clamped to the given side.
struct ReleaseBounds {
    double lower;
    double upper;
};
ReleaseBounds bounds_for_release(const AggregateParameters& parameters, const EstimatedBounds& estimate);

// The plan of the statistic's release once its bounds are known: plan_aggregate_release for Sum
// and Mean; for Variance and StandardDeviation the floored totals' plan
// (plan_variance_of_floored_totals). plan_aggregate_release checks it at the widest bounds before
// the charge.
AggregatePlan plan_at_release_bounds(AggregateKind kind, const AggregateParameters& release);

struct EstimatedBoundsRelease {
    AggregateRelease release;
    ReleaseBounds bounds;   // the bounds used (a DP output: post-processing of the bounds stage)
    bool bounds_from_data;  // false: the estimate's default [-1, 1] (no occupied bin)
};

// The release falls back to the widest bounds (the charged plan's, checked before the charge) when
// the estimated bounds cannot be planned: a noise scale beyond the exact samplers' limits in grid
// steps, which the power-of-two grid lets reach up to twice the widest plan's at a tiny epsilon.
// A function of the bounds stage's output and public values (post-processing), so no error can
// follow the charge for this cause.

// parameters: as validated, with estimate_lower and/or estimate_upper, mechanism resolved (the
// charged plan's). sums: the rows, clamped to the given side when they were added.
EstimatedBoundsRelease release_with_estimated_bounds(AggregateKind kind,
                                                     const AggregateParameters& parameters,
                                                     const BinnedSums& sums, RandomSource& random);

// dp_variance and dp_stddev: the same bounds stage, then the variance release
// (variance_release.hpp) on the exact count, the floored centred sum and the floored centred
// squares of the rows clamped to the bounds (binned_squares.hpp), planned for floored totals
// (plan_variance_of_floored_totals). The result lies in [0, (upper - lower)^2 / 4] for the bounds
// used (its square root in [0, (upper - lower) / 2]).
EstimatedBoundsRelease release_variance_with_estimated_bounds(AggregateKind kind,
                                                              const AggregateParameters& parameters,
                                                              const BinnedSquares& binned,
                                                              RandomSource& random);

}  // namespace pgdp
