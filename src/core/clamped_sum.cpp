#include "core/cpp_only.hpp"
#include "core/clamped_sum.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/validate.hpp"

namespace pgdp {

int sum_unit_exponent(double lower, double upper) {
    if (!std::isfinite(lower)) {
        throw ArgumentError("lower", "lower must be a finite number, got " + shown(lower),
                            "Pass the smallest value a row may contribute, e.g. 0.");
    }
    if (!std::isfinite(upper)) {
        throw ArgumentError("upper", "upper must be a finite number, got " + shown(upper),
                            "Pass the largest value a row may contribute.");
    }
    if (lower > upper) {
        throw ArgumentError("lower",
                            "lower (" + shown(lower) + ") must not exceed upper (" + shown(upper) + ")",
                            "Values are clamped to [lower, upper]; swap the bounds.");
    }
    const double magnitude = std::max(std::fabs(lower), std::fabs(upper));
    if (magnitude == 0.0) {
        throw ArgumentError("upper", "lower and upper are both 0: every value would be clamped to 0",
                            "Pass bounds that contain the values, e.g. 0 and the largest plausible value.");
    }
    // ilogb(m) = floor(log2 m): m / 2^(ilogb(m) - 61) < 2^62.
    return std::max(std::ilogb(magnitude) - 61, -1074);
}

std::int64_t clamped_units(double value, double lower, double upper, int unit_exponent) {
    const double clamped = std::min(std::max(value, lower), upper);
    return std::llrint(std::ldexp(clamped, -unit_exponent));
}

double clamped_sum_sensitivity(double lower, double upper, int unit_exponent) {
    const std::int64_t low = clamped_units(lower, lower, upper, unit_exponent);
    const std::int64_t high = clamped_units(upper, lower, upper, unit_exponent);
    const std::int64_t most = std::max(low < 0 ? -low : low, high < 0 ? -high : high);
    return std::ldexp(static_cast<double>(most), unit_exponent);
}

__int128 units_to_grid(__int128 total, int unit_exponent, double granularity) {
    const int grid_exponent = std::ilogb(granularity);
    const int shift = grid_exponent - unit_exponent;
    const bool negative = total < 0;
    const unsigned __int128 magnitude =
        negative ? -static_cast<unsigned __int128>(total) : static_cast<unsigned __int128>(total);
    unsigned __int128 result;
    if (shift > 0) {
        if (shift >= 128) {
            result = 0;
        } else {
            const unsigned __int128 half = static_cast<unsigned __int128>(1) << (shift - 1);
            result = (magnitude >> shift) + ((magnitude & ((half << 1) - 1)) >= half ? 1 : 0);
        }
    } else {
        const int left = -shift;
        if (left >= 127 || (magnitude >> (126 - left)) != 0) {
            throw std::overflow_error("sum too large for the release grid");
        }
        result = magnitude << left;
    }
    return negative ? -static_cast<__int128>(result) : static_cast<__int128>(result);
}

double grid_units_to_double(__int128 grid_units, double granularity) {
    const long double units = static_cast<long double>(grid_units);
    return static_cast<double>(units * static_cast<long double>(granularity));
}

}  // namespace pgdp
