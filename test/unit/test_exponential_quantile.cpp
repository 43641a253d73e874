// The exponential mechanism for one quantile (src/core/exponential_quantile.cpp): its output law
// against the exponential mechanism's, computed here from the definition (chi-square, 1e-5
// false-failure bound per check), exactness at huge epsilon, bounds, and argument errors.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/exponential_quantile.hpp"
#include "core/random_source.hpp"
#include "noise_test_helpers.hpp"
#include "quantile_test_helpers.hpp"

namespace {

std::string argument_of(double q, double epsilon, double lower = 0.0, double upper = 1.0) {
    return pgdp_test::rejected_argument([=] {
        const pgdp::ExponentialQuantileInput input = pgdp::prepare_exponential_quantile({0.5}, lower, upper);
        (void)pgdp::ExponentialQuantileSampler(input, q, epsilon);
    });
}

TEST(ExponentialQuantile, BadInputNamesTheArgument) {
    EXPECT_EQ(argument_of(1.5, 1.0), "q");
    EXPECT_EQ(argument_of(NAN, 1.0), "q");
    EXPECT_EQ(argument_of(0.5, 0.0), "epsilon");
    EXPECT_EQ(argument_of(0.5, INFINITY), "epsilon");
    EXPECT_EQ(argument_of(0.5, 1.0, 1.0, 0.0), "lower");
    EXPECT_EQ(argument_of(0.5, 1.0, 1.0, 1.0), "upper");
    EXPECT_EQ(argument_of(0.5, 1.0), "no error");
}

TEST(ExponentialQuantile, OutputLawIsTheExponentialMechanism) {
    // Bounds [0, 2^32]: the grid points are the integers and so are the values. n = 4, q = 0.5,
    // k = 2. With P(j) proportional to exp(-epsilon d(j) / 2), d(j) = dist(k, [c(j), c(j) + t(j)]):
    //   [0, 1000)        1000 points  c = 0          d = 2
    //   1000             1 point      c = 0, t = 2   d = 0
    //   (1000, 3000)     1999 points  c = 2          d = 0
    //   3000             1 point      c = 2, t = 1   d = 0
    //   (3000, 2^31]     2^31 - 3000 points (2^31 holds a value: c = 3, t = 1, d = 1)  d = 1
    //   (2^31, 2^32]     2^31 points  c = 4          d = 2
    const double top = 4294967296.0;
    const pgdp::ExponentialQuantileInput input =
        pgdp::prepare_exponential_quantile({3000.0, 1000.0, 2147483648.0, 1000.0}, 0.0, top);
    const double epsilon = 30.0;
    const long double w1 = std::exp(-epsilon / 2.0L), w2 = std::exp(-epsilon);
    const std::vector<long double> mass{1000 * w2,         1, 1999, 1, (2147483648.0L - 3000) * w1,
                                        2147483648.0L * w2};
    long double total = 0;
    for (long double m : mass) total += m;
    auto class_of = [](double v) {
        if (v < 1000) return 0;
        if (v == 1000) return 1;
        if (v < 3000) return 2;
        if (v == 3000) return 3;
        if (v <= 2147483648.0) return 4;
        return 5;
    };
    const pgdp::ExponentialQuantileSampler sampler(input, 0.5, epsilon);
    pgdp::SeededRandomSource random(31);
    const int draws = 200000;
    std::vector<double> observed(6, 0.0);
    double inside_gap_low_half = 0;
    for (int i = 0; i < draws; ++i) {
        const double v = sampler.sample(random);
        ASSERT_EQ(v, std::floor(v));  // a grid point
        ++observed[class_of(v)];
        if (v > 1000 && v < 2000) ++inside_gap_low_half;
    }
    std::vector<double> probabilities;
    for (long double m : mass) probabilities.push_back(static_cast<double>(m / total));
    const pgdp_test::ChiSquare test = pgdp_test::chi_square(observed, probabilities, draws);
    EXPECT_LT(test.statistic, pgdp_test::chi_square_critical(test.degrees)) << test.statistic;
    // Uniform inside a run: 999 of the 1999 points of (1000, 3000) lie below 2000.
    const double share = 999.0 / 1999.0, n_gap = observed[2];
    EXPECT_NEAR(inside_gap_low_half / n_gap, share, pgdp_test::kZ * std::sqrt(share * (1 - share) / n_gap));
}

TEST(ExponentialQuantile, HugeEpsilonReleasesAQuantile) {
    pgdp::SeededRandomSource random(32);
    for (const std::string shape : {"uniform", "skewed", "ties"}) {
        for (std::size_t n : {1u, 2u, 7u, 1000u}) {
            const pgdp_test::QuantileData data = pgdp_test::make_quantile_data(shape, n, 33 + n);
            const auto input = pgdp::prepare_exponential_quantile(data.values, data.lower, data.upper);
            for (double q : {0.0, 0.1, 0.5, 0.9, 1.0}) {
                const double v = pgdp::release_exponential_quantile(input, q, 1e6, random);
                // d = 0 is certain: v is between the order statistics of rank floor(q n) (to a
                // grid step), so its rank error against q n is below one row.
                const double step = (data.upper - data.lower) / 4294967296.0;
                const double error = std::min(pgdp_test::rank_error(data.values, q, v),
                                              std::min(pgdp_test::rank_error(data.values, q, v - step),
                                                       pgdp_test::rank_error(data.values, q, v + step)));
                EXPECT_LT(error, 1.0 / n) << shape << " n=" << n << " q=" << q << " v=" << v;
            }
        }
    }
}

TEST(ExponentialQuantile, EmptyInputIsUniformOnTheBounds) {
    const auto input = pgdp::prepare_exponential_quantile({NAN}, -2.0, 6.0);
    EXPECT_TRUE(input.positions.empty());
    const pgdp::ExponentialQuantileSampler sampler(input, 0.5, 1.0);
    pgdp::SeededRandomSource random(34);
    pgdp_test::Moments moments;
    for (int i = 0; i < 20000; ++i) {
        const double v = sampler.sample(random);
        ASSERT_TRUE(v >= -2.0 && v <= 6.0);
        moments.add(v - 2.0);
    }
    EXPECT_NEAR(moments.mean(), 0.0, pgdp_test::kZ * moments.mean_se(64.0 / 12));
}

}  // namespace
