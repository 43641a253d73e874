// Noise as pgdp releases it: an exact discrete sample on a power-of-two grid, returned as a
// double that is an exact multiple of the grid (no floating-point artefacts, Mironov 2012).
// See docs/privacy.md for the argument that the discretised mechanisms keep their guarantee.
#pragma once
#include "core/cpp_only.hpp"
#include "core/random_source.hpp"

namespace pgdp {

// g * Z with Z ~ discrete Gaussian of scale sigma / g (Canonne-Kamath-Steinke 2020).
double sample_gaussian_noise(double sigma, RandomSource& random);
// g * Z with Z ~ discrete Laplace of scale b / g.
double sample_laplace_noise(double scale, RandomSource& random);
// g * Z with Z ~ truncated discrete Laplace for (epsilon, delta) and sensitivity; |result| never
// exceeds truncated_laplace_params(epsilon, delta, sensitivity).bound.
double sample_truncated_laplace_noise(double epsilon, double delta, double sensitivity,
                                      RandomSource& random);

}  // namespace pgdp
