// Exact, order-independent accumulation of clamped values for the aggregates: each value is
// clamped to [lower, upper] and converted to a signed integer number of units 2^unit_exponent
// (the unit is chosen from the bounds so a unit count stays below 2^62); totals add in 128-bit
// integers, so combining partial states is exact in any order (parallel plans). The total is
// rounded to the release grid once, at the end.
#pragma once

#include <cstdint>

namespace pgdp {

// Validates the bounds (finite, lower <= upper; ArgumentError naming "lower" or "upper") and
// returns the unit exponent e with max(|lower|, |upper|) / 2^e < 2^62.
int sum_unit_exponent(double lower, double upper);

// round(clamp(value, lower, upper) / 2^e) (ties to even). value must not be NaN.
std::int64_t clamped_units(double value, double lower, double upper, int unit_exponent);

// The most one row can move a total, in value units: max |clamped_units(x)| * 2^e over
// x in [lower, upper] (>= max(|lower|, |upper|), above it by at most 2^(e-1)).
double clamped_sum_sensitivity(double lower, double upper, int unit_exponent);

// total * 2^e rounded to the nearest multiple of the power-of-two granularity (ties away from
// zero), as a count of grid steps. Throws std::overflow_error if it does not fit 127 bits.
__int128 units_to_grid(__int128 total, int unit_exponent, double granularity);

// grid_units * granularity as a double: exact while |grid_units| < 2^53, otherwise rounded
// (post-processing of an already noised value, so privacy is unaffected).
double grid_units_to_double(__int128 grid_units, double granularity);

}  // namespace pgdp
