// Fixed-point accumulation for the aggregates, checked against exact rational arithmetic
// (Boost.Multiprecision), plus the issue-3 bar at core level: with epsilon = 1e6 a release equals
// the clamped exact value on the grid.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // Boost 1.74 cpp_int, as in noise.cpp

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/clamped_sum.hpp"
#include "core/errors.hpp"
#include "core/exact_sampling.hpp"
#include "core/release_plan.hpp"

namespace {

using pgdp::BigInt;
using pgdp::Rational;

Rational exact(double x) {
    int exponent = 0;
    const double mantissa = std::frexp(x, &exponent);
    const auto scaled = static_cast<std::int64_t>(std::ldexp(mantissa, 53));
    Rational r(scaled);
    exponent -= 53;
    if (exponent >= 0) return r * Rational(BigInt(1) << exponent);
    return r / Rational(BigInt(1) << -exponent);
}

BigInt to_big(__int128 value) {
    const bool negative = value < 0;
    unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(value) : value;
    BigInt big = BigInt(static_cast<std::uint64_t>(magnitude >> 64));
    big <<= 64;
    big += BigInt(static_cast<std::uint64_t>(magnitude));
    return negative ? -big : big;
}

TEST(ClampedSum, RejectsBadBounds) {
    auto argument = [](double lower, double upper) {
        try {
            pgdp::sum_unit_exponent(lower, upper);
        } catch (const pgdp::ArgumentError& error) {
            return error.argument();
        }
        return std::string("no error");
    };
    EXPECT_EQ(argument(2.0, 1.0), "lower");
    EXPECT_EQ(argument(NAN, 1.0), "lower");
    EXPECT_EQ(argument(0.0, INFINITY), "upper");
    EXPECT_EQ(argument(-5.0, -5.0), "no error");
}

TEST(ClampedSum, UnitsAreExactRoundingOfClampedValues) {
    std::mt19937_64 generator(7);
    std::uniform_real_distribution<double> uniform(-3e5, 3e5);
    for (auto [lower, upper] : {std::pair{0.0, 200000.0}, std::pair{-1.5, 2.25}, std::pair{-1e-3, 1e-3}}) {
        const int e = pgdp::sum_unit_exponent(lower, upper);
        EXPECT_LT(std::max(std::fabs(lower), std::fabs(upper)), std::ldexp(1.0, 62 + e));
        const Rational unit = exact(std::ldexp(1.0, e));
        for (int i = 0; i < 2000; ++i) {
            const double x = uniform(generator) * (upper - lower) / 6e5;
            const double clamped = std::min(std::max(x, lower), upper);
            const std::int64_t units = pgdp::clamped_units(x, lower, upper, e);
            // |units * 2^e - clamped| <= 2^(e-1), exactly.
            const Rational error = Rational(BigInt(units)) * unit - exact(clamped);
            EXPECT_LE(abs(error), unit / 2) << x;
            EXPECT_LE(std::fabs(std::ldexp(static_cast<double>(units), e)),
                      pgdp::clamped_sum_sensitivity(lower, upper, e));
        }
        EXPECT_GE(pgdp::clamped_sum_sensitivity(lower, upper, e),
                  std::max(std::fabs(lower), std::fabs(upper)));
    }
}

TEST(ClampedSum, GridRoundingMatchesExactArithmetic) {
    std::mt19937_64 generator(11);
    for (int trial = 0; trial < 5000; ++trial) {
        const int e = static_cast<int>(generator() % 80) - 60;
        const double g = std::ldexp(1.0, static_cast<int>(generator() % 80) - 40);
        __int128 total = static_cast<__int128>(static_cast<std::int64_t>(generator() >> 2));
        total *= static_cast<std::int64_t>(generator() % 4096) - 2048;
        __int128 grid = 0;
        try {
            grid = pgdp::units_to_grid(total, e, g);
        } catch (const std::overflow_error&) {
            continue;  // only when the exact result needs more than 127 bits
        }
        // |grid * g - total * 2^e| <= g / 2, exactly.
        const Rational value = Rational(to_big(total)) * exact(std::ldexp(1.0, e));
        const Rational released = Rational(to_big(grid)) * exact(g);
        EXPECT_LE(abs(released - value), exact(g) / 2);
    }
}

TEST(ClampedSum, CombiningIsExactAndOrderIndependent) {
    std::mt19937_64 generator(3);
    std::normal_distribution<double> normal(50.0, 80.0);
    std::vector<double> values(100000);
    for (double& v : values) v = normal(generator);
    const int e = pgdp::sum_unit_exponent(0.0, 200.0);
    auto total_of = [&](const std::vector<double>& xs, std::size_t parts) {
        std::vector<__int128> partial(parts, 0);
        for (std::size_t i = 0; i < xs.size(); ++i)
            partial[i % parts] += pgdp::clamped_units(xs[i], 0.0, 200.0, e);
        __int128 total = 0;
        for (auto p : partial) total += p;
        return total;
    };
    const __int128 serial = total_of(values, 1);
    std::shuffle(values.begin(), values.end(), generator);
    EXPECT_TRUE(total_of(values, 7) == serial);
    EXPECT_TRUE(total_of(values, 2) == serial);
}

// Issue 3 bar, at core level: epsilon = 1e6 on the integer grid gives back the exact clamped
// sum (the noise, ~1e-3 grid steps, is zero with overwhelming probability).
TEST(ClampedSum, HugeEpsilonReleasesTheClampedValue) {
    const double lower = 0.0, upper = 100.0;
    const int e = pgdp::sum_unit_exponent(lower, upper);
    __int128 total = 0;
    long long expected = 0;
    for (int i = -50; i < 400; ++i) {
        total += pgdp::clamped_units(i, lower, upper, e);
        expected += std::min(std::max(i, 0), 100);
    }
    const pgdp::ReleasePlan plan = pgdp::plan_release(
        1e6, 1e-6, pgdp::Mechanism::Gaussian, pgdp::clamped_sum_sensitivity(lower, upper, e), 1.0, false);
    pgdp::SeededRandomSource random(5);
    const __int128 grid = pgdp::units_to_grid(total, e, plan.granularity);
    const double released =
        pgdp::grid_units_to_double(grid + pgdp::sample_release_noise(plan, random), plan.granularity);
    EXPECT_EQ(released, static_cast<double>(expected));
}

}  // namespace
