#include "core/cpp_only.hpp"
#include "core/gaussian_profile.hpp"

#include <cmath>

#include <boost/math/special_functions/erf.hpp>

#include "core/erfcx.hpp"
#include "core/gaussian_kernels.hpp"
#include "core/validate.hpp"

namespace pgdp {

long double gaussian_delta_unchecked(long double sigma, long double epsilon, long double sensitivity) {
    // Balle-Wang (000 eq. 11; 001 Thm 5.18; 002 Thm 2): with u = (eps s/D - D/(2s))/sqrt 2 and
    // v = (eps s/D + D/(2s))/sqrt 2 (so v^2 = u^2 + eps),
    //   delta = Phi(-sqrt2 u) - e^eps Phi(-sqrt2 v) = (erfc(u) - e^eps erfc(v)) / 2
    //         = e^{-u^2} (erfcx(u) - erfcx(v)) / 2                      for u >= 0,
    // which neither overflows e^eps nor underflows erfc at large epsilon.
    const long double u = detail::shape_from_sigma(sigma, epsilon, sensitivity);
    const long double v = std::sqrt(u * u + epsilon);
    long double twice_delta;
    if (u >= 0) {
        twice_delta = std::exp(-u * u) * (erfcx(u) - erfcx(v));
    } else {
        twice_delta = boost::math::erfc(u) - std::exp(-u * u) * erfcx(v);
    }
    return std::fmax(twice_delta / 2, 0.0L);
}

double gaussian_delta(double sigma, double epsilon, double sensitivity) {
    require_positive("sigma", sigma);
    if (!(std::isfinite(epsilon) && epsilon >= 0.0)) require_epsilon(epsilon);
    require_positive("sensitivity", sensitivity);
    return static_cast<double>(gaussian_delta_unchecked(sigma, epsilon, sensitivity));
}

double gaussian_epsilon(double sigma, double delta, double sensitivity) {
    require_positive("sigma", sigma);
    require_delta(delta);
    require_positive("sensitivity", sensitivity);
    // delta(eps) decreases in eps (Balle-Wang Lemma 7). At eps = 0 it is erf(D / (2 sqrt2 s)).
    auto delta_at = [&](long double eps) { return gaussian_delta_unchecked(sigma, eps, sensitivity); };
    if (delta_at(0.0L) <= delta) return 0.0;
    long double upper = 1.0L;
    while (delta_at(upper) > delta) {
        upper *= 2;
        if (!std::isfinite(static_cast<double>(upper))) return HUGE_VAL;
    }
    long double lower = upper > 1.0L ? upper / 2 : 0.0L;
    // Bisection keeps the upper end, where delta(eps) <= delta holds: the private side.
    for (int iteration = 0; iteration < 200; ++iteration) {
        const long double middle = lower + (upper - lower) / 2;
        if (middle <= lower || middle >= upper) break;
        if (delta_at(middle) > delta) {
            lower = middle;
        } else {
            upper = middle;
        }
    }
    // The bisection trusts the long double profile to the last bit; a relative 1e-12 covers its
    // rounding, then round up to double: the reported epsilon is never below the true one.
    const long double widened = upper * (1.0L + 1e-12L);
    double result = static_cast<double>(widened);
    if (static_cast<long double>(result) < widened) result = std::nextafter(result, HUGE_VAL);
    return result;
}

}  // namespace pgdp
