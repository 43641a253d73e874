// pgdp::truncated_laplace_params / truncated_laplace_accuracy against the independent 50-digit
// references test/reference/truncated_laplace.csv and truncated_laplace_accuracy.csv
// (004 Definition 3, Theorem 2 eq. 5, Theorem 3 eq. 7; accuracy derived from the density of
// Definition 3: a = -lambda ln(alpha + (1 - alpha) e^{-A/lambda})).
#include <gtest/gtest.h>

#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "core/truncated_laplace.hpp"
#include "unit/reference_csv.hpp"

namespace {

using pgdp_test::ReferenceCsv;
using pgdp_test::relative_error;

using pgdp_test::FailureLog;
using pgdp_test::fmt;

}  // namespace

// 1e-10 relative for every field. The grid includes eps = 1e-6 (where 1 - log(1+K)/K and the power's
// bracket cancel to O(K) and O(K^2)) and eps = 1000 (where e^eps overflows a double), so a naive
// double evaluation fails here by design.
TEST(ReferenceTruncatedLaplace, ParamsMatchReference) {
    const ReferenceCsv csv("reference/truncated_laplace.csv");
    FailureLog log;
    std::map<std::string, long double> worst;
    std::map<std::string, std::string> where;
    for (std::size_t i = 0; i < csv.size(); ++i) {
        pgdp::TruncatedLaplaceParams p{};
        try {
            p = pgdp::truncated_laplace_params(csv.num(i, "epsilon"), csv.num(i, "delta"),
                                               csv.num(i, "sensitivity"));
        } catch (const std::exception& e) {
            log.fail("threw " + std::string(e.what()) + " at " + csv.describe(i));
            continue;
        }
        const std::pair<const char*, double> fields[] = {
            {"lambda", p.lambda}, {"bound", p.bound}, {"amplitude", p.amplitude}, {"power", p.power}};
        for (const auto& [name, got] : fields) {
            const long double err = relative_error(got, csv.ld(i, name));
            if (err > worst[name]) {
                worst[name] = err;
                where[name] = csv.describe(i);
            }
            if (!(err <= 1e-10L))
                log.fail(std::string(name) + " relative error " + fmt(err) + ": got " + fmt(got) + " want " +
                         csv.str(i, name) + " at " + csv.describe(i));
        }
    }
    EXPECT_GT(csv.size(), 400u);
    EXPECT_EQ(log.count(), 0);
    for (const auto& [name, w] : worst) {
        std::cout << "[reference] worst relative error truncated_laplace " << name << ": " << fmt(w) << " at "
                  << where[name] << "\n";
        testing::Test::RecordProperty("worst_rel_error_tlap_" + name, fmt(w));
    }
}

TEST(ReferenceTruncatedLaplace, AccuracyMatchesReference) {
    const ReferenceCsv csv("reference/truncated_laplace_accuracy.csv");
    FailureLog log;
    long double worst = 0;
    std::string where;
    for (std::size_t i = 0; i < csv.size(); ++i) {
        const long double want = csv.ld(i, "accuracy");
        double got = -1;
        try {
            got = pgdp::truncated_laplace_accuracy(csv.num(i, "epsilon"), csv.num(i, "delta"),
                                                   csv.num(i, "sensitivity"), csv.num(i, "alpha"));
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
            log.fail("tlap accuracy relative error " + fmt(err) + ": got " + fmt(got) + " want " +
                     csv.str(i, "accuracy") + " at " + csv.describe(i));
    }
    EXPECT_GT(csv.size(), 1000u);
    EXPECT_EQ(log.count(), 0);
    std::cout << "[reference] worst relative error truncated_laplace_accuracy: " << fmt(worst) << " at "
              << where << "\n";
    testing::Test::RecordProperty("worst_rel_error_tlap_accuracy", fmt(worst));
}
