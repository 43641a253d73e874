// The empirical privacy audit (unit/privacy_audit.hpp) of dp_count_distinct as
// release_distinct_count releases it (core/distinct_count.hpp): the noisy number of distinct hashes
// of a group's values, the set built with the core's hash table. Neighbours: the group D against D
// plus one row with a value D does not hold (row level: D moves by 1, the sensitivity), and against
// D plus one privacy unit's c = 3 values, all new (person level, values_per_unit c: D moves by c).
// The release is a scalar noisy count, cheap to draw: 2e5 releases per side, as for dp_count. A
// correct mechanism fails an audit with probability <= 1e-5.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/distinct_count.hpp"
#include "count_release_test_helpers.hpp"
#include "owned_distinct_table.hpp"
#include "unit/privacy_audit.hpp"

namespace {

using pgdp::Mechanism;
using Values = std::vector<std::uint64_t>;

// The number of distinct hashes of the values, through the core's table (the state of the
// aggregate; test_hash stands for PostgreSQL's extended hash of the type).
std::uint64_t distinct_hashes(const Values& values) {
    pgdp_test::OwnedTable owned;
    for (std::uint64_t v : values) owned.insert(pgdp_test::test_hash(v));
    return owned.table.size;
}

struct DistinctCall {
    pgdp::DistinctCountParameters parameters;
    pgdp::ReleasePlan plan;

    DistinctCall(Mechanism mechanism, double epsilon, double delta, std::uint32_t values_per_unit) {
        parameters.epsilon = epsilon;
        parameters.delta = delta;
        parameters.mechanism = mechanism;
        parameters.values_per_unit = values_per_unit;
        plan = pgdp::plan_distinct_count(parameters);
    }

    double operator()(std::uint64_t distinct, pgdp::RandomSource& random) const {
        return pgdp::release_distinct_count(parameters, plan, distinct, random).value;
    }
};

// The power floors of the dp_count audits, whose release this is (a noisy integer count of
// sensitivity c): Laplace family half of epsilon (tail ratio e^epsilon near the median), Gaussian a
// fifth (e^epsilon only in far tails).
struct Budget {
    Mechanism mechanism;
    const char* name;
    double epsilon;
    double delta;
    double power_fraction;
};
constexpr Budget kBudgets[] = {{Mechanism::Laplace, "laplace", 1.0, 0.0, 0.5},
                               {Mechanism::Gaussian, "gaussian", 1.0, 1e-5, 0.2},
                               {Mechanism::TruncatedLaplace, "tlap", 1.0, 1e-5, 0.5}};

// Twelve rows holding seven distinct values (duplicates count once).
const Values kGroup = {3, 17, 3, 42, 8, 17, 99, 5, 3, 1000, 8, 64};

std::string name_of(const char* what, const Budget& b) {
    return std::string("dp_count_distinct ") + what + " " + b.name + " eps=" + std::to_string(b.epsilon) +
           " delta=" + std::to_string(b.delta);
}

Values with(const Values& added) {
    Values values = kGroup;
    values.insert(values.end(), added.begin(), added.end());
    return values;
}

TEST(PrivacyAudit, DistinctCountRowSpendsNoMoreThanItsBudget) {
    const std::uint64_t d = distinct_hashes(kGroup);
    const std::uint64_t d_prime = distinct_hashes(with({7}));
    ASSERT_EQ(d_prime, d + 1);
    for (const Budget& b : kBudgets) {
        const DistinctCall count_distinct(b.mechanism, b.epsilon, b.delta, 1);
        pgdp_test::expect_audit_within(name_of("row with a new value", b),
                                       pgdp_test::audit_mechanism(count_distinct, d, d_prime, b.delta),
                                       b.epsilon, b.power_fraction);
    }
}

// Person level, c = 3: the unit's rows hold three values new to the group (and repeat one of
// them, which adds nothing): D moves by c, the plan's sensitivity.
TEST(PrivacyAudit, DistinctCountUnitSpendsNoMoreThanItsBudget) {
    constexpr std::uint32_t c = 3;
    const std::uint64_t d = distinct_hashes(kGroup);
    const std::uint64_t d_prime = distinct_hashes(with({7, 11, 13, 11}));
    ASSERT_EQ(d_prime, d + c);
    for (const Budget& b : kBudgets) {
        const DistinctCall count_distinct(b.mechanism, b.epsilon, b.delta, c);
        pgdp_test::expect_audit_within(name_of("unit c=3 with new values", b),
                                       pgdp_test::audit_mechanism(count_distinct, d, d_prime, b.delta),
                                       b.epsilon, b.power_fraction);
    }
}

}  // namespace
