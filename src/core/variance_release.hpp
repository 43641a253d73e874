// dp_variance and dp_stddev (population): three releases of one call, the count n, the sum S1 of
// centred values (value - midpoint) and the sum S2 of their squares (centred_squares.hpp), with
// the budget split that minimises the worst-case first-order error of S2/n - (S1/n)^2, and the
// post-processing that keeps the result in [0, (upper - lower)^2 / 4]. The argument is in
// docs/statistics/variance.md; aggregate_release.hpp dispatches here.
#pragma once

#include "core/aggregate_release.hpp"

namespace pgdp {

// The shares of epsilon (and of delta) given to each release; squares + sum + count == 1 exactly.
// First-order error of V = S2/n - (S1/n)^2: dV = (dS2 - 2 mu dS1 + (2 mu^2 - m2) dn) / n with
// mu = S1/n, m2 = S2/n. Over all data in [lower, upper] the coefficients are at most 1, R and
// R^2/4 (R = upper - lower), the sensitivities R^2/4, R/2 and 1, so c_i Delta_i = R^2/4, R^2/2,
// R^2/4 whatever the bounds. Noise of scale Delta_i / epsilon_i (Laplace, truncated Laplace; the
// Gaussian up to a logarithmic factor) minimises sum (c_i Delta_i / epsilon_i)^2 under
// sum epsilon_i = epsilon at epsilon_i proportional to (c_i Delta_i)^(2/3): 1 : 2^(2/3) : 1.
struct VarianceShares {
    double squares;
    double sum;
    double count;
};
VarianceShares variance_budget_shares();

// The plans of a Variance or StandardDeviation call (validated parameters): `squares` first
// ('auto' is resolved on it), then `sum` and `count` with the same mechanism.
void plan_variance(const AggregateParameters& parameters, AggregatePlan& plan);

// The same plans for totals that are floors of exact totals (estimated bounds,
// estimated_bounds_release.hpp): the centred sum's sensitivity covers the floor, the squares'
// is squares_units square units (binned_squares.hpp floored_squares_sensitivity).
void plan_variance_of_floored_totals(const AggregateParameters& parameters, std::int64_t squares_units,
                                     AggregatePlan& plan);

// The release: the variance (or its square root) of the clamped values, in [0, (upper-lower)^2/4]
// (resp. [0, (upper-lower)/2]); noise_sd by the delta method; with alpha > 0 an interval that
// holds the exact value with probability >= 1 - alpha (a union bound over the three releases).
AggregateRelease release_variance(const AggregateParameters& parameters, const AggregatePlan& plan,
                                  const ExactTotals& totals, RandomSource& random);

}  // namespace pgdp
