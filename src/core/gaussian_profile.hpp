// The exact privacy profile of the Gaussian mechanism (Balle-Wang; 000 eq. 11, 001 Thm 5.18):
//   delta(eps) = Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D).
#pragma once

namespace pgdp {

// The exact delta of Gaussian noise sigma at epsilon for sensitivity (validated).
double gaussian_delta(double sigma, double epsilon, double sensitivity);
// The smallest epsilon >= 0 with gaussian_delta(sigma, epsilon) <= delta (validated). Never below
// the true value.
double gaussian_epsilon(double sigma, double delta, double sensitivity);

// Unvalidated long double kernels, shared with the calibration.
long double gaussian_delta_unchecked(long double sigma, long double epsilon, long double sensitivity);

}  // namespace pgdp
