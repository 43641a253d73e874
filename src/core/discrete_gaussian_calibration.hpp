// Calibration of the discrete Gaussian N_Z(0, sigma_int^2) on the noise grid (core/noise.hpp): its
// exact privacy profile for an integer sensitivity (Canonne, Kamath, Steinke 2020, "The Discrete
// Gaussian for Differential Privacy", Theorem 7; docs/privacy.md "Discrete Gaussian") and the
// smallest sigma_int^2 that meets a delta.
#pragma once

#include <cstdint>

#include "core/exact_sampling.hpp"

namespace pgdp {

// The exact delta of the discrete Gaussian N_Z(0, sigma2) for integer sensitivity at epsilon
// (Canonne-Kamath-Steinke 2020, Theorem 7):
//   delta = P[Y > eps s^2/D - D/2] - e^eps P[Y > eps s^2/D + D/2],  Y ~ N_Z(0, s^2).
// Returns an upper bound: tails truncated where that can only lower delta, normalisation
// replaced by its lower bound sqrt(2 pi) s (Poisson summation), a relative safety margin of
// 1e-12 for long double rounding. Unvalidated (sigma2 > 0, epsilon >= 0, sensitivity_int >= 1).
// Polls for interrupts (core/interrupts.hpp): its work grows with sigma.
long double discrete_gaussian_delta(long double sigma2, long double epsilon, std::uint64_t sensitivity_int);

struct DiscreteGaussianCalibration {
    Rational sigma2_int;      // sigma_int^2, a dyadic rational with a numerator below 2^42
    double sigma_int;         // sqrt(sigma2_int) rounded up (for accuracy reports)
    long double delta_bound;  // discrete_gaussian_delta(sigma2_int, epsilon, sensitivity_int)
};
// The smallest sigma_int^2 (up to a relative 2^-16 search step) >= start_sigma_int^2 with
// discrete_gaussian_delta <= delta. start_sigma_int: usually the continuous optimum
// analytic_gaussian_sigma(epsilon, delta, sensitivity_int). Validates its arguments.
DiscreteGaussianCalibration calibrate_discrete_gaussian(double epsilon, double delta,
                                                        std::uint64_t sensitivity_int,
                                                        double start_sigma_int);

}  // namespace pgdp
