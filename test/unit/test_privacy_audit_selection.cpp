// The empirical privacy audit (unit/privacy_audit.hpp) of private group selection as dp_groups
// releases it (release_selection, core/partition_selection.hpp): the near truncated geometric,
// Laplace threshold and Gaussian threshold mechanisms. The release is the decision and, for the
// threshold mechanisms, the noisy unit count of a kept group (partition_selection.hpp: releasing
// that same draw costs nothing more); a dropped group is released as -infinity, below every count.
// Neighbours add one privacy unit to the group. 2e5 releases per side; a correct mechanism fails
// an audit with probability <= 1e-5.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "core/aggregate_release.hpp"
#include "core/partition_selection.hpp"
#include "unit/privacy_audit.hpp"

namespace {

// dp_groups on a group of `units` privacy units (after per-unit bounding).
struct SelectionCall {
    pgdp::AggregatePlan plan;

    SelectionCall(const char* mechanism, double epsilon, double delta, std::int64_t min_units = 1) {
        pgdp::AggregateParameters given;
        given.epsilon = epsilon;
        given.delta = delta;
        given.min_units = min_units;
        const pgdp::AggregateParameters parameters =
            pgdp::validate_aggregate_parameters(pgdp::AggregateKind::Selection, false, given, mechanism);
        plan = pgdp::plan_aggregate_release(pgdp::AggregateKind::Selection, parameters);
    }

    double operator()(std::int64_t units, pgdp::RandomSource& random) const {
        const pgdp::PartitionDecision decision = pgdp::release_selection(plan, units, random);
        if (!decision.keep) return -std::numeric_limits<double>::infinity();
        return decision.has_noisy_count ? static_cast<double>(decision.noisy_count) : 1.0;
    }

    // The least number of units kept with probability >= 1/2: the selection's threshold.
    std::int64_t threshold() const { return pgdp::partition_units_for_half(plan.selection); }
};

constexpr const char* kMechanisms[] = {"truncated_geometric", "laplace", "gaussian"};

std::string name_of(const char* mechanism, const char* where) {
    return std::string("dp_groups ") + mechanism + " " + where;
}

// At the threshold: one unit short of it against the threshold itself. For the near truncated
// geometric and the Laplace threshold the keep probabilities there differ by the factor e^epsilon
// (the optimal mechanism's ramp; the discrete Laplace's tail ratio), so the audit must see at
// least half of epsilon. The Gaussian threshold's ratio at the threshold is smaller, and its noisy
// count is audited in the tails reachable with 2e5 releases: at least a fifth.
TEST(PrivacyAudit, GroupSelectionAtTheThresholdSpendsNoMoreThanItsBudget) {
    const double epsilon = 1.0, delta = 1e-5;
    for (const char* mechanism : kMechanisms) {
        const SelectionCall select(mechanism, epsilon, delta);
        const std::int64_t n = select.threshold() - 1;
        const double power = std::string(mechanism) == "gaussian" ? 0.2 : 0.5;
        pgdp_test::expect_audit_within(name_of(mechanism, "at the threshold"),
                                       pgdp_test::audit_mechanism(select, n, n + 1, delta), epsilon, power);
    }
}

// An absent group against a group of one unit: the group is never released on D, and on D' with
// probability <= delta (its whole privacy loss is delta's). At delta = 1e-3 the audit expects
// about 200 keeps in 2e5 on D', and gives epsilon_lb = 0 unless the keep rate of a single unit
// exceeds delta by its confidence margin; a rate of 2 delta would show epsilon_lb > 3. No power
// floor: no epsilon is spent here.
TEST(PrivacyAudit, GroupSelectionOfOneUnitSpendsOnlyDelta) {
    const double epsilon = 1.0, delta = 1e-3;
    for (const char* mechanism : kMechanisms) {
        const SelectionCall select(mechanism, epsilon, delta);
        pgdp_test::expect_audit_within(
            name_of(mechanism, "absent vs one unit"),
            pgdp_test::audit_mechanism(select, std::int64_t{0}, std::int64_t{1}, delta), epsilon, 0.0);
    }
}

// The pre-threshold (min_units = k): a group of k - 1 units is always dropped, one of k units
// is the shifted mechanism's single unit (delta only); at the shifted threshold, as above.
TEST(PrivacyAudit, GroupSelectionWithMinUnitsSpendsNoMoreThanItsBudget) {
    const double epsilon = 1.0, delta = 1e-3;
    const std::int64_t k = 5;
    for (const char* mechanism : kMechanisms) {
        const SelectionCall select(mechanism, epsilon, delta, k);
        pgdp_test::expect_audit_within(name_of(mechanism, "min_units=5, k-1 vs k units"),
                                       pgdp_test::audit_mechanism(select, k - 1, k, delta), epsilon, 0.0);
        const std::int64_t n = select.threshold() - 1;
        const double power = std::string(mechanism) == "gaussian" ? 0.2 : 0.5;
        pgdp_test::expect_audit_within(name_of(mechanism, "min_units=5, at the threshold"),
                                       pgdp_test::audit_mechanism(select, n, n + 1, delta), epsilon, power);
    }
}

}  // namespace
