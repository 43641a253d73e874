// Gaussian noise calibration: the standard deviation sigma that makes a query with L2 sensitivity
// `sensitivity` (epsilon, delta)-DP (or (epsilon, delta)-probabilistic DP for Pdp/Zhao3/Zhao4).
#pragma once
#include "core/gaussian_method.hpp"

namespace pgdp {

// Validates every argument (ArgumentError) including the method's proven range, then returns
// sigma > 0, finite. For Analytic the result is never below the true optimum and within 1e-9
// relative of it.
double gaussian_sigma(double epsilon, double delta, double sensitivity, GaussianMethod method);

// The optimal sigma of the analytic Gaussian mechanism (no validation; callers validate).
double analytic_gaussian_sigma(double epsilon, double delta, double sensitivity);

}  // namespace pgdp
