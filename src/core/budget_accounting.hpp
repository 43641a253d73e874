// Accounting of a role's releases against its (epsilon, delta) budget (docs/privacy.md
// "Budgets and composition"):
//   * basic composition (001 Lemma 5.3): epsilons and deltas add up; the sums are kept as exact
//     decimals by the ledger (SQL numeric), each release charged as the shortest decimal that
//     round-trips to its float8 argument, while the mechanism is calibrated one ulp below it;
//   * Gaussian composition (002 Lemma 15): in gaussian accounting, Gaussian releases with
//     sensitivity/sigma = mu_i compose as one Gaussian with mu = sqrt(sum mu_i^2); the Gaussian
//     part of the budget (E_g, D_g), fixed when the budget is set, admits them while
//     sum mu_i^2 <= gaussian_mu2_limit(E_g, D_g) (exact Balle-Wang profile; a fully adaptive GDP
//     filter, docs/privacy.md "Gaussian accounting").
#pragma once

#include <cstdint>
#include <string>

#include "core/exact_sampling.hpp"

namespace pgdp {

// The value charged for x: its shortest round-trip decimal (shown(x), core/decimal_text.hpp).
// Throws std::invalid_argument for a non-finite x: no NaN or Infinity is ever charged.
std::string shortest_decimal(double x);

// The value the mechanisms are calibrated at: one ulp below x (x itself when x is 0). The
// shortest decimal of x lies above it, so a release charged that decimal is private at it.
double calibration_below(double x);

// Smallest sigma (grid units) whose discrete Gaussian pgdp accounts in the Gaussian part: the
// discrete-vs-continuous correction of CKS 2020 (multivariate discrete Gaussian, terms in
// exp(-2 pi^2 sigma^2)) is below 1e-540 there; smaller sigmas are charged by basic composition.
constexpr double kMinGaussianPartSigma = 8.0;

// Upper bound on (sensitivity_int / sigma)^2 for sigma^2 = sigma2_int (grid units); 0 when the
// release is not eligible for the Gaussian part (sigma below kMinGaussianPartSigma).
double gaussian_mu2_upper(std::uint64_t sensitivity_int, const Rational& sigma2_int);

// Rounds a + b up (one ulp above the floating-point sum, so never below the exact sum).
double add_rounded_up(double a, double b);

// True if the composed Gaussian with mu^2 = mu2 is (epsilon_room, delta_room)-DP by its exact
// profile, with relative margins of 1e-9 on both (evaluation error and the discrete correction).
// epsilon_room and delta_room must already be rounded down by the caller. True when mu2 = 0.
bool gaussian_part_fits(double mu2, double epsilon_room, double delta_room);

// The Gaussian part's filter bound: the largest mu^2 (a double) with
// gaussian_part_fits(mu^2, epsilon_room, delta_room), so that the composed Gaussian of every
// sum mu_i^2 <= the bound is (epsilon_room, delta_room)-DP (the profile grows with mu). 0 when
// delta_room <= 0 or an argument is not finite. epsilon_room and delta_room must already be
// rounded down by the caller.
double gaussian_mu2_limit(double epsilon_room, double delta_room);

// The smallest epsilon at which the composed Gaussian (mu^2 = mu2) is private for delta_room,
// rounded up; 0 when mu2 = 0; +infinity when delta_room <= 0 and mu2 > 0.
double gaussian_part_epsilon(double mu2, double delta_room);

}  // namespace pgdp
