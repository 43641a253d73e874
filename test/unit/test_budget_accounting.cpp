// Budget accounting (src/core/budget_accounting.hpp), checked with exact rationals and 50-digit
// arithmetic (Boost.Multiprecision), independently of the code under test:
//   * each release is calibrated strictly below the decimal it is charged, so exact decimal sums
//     of charges bound the true basic composition;
//   * mu^2 upper bounds are never below the exact (Delta/sigma)^2;
//   * the Gaussian part is accepted exactly when the 50-digit Balle-Wang profile of the composed
//     Gaussian (002 Lemma 15) is within the room (up to the documented 1e-9 relative margin);
//   * the Gaussian part's filter bound (gaussian_mu2_limit) is private by the 50-digit profile and
//     tight to a relative 1e-6.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <boost/math/special_functions/erf.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "core/budget_accounting.hpp"
#include "core/exact_sampling.hpp"

namespace {

using pgdp::Rational;
using Big = boost::multiprecision::cpp_int;
using Float50 = boost::multiprecision::cpp_bin_float_50;

// The exact value of a decimal string such as "0.1", "1e-06" or "12.5e3".
Rational decimal_value(const std::string& text) {
    std::string digits;
    int exponent = 0;
    bool negative = false;
    size_t i = 0;
    if (text[i] == '-') {
        negative = true;
        ++i;
    }
    int fraction_digits = 0;
    bool in_fraction = false;
    for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
        if (text[i] == '.') {
            in_fraction = true;
        } else {
            digits += text[i];
            if (in_fraction) ++fraction_digits;
        }
    }
    if (i < text.size()) exponent = std::stoi(text.substr(i + 1));
    // No leading zeros: cpp_int would read "0333" as octal.
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
    Big numerator(digits.empty() ? std::string("0") : digits);
    const int scale = exponent - fraction_digits;
    Big power = 1;
    for (int k = 0; k < std::abs(scale); ++k) power *= 10;
    Rational value = scale >= 0 ? Rational(numerator * power) : Rational(numerator, power);
    return negative ? -value : value;
}

Rational exact(double x) { return Rational(x); }  // every double is a dyadic rational

TEST(BudgetAccounting, CalibratedStrictlyBelowTheChargedDecimal) {
    std::mt19937_64 generator(20261121);
    std::uniform_real_distribution<double> exponent(-12.0, 3.0);
    std::vector<double> values = {0.1, 0.2, 0.3, 1.0 / 3.0, 0.7, 1.0, 1e-6, 1e-5, 0.5, 2.0, 10.0, 1e-300};
    for (int i = 0; i < 2000; ++i) values.push_back(std::pow(10.0, exponent(generator)));
    for (const double x : values) {
        const std::string charged = pgdp::shortest_decimal(x);
        EXPECT_EQ(std::strtod(charged.c_str(), nullptr), x) << charged;  // round trip
        EXPECT_LT(exact(pgdp::calibration_below(x)), decimal_value(charged)) << charged;
    }
    EXPECT_EQ(pgdp::calibration_below(0.0), 0.0);
}

TEST(BudgetAccounting, TenTimesOneTenthFitsOneAndIsPrivate) {
    // Ten releases at epsilon 0.1 against a limit of 1: the charged decimals sum to exactly 1,
    // and the ten calibrated epsilons sum to strictly less than 1.
    Rational charged = 0;
    Rational calibrated = 0;
    for (int i = 0; i < 10; ++i) {
        charged += decimal_value(pgdp::shortest_decimal(0.1));
        calibrated += exact(pgdp::calibration_below(0.1));
    }
    EXPECT_EQ(charged, Rational(1));
    EXPECT_LT(calibrated, Rational(1));
    // The double sum itself would not be a bound: 10 * 0.1 in binary is above 1.
    EXPECT_GT(exact(0.1) * 10, Rational(1));
}

TEST(BudgetAccounting, Mu2IsAnUpperBound) {
    std::mt19937_64 generator(7);
    std::uniform_int_distribution<std::uint64_t> sensitivity(1, 1u << 20);
    std::uniform_int_distribution<std::uint64_t> numerator(1ull << 20, 1ull << 41);
    int eligible = 0;
    for (int i = 0; i < 5000; ++i) {
        const std::uint64_t d = sensitivity(generator);
        const Rational sigma2(Big(numerator(generator)), Big(1) << (i % 30));
        const double mu2 = pgdp::gaussian_mu2_upper(d, sigma2);
        if (sigma2 < 64) {
            EXPECT_EQ(mu2, 0.0);
            continue;
        }
        ++eligible;
        const Rational truth = Rational(Big(d) * Big(d)) / sigma2;
        EXPECT_GE(exact(mu2), truth);
        EXPECT_LT(exact(mu2), truth * Rational(1000000000000001, 1000000000000000));
    }
    EXPECT_GT(eligible, 1000);
    EXPECT_EQ(pgdp::gaussian_mu2_upper(1, Rational(63)), 0.0);  // sigma < 8 grid units: basic part
    EXPECT_GT(pgdp::gaussian_mu2_upper(1, Rational(64)), 0.0);
}

