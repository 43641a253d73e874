// The texts of the core's errors (issue 8 part 7): numbers as the shortest decimal that reads
// back, NaN and Infinity as PostgreSQL spells them, user text cut at 40 characters, the
// epsilon/delta floor stated, and no library (Boost) text in any error a calibration throws
// over a grid of hostile inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "core/accuracy.hpp"
#include "core/aggregate_release.hpp"
#include "core/errors.hpp"
#include "core/gaussian_calibration.hpp"
#include "core/gaussian_method.hpp"
#include "core/release_plan.hpp"
#include "core/truncated_laplace.hpp"
#include "core/validate.hpp"

namespace {

template <typename Call>
std::string message_of(Call&& call) {
    try {
        call();
    } catch (const std::exception& error) {
        return error.what();
    }
    return "no error";
}

TEST(ErrorTexts, NumbersAreShortestRoundTripDecimals) {
    EXPECT_EQ(pgdp::shown(5e-324), "5e-324");
    EXPECT_EQ(pgdp::shown(0.1), "0.1");
    EXPECT_EQ(pgdp::shown(0.1 + 0.2), "0.30000000000000004");
    EXPECT_EQ(pgdp::shown(-0.0), "-0");
    EXPECT_EQ(pgdp::shown(1e300), "1e+300");
    EXPECT_EQ(pgdp::shown(std::numeric_limits<double>::quiet_NaN()), "NaN");
    EXPECT_EQ(pgdp::shown(HUGE_VAL), "Infinity");
    EXPECT_EQ(pgdp::shown(-HUGE_VAL), "-Infinity");
    // Every printed value reads back exactly and stays short.
    for (double x : {1.0 / 3.0, 2.2250738585072014e-308, 1.7976931348623157e308, -123456.789e-200}) {
        const std::string text = pgdp::shown(x);
        EXPECT_EQ(std::strtod(text.c_str(), nullptr), x) << text;
        EXPECT_LE(text.size(), 24u) << text;
    }
}

TEST(ErrorTexts, EchoedTextIsCutAtFortyCharacters) {
    EXPECT_EQ(pgdp::quoted("gauss"), "\"gauss\"");
    EXPECT_EQ(pgdp::quoted(std::string(40, 'x')), "\"" + std::string(40, 'x') + "\"");
    EXPECT_EQ(pgdp::quoted(std::string(1000, 'x')), "\"" + std::string(40, 'x') + "...\"");
    // Two-byte characters are counted as characters and never split.
    std::string accents;
    for (int i = 0; i < 100; ++i) accents += "\xC3\xA9";
    EXPECT_EQ(pgdp::quoted(accents), "\"" + accents.substr(0, 80) + "...\"");
    EXPECT_EQ(message_of([] { pgdp::parse_gaussian_method(std::string(5000, 'm')); }),
              "unknown Gaussian calibration method \"" + std::string(40, 'm') + "...\"");
    EXPECT_EQ(message_of([] { pgdp::parse_mechanism(std::string(5000, 'm')); }),
              "unknown mechanism \"" + std::string(40, 'm') + "...\"");
}

TEST(ErrorTexts, EpsilonAndDeltaFloorIsStated) {
    EXPECT_EQ(message_of([] { pgdp::require_epsilon(5e-324); }),
              "epsilon must be at least 1e-300, got 5e-324");
    EXPECT_EQ(message_of([] { pgdp::require_delta(1e-310); }), "delta must be at least 1e-300, got 1e-310");
    EXPECT_EQ(message_of([] { pgdp::require_epsilon(1e-300); }), "no error");
    EXPECT_EQ(message_of([] { pgdp::require_epsilon(std::nan("")); }),
              "epsilon must be a finite number greater than 0, got NaN");
    // The release path calibrates one ulp below the arguments: the floor itself must plan.
    EXPECT_EQ(message_of([] { pgdp::check_release_parameters(1e-300, 1e-300, pgdp::Mechanism::Gaussian); }),
              "no error");
    // Was "got 0": the Laplace release of epsilon 5e-324 calibrated at one ulp below, 0.
    EXPECT_EQ(message_of([] { pgdp::plan_release(5e-324, 0.0, pgdp::Mechanism::Laplace, 1.0, 1.0, true); }),
              "epsilon must be at least 1e-300, got 5e-324");
}

// A release that splits epsilon into parts (the bounds stage's quarter, dp_mean's halves, the
// variance's three parts, the quantile tree) names the call's epsilon, not a part of it (round 19
// noted "epsilon must be at least 1e-300, got 2.5e-301" for dp_sum(x, NULL, NULL, 1e-300)).
TEST(ErrorTexts, AnEpsilonSplitIntoPartsTooSmallIsNamedAsGiven) {
    const std::string expected =
        "epsilon 1e-300 is too small for this release: each of the parts it is split into must be at least "
        "1e-300";
    auto plan_message = [](pgdp::AggregateKind kind, bool estimated) {
        pgdp::AggregateParameters given;
        given.lower = 0.0;
        given.upper = 100.0;
        given.epsilon = 1e-300;
        if (estimated) given.estimate_lower = given.estimate_upper = true;
        return message_of([&] {
            const pgdp::AggregateParameters p =
                pgdp::validate_aggregate_parameters(kind, false, given, "laplace");
            (void)pgdp::plan_aggregate_release(kind, p);
        });
    };
    EXPECT_EQ(plan_message(pgdp::AggregateKind::Sum, true), expected);
    EXPECT_EQ(plan_message(pgdp::AggregateKind::Mean, false), expected);
    EXPECT_EQ(plan_message(pgdp::AggregateKind::Variance, false), expected);
    EXPECT_EQ(plan_message(pgdp::AggregateKind::Quantiles, false), expected);
    // A call's own epsilon below the floor keeps require_epsilon's message.
    EXPECT_EQ(message_of([] { pgdp::require_epsilon(1e-301); }),
              "epsilon must be at least 1e-300, got 1e-301");
}

TEST(ErrorTexts, ReleasesThatCannotBeSampledAreRefusedWhenPlanned) {
    try {
        pgdp::plan_release(1e-300, 0.0, pgdp::Mechanism::Laplace, 1.0, 1.0, true);
        FAIL() << "planned";
    } catch (const pgdp::RangeError& error) {
        EXPECT_EQ(error.argument(), "epsilon");
    }
    EXPECT_THROW(pgdp::plan_release(1e-12, 1e-30, pgdp::Mechanism::Gaussian, 1.0, 1.0, true),
                 pgdp::RangeError);
    // Just inside: a Laplace count at scale 2^56 grid steps plans.
    EXPECT_EQ(message_of([] {
                  pgdp::plan_release(std::ldexp(1.0, -56), 0.0, pgdp::Mechanism::Laplace, 1.0, 1.0, true);
              }),
              "no error");
}

// Every calibration over a grid of hostile values throws only pgdp's own errors, whose texts
// carry no library names, and never returns a non-finite or non-positive value.
TEST(ErrorTexts, CalibrationsAtHostileInputsThrowOnlyPgdpErrors) {
    const std::vector<double> values = {5e-324,
                                        2.2250738585072014e-308,
                                        1e-300,
                                        1e-30,
                                        1e-20,
                                        1e-9,
                                        1e-5,
                                        0.25,
                                        0.5,
                                        0.9999999999999999,
                                        1,
                                        2,
                                        700,
                                        1e9,
                                        1e300,
                                        1.7976931348623157e308,
                                        HUGE_VAL,
                                        -HUGE_VAL,
                                        std::nan(""),
                                        -0.0,
                                        0,
                                        -1};
    int calls = 0;
    int failures = 0;
    auto check = [&](const std::string& what, auto&& call) {
        ++calls;
        try {
            const double result = call();
            if (!(std::isfinite(result) && result >= 0.0)) {
                ++failures;
                ADD_FAILURE() << what << " returned " << result;
            }
        } catch (const pgdp::ArgumentError& error) {
            if (error.hint().empty()) ADD_FAILURE() << what << ": no hint";
        } catch (const pgdp::RangeError& error) {
            if (error.hint().empty()) ADD_FAILURE() << what << ": no hint";
        } catch (const std::exception& error) {
            ++failures;
            ADD_FAILURE() << what << " threw a foreign exception: " << error.what();
        }
        if (failures > 20) FAIL() << "too many failures";
    };
    const std::vector<pgdp::GaussianMethod> methods = {pgdp::GaussianMethod::Analytic,
                                                       pgdp::GaussianMethod::Classic,
                                                       pgdp::GaussianMethod::Dwork2006,
                                                       pgdp::GaussianMethod::Vinterbo,
                                                       pgdp::GaussianMethod::VinterboClosed,
                                                       pgdp::GaussianMethod::Zhao1,
                                                       pgdp::GaussianMethod::Zhao2,
                                                       pgdp::GaussianMethod::Pdp,
                                                       pgdp::GaussianMethod::Zhao3,
                                                       pgdp::GaussianMethod::Zhao4,
                                                       pgdp::GaussianMethod::Zcdp};
    for (double e : values) {
        for (double d : values) {
            const std::string at = "(" + pgdp::shown(e) + ", " + pgdp::shown(d) + ")";
            for (pgdp::GaussianMethod m : methods) {
                const std::string name(pgdp::gaussian_method_name(m));
                check("gaussian_sigma" + at + " " + name, [&] { return pgdp::gaussian_sigma(e, d, 1.0, m); });
                check("gaussian_accuracy" + at + " " + name,
                      [&] { return pgdp::gaussian_accuracy(e, d, 1.0, 1e-300, m); });
            }
            check("analytic_gaussian_sigma" + at, [&] { return pgdp::analytic_gaussian_sigma(e, d, 1.0); });
            check("truncated_laplace_accuracy" + at,
                  [&] { return pgdp::truncated_laplace_accuracy(e, d, 1.0, 0.05); });
            check("truncated_laplace_params" + at,
                  [&] { return pgdp::truncated_laplace_params(e, d, 1e300).power; });
        }
    }
    EXPECT_EQ(calls, 22 * 22 * (2 * 11 + 3));
    EXPECT_EQ(failures, 0);
}

}  // namespace

// Bounds whose derived sensitivity a double cannot carry are refused by their own names.
TEST(ErrorTexts, UnusableBoundsNameTheBound) {
    EXPECT_NO_THROW(pgdp::require_usable_bounds(-1e300, 1e300));
    EXPECT_NO_THROW(pgdp::require_usable_bounds(0.0, 2.2250738585072014e-308));
    try {
        pgdp::require_usable_bounds(-1e308, 1e308);
        ADD_FAILURE() << "no error for an infinite width";
    } catch (const pgdp::ArgumentError& error) {
        EXPECT_EQ(error.argument(), "upper");
        EXPECT_NE(std::string(error.what()).find("-1e+308"), std::string::npos) << error.what();
    }
    try {
        pgdp::require_usable_bounds(0.0, 5e-324);
        ADD_FAILURE() << "no error for a subnormal bound";
    } catch (const pgdp::ArgumentError& error) {
        EXPECT_EQ(error.argument(), "upper");
        EXPECT_NE(std::string(error.what()).find("got 5e-324"), std::string::npos) << error.what();
    }
}
