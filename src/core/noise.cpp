#include "core/cpp_only.hpp"

// GCC 12 reports a false -Wmaybe-uninitialized inside boost::rational::normalize (Boost 1.74)
// once it is inlined here; the warning is about Boost's internals, not this file.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "core/noise.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

constexpr double kTwo53 = 9007199254740992.0;  // 2^53
BigInt pow2(unsigned k) { return BigInt(1) << k; }

// The exact value of a finite double as a rational.
Rational rational_from_double(double x) {
    if (!std::isfinite(x)) throw std::invalid_argument("rational_from_double: not finite");
    if (x == 0.0) return Rational(0);
    int e;
    const double m = std::frexp(std::fabs(x), &e);                       // |x| = m 2^e, m in [0.5, 1)
    const auto mantissa = static_cast<std::int64_t>(std::ldexp(m, 53));  // exact
    e -= 53;
    Rational r = e >= 0 ? Rational(BigInt(mantissa) << e) : Rational(BigInt(mantissa), pow2(-e));
    return x < 0 ? Rational(-r) : r;
}

Rational rational_from_long_double(long double x) {
    if (!std::isfinite(x) || x < 0) throw std::invalid_argument("rational_from_long_double");
    if (x == 0.0L) return Rational(0);
    int e;
    const long double m = std::frexp(x, &e);
    const auto mantissa = static_cast<std::uint64_t>(std::ldexp(m, 64));  // exact (64-bit mantissa)
    e -= 64;
    return e >= 0 ? Rational(BigInt(mantissa) << e) : Rational(BigInt(mantissa), pow2(-e));
}

BigInt ceil_div(const BigInt& a, const BigInt& b) {  // a >= 0, b > 0
    BigInt q = a / b;
    if (q * b != a) ++q;
    return q;
}

// The smallest rational N / 2^k >= x (x > 0) with N below 2^bits (k >= 0), or N 2^-k with k < 0
// for very large x. Always >= x, and equal to x if x already has that form.
Rational round_up_dyadic(const Rational& x, unsigned bits) {
    const BigInt& num = numerator(x);
    const BigInt& den = denominator(x);
    // floor(log2 x) is msb(num) - msb(den) or one less.
    const long lg = static_cast<long>(msb(num)) - static_cast<long>(msb(den));
    long k = static_cast<long>(bits) - 2 - lg;  // x 2^k < 2^(bits-1), so N < 2^bits
    BigInt n = k >= 0 ? ceil_div(num << static_cast<unsigned>(k), den)
                      : ceil_div(num, den << static_cast<unsigned>(-k));
    if (k >= 0) return Rational(n, pow2(static_cast<unsigned>(k)));
    return Rational(n << static_cast<unsigned>(-k));
}

int pow2_exponent_at_least(double x) {  // smallest e with 2^e >= x > 0
    int e = std::ilogb(x);
    if (std::ldexp(1.0, e) < x) ++e;
    return e;
}

}  // namespace

// ---- the grid --------------------------------------------------------------------------------

namespace {

double granularity_for(const char* argument, double scale, int resolution_bits, double min_granularity) {
    require_positive(argument, scale);
    if (!(std::isfinite(min_granularity) && min_granularity >= 0.0)) {
        throw ArgumentError(
            "granularity", "granularity must be a finite number >= 0, got " + std::to_string(min_granularity),
            "Pass 0 for no minimum, or e.g. 1 for integer-valued queries.");
    }
    // Exponent clamped to the smallest subnormal 2^-1074 and below the overflow threshold, so
    // that g * Z is exact for every |Z| < 2^53 that does not overflow.
    int e = std::ilogb(scale) - resolution_bits;
    e = std::max(e, -1074);
    if (min_granularity > 0.0) e = std::max(e, pow2_exponent_at_least(min_granularity));
    e = std::min(e, 1023);
    return std::ldexp(1.0, e);
}

}  // namespace

double grid_granularity(double scale, int resolution_bits, double min_granularity) {
    return granularity_for("scale", scale, resolution_bits, min_granularity);
}

double gaussian_granularity(double sigma, double min_granularity) {
    return granularity_for("sigma", sigma, kGaussianResolutionBits, min_granularity);
}

double laplace_granularity(double scale, double min_granularity) {
    return granularity_for("scale", scale, kLaplaceResolutionBits, min_granularity);
}

double laplace_family_granularity(double epsilon, double sensitivity, double min_granularity) {
    return laplace_granularity(std::min(sensitivity / epsilon, sensitivity), min_granularity);
}

