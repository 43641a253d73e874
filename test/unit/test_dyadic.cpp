// Dyadic rationals (core/dyadic.hpp): the plain-data form of release plans' noise parameters.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/dyadic.hpp"
#include "core/noise.hpp"

namespace {

using pgdp::BigInt;
using pgdp::Rational;

TEST(Dyadic, RoundTripsTheScalesTheSamplersUse) {
    // The values plans store: Laplace scales (numerator < 2^62) and sigma^2 (< 2^42), tiny to huge.
    for (double epsilon : {1e-6, 0.013, 0.5, 3.0, 1e6}) {
        for (std::uint64_t sensitivity : {1ull, 7ull, 1ull << 40}) {
            const Rational scale = pgdp::laplace_scale_int(epsilon, sensitivity);
            EXPECT_EQ(pgdp::dyadic_from_rational(scale).to_rational(), scale);
        }
    }
    for (long double sigma2 : {1e-3L, 2.5L, 7e8L, 1e18L}) {
        const Rational rounded = pgdp::round_up_sigma2(sigma2);
        EXPECT_EQ(pgdp::dyadic_from_rational(rounded).to_rational(), rounded);
    }
}

TEST(Dyadic, ExactValuesAndDoubles) {
    const pgdp::Dyadic three_eighths = pgdp::dyadic_from_rational(Rational(3, 8));
    EXPECT_EQ(three_eighths.mantissa, 3);
    EXPECT_EQ(three_eighths.exponent, -3);
    EXPECT_EQ(three_eighths.to_double(), 0.375);
    // An integer wider than the mantissa keeps its trailing zeros in the exponent.
    const Rational huge(BigInt(5) << 100);
    const pgdp::Dyadic wide = pgdp::dyadic_from_rational(huge);
    EXPECT_EQ(wide.to_rational(), huge);
    EXPECT_EQ(wide.to_double(), std::ldexp(5.0, 100));
    EXPECT_EQ(pgdp::dyadic_from_rational(Rational(0)).to_rational(), Rational(0));
}

TEST(Dyadic, RefusesWhatItCannotHold) {
    EXPECT_THROW(pgdp::dyadic_from_rational(Rational(1, 3)), std::logic_error);
    EXPECT_THROW(pgdp::dyadic_from_rational(Rational((BigInt(1) << 64) + 1, 2)), std::logic_error);
}

}  // namespace