// delta(eps) of the Gaussian with sensitivity mu and sigma 1, in 50 digits (Balle-Wang; 002 Thm 2):
// Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu).
Float50 profile50(double mu2, double epsilon) {
    const Float50 mu = sqrt(Float50(mu2));
    const Float50 e = Float50(epsilon);
    const Float50 root2 = sqrt(Float50(2));
    auto Phi = [&](const Float50& x) { return boost::math::erfc(-x / root2) / 2; };
    return Phi(mu / 2 - e / mu) - exp(e) * Phi(-mu / 2 - e / mu);
}

TEST(BudgetAccounting, GaussianPartMatchesTheComposedProfile) {
    // k identical Gaussian releases (002 Lemma 15: mu^2 = k mu_1^2) against (epsilon, delta) rooms.
    int accepted = 0;
    int refused = 0;
    for (const double mu1 : {0.02, 0.05, 0.1, 0.3, 1.0}) {
        for (const double epsilon : {0.1, 0.5, 1.0, 3.0}) {
            for (const double delta : {1e-9, 1e-6, 1e-5, 1e-3}) {
                for (int k = 1; k <= 400; k += 7) {
                    const double mu2 = k * mu1 * mu1;
                    const Float50 truth = profile50(mu2, epsilon);
                    const bool fits = pgdp::gaussian_part_fits(mu2, epsilon, delta);
                    if (truth <= Float50(delta) * Float50(1 - 1e-8)) {
                        // Clearly within: must be accepted, unless within the 1e-9 epsilon margin.
                        const bool near_margin =
                            profile50(mu2, epsilon * (1 - 1e-9)) > Float50(delta) * (1 - 1e-9);
                        if (!near_margin) {
                            EXPECT_TRUE(fits) << mu1 << " " << epsilon << " " << delta << " " << k;
                        }
                    }
                    if (truth > Float50(delta)) {
                        EXPECT_FALSE(fits)
                            << mu1 << " " << epsilon << " " << delta << " " << k;  // never over
                    }
                    (fits ? accepted : refused) += 1;
                }
            }
        }
    }
    EXPECT_GT(accepted, 500);
    EXPECT_GT(refused, 500);
    EXPECT_TRUE(pgdp::gaussian_part_fits(0.0, 0.0, 0.0));  // nothing Gaussian: basic part decides
    EXPECT_FALSE(pgdp::gaussian_part_fits(0.01, 1.0, 0.0));
}

TEST(BudgetAccounting, GaussianPartEpsilonIsPrivateAndTight) {
    for (const double mu2 : {1e-4, 0.01, 0.07, 0.5, 2.0}) {
        for (const double delta : {1e-8, 1e-5, 1e-3}) {
            const double epsilon = pgdp::gaussian_part_epsilon(mu2, delta);
            EXPECT_LE(profile50(mu2, epsilon), Float50(delta)) << mu2 << " " << delta;
            EXPECT_GT(profile50(mu2, epsilon * (1 - 1e-6)), Float50(delta)) << mu2 << " " << delta;
        }
    }
    EXPECT_EQ(pgdp::gaussian_part_epsilon(0.0, 1e-5), 0.0);
    EXPECT_TRUE(std::isinf(pgdp::gaussian_part_epsilon(0.1, 0.0)));
}

TEST(BudgetAccounting, GaussianMu2LimitIsPrivateAndTight) {
    // The split of a gaussian budget (E_g, D_g): every sum of mu_i^2 up to the bound composes to
    // a Gaussian that is (E_g, D_g)-DP by the 50-digit Balle-Wang profile (the profile grows with
    // mu, so checking the bound itself covers all smaller sums), and a relative 1e-6 more is not.
    int checked = 0;
    for (const double epsilon : {1e-6, 1e-3, 0.05, 0.5, 1.0, 3.0, 10.0}) {
        for (const double delta : {1e-30, 1e-20, 1e-12, 1e-9, 5e-6, 1e-5, 1e-3, 0.1}) {
            const double limit = pgdp::gaussian_mu2_limit(epsilon, delta);
            ASSERT_GT(limit, 0.0) << epsilon << " " << delta;
            EXPECT_LE(profile50(limit, epsilon), Float50(delta)) << epsilon << " " << delta;
            EXPECT_GT(profile50(limit * (1 + 1e-6), epsilon), Float50(delta)) << epsilon << " " << delta;
            EXPECT_TRUE(pgdp::gaussian_part_fits(limit, epsilon, delta));
            EXPECT_FALSE(pgdp::gaussian_part_fits(std::nextafter(limit, 1e300), epsilon, delta));
            ++checked;
        }
    }
    EXPECT_EQ(checked, 56);
    // No delta: nothing Gaussian fits (the worker then refuses every Gaussian-part release).
    EXPECT_EQ(pgdp::gaussian_mu2_limit(1.0, 0.0), 0.0);
    EXPECT_EQ(pgdp::gaussian_mu2_limit(std::nan(""), 1e-5), 0.0);
    EXPECT_EQ(pgdp::gaussian_mu2_limit(1.0, std::numeric_limits<double>::infinity()), 0.0);
}

}  // namespace
