// Exact sums of squares per log bin, next to binned_sums.hpp's counts and sums, for dp_variance
// and dp_stddev with bounds the analyst need not guess: once the bounds are known (bin edges or
// given bounds the rows were clamped to), the exact total of the centred squares of the clamped
// values follows from each bin's count n, sum S and sum of squares Q: a bin inside the bounds adds
// Q - 2 c S + n c^2, one below n (lower - c)^2, one above n (upper - c)^2 (c the centre).
//
// Exactness: a value of the bin of exponent k is m units of 2^(k-52) with |m| <= 2^53 (the zero
// bin: |m| <= 2^52 units of 2^-84, its value rounded to them as in binned_sums.hpp), so its square
// is m^2 <= 2^106 units of 2^(2(k-52)), and a bin's total over fewer than 2^63 rows stays below
// 2^169: three 64-bit limbs. docs/privacy.md "dp_variance and dp_stddev with NULL bounds".
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/binned_sums.hpp"
#include "core/state_bytes.hpp"

namespace pgdp {

// An unsigned 192-bit integer as three 64-bit limbs, least significant first (plain data,
// 8-byte aligned for palloc).
struct SplitUint192 {
    std::uint64_t limbs[3];

    void add(unsigned __int128 value);
    void add(const SplitUint192& other);
};

// Plain data (zero-initialised is empty): 4632 + 193 x 24 = 9264 bytes.
struct BinnedSquares {
    BinnedSums sums;
    SplitUint192 squares[kLogBinCount];  // bin i in units of 2^(2 bin_sum_unit_exponent(i))
};

// Adds one row to the counts, sums and squares (value not NaN): add_binned_square_row of
// binned_units(value, -infinity, +infinity).
void add_binned_square_value(BinnedSquares& binned, double value);
void add_binned_square_row(BinnedSquares& binned, const BinnedUnits& row);

// True if `count` values of bin `bin` can give the sum and the sum of squares (possible_bin_sum,
// then S^2 <= n Q and Q <= (a + b) S - n a b for values in [a, b] units): deserialize's check of
// every bin.
bool possible_bin_squares(std::size_t bin, std::int64_t count, __int128 sum, const SplitUint192& squares);

// Adds a Citus worker's exact totals of one bin (rows, sum of binned_units, sum of their squares):
// refused (CorruptStateError, state unchanged) as add_partial_bin, and for squares
// possible_bin_squares rejects. Each row checked alone suffices: the checks are closed under
// adding rows (linear, and Cauchy-Schwarz for S^2 <= n Q).
void add_partial_bin_squares(BinnedSquares& binned, std::size_t bin, std::int64_t count, __int128 sum,
                             const SplitUint192& squares);

// A non-negative decimal integer (digits only) below 2^192; false otherwise (out unspecified).
bool parse_decimal_u192(const char* text, SplitUint192& out);

// into += other, exactly.
void merge_binned_squares(BinnedSquares& into, const BinnedSquares& other);

// True if the bound is an exact multiple of 2^-84 (0, or any double of magnitude >= 2^-32): the
// values a given bound next to an estimated one may take for dp_variance (the rows clamped to it
// then keep it exactly, zero bin included).
bool is_binned_grid_value(double bound);

// The centre c = centre_half_units * 2^(unit_exponent - 1) of the release (centred_squares.hpp's
// midpoint of the bounds' units). lower < upper, each a bin edge or a bound the rows were clamped
// to when added, both multiples of 2^-84 (is_binned_grid_value), every bin wholly below lower,
// inside or above upper (bounds_for_release); square_exponent >= 2 (unit_exponent - 1).
struct CentredSquaresFrame {
    double lower;
    double upper;
    std::int64_t centre_half_units;
    int unit_exponent;
    int square_exponent;
};

// floor(S2 / 2^square_exponent), S2 the exact sum over the rows of (clamp(x) - c)^2. Adding or
// removing one row moves it by at most floored_squares_sensitivity (floor(a + b) - floor(a) <=
// ceil(b) for b >= 0), which is at least 0.
__int128 clamped_centred_square_units(const BinnedSquares& binned, const CentredSquaresFrame& frame);

// ceil(max over x in [lower, upper] of (x - c)^2 / 2^square_exponent).
std::int64_t floored_squares_sensitivity(const CentredSquaresFrame& frame);

// Version byte, bin count, per bin count, sum (two words) and squares (three): 48 bytes.
// Deserialize checks, per bin of n values m in [a, b] units (binned_sums.hpp's sum check, then)
// S^2 <= n Q (Cauchy-Schwarz) and Q <= (a + b) S - n a b (sum of (m - a)(b - m) >= 0), which
// every set of n such values meets and which keep each bin's centred squares within
// [0, n max((a - c)^2, (b - c)^2)]: no state can carry squares its count could not give.
StateBytes serialize_binned_squares(const BinnedSquares& binned);
void deserialize_binned_squares(const unsigned char* data, std::size_t size, BinnedSquares& binned);
constexpr std::uint8_t kBinnedSquaresStateVersion = 0x43;  // never another state's version byte

}  // namespace pgdp
