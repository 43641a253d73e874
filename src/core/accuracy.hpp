// Accuracy (half-width a with P(|noise| > a) = alpha) of the noise distributions pgdp releases.
#pragma once
#include "core/gaussian_method.hpp"

namespace pgdp {

// Gaussian: a = sigma sqrt(2) erfinv(1 - alpha)  (003, Theorem 1, generalised to any sigma).
double gaussian_accuracy_for_sigma(double sigma, double alpha);
// Validated: sigma from gaussian_sigma(epsilon, delta, sensitivity, method).
double gaussian_accuracy(double epsilon, double delta, double sensitivity, double alpha,
                         GaussianMethod method);
// Laplace with scale b: a = -b ln(alpha).
double laplace_accuracy_for_scale(double scale, double alpha);

}  // namespace pgdp
