// Noise as pgdp releases it: an exact discrete sample on a power-of-two grid, returned as a
// double that is an exact multiple of the grid (no floating-point artefacts, Mironov 2012).
// See docs/privacy.md ("Noise generation") for the argument that the discretised mechanisms keep
// their guarantee.
//
// Two layers:
//   * the standalone samplers (gaussian_noise, laplace_noise, tlap_noise in SQL) return g * Z;
//   * the grid-level API (used by release_plan.hpp) gives the integer noise Z in grid units; the
//     aggregates round their exact 128-bit total to the grid, add Z and convert once at the end
//     (clamped_sum.hpp, grid_units_to_double).
#pragma once

#include <cstdint>

#include "core/exact_sampling.hpp"
#include "core/random_source.hpp"

namespace pgdp {

// Relative safety margin on every long double evaluation of a privacy quantity (the truncated
// Laplace bound, the discrete Gaussian profile). Those kernels use at most a few hundred
// correctly-rounded-or-1-ulp operations per term chain, each of relative error <= 2^-63 ~ 1.1e-19,
// so their relative error is far below 1e-14; the margin 1e-12 dominates it with room to spare.
constexpr long double kLongDoubleSafetyMargin = 1e-12L;

// ---- the grid --------------------------------------------------------------------------------

// Resolution R: the grid is g = 2^(floor(log2 scale) - R), so the noise scale is between 2^R and
// 2^(R+1) grid units. The Gaussian resolution is smaller because its exact privacy profile is a
// sum over ~12 sigma_int integers (docs/privacy.md, "Choice of the resolution").
constexpr int kGaussianResolutionBits = 12;
constexpr int kLaplaceResolutionBits = 20;

// g = 2^(floor(log2 scale) - resolution_bits), then raised to the smallest power of two
// >= min_granularity (0: no minimum; integer-valued queries such as COUNT pass 1). Throws
// ArgumentError for a non-positive or non-finite scale ("scale") or a negative or non-finite
// min_granularity ("granularity").
double grid_granularity(double scale, int resolution_bits, double min_granularity = 0.0);
double gaussian_granularity(double sigma, double min_granularity = 0.0);
double laplace_granularity(double scale, double min_granularity = 0.0);
// The grid of the Laplace and truncated Laplace mechanisms (releases and the standalone tlap
// sampler): laplace_granularity of the smaller of the scale sensitivity/epsilon and the
// sensitivity, so that the sensitivity is >= 2^R grid units and rounding inflates it by at most
// 2^-R even when epsilon is large.
double laplace_family_granularity(double epsilon, double sensitivity, double min_granularity = 0.0);

// Sensitivity in grid units. If the aggregate rounds its exact value v to the nearest grid point
// round(v/g) (rounding charged to sensitivity), two neighbouring values with |v - v'| <= Delta
// give |round(v/g) - round(v'/g)| <= floor(Delta/g) + 1 (an integer <= Delta/g + 1); this is
// <= ceil(Delta/g) + 1. If the value is already an exact multiple of g (on_grid = true, e.g. a
// count with g <= 1), no rounding happens and ceil(Delta/g) suffices. Throws ArgumentError
// ("sensitivity") if the result does not fit below 2^53.
std::uint64_t sensitivity_in_grid_units(double sensitivity, double granularity, bool on_grid = false);

// g * z as a double for the standalone samplers, whose result must be exact; throws
// std::overflow_error unless |z| < 2^53 and g * z is exactly representable (it always is for |z| < 2^53 and a
// normal power-of-two g without overflow).
double grid_to_double(std::int64_t z, double granularity);

// ---- Laplace ---------------------------------------------------------------------------------

// The integer scale t >= sensitivity_int / epsilon as a rational with a numerator below 2^62
// (rounded up: a larger scale only adds noise, and the discrete Laplace with integer
// sensitivity Delta_int and scale t is (Delta_int / t)-DP, so the release stays epsilon-DP).
Rational laplace_scale_int(double epsilon, std::uint64_t sensitivity_int);
// Z ~ discrete Laplace with scale scale_int (integer noise in grid units).
std::int64_t sample_laplace_int(const Rational& scale_int, RandomSource& random);

// ---- truncated discrete Laplace --------------------------------------------------------------

struct TruncatedDiscreteLaplace {
    Rational scale_int;             // lambda_int >= sensitivity_int / epsilon (rounded up)
    std::uint64_t bound_int;        // K: |Z| <= K
    std::uint64_t sensitivity_int;  // Delta_int
    long double delta_bound;        // upper bound on the mass of the Delta_int outermost points
                                    // on one side, the delta actually spent (<= delta)
};
// Smallest K >= Delta_int whose Delta_int outermost points on one side carry mass <= delta
// (docs/privacy.md, "Truncated discrete Laplace"). Validates epsilon, 0 < delta < 1/2.
TruncatedDiscreteLaplace truncated_discrete_laplace(double epsilon, double delta,
                                                    std::uint64_t sensitivity_int);
std::int64_t sample_truncated_laplace_int(const TruncatedDiscreteLaplace& params, RandomSource& random);

// ---- discrete Gaussian -----------------------------------------------------------------------

// Its exact privacy profile and calibration: core/discrete_gaussian_calibration.hpp.

// sigma2 rounded up to a dyadic rational with a numerator below 2^42.
Rational round_up_sigma2(long double sigma2);
std::int64_t sample_gaussian_int(const Rational& sigma2_int, RandomSource& random);

// ---- standalone samplers (SQL gaussian_noise, laplace_noise, tlap_noise) ---------------------

// The grids of the standalone samplers: the mechanism's grid capped at 1, so that noise added
// by the caller to an integer value keeps the sum on the grid (a coarser grid, invisible to the
// caller, would reveal the value modulo g). The truncated Laplace grid follows the smaller of
// its scale and the sensitivity, so the sensitivity is >= 2^R grid units.
double gaussian_noise_granularity(double sigma);
double laplace_noise_granularity(double scale);
double truncated_laplace_noise_granularity(double epsilon, double sensitivity);

// g * Z with g = gaussian_noise_granularity(sigma), Z ~ N_Z(0, sigma_int^2) with sigma_int^2 the
// rounded-up (sigma/g)^2 (Canonne-Kamath-Steinke 2020).
double sample_gaussian_noise(double sigma, RandomSource& random);
// g * Z with g = laplace_noise_granularity(scale), Z ~ discrete Laplace of scale exactly scale/g.
double sample_laplace_noise(double scale, RandomSource& random);
// g * Z with g = truncated_laplace_noise_granularity(epsilon, sensitivity), Z ~ truncated discrete Laplace
// for (epsilon, delta) and Delta_int = sensitivity_in_grid_units(sensitivity, g) (rounding charged). |result|
// never exceeds truncated_laplace_noise_bound(epsilon, delta, sensitivity) = K g, which is within one grid
// step of the continuous bound A of Geng et al. (004, Definition 3) computed for the inflated sensitivity
// Delta_int g <= sensitivity + g (docs/privacy.md).
double sample_truncated_laplace_noise(double epsilon, double delta, double sensitivity, RandomSource& random);
double truncated_laplace_noise_bound(double epsilon, double delta, double sensitivity);

}  // namespace pgdp
