#include "core/cpp_only.hpp"

// GCC 12 reports a false -Wmaybe-uninitialized inside boost::rational::normalize (Boost 1.74)
// once it is inlined here; the warning is about Boost's internals, not this file.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "core/discrete_gaussian_calibration.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "core/gaussian_calibration.hpp"
#include "core/gaussian_profile.hpp"
#include "core/interrupts.hpp"
#include "core/noise.hpp"
#include "core/validate.hpp"

// References: CKS = Canonne, Kamath, Steinke 2020, "The Discrete Gaussian for Differential
// Privacy" (not among /work/shared/papers; docs/privacy.md "Discrete Gaussian" gives the argument).

namespace pgdp {

namespace {

// The one recurrence loop of the profile's sums, over `count` terms f(y) = exp(-y^2 / (2 s^2)):
// f(y+1) = f(y) r(y), r(y+1) = r(y) q2 with r(y) = f(y+1) / f(y) = exp(-(2y+1) / (2 s^2)) and
// q2 = exp(-1/s^2). Every term is added to a_sum (A's terms, y >= m1); with kAlsoB, B's terms
// (y >= m1 + D), to b_sum as well. A template argument rather than a test per term: this is the
// calibration's hot path. Leaves f and r at the next y.
template <bool kAlsoB>
inline void add_terms(long double& f, long double& r, long double& a_sum, long double& b_sum,
                      std::int64_t count, long double q2) {
    for (std::int64_t i = 0; i < count; ++i) {
        a_sum += f;
        if (kAlsoB) b_sum += f;
        f *= r;
        r *= q2;
    }
}

constexpr std::int64_t kBlock = 64;

// A block [y0, y0 + kBlock) of the sums: its share of A (every term) and of B (its terms
// y >= first_b = m1 + D), and f, r at y0 + kBlock.
struct Block {
    long double a_sum;
    long double b_sum;
    long double f_next;
    long double r_next;
};

// f and r start afresh from exp at y0, so that the recurrence error never compounds over more
// than kBlock steps. B's terms are A's from first_b on, and both sums add them in the same order
// whether the block lies before, across or after first_b.
Block sum_block(std::int64_t y0, std::int64_t first_b, long double two_s2, long double q2) {
    const long double yl = static_cast<long double>(y0);
    long double f = std::exp(-yl * yl / two_s2);
    long double r = std::exp(-(2.0L * yl + 1.0L) / two_s2);  // f(y+1) / f(y)
    const std::int64_t split = std::clamp(first_b, y0, y0 + kBlock);
    long double a_sum = 0.0L;
    long double b_sum = 0.0L;
    if (split == y0) {  // the whole block is B's too: one sum serves both (half the additions)
        add_terms<false>(f, r, a_sum, b_sum, kBlock, q2);
        b_sum = a_sum;
    } else {
        add_terms<false>(f, r, a_sum, b_sum, split - y0, q2);
        add_terms<true>(f, r, a_sum, b_sum, y0 + kBlock - split, q2);
    }
    return Block{a_sum, b_sum, f, r};
}

// Which y the sums visit. Only |y| <= L matters: f(L) = exp(-L^2/(2 s^2)) < e^-2048. Terms below
// -L are left out of A and B and their sum (a bound of it) added back to A only, terms above L
// are bounded the same way: both keep the result an upper bound, and the work is O(s), not O(D)
// (a huge sensitivity in grid units with a small sigma must not mean a huge loop: a backend
// cannot cancel it).
struct SummationRange {
    std::int64_t L;
    long double beyond_L;     // bound of sum_{y > L} f(y), and of the terms below -L
    std::int64_t start;       // first y summed
    std::int64_t must_reach;  // the sums run at least past here (m1 + D, within [1, L]) ...
    std::int64_t cap;         // ... and stop at the latest here (bounds the cost)
};

SummationRange summation_range(long double s, long double two_s2, std::int64_t m1, std::int64_t first_b) {
    SummationRange range;
    range.L = static_cast<std::int64_t>(64.0L * s) + 64;
    const long double Ll = static_cast<long double>(range.L);
    range.beyond_L = std::exp(-Ll * Ll / two_s2) / -std::expm1(-(2.0L * Ll + 1.0L) / two_s2);
    range.start = std::max<std::int64_t>(m1, -range.L);
    range.must_reach = std::min<std::int64_t>(std::max<std::int64_t>(first_b, 1), range.L);
    // Hard cap on the number of terms (truncation is conservative anyway).
    range.cap =
        std::min<std::int64_t>(range.must_reach + 256 + static_cast<std::int64_t>(80.0L * s), range.L + 64);
    return range;
}

// A lower bound on the normaliser Z = sum_y f(y): Z >= sqrt(2 pi) s by Poisson summation
// (Z = sqrt(2 pi) s (1 + 2 sum_k exp(-2 pi^2 s^2 k^2))); for s < 4 the direct partial sum, also
// a lower bound, is tighter.
long double normaliser_lower_bound(long double s, long double two_s2) {
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
    return z_lower;
}

void require_sensitivity_int(std::uint64_t sensitivity_int) {
    if (sensitivity_int == 0 || sensitivity_int > (std::uint64_t{1} << 40)) {
        throw ArgumentError(
            "sensitivity",
            "sensitivity in grid units must lie in [1, 2^40], got " + std::to_string(sensitivity_int),
            "Use a coarser grid (larger granularity).");
    }
}

}  // namespace

// CKS Theorem 7, evaluated as an upper bound (docs/privacy.md "Discrete Gaussian", Evaluation).
long double discrete_gaussian_delta(long double sigma2, long double epsilon, std::uint64_t sensitivity_int) {
    // delta = (1/Z) sum_{y >= m1} [f(y) - e^eps f(y + D)],  f(y) = exp(-y^2 / (2 s^2)),
    // m1 = floor(eps s^2/D - D/2) + 1 (every summand is positive: CKS Thm 7, the privacy loss
    // exceeds eps exactly for y > eps s^2/D - D/2). We accumulate A = sum_{y>=m1} f(y) and
    // B = sum_{y>=m1+D} f(y) up to some y_end >= m1 + D; the neglected tail R contributes
    // R - e^eps R <= 0, so truncation can only overestimate delta.
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

    const std::int64_t first_b = m1 + d;
    const SummationRange range = summation_range(s, two_s2, m1, first_b);
    long double A = 0.0L, B = 0.0L;
    if (m1 < -range.L) A += range.beyond_L;
    if (range.start > range.L) return 0.0L;  // every summand below e^-2048
    std::int64_t blocks = 0;
    for (std::int64_t y0 = range.start;; y0 += kBlock) {
        if (++blocks % 1024 == 0) poll_interrupts();  // O(s) terms: cancellable (core/interrupts.hpp)
        const Block block = sum_block(y0, first_b, two_s2, q2);
        A += block.a_sum;
        B += block.b_sum;
        const std::int64_t y1 = y0 + kBlock;
        if (y1 > range.must_reach) {
            // Remainder sum_{j >= y1} f(j) <= f(y1) / (1 - r(y1)), as the ratios decrease for
            // j >= 0. It only matters for tightness (see above).
            const long double remainder = block.f_next / (1.0L - block.r_next);
            const long double current = A - e_eps * B;
            if (!(remainder > 0.0L) || remainder * (e_eps - 1.0L) <= 1e-9L * current ||
                remainder <= 1e-30L * A || y1 >= range.cap) {
                // Stopped before m1 + D: the rest of A has no B counterpart; add its bound.
                if (y1 < first_b) A += std::max(remainder, range.beyond_L);
                break;
            }
        }
    }
    const long double z_lower = normaliser_lower_bound(s, two_s2);
    const long double b_term = B > 0.0L ? e_eps * B * (1.0L - kLongDoubleSafetyMargin) : 0.0L;
    const long double numerator = A * (1.0L + kLongDoubleSafetyMargin) - b_term;
    return std::max(numerator, 0.0L) / (z_lower * (1.0L - kLongDoubleSafetyMargin));
}

// docs/privacy.md "Discrete Gaussian", Calibration: sigma_int only ever grows from the start, and
// the result satisfies discrete_gaussian_delta(sigma_int^2) <= delta, so the release is
// (epsilon, delta)-DP by CKS Theorem 7.
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

}  // namespace pgdp
