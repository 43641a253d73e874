#include "core/cpp_only.hpp"

// GCC 12 reports a false -Wmaybe-uninitialized inside boost::rational::normalize (Boost 1.74)
// once it is inlined here; the warning is about Boost's internals, not this file.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "core/noise.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "core/interrupts.hpp"
#include "core/gaussian_calibration.hpp"
#include "core/gaussian_profile.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

constexpr double kTwo53 = 9007199254740992.0;  // 2^53
// Relative safety margin on every long double evaluation of a privacy quantity. The kernels below
// use at most a few hundred correctly-rounded-or-1-ulp operations per term chain, each of
// relative error <= 2^-63 ~ 1.1e-19, so their relative error is far below 1e-14; the margin
// 1e-12 dominates it with room to spare.
constexpr long double kMargin = 1e-12L;

BigInt pow2(unsigned k) { return BigInt(1) << k; }

// The exact value of a finite double as a rational.
Rational rational_from_double(double x) {
    if (!std::isfinite(x)) throw std::invalid_argument("rational_from_double: not finite");
    if (x == 0.0) return Rational(0);
    int e;
    const double m = std::frexp(std::fabs(x), &e);  // |x| = m 2^e, m in [0.5, 1)
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

double granularity_for(const char* argument, double scale, int resolution_bits,
                       double min_granularity) {
    require_positive(argument, scale);
    if (!(std::isfinite(min_granularity) && min_granularity >= 0.0)) {
        throw ArgumentError("granularity",
                            "granularity must be a finite number >= 0, got " +
                                std::to_string(min_granularity),
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
    std::uint64_t K = std::max<std::uint64_t>(sensitivity_int,
                                              static_cast<std::uint64_t>(std::max(0.0L, k_estimate)));
    // Verified adjustment around the closed form: the final K satisfies M(K) (1 + margin) <= delta
    // and is the smallest >= D that does.
    int adjustments = 0;
    while (truncated_mass(K, lambda, eps_prime) * (1.0L + kMargin) > dl) {
        ++K;
        if (++adjustments > kMaxBoundAdjustments) throw_unresolvable_bound();
    }
    while (K > sensitivity_int && truncated_mass(K - 1, lambda, eps_prime) * (1.0L + kMargin) <= dl) {
        --K;
        if (++adjustments > kMaxBoundAdjustments) throw_unresolvable_bound();
    }
    p.bound_int = K;
    p.delta_bound = truncated_mass(K, lambda, eps_prime) * (1.0L + kMargin);
    return p;
}

std::int64_t sample_truncated_laplace_int(const TruncatedDiscreteLaplace& params,
                                          RandomSource& random) {
    return DiscreteLaplaceSampler(params.scale_int, BigInt(params.bound_int)).sample_int64(random);
}

// ---- discrete Gaussian -----------------------------------------------------------------------

long double discrete_gaussian_delta(long double sigma2, long double epsilon,
                                    std::uint64_t sensitivity_int) {
    // delta = (1/Z) sum_{y >= m1} [f(y) - e^eps f(y + D)],  f(y) = exp(-y^2 / (2 s^2)),
    // m1 = floor(eps s^2/D - D/2) + 1 (every summand is positive: CKS Thm 7, the privacy loss
    // exceeds eps exactly for y > eps s^2/D - D/2). We accumulate A = sum_{y>=m1} f(y) and
    // B = sum_{y>=m1+D} f(y) up to some y_end >= m1 + D; the neglected tail R contributes
    // R - e^eps R <= 0, so truncation can only overestimate delta. Z >= sqrt(2 pi) s by Poisson
    // summation (Z = sqrt(2 pi) s (1 + 2 sum_k exp(-2 pi^2 s^2 k^2))); for s < 4 the direct
    // partial sum, also a lower bound, is tighter.
    const long double D = static_cast<long double>(sensitivity_int);
    const long double s = std::sqrt(sigma2);
    const long double two_s2 = 2.0L * sigma2;
    const long double c1 = epsilon * sigma2 / D - D / 2.0L;
    if (c1 > 1.0e17L) return 0.0L;
    const long double m1f = std::floor(c1) + 1.0L;
    const auto m1 = static_cast<std::int64_t>(m1f);
    const auto d = static_cast<std::int64_t>(sensitivity_int);
    const long double e_eps = std::exp(epsilon);
    const long double q2 = std::exp(-2.0L / two_s2);  // r(y+1) / r(y)

    // Blocks of 64 terms: f and r are recomputed with exp at the start of each block (so the
    // recurrence error never compounds over more than 64 steps), then f(y+1) = f(y) r(y),
    // r(y+1) = r(y) q2 with r(y) = exp(-(2y+1)/(2 s^2)), q2 = exp(-1/s^2).
    long double A = 0.0L, B = 0.0L;
    const std::int64_t first_b = m1 + d;
    // Only |y| <= L matters: f(L) = exp(-L^2/(2 s^2)) < e^-2048. Terms below -L are left out of A
    // and B and their sum (a bound of it) added back to A only, terms above L are bounded the
    // same way: both keep the result an upper bound, and the work is O(s), not O(D) (a huge
    // sensitivity in grid units with a small sigma must not mean a huge loop: a backend cannot
    // cancel it).
    const std::int64_t L = static_cast<std::int64_t>(64.0L * s) + 64;
    const long double Ll = static_cast<long double>(L);
    const long double beyond_L = std::exp(-Ll * Ll / two_s2) / -std::expm1(-(2.0L * Ll + 1.0L) / two_s2);
    if (m1 < -L) A += beyond_L;
    const std::int64_t start = std::max<std::int64_t>(m1, -L);
    const std::int64_t must_reach = std::min<std::int64_t>(std::max<std::int64_t>(first_b, 1), L);
    // Hard cap on the number of terms (bounds the cost; truncation is conservative anyway).
    const std::int64_t cap = std::min<std::int64_t>(must_reach + 256 + static_cast<std::int64_t>(80.0L * s), L + 64);
    constexpr std::int64_t kBlock = 64;
    if (start > L) return 0.0L;  // every summand below e^-2048
    std::int64_t blocks = 0;
    for (std::int64_t y0 = start;; y0 += kBlock) {
        if (++blocks % 1024 == 0) poll_interrupts();  // O(s) terms: cancellable (core/interrupts.hpp)
        const long double yl = static_cast<long double>(y0);
        long double f = std::exp(-yl * yl / two_s2);
        long double r = std::exp(-(2.0L * yl + 1.0L) / two_s2);  // f(y+1) / f(y)
        const std::int64_t y1 = y0 + kBlock;  // block is [y0, y1)
        long double block_a = 0.0L;
        long double block_b = 0.0L;
        if (y1 <= first_b) {
            for (std::int64_t y = y0; y < y1; ++y) {
                block_a += f;
                f *= r;
                r *= q2;
            }
        } else if (y0 >= first_b) {
            for (std::int64_t y = y0; y < y1; ++y) {
                block_a += f;
                f *= r;
                r *= q2;
            }
            block_b = block_a;
        } else {
            for (std::int64_t y = y0; y < y1; ++y) {
                block_a += f;
                if (y >= first_b) block_b += f;
                f *= r;
                r *= q2;
            }
        }
        A += block_a;
        B += block_b;
        if (y1 > must_reach) {
            // f, r now belong to y1. Remainder sum_{j >= y1} f(j) <= f(y1) / (1 - r(y1)), as the
            // ratios decrease for j >= 0. It only matters for tightness (see above).
            const long double remainder = f / (1.0L - r);
            const long double current = A - e_eps * B;
            if (!(remainder > 0.0L) || remainder * (e_eps - 1.0L) <= 1e-9L * current ||
                remainder <= 1e-30L * A || y1 >= cap) {
                // Stopped before m1 + D: the rest of A has no B counterpart; add its bound.
                if (y1 < first_b) A += std::max(remainder, beyond_L);
                break;
            }
        }
    }
    long double z_lower = std::sqrt(2.0L * 3.14159265358979323846264338327950288L) * s;
    if (s < 4.0L) {
        long double direct = 0.0L;
        const auto n = static_cast<std::int64_t>(40.0L * s) + 10;
        for (std::int64_t y = -n; y <= n; ++y) {
            const long double yl = static_cast<long double>(y);
            direct += std::exp(-yl * yl / two_s2);
        }
        z_lower = std::max(z_lower, direct);
    }
    const long double b_term = B > 0.0L ? e_eps * B * (1.0L - kMargin) : 0.0L;
    const long double numerator = A * (1.0L + kMargin) - b_term;
    return std::max(numerator, 0.0L) / (z_lower * (1.0L - kMargin));
}

Rational round_up_sigma2(long double sigma2) {
    if (!(std::isfinite(sigma2) && sigma2 > 0.0L))
        throw std::invalid_argument("round_up_sigma2: sigma2 must be positive");
    return round_up_dyadic(rational_from_long_double(sigma2), 42);
}

namespace {

void require_sensitivity_int(std::uint64_t sensitivity_int) {
    if (sensitivity_int == 0 || sensitivity_int > (std::uint64_t{1} << 40)) {
        throw ArgumentError("sensitivity",
                            "sensitivity in grid units must lie in [1, 2^40], got " +
                                std::to_string(sensitivity_int),
                            "Use a coarser grid (larger granularity).");
    }
}

}  // namespace

DiscreteGaussianCalibration calibrate_discrete_gaussian(double epsilon, double delta,
                                                        std::uint64_t sensitivity_int,
                                                        double start_sigma_int) {
    require_epsilon(epsilon);
    require_delta(delta);
    require_sensitivity_int(sensitivity_int);
    require_positive("sigma", start_sigma_int);
    if (start_sigma_int > 1e9) {
        throw ArgumentError("sigma", "sigma in grid units is too large for the exact profile",
                            "Use a coarser grid.");
    }
    const long double target = delta;
    auto evaluate = [&](long double sigma_int, DiscreteGaussianCalibration& out) {
        out.sigma2_int = round_up_sigma2(sigma_int * sigma_int);
        const long double s2 = out.sigma2_int.convert_to<long double>();  // exact: < 2^42 / 2^k
        out.delta_bound = discrete_gaussian_delta(s2, epsilon, sensitivity_int);
        out.sigma_int = static_cast<double>(std::sqrt(s2)) * (1.0 + 2.0 * DBL_EPSILON);
        return out.delta_bound <= target;
    };
    DiscreteGaussianCalibration best;
    const long double start = start_sigma_int;
    if (evaluate(start, best)) return best;

    // The discrete delta differs from the continuous one (Balle-Wang) by a ratio that varies
    // slowly with sigma: aim the continuous calibration at delta / ratio.
    long double lo = start;  // known to fail
    long double hi;
    {
        const long double continuous =
            gaussian_delta_unchecked(start, epsilon, static_cast<long double>(sensitivity_int));
        const long double ratio = continuous > 0.0L ? best.delta_bound / continuous : 0.0L;
        long double guess = 0.0L;
        if (ratio > 0.0L && std::isfinite(ratio)) {
            const double aimed = static_cast<double>(target / ratio * (1.0L - 1e-5L));
            if (aimed > 0.0 && aimed < 1.0)
                guess = analytic_gaussian_sigma(epsilon, aimed, static_cast<double>(sensitivity_int));
        }
        hi = std::max(guess, lo * (1.0L + 0x1p-20L));
    }
    DiscreteGaussianCalibration candidate;
    long double step = hi / lo - 1.0L;
    while (!evaluate(hi, candidate)) {
        lo = hi;
        step *= 2.0L;
        hi = lo * (1.0L + step);
        if (step > 1e6L) throw std::runtime_error("calibrate_discrete_gaussian: no sigma found");
    }
    best = candidate;
    // Bisection to a relative 2^-16 (only reached when the aimed guess failed).
    while (hi / lo - 1.0L > 0x1p-16L) {
        const long double mid = std::sqrt(lo * hi);
        if (evaluate(mid, candidate)) {
            hi = mid;
            best = candidate;
        } else {
            lo = mid;
        }
    }
    return best;
}

std::int64_t sample_gaussian_int(const Rational& sigma2_int, RandomSource& random) {
    return DiscreteGaussianSampler(sigma2_int).sample_int64(random);
}

// ---- standalone samplers ---------------------------------------------------------------------

double gaussian_noise_granularity(double sigma) { return std::min(gaussian_granularity(sigma), 1.0); }

double laplace_noise_granularity(double scale) { return std::min(laplace_granularity(scale), 1.0); }

double truncated_laplace_noise_granularity(double epsilon, double sensitivity) {
    return std::min(laplace_granularity(std::min(sensitivity / epsilon, sensitivity)), 1.0);
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
