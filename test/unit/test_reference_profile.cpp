// pgdp::gaussian_delta, pgdp::gaussian_epsilon and pgdp::gaussian_accuracy_for_sigma against the
// independent 50-digit references test/reference/gaussian_profile.csv, gaussian_epsilon.csv and
// gaussian_accuracy.csv (see test/reference/generate_references.cpp for the formulas:
// Balle-Wang profile 001 Thm 5.18 eq. 5.23 / 000 eq. 11; accuracy 003 Thm 1).
#include <gtest/gtest.h>

#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

#include "core/accuracy.hpp"
#include "core/gaussian_profile.hpp"
#include "unit/reference_csv.hpp"

namespace {

using pgdp_test::ReferenceCsv;
using pgdp_test::relative_error;

using pgdp_test::FailureLog;
using pgdp_test::fmt;

}  // namespace

// Tolerance for gaussian_delta: 1e-9 relative while the true delta >= 1e-290. With exact double
// inputs the only error source is the evaluation: the arguments of Phi are at most ~37 in
// magnitude where delta >= 1e-290, so a long double evaluation (2^-64) of the exponent loses at most
// ~37^2 * 2^-64 ~ 1e-16 relative, and the cancellation of the two Phi terms at tiny epsilon costs at
// most ~1e4 ulps on this grid; 1e-9 is therefore a generous bound that still catches any formula or
// scaling error. Below 1e-290 the double result is near the subnormal range, where relative
// precision is lost by the format itself: there an absolute 1e-300 is allowed (this includes exact
// underflow to 0).
TEST(ReferenceGaussianProfile, DeltaMatchesReference) {
    const ReferenceCsv csv("reference/gaussian_profile.csv");
    FailureLog log;
    long double worst = 0;
    std::string where;
    for (std::size_t i = 0; i < csv.size(); ++i) {
        const long double want = csv.ld(i, "delta");
        double got = -1;
        try {
            got = pgdp::gaussian_delta(csv.num(i, "sigma"), csv.num(i, "epsilon"), csv.num(i, "sensitivity"));
        } catch (const std::exception& e) {
            log.fail("threw " + std::string(e.what()) + " at " + csv.describe(i));
            continue;
        }
        const long double diff = got > want ? got - want : want - got;
        if (want >= 1e-290L) {
            const long double err = relative_error(got, want);
            if (err > worst) {
                worst = err;
                where = csv.describe(i);
            }
            if (!(err <= 1e-9L))
                log.fail("gaussian_delta relative error " + fmt(err) + ": got " + fmt(got) + " want " +
                         csv.str(i, "delta") + " at " + csv.describe(i));
        } else if (!(diff <= 1e-300L) || got < 0) {
            log.fail("gaussian_delta below 1e-290: got " + fmt(got) + " want " + csv.str(i, "delta") +
                     " at " + csv.describe(i));
        }
    }
    EXPECT_GT(csv.size(), 300u);
    EXPECT_EQ(log.count(), 0);
    std::cout << "[reference] worst relative error gaussian_delta: " << fmt(worst) << " at " << where << "\n";
    testing::Test::RecordProperty("worst_rel_error_gaussian_delta", fmt(worst));
}

// gaussian_epsilon: never below the reference (the smallest eps >= 0 with delta(eps) <= delta,
// computed by a 50-digit bisection whose upper end is printed) and within 1e-10 relative. An
// absolute 1e-15 is added for references at or near 0, where a relative bound is meaningless
// (delta(eps) has a finite slope at eps = 0, so double rounding of delta maps to an absolute eps error).
TEST(ReferenceGaussianProfile, EpsilonMatchesReferenceAndIsNeverBelow) {
    const ReferenceCsv csv("reference/gaussian_epsilon.csv");
    FailureLog log;
    long double worst = 0;
    std::string where;
    int zeros = 0;
    for (std::size_t i = 0; i < csv.size(); ++i) {
        const long double want = csv.ld(i, "epsilon");
        if (want == 0) ++zeros;
        double got = -1;
        try {
            got = pgdp::gaussian_epsilon(csv.num(i, "sigma"), csv.num(i, "delta"), csv.num(i, "sensitivity"));
        } catch (const std::exception& e) {
            log.fail("threw " + std::string(e.what()) + " at " + csv.describe(i));
            continue;
        }
        const long double err = relative_error(got, want);
        if (want > 0 && err > worst) {
            worst = err;
            where = csv.describe(i);
        }
        if (!(static_cast<long double>(got) >= want))
            log.fail("gaussian_epsilon below the true epsilon: got " + fmt(got) +
                     " want >= " + csv.str(i, "epsilon") + " at " + csv.describe(i));
        const long double diff = got > want ? got - want : want - got;
        if (!(diff <= 1e-10L * want + 1e-15L))
            log.fail("gaussian_epsilon error: got " + fmt(got) + " want " + csv.str(i, "epsilon") + " at " +
                     csv.describe(i));
    }
    EXPECT_GT(zeros, 0) << "the grid must contain cases where epsilon = 0 suffices";
    EXPECT_EQ(log.count(), 0);
    std::cout << "[reference] worst relative error gaussian_epsilon: " << fmt(worst) << " at " << where
              << "\n";
    testing::Test::RecordProperty("worst_rel_error_gaussian_epsilon", fmt(worst));
}

// a = sigma sqrt2 erfinv(1 - alpha) (003 Thm 1), including alpha = 1e-300 and 1e-20 where
// 1 - alpha rounds to 1 in double (the reference uses the identical erfcinv(alpha)).
TEST(ReferenceGaussianProfile, AccuracyForSigmaMatchesReference) {
    const ReferenceCsv csv("reference/gaussian_accuracy.csv");
    FailureLog log;
    long double worst = 0;
    std::string where;
    for (std::size_t i = 0; i < csv.size(); ++i) {
        const long double want = csv.ld(i, "accuracy");
        double got = -1;
        try {
            got = pgdp::gaussian_accuracy_for_sigma(csv.num(i, "sigma"), csv.num(i, "alpha"));
        } catch (const std::exception& e) {
            log.fail("threw " + std::string(e.what()) + " at " + csv.describe(i));
            continue;
        }
        const long double err = relative_error(got, want);
        if (err > worst) {
            worst = err;
            where = csv.describe(i);
        }
        if (!(err <= 1e-10L))
            log.fail("accuracy relative error " + fmt(err) + ": got " + fmt(got) + " want " +
                     csv.str(i, "accuracy") + " at " + csv.describe(i));
    }
    EXPECT_EQ(log.count(), 0);
    std::cout << "[reference] worst relative error gaussian_accuracy_for_sigma: " << fmt(worst) << " at "
              << where << "\n";
}
