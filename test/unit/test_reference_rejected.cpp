// Out-of-domain inputs listed in test/reference/rejected.csv (written by
// test/reference/generate_references.cpp) must throw pgdp::ArgumentError naming the argument at
// fault. Domains: epsilon finite > 0, delta in (0, 1), sensitivity / sigma finite > 0, alpha in
// (0, 1) (src/core/validate.hpp); classic and dwork2006 only for epsilon <= 1 (001 Thm 5.9, 002
// Thm 1); zhao2 only for delta < 1/2 (002 Thm 5); truncated Laplace only for delta < 1/2 (004
// Definition 3); method names exact and lower case.
#include <gtest/gtest.h>

#include <string>

#include "core/accuracy.hpp"
#include "core/errors.hpp"
#include "core/gaussian_calibration.hpp"
#include "core/gaussian_method.hpp"
#include "core/gaussian_profile.hpp"
#include "core/truncated_laplace.hpp"
#include "unit/reference_csv.hpp"

namespace {

using pgdp_test::ReferenceCsv;

void call(const ReferenceCsv& csv, std::size_t i) {
    const std::string& fn = csv.str(i, "function");
    auto method = [&] { return pgdp::parse_gaussian_method(csv.str(i, "method")); };
    if (fn == "gaussian_sigma") {
        pgdp::gaussian_sigma(csv.num(i, "epsilon"), csv.num(i, "delta"), csv.num(i, "sensitivity"), method());
    } else if (fn == "gaussian_accuracy") {
        pgdp::gaussian_accuracy(csv.num(i, "epsilon"), csv.num(i, "delta"), csv.num(i, "sensitivity"),
                                csv.num(i, "alpha"), method());
    } else if (fn == "gaussian_delta") {
        pgdp::gaussian_delta(csv.num(i, "sigma"), csv.num(i, "epsilon"), csv.num(i, "sensitivity"));
    } else if (fn == "gaussian_epsilon") {
        pgdp::gaussian_epsilon(csv.num(i, "sigma"), csv.num(i, "delta"), csv.num(i, "sensitivity"));
    } else if (fn == "gaussian_accuracy_for_sigma") {
        pgdp::gaussian_accuracy_for_sigma(csv.num(i, "sigma"), csv.num(i, "alpha"));
    } else if (fn == "truncated_laplace_params") {
        pgdp::truncated_laplace_params(csv.num(i, "epsilon"), csv.num(i, "delta"), csv.num(i, "sensitivity"));
    } else if (fn == "truncated_laplace_accuracy") {
        pgdp::truncated_laplace_accuracy(csv.num(i, "epsilon"), csv.num(i, "delta"),
                                         csv.num(i, "sensitivity"), csv.num(i, "alpha"));
    } else if (fn == "parse_gaussian_method") {
        method();
    } else {
        FAIL() << "unknown function in rejected.csv: " << fn;
    }
}

}  // namespace

TEST(ReferenceRejected, OutOfDomainInputsThrowArgumentErrorNamingTheArgument) {
    const ReferenceCsv csv("reference/rejected.csv");
    ASSERT_GT(csv.size(), 300u);
    int failures = 0;
    for (std::size_t i = 0; i < csv.size(); ++i) {
        const std::string& expected = csv.str(i, "argument");
        std::string problem;
        try {
            call(csv, i);
            problem = "did not throw";
        } catch (const pgdp::ArgumentError& e) {
            if (e.argument() != expected)
                problem = "threw ArgumentError for argument '" + e.argument() + "' (" + e.what() +
                          "), expected '" + expected + "'";
        } catch (const std::exception& e) {
            problem = std::string("threw a non-ArgumentError: ") + e.what();
        }
        if (!problem.empty() && failures++ < 25) ADD_FAILURE() << problem << " at " << csv.describe(i);
    }
    EXPECT_EQ(failures, 0);
}

// The boundary values themselves are accepted (the complements of the rows above).
TEST(ReferenceRejected, DomainBoundariesAreAccepted) {
    using pgdp::GaussianMethod;
    EXPECT_NO_THROW(pgdp::gaussian_sigma(1.0, 1e-5, 1.0, GaussianMethod::Classic));
    EXPECT_NO_THROW(pgdp::gaussian_sigma(1.0, 1e-5, 1.0, GaussianMethod::Dwork2006));
    EXPECT_NO_THROW(pgdp::gaussian_sigma(1.0, 0.49999999999999994, 1.0, GaussianMethod::Zhao2));
    EXPECT_NO_THROW(pgdp::truncated_laplace_params(1.0, 0.49999999999999994, 1.0));
    EXPECT_NO_THROW(pgdp::gaussian_sigma(1e3, 0.95, 1.0, GaussianMethod::Analytic));
    for (const char* name : {"analytic", "classic", "dwork2006", "vinterbo", "vinterbo_closed", "zhao1",
                             "zhao2", "pdp", "zhao3", "zhao4", "zcdp"}) {
        EXPECT_NO_THROW(pgdp::parse_gaussian_method(name)) << name;
        EXPECT_EQ(pgdp::gaussian_method_name(pgdp::parse_gaussian_method(name)), name);
    }
}
