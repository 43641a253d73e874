// Exact sums per log bin, for a statistic whose clamping bounds are estimated in the same pass
// (bounds_estimation.hpp): the state cannot clamp as rows arrive, but the estimated bounds are
// log-bin edges, so the clamped total is computed exactly afterwards from each bin's count and
// exact sum (a bin below the bounds adds count * lower, above count * upper, inside its own sum).
//
// Exactness: a double x in the binade of exponent k (2^k <= |x| < 2^(k+1)) is m * 2^(k-52) for
// an integer 2^52 <= |m| < 2^53, so a bin's sum is kept as an integer number of 2^(k-52): at most
// 2^63 rows of 2^53 units, below 2^116, fits 128 bits. Values are first clamped to [-2^64, 2^64]
// (no estimated bound lies beyond; 2^64 is m = 2^53 in the top bin). The zero bin (|x| < 2^-32)
// keeps units of 2^-84, each row's value rounded to them (an error below 2^-85 per row, a fixed
// map of the row, so the sensitivity is unaffected). Totals combine by addition in any order.
// docs/statistics/histograms.md "Bounds the analyst need not guess".
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/bounds_estimation.hpp"
#include "core/state_bytes.hpp"

namespace pgdp {

// A signed 128-bit integer as two 64-bit halves: palloc guarantees only 8-byte alignment, so
// states in PostgreSQL memory hold no __int128 members.
struct SplitInt128 {
    std::uint64_t low;
    std::int64_t high;

    __int128 get() const {
        return static_cast<__int128>(high) * (static_cast<__int128>(1) << 64) + static_cast<__int128>(low);
    }
    void set(__int128 value) {
        low = static_cast<std::uint64_t>(value);
        high = static_cast<std::int64_t>(value >> 64);
    }
    void add(__int128 value) { set(get() + value); }
};

// Plain data (zero-initialised is empty): 193 x 24 = 4632 bytes.
struct BinnedSums {
    std::int64_t counts[kLogBinCount];
    SplitInt128 sums[kLogBinCount];  // bin i in units of 2^bin_sum_unit_exponent(i)
};

// The largest magnitude a value keeps (values beyond are clamped to it first).
constexpr double kBinnedValueLimit = 18446744073709551616.0;  // 2^64

// k - 52 for the bin of exponent k; -84 for the zero bin.
int bin_sum_unit_exponent(std::size_t bin);

// One row's place in the bins: its value clamped to [lower, upper] (a side not given: -+infinity)
// and to +-2^64, its bin and its exact units of 2^bin_sum_unit_exponent(bin) (|units| <= 2^53).
// The one per-row map of the single-node transition and of the Citus workers (pgdp.log_bin,
// pgdp.binned_units), so the two cannot drift. value not NaN.
struct BinnedUnits {
    std::size_t bin;
    std::int64_t units;
};
BinnedUnits binned_units(double value, double lower, double upper);

// Adds one row (value not NaN; the caller skips NaN as dp_sum does): add_binned_row of
// binned_units(value, -infinity, +infinity).
void add_binned_value(BinnedSums& sums, double value);
void add_binned_row(BinnedSums& sums, const BinnedUnits& row);

// True if `count` values of bin `bin` can add up to `sum` units (count >= 0, each value m units
// with 2^52 <= |m| <= 2^53 of the bin's sign; the zero bin |m| <= 2^52): the check deserialize
// applies to every bin.
bool possible_bin_sum(std::size_t bin, std::int64_t count, __int128 sum);

// Adds a Citus worker's exact totals of one bin (rows counted, sum of binned_units): refused
// (CorruptStateError, sums unchanged) for a bin outside [0, kLogBinCount), a total no rows of the
// bin give (possible_bin_sum) or a count that would pass 2^63 - 1 in the bin or in all bins.
void add_partial_bin(BinnedSums& sums, std::size_t bin, std::int64_t count, __int128 sum);

// into += other, exactly.
void merge_binned_sums(BinnedSums& into, const BinnedSums& other);

std::int64_t binned_rows(const BinnedSums& sums);

// floor(S / 2^unit_exponent) with S the exact total of the rows clamped to [lower, upper]:
// lower < upper, each a log-bin edge or a bound the rows were already clamped to when added
// (such that every bin lies wholly below lower, inside or above upper; bounded_release_bounds).
// The floor moves by at most max(|lower|, |upper|) / 2^e when one row is added or removed (an
// integer when e = sum_unit_exponent(lower, upper)), the sensitivity the release plan charges.
__int128 clamped_total_units(const BinnedSums& sums, double lower, double upper, int unit_exponent);

// Version byte, bin count, per bin count and sum (24 bytes); deserialize checks every bin's sum
// against what its count of values can add up to (CorruptStateError otherwise), so no state can
// carry a total beyond the bins' ranges.
StateBytes serialize_binned_sums(const BinnedSums& sums);
void deserialize_binned_sums(const unsigned char* data, std::size_t size, BinnedSums& sums);
constexpr std::uint8_t kBinnedSumsStateVersion = 0x42;  // never a bounded state's version byte

}  // namespace pgdp
