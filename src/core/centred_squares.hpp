// Exact, order-independent accumulation of the centred squares of clamped values for dp_variance
// and dp_stddev. A row's value is first accumulated as dp_sum does (clamped_sum.hpp: u units of
// 2^e); its offset from the bounds' midpoint is then c = 2u - (lower_units + upper_units) half
// units (2^(e-1)), an integer with |c| <= D = upper_units - lower_units < 2^63, and its square
// c^2 <= D^2 < 2^126 is exact in 128 bits. One row's square is rounded (ties up) to square units
// of 2^k half units squared, k the least shift with D^2 / 2^k < 2^62, so that a total over fewer
// than 2^63 rows stays below 2^125 and adds exactly in a signed 128-bit integer in any order.
// One square unit is 2^f value units squared, f = 2(e - 1) + k.
#pragma once

#include <cstdint>

namespace pgdp {

// The fixed-point units of one call's centred squares, fixed by its bounds. Plain data.
struct CentredSquareUnits {
    std::int64_t bounds_units;  // lower_units + upper_units: twice the midpoint, in units of 2^e
    std::int64_t spread;        // D = upper_units - lower_units: the largest |centred_half_units|
    int shift;                  // k
    int square_exponent;        // f: a square unit is 2^f (value units)^2
    std::int64_t largest;       // the largest square of a row, in square units: D^2 / 2^k rounded
};

// The units for bounds already validated by sum_unit_exponent (clamped_sum.hpp). Throws
// ArgumentError("upper") when a square unit or (upper - lower)^2 / 4 is not a normal double
// (bounds below about 1e-140 in magnitude, or further apart than about 1e154).
CentredSquareUnits centred_square_units(double lower, double upper, int unit_exponent);

// The centred square of a row whose clamped value is `units` (clamped_units), in square units.
std::int64_t centred_square(std::int64_t units, const CentredSquareUnits& squares);

// The centred value of a row in half units: 2 units - bounds_units.
inline std::int64_t centred_half_units(std::int64_t units, const CentredSquareUnits& squares) {
    return 2 * units - squares.bounds_units;
}

}  // namespace pgdp
