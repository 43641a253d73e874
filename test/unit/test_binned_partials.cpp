// dp_sum, dp_mean, dp_variance and dp_stddev with NULL bounds over Citus (0.14): the per-row map
// the workers and the single-node transition share (core binned_units), checked against the bin
// and units computed independently from frexp; the coordinator's per-bin partial rows (count, sum,
// squares) rebuild exactly the state of adding the rows one by one, in any split and order; and
// rows no values of their bin can give are refused with the state unchanged.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // Boost cpp_int, as in noise.cpp

#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "core/binned_squares.hpp"
#include "core/binned_sums.hpp"
#include "core/bounds_estimation.hpp"
#include "core/state_bytes.hpp"

namespace {

using pgdp::BinnedSquares;
using pgdp::BinnedUnits;
using Wide = boost::multiprecision::number<boost::multiprecision::cpp_int_backend<
    512, 512, boost::multiprecision::signed_magnitude, boost::multiprecision::unchecked, void>>;

constexpr double kInf = std::numeric_limits<double>::infinity();

// The bin and units of one value, from the definitions (binned_sums.hpp, bounds_estimation.hpp)
// rather than from the code under test: clamp to [lower, upper] and +-2^64; |x| < 2^-32 is the zero
// bin (index 96) in units of 2^-84 (rounded to nearest, ties to even); otherwise k = floor(log2 |x|)
// from frexp (at most 63), bin 97 + (k + 32) for x > 0 and its mirror 95 - (k + 32) for x < 0,
// units x / 2^(k - 52) exactly.
BinnedUnits expected_row(double x, double lower, double upper) {
    double kept = std::min(std::max(x, lower), upper);
    kept = std::min(std::max(kept, -18446744073709551616.0), 18446744073709551616.0);
    if (std::fabs(kept) < std::ldexp(1.0, -32))
        return BinnedUnits{96, static_cast<std::int64_t>(std::nearbyint(std::ldexp(kept, 84)))};
    int exponent = 0;
    (void)std::frexp(kept, &exponent);  // |kept| in [2^(exponent-1), 2^exponent)
    const int k = std::min(exponent - 1, 63);
    const std::size_t bin =
        kept > 0 ? static_cast<std::size_t>(97 + (k + 32)) : static_cast<std::size_t>(95 - (k + 32));
    return BinnedUnits{bin, static_cast<std::int64_t>(std::ldexp(kept, 52 - k))};
}

std::vector<double> every_kind_of_value(std::mt19937_64& generator, int count) {
    std::vector<double> values = {0.0,
                                  -0.0,
                                  std::numeric_limits<double>::denorm_min(),
                                  -std::numeric_limits<double>::denorm_min(),
                                  std::ldexp(1.0, -32),
                                  std::nextafter(std::ldexp(1.0, -32), 0.0),
                                  -std::ldexp(1.0, -32),
                                  std::ldexp(1.0, -85),
                                  std::ldexp(3.0, -86),
                                  1.0,
                                  -1.0,
                                  std::ldexp(1.0, 63),
                                  std::nextafter(std::ldexp(1.0, 64), 0.0),
                                  std::ldexp(1.0, 64),
                                  std::ldexp(1.0, 70),
                                  -std::ldexp(1.0, 70),
                                  kInf,
                                  -kInf,
                                  std::numeric_limits<double>::max(),
                                  9007199254740993.0,  // an int8 beyond 2^53, as float8
                                  5.0,
                                  4.0,
                                  7.999999999999999};
    std::uniform_int_distribution<int> exponent(-100, 80);
    std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
    for (int i = 0; i < count; ++i) values.push_back(std::ldexp(mantissa(generator), exponent(generator)));
    return values;
}

TEST(BinnedPartials, PerRowMapIsTheDefinitionsForEveryKindOfValueAndBound) {
    std::mt19937_64 generator(20261202);
    const std::vector<double> values = every_kind_of_value(generator, 200000);
    const double bounds[][2] = {{-kInf, kInf},
                                {0.0, kInf},
                                {5.0, kInf},
                                {-kInf, 100.0},
                                {-kInf, -std::ldexp(1.0, -32)},
                                {-std::ldexp(1.0, 63), kInf}};
    for (const auto& bound : bounds) {
        for (double x : values) {
            const BinnedUnits row = pgdp::binned_units(x, bound[0], bound[1]);
            const BinnedUnits expected = expected_row(x, bound[0], bound[1]);
            ASSERT_EQ(row.bin, expected.bin) << x << " in [" << bound[0] << ", " << bound[1] << "]";
            ASSERT_EQ(row.units, expected.units) << x << " in [" << bound[0] << ", " << bound[1] << "]";
            ASSERT_EQ(row.bin, pgdp::log_bin(std::min(std::max(std::min(std::max(x, bound[0]), bound[1]),
                                                               -18446744073709551616.0),
                                                      18446744073709551616.0)));
        }
    }
}

TEST(BinnedPartials, TheTransitionAddsThePerRowMap) {
    // add_binned_value / add_binned_square_value (the single-node transition without a given bound)
    // put each value where binned_units says, with its units and their square.
    std::mt19937_64 generator(7);
    for (double x : every_kind_of_value(generator, 2000)) {
        auto one = std::make_unique<BinnedSquares>();
        *one = BinnedSquares{};
        pgdp::add_binned_square_value(*one, x);
        const BinnedUnits row = expected_row(x, -kInf, kInf);
        ASSERT_EQ(one->sums.counts[row.bin], 1);
        ASSERT_EQ(one->sums.sums[row.bin].get(), static_cast<__int128>(row.units));
        const unsigned __int128 square =
            static_cast<unsigned __int128>(static_cast<__int128>(row.units) * row.units);
        ASSERT_EQ(one->squares[row.bin].limbs[0], static_cast<std::uint64_t>(square));
        ASSERT_EQ(one->squares[row.bin].limbs[1], static_cast<std::uint64_t>(square >> 64));
        ASSERT_EQ(one->squares[row.bin].limbs[2], 0u);
        auto sums = std::make_unique<pgdp::BinnedSums>();
        *sums = pgdp::BinnedSums{};
        pgdp::add_binned_value(*sums, x);
        ASSERT_EQ(std::memcmp(sums.get(), &one->sums, sizeof(pgdp::BinnedSums)), 0);
    }
}

// Per (shard, bin): the rows' count, sum of units and sum of squared units, as the workers' count(),
// sum(int8) and sum(numeric * numeric) compute them (exactly).
struct BinTotals {
    std::int64_t count = 0;
    Wide sum = 0;
    Wide squares = 0;
};

pgdp::SplitUint192 as_u192(const Wide& value) {
    pgdp::SplitUint192 out{};
    Wide rest = value;
    for (std::uint64_t& limb : out.limbs) {
        limb = static_cast<std::uint64_t>(rest & std::numeric_limits<std::uint64_t>::max());
        rest >>= 64;
    }
    return out;
}

__int128 as_i128(const Wide& value) {
    const bool negative = value < 0;
    const Wide magnitude = negative ? Wide(-value) : value;
    const auto low = static_cast<std::uint64_t>(magnitude & std::numeric_limits<std::uint64_t>::max());
    const auto high = static_cast<std::uint64_t>(magnitude >> 64);
    const __int128 result = static_cast<__int128>((static_cast<unsigned __int128>(high) << 64) | low);
    return negative ? -result : result;
}

TEST(BinnedPartials, AddingRowsPerBinEqualsAddingTheRowsOneByOne) {
    std::mt19937_64 generator(42);
    const double bounds[][2] = {{-kInf, kInf}, {0.0, kInf}, {-kInf, 1000.0}};
    for (const auto& bound : bounds) {
        for (int shards : {1, 3, 32}) {
            std::vector<double> values = every_kind_of_value(generator, 20000);
            // Many equal values too: bins with large totals.
            for (int i = 0; i < 5000; ++i) values.push_back(std::ldexp(1.0, 64));
            for (int i = 0; i < 5000; ++i) values.push_back(-std::nextafter(std::ldexp(1.0, 13), 0.0));
            auto one_by_one = std::make_unique<BinnedSquares>();
            *one_by_one = BinnedSquares{};
            std::vector<std::map<std::size_t, BinTotals>> per_shard(shards);
            std::uniform_int_distribution<int> shard(0, shards - 1);
            for (double x : values) {
                const BinnedUnits row = pgdp::binned_units(x, bound[0], bound[1]);
                pgdp::add_binned_square_row(*one_by_one, row);
                BinTotals& totals = per_shard[shard(generator)][row.bin];
                totals.count += 1;
                totals.sum += row.units;
                totals.squares += Wide(row.units) * row.units;
            }
            struct Row {
                std::size_t bin;
                BinTotals totals;
            };
            std::vector<Row> rows;
            for (const auto& bins : per_shard)
                for (const auto& [bin, totals] : bins) rows.push_back(Row{bin, totals});
            std::shuffle(rows.begin(), rows.end(), generator);
            auto from_rows = std::make_unique<BinnedSquares>();
            *from_rows = BinnedSquares{};
            auto sums_from_rows = std::make_unique<pgdp::BinnedSums>();
            *sums_from_rows = pgdp::BinnedSums{};
            for (const Row& row : rows) {
                pgdp::add_partial_bin_squares(*from_rows, row.bin, row.totals.count, as_i128(row.totals.sum),
                                              as_u192(row.totals.squares));
                pgdp::add_partial_bin(*sums_from_rows, row.bin, row.totals.count, as_i128(row.totals.sum));
            }
            ASSERT_EQ(std::memcmp(from_rows.get(), one_by_one.get(), sizeof(BinnedSquares)), 0);
            ASSERT_EQ(std::memcmp(sums_from_rows.get(), &one_by_one->sums, sizeof(pgdp::BinnedSums)), 0);
            // The rebuilt state also passes deserialization's checks (the same ones).
            const pgdp::StateBytes bytes = pgdp::serialize_binned_squares(*from_rows);
            auto again = std::make_unique<BinnedSquares>();
            pgdp::deserialize_binned_squares(bytes.data(), bytes.size(), *again);
            ASSERT_EQ(std::memcmp(again.get(), one_by_one.get(), sizeof(BinnedSquares)), 0);
        }
    }
}

// Expects add_partial_bin_squares (and, without squares, add_partial_bin) to refuse the row and
// leave the state byte for byte as it was.
void expect_refused(BinnedSquares& state, std::size_t bin, std::int64_t count, __int128 sum,
                    const Wide& squares, bool sums_too) {
    auto before = std::make_unique<BinnedSquares>(state);
    EXPECT_THROW(pgdp::add_partial_bin_squares(state, bin, count, sum, as_u192(squares)),
                 pgdp::CorruptStateError)
        << "bin " << bin << " count " << count;
    EXPECT_EQ(std::memcmp(before.get(), &state, sizeof(BinnedSquares)), 0);
    if (sums_too) {
        EXPECT_THROW(pgdp::add_partial_bin(state.sums, bin, count, sum), pgdp::CorruptStateError)
            << "bin " << bin << " count " << count;
        EXPECT_EQ(std::memcmp(before.get(), &state, sizeof(BinnedSquares)), 0);
    }
}

TEST(BinnedPartials, RowsNoValuesOfTheBinGiveAreRefusedWithTheStateUnchanged) {
    auto state = std::make_unique<BinnedSquares>();
    *state = BinnedSquares{};
    pgdp::add_binned_square_value(*state, 3.0);
    pgdp::add_binned_square_value(*state, -1e-20);
    const std::size_t one = pgdp::log_bin(1.0);  // [1, 2): m in [2^52, 2^53]
    const std::size_t minus = pgdp::log_bin(-1.0);
    const std::size_t zero = pgdp::kZeroLogBin;
    const Wide floor = Wide(1) << 52;
    // Bins outside the 193.
    expect_refused(*state, pgdp::kLogBinCount, 1, static_cast<__int128>(1) << 52, floor * floor, true);
    expect_refused(*state, static_cast<std::size_t>(-1), 1, static_cast<__int128>(1) << 52, floor * floor,
                   true);
    // A negative count; rows without a sum; a sum without rows.
    expect_refused(*state, one, -1, -(static_cast<__int128>(1) << 52), floor * floor, true);
    expect_refused(*state, one, 1, 0, 0, true);
    expect_refused(*state, one, 0, static_cast<__int128>(1) << 52, 0, true);
    // Sums past what the count of values of the bin can reach, or of the other sign.
    expect_refused(*state, one, 2, (static_cast<__int128>(1) << 54) + 1, Wide(1) << 108, true);
    expect_refused(*state, one, 2, (static_cast<__int128>(1) << 53) - 1, Wide(1) << 106, true);
    expect_refused(*state, minus, 1, static_cast<__int128>(1) << 52, floor * floor, true);
    expect_refused(*state, zero, 1, (static_cast<__int128>(1) << 52) + 1, 0, true);
    // Squares below what the sum forces (S^2 > n Q) or above what values of the bin give.
    const __int128 three_halves = static_cast<__int128>(3) << 51;  // 1.5 in units of 2^-52
    expect_refused(*state, one, 1, three_halves, Wide(three_halves) * three_halves - 1, false);
    expect_refused(*state, one, 2, 2 * three_halves, 2 * Wide(three_halves) * three_halves - 1, false);
    // n = 2, S = 3 * 2^52 (e.g. 2^52 and 2^53, Q = 5 * 2^104): Q may not pass (a + b) S - n a b = 5 * 2^104.
    expect_refused(*state, one, 2, static_cast<__int128>(3) << 52, Wide(5) * (Wide(1) << 104) + 1, false);
    // A count that would pass 2^63 - 1 in the bin or overall.
    expect_refused(*state, one, std::numeric_limits<std::int64_t>::max(), 0, 0, false);
    pgdp::BinnedSums sums{};
    sums.counts[one] = std::numeric_limits<std::int64_t>::max() - 1;
    sums.sums[one].set(static_cast<__int128>(sums.counts[one]) << 52);
    const pgdp::BinnedSums before = sums;
    EXPECT_THROW(pgdp::add_partial_bin(sums, zero, 2, 0), pgdp::CorruptStateError);
    EXPECT_EQ(std::memcmp(&before, &sums, sizeof(sums)), 0);
    // What real rows give is accepted: the extremes of the bin included.
    EXPECT_NO_THROW(pgdp::add_partial_bin_squares(*state, one, 2, static_cast<__int128>(3) << 52,
                                                  as_u192(Wide(5) * (Wide(1) << 104))));
    EXPECT_NO_THROW(pgdp::add_partial_bin_squares(*state, one, 0, 0, as_u192(0)));
    EXPECT_NO_THROW(pgdp::add_partial_bin_squares(*state, zero, 3, -(static_cast<__int128>(3) << 52),
                                                  as_u192(Wide(3) * floor * floor)));
}

TEST(BinnedPartials, DecimalSquaresParseExactlyBelow2To192) {
    pgdp::SplitUint192 value{};
    ASSERT_TRUE(pgdp::parse_decimal_u192("0", value));
    EXPECT_EQ(value.limbs[0] | value.limbs[1] | value.limbs[2], 0u);
    const Wide largest = (Wide(1) << 192) - 1;
    ASSERT_TRUE(pgdp::parse_decimal_u192(largest.str().c_str(), value));
    EXPECT_EQ(value.limbs[0], ~0ULL);
    EXPECT_EQ(value.limbs[1], ~0ULL);
    EXPECT_EQ(value.limbs[2], ~0ULL);
    const Wide some = (Wide(123456789) << 150) + (Wide(987654321) << 70) + 5;
    ASSERT_TRUE(pgdp::parse_decimal_u192(some.str().c_str(), value));
    const pgdp::SplitUint192 expected = as_u192(some);
    EXPECT_EQ(std::memcmp(&value, &expected, sizeof(value)), 0);
    EXPECT_FALSE(pgdp::parse_decimal_u192((largest + 1).str().c_str(), value));
    EXPECT_FALSE(pgdp::parse_decimal_u192("-1", value));
    EXPECT_FALSE(pgdp::parse_decimal_u192("1.5", value));
    EXPECT_FALSE(pgdp::parse_decimal_u192("", value));
    EXPECT_FALSE(pgdp::parse_decimal_u192(nullptr, value));
}

}  // namespace