std::uint64_t sensitivity_in_grid_units(double sensitivity, double granularity, bool on_grid) {
    require_positive("sensitivity", sensitivity);
    require_positive("granularity", granularity);
    const double r = sensitivity / granularity;  // exact for a power-of-two g unless subnormal
    if (!(r < kTwo53 / 2)) {
        throw ArgumentError("sensitivity",
                            "sensitivity is too large for the noise grid (more than 2^52 grid "
                            "steps)",
                            "Use a larger granularity or a smaller sensitivity.");
    }
    const double units = on_grid ? std::ceil(r) : std::floor(r) + 1.0;
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(units));
}

double grid_to_double(std::int64_t z, double granularity) {
    if (!(z > -static_cast<std::int64_t>(kTwo53) && z < static_cast<std::int64_t>(kTwo53)))
        throw std::overflow_error("noise sample exceeds 2^53 grid steps");
    const double x = static_cast<double>(z) * granularity;
    if (!std::isfinite(x) || x / granularity != static_cast<double>(z))
        throw std::overflow_error("noise sample is not exactly representable");
    return x;
}

// ---- Laplace ---------------------------------------------------------------------------------

Rational laplace_scale_int(double epsilon, std::uint64_t sensitivity_int) {
    require_epsilon(epsilon);
    if (sensitivity_int == 0) throw std::invalid_argument("laplace_scale_int: sensitivity 0");
    const Rational exact = Rational(BigInt(sensitivity_int)) / rational_from_double(epsilon);
    return round_up_dyadic(exact, 62);
}

std::int64_t sample_laplace_int(const Rational& scale_int, RandomSource& random) {
    return DiscreteLaplaceSampler(scale_int).sample_int64(random);
}

// ---- truncated discrete Laplace --------------------------------------------------------------
// P(k) ∝ q^|k| on |k| <= K, q = exp(-1/lambda). With x = q^(K+1) and W = (1 + q - 2x)/(1 - q) the
// normalisation, the D outermost points on one side carry
//   M(K) = sum_{k=K-D+1}^{K} q^k / W = x (q^-D - 1) / (1 + q - 2x)
//        = exp(eps' - (K+1)/lambda) (1 - e^-eps') / (1 + q - 2x),   eps' = D/lambda <= epsilon.
// M decreases in K; M(K) <= delta  <=>  (K+1)/lambda >= ln((e^eps' - 1 + 2 delta)/(delta(1+q))).

namespace {

long double truncated_mass(std::uint64_t K, long double lambda, long double eps_prime) {
    const long double k1 = static_cast<long double>(K) + 1.0L;
    // 1 + q - 2x = -2 expm1(-(K+1)/lambda) + expm1(-1/lambda): no cancellation for huge lambda.
    const long double normaliser = -2.0L * std::expm1(-k1 / lambda) + std::expm1(-1.0L / lambda);
    return std::exp(eps_prime - k1 / lambda) * -std::expm1(-eps_prime) / normaliser;
}

// The closed-form K is within a few steps of the answer; more steps mean the inputs are outside
// what long double resolves, and a loop in a backend cannot be cancelled: refuse instead.
constexpr int kMaxBoundAdjustments = 4096;

[[noreturn]] void throw_unresolvable_bound() {
    throw ArgumentError("epsilon", "the truncated Laplace bound cannot be resolved for these parameters",
                        "Use an epsilon between 1e-9 and 1000 and a sensitivity that is not tiny or huge.");
}

}  // namespace

TruncatedDiscreteLaplace truncated_discrete_laplace(double epsilon, double delta,
                                                    std::uint64_t sensitivity_int) {
    require_epsilon(epsilon);
    require_delta(delta, 0.5, "the truncated Laplace mechanism (Geng et al., Definition 3)");
    if (sensitivity_int == 0) throw std::invalid_argument("truncated_discrete_laplace: sensitivity 0");
    TruncatedDiscreteLaplace p;
    p.sensitivity_int = sensitivity_int;
    p.scale_int = laplace_scale_int(epsilon, sensitivity_int);
    const long double lambda = p.scale_int.convert_to<long double>();
    const long double D = static_cast<long double>(sensitivity_int);
    const long double eps_prime = D / lambda;
    const long double q = std::exp(-1.0L / lambda);
    const long double dl = delta;
    long double L;  // ln((e^eps' - 1 + 2 delta) / (delta (1 + q))), without overflow
    if (eps_prime <= 1.0L) {
        L = std::log1p(std::expm1(eps_prime) / (2 * dl)) + std::log(2.0L / (1.0L + q));
    } else {
        L = eps_prime + std::log1p((2 * dl - 1) * std::exp(-eps_prime)) - std::log(dl * (1.0L + q));
    }
    const long double k_estimate = std::ceil(lambda * L) - 1.0L;
    if (!(k_estimate < 4.0e15L)) {
        throw ArgumentError("delta", "the truncated Laplace bound exceeds 2^52 grid steps",
                            "Use a larger epsilon or delta.");
    }
    std::uint64_t K =
        std::max<std::uint64_t>(sensitivity_int, static_cast<std::uint64_t>(std::max(0.0L, k_estimate)));
    // Verified adjustment around the closed form: the final K satisfies M(K) (1 + margin) <= delta
    // and is the smallest >= D that does.
    int adjustments = 0;
    while (truncated_mass(K, lambda, eps_prime) * (1.0L + kLongDoubleSafetyMargin) > dl) {
        ++K;
        if (++adjustments > kMaxBoundAdjustments) throw_unresolvable_bound();
    }
    while (K > sensitivity_int &&
           truncated_mass(K - 1, lambda, eps_prime) * (1.0L + kLongDoubleSafetyMargin) <= dl) {
        --K;
        if (++adjustments > kMaxBoundAdjustments) throw_unresolvable_bound();
    }
    p.bound_int = K;
    p.delta_bound = truncated_mass(K, lambda, eps_prime) * (1.0L + kLongDoubleSafetyMargin);
    return p;
}

