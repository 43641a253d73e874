#include "core/cpp_only.hpp"
#include "core/binned_squares.hpp"

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pgdp {

namespace {

// Fixed width (no allocation): a centred square of a value up to 2^64 in units of 2^Z, Z >= -1075,
// is below 2^2280, and a total over 2^63 rows below 2^2350.
using Wide = boost::multiprecision::number<boost::multiprecision::cpp_int_backend<
    2432, 2432, boost::multiprecision::signed_magnitude, boost::multiprecision::unchecked, void>>;

constexpr int kGridExponent = -84;  // binned_sums.hpp's zero-bin unit, the finest of the bins

Wide wide_u64(std::uint64_t value) { return Wide(value); }

Wide wide_i128(__int128 value) {
    const bool negative = value < 0;
    const unsigned __int128 magnitude =
        negative ? -static_cast<unsigned __int128>(value) : static_cast<unsigned __int128>(value);
    Wide out = wide_u64(static_cast<std::uint64_t>(magnitude >> 64));
    out <<= 64;
    out += wide_u64(static_cast<std::uint64_t>(magnitude));
    return negative ? Wide(-out) : out;
}

Wide wide_u192(const SplitUint192& value) {
    Wide out = wide_u64(value.limbs[2]);
    out <<= 64;
    out += wide_u64(value.limbs[1]);
    out <<= 64;
    out += wide_u64(value.limbs[0]);
    return out;
}

// A double as an exact integer number of 2^exponent (the caller ensures it is a multiple).
Wide in_units(double value, int exponent) {
    if (value == 0.0) return 0;
    int binary = 0;
    const double fraction = std::frexp(value, &binary);
    const auto mantissa = static_cast<std::int64_t>(std::ldexp(fraction, 53));
    const int shift = binary - 53 - exponent;
    if (shift >= 0) return Wide(mantissa) << shift;
    if (mantissa % (static_cast<std::int64_t>(1) << -shift) != 0)
        throw std::logic_error("a bound is not a multiple of the centred squares' unit");
    return Wide(mantissa >> -shift);
}

// floor(value / 2^shift), shift >= 0.
Wide floor_shift(const Wide& value, int shift) {
    if (value >= 0) return value >> shift;
    const Wide magnitude = -value;
    return -((magnitude + ((Wide(1) << shift) - 1)) >> shift);
}

// ceil(value / 2^shift), value >= 0, shift >= 0.
Wide ceil_shift(const Wide& value, int shift) { return (value + ((Wide(1) << shift) - 1)) >> shift; }

__int128 narrow(const Wide& value) {
    const bool negative = value < 0;
    const Wide magnitude = negative ? Wide(-value) : value;
    if (magnitude >> 126 != 0) throw std::overflow_error("a sum of centred squares beyond 126 bits");
    const auto low = static_cast<std::uint64_t>(magnitude & std::numeric_limits<std::uint64_t>::max());
    const auto high = static_cast<std::uint64_t>(magnitude >> 64);
    const unsigned __int128 result = (static_cast<unsigned __int128>(high) << 64) | low;
    return negative ? -static_cast<__int128>(result) : static_cast<__int128>(result);
}

// The unit 2^Z every quantity of a frame is an integer number of: the bins' finest unit, or the
// centre's half unit if finer.
int frame_exponent(const CentredSquaresFrame& frame) {
    return std::min(kGridExponent, frame.unit_exponent - 1);
}

Wide centre_in_units(const CentredSquaresFrame& frame, int z) {
    return Wide(frame.centre_half_units) << (frame.unit_exponent - 1 - z);
}

}  // namespace

void SplitUint192::add(unsigned __int128 value) {
    const auto low = static_cast<std::uint64_t>(value);
    const auto high = static_cast<std::uint64_t>(value >> 64);
    limbs[0] += low;
    std::uint64_t carry = limbs[0] < low ? 1 : 0;
    limbs[1] += high;
    std::uint64_t next = limbs[1] < high ? 1 : 0;
    limbs[1] += carry;
    next += limbs[1] < carry ? 1 : 0;
    limbs[2] += next;
}

void SplitUint192::add(const SplitUint192& other) {
    add((static_cast<unsigned __int128>(other.limbs[1]) << 64) | other.limbs[0]);
    limbs[2] += other.limbs[2];
}

void add_binned_square_value(BinnedSquares& binned, double value) {
    add_binned_square_row(binned, binned_units(value, -HUGE_VAL, HUGE_VAL));
}

void add_binned_square_row(BinnedSquares& binned, const BinnedUnits& row) {
    binned.sums.counts[row.bin] += 1;
    binned.sums.sums[row.bin].add(row.units);
    const unsigned __int128 magnitude =
        static_cast<unsigned __int128>(row.units < 0 ? -row.units : row.units);
    binned.squares[row.bin].add(magnitude * magnitude);
}

bool possible_bin_squares(std::size_t bin, std::int64_t count, __int128 sum, const SplitUint192& squares) {
    if (!possible_bin_sum(bin, count, sum)) return false;
    // The bin's values are m units with a <= m <= b.
    const Wide floor = Wide(1) << 52;
    const Wide a = bin < kZeroLogBin ? Wide(-2 * floor) : bin == kZeroLogBin ? Wide(-floor) : floor;
    const Wide b = bin < kZeroLogBin ? Wide(-floor) : bin == kZeroLogBin ? floor : Wide(2 * floor);
    const Wide s = wide_i128(sum);
    const Wide q = wide_u192(squares);
    return !(s * s > q * count || q > (a + b) * s - a * b * count);
}

void add_partial_bin_squares(BinnedSquares& binned, std::size_t bin, std::int64_t count, __int128 sum,
                             const SplitUint192& squares) {
    if (bin >= kLogBinCount) throw CorruptStateError("binned partial: a bin outside the log bins");
    if (!possible_bin_squares(bin, count, sum, squares)) {
        throw CorruptStateError(
            "binned partial: a bin's sum or sum of squares outside what its count can add up to");
    }
    add_partial_bin(binned.sums, bin, count, sum);  // the count's overflow check, then the sum
    binned.squares[bin].add(squares);
}

bool parse_decimal_u192(const char* text, SplitUint192& out) {
    if (text == nullptr || *text == '\0') return false;
    Wide value = 0;
    const Wide limit = Wide(1) << 192;
    for (; *text != '\0'; ++text) {
        if (*text < '0' || *text > '9') return false;
        value = value * 10 + (*text - '0');
        if (value >= limit) return false;
    }
    for (std::uint64_t& limb : out.limbs) {
        limb = static_cast<std::uint64_t>(value & std::numeric_limits<std::uint64_t>::max());
        value >>= 64;
    }
    return true;
}

void merge_binned_squares(BinnedSquares& into, const BinnedSquares& other) {
    merge_binned_sums(into.sums, other.sums);
    for (std::size_t i = 0; i < kLogBinCount; ++i) into.squares[i].add(other.squares[i]);
}

bool is_binned_grid_value(double bound) {
    return std::isfinite(bound) &&
           std::ldexp(bound, -kGridExponent) == std::trunc(std::ldexp(bound, -kGridExponent));
}

__int128 clamped_centred_square_units(const BinnedSquares& binned, const CentredSquaresFrame& frame) {
    const int z = frame_exponent(frame);
    const Wide centre = centre_in_units(frame, z);
    const Wide below = in_units(frame.lower, z) - centre;
    const Wide above = in_units(frame.upper, z) - centre;
    Wide total = 0;  // in units of 2^(2z)
    for (std::size_t i = 0; i < kLogBinCount; ++i) {
        const std::int64_t count = binned.sums.counts[i];
        if (count == 0) continue;
        if (log_bin_upper_edge(i) <= frame.lower) {
            total += below * below * count;
        } else if (log_bin_lower_edge(i) >= frame.upper) {
            total += above * above * count;
        } else {
            const int shift = bin_sum_unit_exponent(i) - z;
            const Wide sum = wide_i128(binned.sums.sums[i].get()) << shift;
            const Wide squares = wide_u192(binned.squares[i]) << (2 * shift);
            total += squares - 2 * centre * sum + centre * centre * count;
        }
    }
    return narrow(floor_shift(total, frame.square_exponent - 2 * z));
}

std::int64_t floored_squares_sensitivity(const CentredSquaresFrame& frame) {
    const int z = frame_exponent(frame);
    const Wide centre = centre_in_units(frame, z);
    const Wide below = in_units(frame.lower, z) - centre;
    const Wide above = in_units(frame.upper, z) - centre;
    const Wide most = std::max(Wide(below * below), Wide(above * above));
    const Wide units = ceil_shift(most, frame.square_exponent - 2 * z);
    if (units >> 62 != 0) throw std::overflow_error("a centred square beyond 62 bits");
    return static_cast<std::int64_t>(units);
}

StateBytes serialize_binned_squares(const BinnedSquares& binned) {
    StateWriter writer(kBinnedSquaresStateVersion);
    writer.put_u32(static_cast<std::uint32_t>(kLogBinCount));
    for (std::size_t i = 0; i < kLogBinCount; ++i) {
        writer.put_i64(binned.sums.counts[i]);
        writer.put_u64(binned.sums.sums[i].low);
        writer.put_i64(binned.sums.sums[i].high);
        for (std::uint64_t limb : binned.squares[i].limbs) writer.put_u64(limb);
    }
    return writer.take();
}

void deserialize_binned_squares(const unsigned char* data, std::size_t size, BinnedSquares& binned) {
    StateReader reader(data, size, kBinnedSquaresStateVersion, "estimated-bounds variance state");
    if (reader.get_u32() != kLogBinCount || reader.remaining() != 48 * kLogBinCount) {
        reader.fail("its length does not match the bins");
    }
    for (std::size_t i = 0; i < kLogBinCount; ++i) {
        binned.sums.counts[i] = reader.get_i64();
        binned.sums.sums[i].low = reader.get_u64();
        binned.sums.sums[i].high = reader.get_i64();
        for (std::uint64_t& limb : binned.squares[i].limbs) limb = reader.get_u64();
        const std::int64_t count = binned.sums.counts[i];
        if (count < 0) reader.fail("a negative count");
        if (!possible_bin_sum(i, count, binned.sums.sums[i].get()))
            reader.fail("a bin's sum outside what its count can add up to");
        if (!possible_bin_squares(i, count, binned.sums.sums[i].get(), binned.squares[i]))
            reader.fail("a bin's sum of squares outside what its count and sum can add up to");
    }
    reader.expect_end();
}

}  // namespace pgdp
