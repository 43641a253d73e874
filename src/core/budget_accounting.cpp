#include "core/cpp_only.hpp"
// GCC 12 reports a false -Wmaybe-uninitialized inside Boost's cpp_int when rationals are compared.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "core/budget_accounting.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "core/decimal_text.hpp"
#include "core/gaussian_profile.hpp"

namespace pgdp {

std::string shortest_decimal(double x) {
    if (!std::isfinite(x)) throw std::invalid_argument("shortest_decimal: not a finite number");
    return shown(x);
}

double calibration_below(double x) { return x > 0.0 ? std::nextafter(x, 0.0) : x; }

double add_rounded_up(double a, double b) {
    return std::nextafter(a + b, std::numeric_limits<double>::infinity());
}

double gaussian_mu2_upper(std::uint64_t sensitivity_int, const Rational& sigma2_int) {
    // sigma2 rounded down, the ratio rounded up: each step moves toward a larger mu^2.
    if (sigma2_int < Rational(kMinGaussianPartSigma * kMinGaussianPartSigma)) return 0.0;
    const double sigma2 = std::nextafter(std::nextafter(static_cast<double>(sigma2_int), 0.0), 0.0);
    const double d = static_cast<double>(sensitivity_int);  // exact below 2^53
    const double inf = std::numeric_limits<double>::infinity();
    return std::nextafter(std::nextafter(d * d, inf) / sigma2, inf);
}

bool gaussian_part_fits(double mu2, double epsilon_room, double delta_room) {
    if (mu2 <= 0.0) return true;  // no Gaussian part: the basic part is checked exactly (numeric)
    if (!(epsilon_room >= 0.0) || !(delta_room > 0.0) || !std::isfinite(mu2)) return false;
    // The profile of a Gaussian with sensitivity mu and sigma 1 (002 Lemma 15: the composition
    // of Gaussians with ratios mu_i is the Gaussian with mu = sqrt(sum mu_i^2)).
    const double mu = std::nextafter(std::sqrt(mu2), std::numeric_limits<double>::infinity());
    const double epsilon = epsilon_room * (1.0 - 1e-9);
    return gaussian_delta(1.0 / mu, epsilon, 1.0) <= delta_room * (1.0 - 1e-9);
}

double gaussian_mu2_limit(double epsilon_room, double delta_room) {
    if (!(epsilon_room >= 0.0) || !std::isfinite(epsilon_room) || !(delta_room > 0.0) ||
        !std::isfinite(delta_room)) {
        return 0.0;
    }
    // Bracket: fits(lower) holds (or lower = 0), fits(upper) does not. The profile grows with mu,
    // so the accepted mu^2 form an interval [0, limit].
    double lower = 0.0;
    double upper = 1.0;
    while (gaussian_part_fits(upper, epsilon_room, delta_room)) {
        lower = upper;
        upper *= 2.0;
        if (!std::isfinite(upper)) return lower;
    }
    // Bisection over the doubles themselves: positive doubles order like their bit patterns, so
    // at most 64 steps end with lower and upper adjacent.
    std::uint64_t low_bits = 0;
    std::uint64_t high_bits = 0;
    std::memcpy(&low_bits, &lower, sizeof lower);
    std::memcpy(&high_bits, &upper, sizeof upper);
    while (high_bits - low_bits > 1) {
        const std::uint64_t middle_bits = low_bits + (high_bits - low_bits) / 2;
        double middle = 0.0;
        std::memcpy(&middle, &middle_bits, sizeof middle);
        if (gaussian_part_fits(middle, epsilon_room, delta_room)) {
            low_bits = middle_bits;
        } else {
            high_bits = middle_bits;
        }
    }
    double limit = 0.0;
    std::memcpy(&limit, &low_bits, sizeof limit);
    return limit;
}

double gaussian_part_epsilon(double mu2, double delta_room) {
    if (mu2 <= 0.0) return 0.0;
    if (!(delta_room > 0.0) || !std::isfinite(mu2)) return std::numeric_limits<double>::infinity();
    const double mu = std::nextafter(std::sqrt(mu2), std::numeric_limits<double>::infinity());
    // gaussian_epsilon is never below the true value; the division undoes the fits() margin.
    return gaussian_epsilon(1.0 / mu, delta_room * (1.0 - 1e-9), 1.0) / (1.0 - 1e-9);
}

}  // namespace pgdp
