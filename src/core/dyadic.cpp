#include "core/cpp_only.hpp"
// GCC 12 reports a false -Wmaybe-uninitialized inside Boost 1.74's cpp_int (as in noise.cpp).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "core/dyadic.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace pgdp {

Rational Dyadic::to_rational() const {
    const BigInt m(mantissa);
    if (exponent >= 0) return Rational(m << exponent);
    return Rational(m, BigInt(1) << -exponent);
}

double Dyadic::to_double() const { return std::ldexp(static_cast<double>(mantissa), exponent); }

Dyadic dyadic_from_rational(const Rational& value) {
    BigInt m = numerator(value);
    const BigInt& d = denominator(value);  // positive, in lowest terms
    const unsigned d_bits = static_cast<unsigned>(msb(d));
    if (d != (BigInt(1) << d_bits)) throw std::logic_error("dyadic_from_rational: not a dyadic rational");
    int exponent = -static_cast<int>(d_bits);
    // An integer too wide for the mantissa may still be m 2^e with a short m.
    while (m != 0 && (m & 1) == 0 && abs(m) > std::numeric_limits<std::int64_t>::max()) {
        m >>= 1;
        ++exponent;
    }
    if (abs(m) > std::numeric_limits<std::int64_t>::max()) {
        throw std::logic_error("dyadic_from_rational: mantissa does not fit 63 bits");
    }
    return Dyadic{static_cast<std::int64_t>(m), exponent};
}

}  // namespace pgdp