std::int64_t sample_truncated_laplace_int(const TruncatedDiscreteLaplace& params, RandomSource& random) {
    return DiscreteLaplaceSampler(params.scale_int, BigInt(params.bound_int)).sample_int64(random);
}

// ---- discrete Gaussian -----------------------------------------------------------------------

Rational round_up_sigma2(long double sigma2) {
    if (!(std::isfinite(sigma2) && sigma2 > 0.0L))
        throw std::invalid_argument("round_up_sigma2: sigma2 must be positive");
    return round_up_dyadic(rational_from_long_double(sigma2), 42);
}

std::int64_t sample_gaussian_int(const Rational& sigma2_int, RandomSource& random) {
    return DiscreteGaussianSampler(sigma2_int).sample_int64(random);
}

// ---- standalone samplers ---------------------------------------------------------------------

double gaussian_noise_granularity(double sigma) { return std::min(gaussian_granularity(sigma), 1.0); }

double laplace_noise_granularity(double scale) { return std::min(laplace_granularity(scale), 1.0); }

double truncated_laplace_noise_granularity(double epsilon, double sensitivity) {
    return std::min(laplace_family_granularity(epsilon, sensitivity), 1.0);
}

double sample_gaussian_noise(double sigma, RandomSource& random) {
    const double g = gaussian_noise_granularity(sigma);
    const Rational s = rational_from_double(sigma / g);  // exact: g is a power of two
    const Rational sigma2 = round_up_dyadic(s * s, 42);
    return grid_to_double(sample_gaussian_int(sigma2, random), g);
}

double sample_laplace_noise(double scale, RandomSource& random) {
    const double g = laplace_noise_granularity(scale);
    return grid_to_double(sample_laplace_int(rational_from_double(scale / g), random), g);
}

namespace {

struct TruncatedGrid {
    double granularity;
    TruncatedDiscreteLaplace params;
};

TruncatedGrid truncated_grid(double epsilon, double delta, double sensitivity) {
    require_epsilon(epsilon);
    require_delta(delta, 0.5, "the truncated Laplace mechanism (Geng et al., Definition 3)");
    require_positive("sensitivity", sensitivity);
    const double lambda = sensitivity / epsilon;
    require_positive("sensitivity", lambda);  // catches an overflowing or underflowing ratio
    // The grid follows the smaller of the scale and the sensitivity, so that the sensitivity in
    // grid units stays >= 2^R and rounding inflates it by at most 2^-R; capped at 1 so that
    // integer values stay on the grid when the caller adds this noise to them.
    const double g = truncated_laplace_noise_granularity(epsilon, sensitivity);
    const std::uint64_t d = sensitivity_in_grid_units(sensitivity, g);
    return TruncatedGrid{g, truncated_discrete_laplace(epsilon, delta, d)};
}

}  // namespace

double sample_truncated_laplace_noise(double epsilon, double delta, double sensitivity,
                                      RandomSource& random) {
    const TruncatedGrid t = truncated_grid(epsilon, delta, sensitivity);
    return grid_to_double(sample_truncated_laplace_int(t.params, random), t.granularity);
}

double truncated_laplace_noise_bound(double epsilon, double delta, double sensitivity) {
    const TruncatedGrid t = truncated_grid(epsilon, delta, sensitivity);
    return grid_to_double(static_cast<std::int64_t>(t.params.bound_int), t.granularity);
}

}  // namespace pgdp
