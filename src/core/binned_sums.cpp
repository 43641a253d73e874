#include "core/cpp_only.hpp"
#include "core/binned_sums.hpp"

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <limits>

namespace pgdp {

namespace {

using Int256 = boost::multiprecision::int256_t;

constexpr int kZeroBinUnitExponent = kLogBinMinExponent - 52;  // -84

// The exponent k of a bin other than the zero bin (|x| in [2^k, 2^(k+1))).
int exponent_of(std::size_t bin) {
    return bin < kZeroLogBin ? kLogBinMaxExponent - static_cast<int>(bin)
                             : kLogBinMinExponent + static_cast<int>(bin - kZeroLogBin - 1);
}

Int256 wide(__int128 value) {
    const bool negative = value < 0;
    const unsigned __int128 magnitude =
        negative ? -static_cast<unsigned __int128>(value) : static_cast<unsigned __int128>(value);
    Int256 out = static_cast<std::uint64_t>(magnitude >> 64);
    out <<= 64;
    out += static_cast<std::uint64_t>(magnitude);
    return negative ? Int256(-out) : out;
}

// A double as an exact integer number of 2^kZeroBinUnitExponent (|value| <= 2^64; a value finer
// than the unit, which multiplies only empty bins, is rounded).
Int256 in_finest_units(double value) {
    if (value == 0.0) return 0;
    int exponent = 0;
    const double fraction = std::frexp(value, &exponent);  // value = fraction * 2^exponent
    const auto mantissa = static_cast<std::int64_t>(std::ldexp(fraction, 53));
    const int shift = exponent - 53 - kZeroBinUnitExponent;
    if (shift >= 0) return Int256(mantissa) << shift;
    return Int256(std::llrint(std::ldexp(value, -kZeroBinUnitExponent)));
}

// floor(value / 2^shift) (a left shift for shift < 0).
Int256 floor_shift(const Int256& value, int shift) {
    if (shift <= 0) return value << -shift;
    if (value >= 0) return value >> shift;
    const Int256 magnitude = -value;
    return -((magnitude + ((Int256(1) << shift) - 1)) >> shift);
}

__int128 narrow(const Int256& value) {
    const bool negative = value < 0;
    const Int256 magnitude = negative ? Int256(-value) : value;
    const auto low = static_cast<std::uint64_t>(magnitude & std::numeric_limits<std::uint64_t>::max());
    const auto high = static_cast<std::uint64_t>(magnitude >> 64);
    const unsigned __int128 result = (static_cast<unsigned __int128>(high) << 64) | low;
    return negative ? -static_cast<__int128>(result) : static_cast<__int128>(result);
}

}  // namespace

int bin_sum_unit_exponent(std::size_t bin) {
    return bin == kZeroLogBin ? kZeroBinUnitExponent : exponent_of(bin) - 52;
}

BinnedUnits binned_units(double value, double lower, double upper) {
    const double clamped = std::fmin(std::fmax(value, lower), upper);
    const double kept = std::fmin(std::fmax(clamped, -kBinnedValueLimit), kBinnedValueLimit);
    const std::size_t bin = log_bin(kept);
    return BinnedUnits{bin, std::llrint(std::ldexp(kept, -bin_sum_unit_exponent(bin)))};
}

void add_binned_row(BinnedSums& sums, const BinnedUnits& row) {
    sums.counts[row.bin] += 1;
    sums.sums[row.bin].add(row.units);
}

void add_binned_value(BinnedSums& sums, double value) {
    add_binned_row(sums, binned_units(value, -HUGE_VAL, HUGE_VAL));
}

bool possible_bin_sum(std::size_t bin, std::int64_t count, __int128 sum) {
    if (bin >= kLogBinCount || count < 0) return false;
    constexpr __int128 kMantissaFloor = static_cast<__int128>(1) << 52;
    const __int128 magnitude = bin < kZeroLogBin ? -sum : sum;
    const __int128 least = bin == kZeroLogBin ? -kMantissaFloor * count : kMantissaFloor * count;
    const __int128 most = (bin == kZeroLogBin ? kMantissaFloor : 2 * kMantissaFloor) * count;
    return magnitude >= least && magnitude <= most;
}

void add_partial_bin(BinnedSums& sums, std::size_t bin, std::int64_t count, __int128 sum) {
    if (bin >= kLogBinCount) throw CorruptStateError("binned partial: a bin outside the log bins");
    if (!possible_bin_sum(bin, count, sum))
        throw CorruptStateError("binned partial: a bin's sum outside what its count can add up to");
    constexpr std::int64_t kMost = std::numeric_limits<std::int64_t>::max();
    if (sums.counts[bin] > kMost - count || binned_rows(sums) > kMost - count)
        throw CorruptStateError("binned partial: more than 2^63 - 1 rows");
    sums.counts[bin] += count;
    sums.sums[bin].add(sum);
}

void merge_binned_sums(BinnedSums& into, const BinnedSums& other) {
    for (std::size_t i = 0; i < kLogBinCount; ++i) {
        into.counts[i] += other.counts[i];
        into.sums[i].add(other.sums[i].get());
    }
}

std::int64_t binned_rows(const BinnedSums& sums) {
    std::int64_t rows = 0;
    for (std::size_t i = 0; i < kLogBinCount; ++i) rows += sums.counts[i];
    return rows;
}

__int128 clamped_total_units(const BinnedSums& sums, double lower, double upper, int unit_exponent) {
    const Int256 lower_units = in_finest_units(lower);
    const Int256 upper_units = in_finest_units(upper);
    Int256 total = 0;
    for (std::size_t i = 0; i < kLogBinCount; ++i) {
        const std::int64_t count = sums.counts[i];
        if (count == 0) continue;
        if (log_bin_upper_edge(i) <= lower) {
            total += lower_units * count;
        } else if (log_bin_lower_edge(i) >= upper) {
            total += upper_units * count;
        } else {
            total += wide(sums.sums[i].get()) << (bin_sum_unit_exponent(i) - kZeroBinUnitExponent);
        }
    }
    return narrow(floor_shift(total, unit_exponent - kZeroBinUnitExponent));
}

StateBytes serialize_binned_sums(const BinnedSums& sums) {
    StateWriter writer(kBinnedSumsStateVersion);
    writer.put_u32(static_cast<std::uint32_t>(kLogBinCount));
    for (std::size_t i = 0; i < kLogBinCount; ++i) {
        writer.put_i64(sums.counts[i]);
        writer.put_u64(sums.sums[i].low);
        writer.put_i64(sums.sums[i].high);
    }
    return writer.take();
}

void deserialize_binned_sums(const unsigned char* data, std::size_t size, BinnedSums& sums) {
    StateReader reader(data, size, kBinnedSumsStateVersion, "estimated-bounds state");
    if (reader.get_u32() != kLogBinCount || reader.remaining() != 24 * kLogBinCount) {
        reader.fail("its length does not match the bins");
    }
    for (std::size_t i = 0; i < kLogBinCount; ++i) {
        sums.counts[i] = reader.get_i64();
        sums.sums[i].low = reader.get_u64();
        sums.sums[i].high = reader.get_i64();
        if (sums.counts[i] < 0) reader.fail("a negative count");
        if (!possible_bin_sum(i, sums.counts[i], sums.sums[i].get()))
            reader.fail("a bin's sum outside what its count can add up to");
    }
    reader.expect_end();
}

}  // namespace pgdp
