#include "core/cpp_only.hpp"
#include "core/erfcx.hpp"

#include <cmath>
#include <limits>

#include "core/boost_policy.hpp"

namespace pgdp {

namespace {

// Asymptotic series erfcx(x) = 1/(x sqrt(pi)) sum_n (-1)^n (2n-1)!! / (2x^2)^n (Abramowitz &
// Stegun 7.1.23). Used only where the first omitted term is below the type's epsilon.
template <typename Real>
Real erfcx_asymptotic(Real x, int terms) {
    const Real inverse_two_x2 = Real(1) / (Real(2) * x * x);
    Real term = 1;
    Real sum = 1;
    for (int n = 1; n <= terms; ++n) {
        term *= -Real(2 * n - 1) * inverse_two_x2;
        sum += term;
    }
    const Real inverse_sqrt_pi = Real(0.564189583547756286948079451560772586L);
    return sum * inverse_sqrt_pi / x;
}

// exp(x^2) erfc(x) with x^2 split into hi + lo (fma) so that exp(x^2) keeps full precision even
// when x^2 is large.
template <typename Real>
Real erfcx_direct(Real x) {
    const Real hi = x * x;
    const Real lo = std::fma(x, x, -hi);
    return std::exp(hi) * (Real(1) + lo) * detail::fast_erfc(x);
}

}  // namespace

double erfcx(double x) {
    // For x >= 26 eight terms leave a relative error below 2e-19; below 26 erfc(x) and exp(x^2)
    // stay within double range.
    if (x >= 26.0) return erfcx_asymptotic(x, 8);
    if (x < -26.0) return std::numeric_limits<double>::infinity();
    return erfcx_direct(x);
}

long double erfcx(long double x) {
    // For x >= 100 six terms leave a relative error below 2e-22.
    if (x >= 100.0L) return erfcx_asymptotic(x, 6);
    if (x < -106.0L) return std::numeric_limits<long double>::infinity();
    return erfcx_direct(x);
}

}  // namespace pgdp
