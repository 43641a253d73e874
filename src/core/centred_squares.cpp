#include "core/cpp_only.hpp"
#include "core/centred_squares.hpp"

#include <cmath>
#include <limits>

#include "core/clamped_sum.hpp"
#include "core/errors.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

using u128 = unsigned __int128;

int bit_width(u128 x) {
    int bits = 0;
    while (x != 0) {
        x >>= 1;
        ++bits;
    }
    return bits;
}

u128 rounded_shift(u128 x, int shift) {
    if (shift == 0) return x;
    return (x + (static_cast<u128>(1) << (shift - 1))) >> shift;
}

}  // namespace

CentredSquareUnits centred_square_units(double lower, double upper, int unit_exponent) {
    const std::int64_t low = clamped_units(lower, lower, upper, unit_exponent);
    const std::int64_t high = clamped_units(upper, lower, upper, unit_exponent);
    // |low|, |high| < 2^62: their sum and difference fit 64 bits.
    const u128 spread = static_cast<u128>(static_cast<std::uint64_t>(high - low));
    const u128 spread_squared = spread * spread;
    const int width = bit_width(spread_squared);
    CentredSquareUnits out{};
    out.bounds_units = low + high;
    out.spread = high - low;
    out.shift = width > 62 ? width - 62 : 0;
    out.square_exponent = 2 * (unit_exponent - 1) + out.shift;
    out.largest = static_cast<std::int64_t>(rounded_shift(spread_squared, out.shift));
    const double largest_value = std::ldexp(static_cast<double>(out.largest), out.square_exponent);
    if (out.square_exponent < std::numeric_limits<double>::min_exponent - 1 ||
        !std::isfinite(largest_value)) {
        throw ArgumentError("upper",
                            "lower (" + shown(lower) + ") and upper (" + shown(upper) +
                                ") are too small or too far apart for a variance: (upper - lower)^2/4 "
                                "and its accumulation unit must be normal doubles",
                            "Rescale the values, e.g. so that the bounds lie between 1e-100 and 1e150 in "
                            "magnitude.");
    }
    return out;
}

std::int64_t centred_square(std::int64_t units, const CentredSquareUnits& squares) {
    const std::int64_t centred = centred_half_units(units, squares);
    const __int128 wide = centred;
    const u128 magnitude = static_cast<u128>(wide < 0 ? -wide : wide);
    return static_cast<std::int64_t>(rounded_shift(magnitude * magnitude, squares.shift));
}

}  // namespace pgdp
