#include "core/cpp_only.hpp"
#include "core/estimated_bounds_release.hpp"

#include <cmath>

#include "core/centred_squares.hpp"
#include "core/clamped_sum.hpp"
#include "core/errors.hpp"
#include "core/validate.hpp"
#include "core/variance_release.hpp"

namespace pgdp {

namespace {

// The largest bin edge strictly below value (|value| <= 2^63).
double edge_below(double value) {
    const std::size_t bin = log_bin(value);
    return log_bin_lower_edge(bin) < value ? log_bin_lower_edge(bin) : log_bin_lower_edge(bin - 1);
}

// The smallest bin edge strictly above value (|value| <= 2^63).
double edge_above(double value) {
    const std::size_t bin = log_bin(value);
    return log_bin_upper_edge(bin) > value ? log_bin_upper_edge(bin) : log_bin_upper_edge(bin + 1);
}

void require_given_bound(const char* name, double bound) {
    if (!std::isfinite(bound)) {
        throw ArgumentError(name, std::string(name) + " must be a finite number or NULL, got " + shown(bound),
                            "Pass NULL to have pgdp estimate the bound, or a finite number.");
    }
    if (std::fabs(bound) > kLargestBoundNextToEstimate) {
        throw ArgumentError(name,
                            std::string(name) +
                                " must lie within +-2^63 (9.2e18) when the other bound is NULL, got " +
                                shown(bound),
                            "Pass both bounds, or a bound of smaller magnitude.");
    }
}

// dp_variance, dp_stddev: a given bound the rows are clamped to must stay exact in the bins' finest
// unit (binned_squares.hpp is_binned_grid_value), so that the centred squares' sensitivity is
// computed for the values the state holds.
void require_binned_grid_bound(const char* name, double bound) {
    if (!is_binned_grid_value(bound)) {
        throw ArgumentError(name,
                            std::string(name) +
                                " must be a multiple of 2^-84 (0, or any number of magnitude at least "
                                "2^-32 = 2.3e-10) when the other bound is NULL (estimated) for a "
                                "variance, got " +
                                shown(bound),
                            "Pass 0, a bound of larger magnitude, or both bounds.");
    }
}

}  // namespace

void require_estimable_bounds(AggregateKind kind, const AggregateParameters& parameters) {
    if (!accepts_null_bounds(kind)) {
        throw ArgumentError(
            parameters.estimate_lower ? "lower" : "upper",
            "only dp_sum, dp_mean, dp_variance, dp_stddev and the quantiles accept NULL bounds",
            "Pass both bounds.");
    }
    if (!parameters.estimate_lower) require_given_bound("lower", parameters.lower);
    if (!parameters.estimate_upper) require_given_bound("upper", parameters.upper);
    if (reads_squares(kind) && !parameters.estimate_lower)
        require_binned_grid_bound("lower", parameters.lower);
    if (reads_squares(kind) && !parameters.estimate_upper)
        require_binned_grid_bound("upper", parameters.upper);
}

AggregateParameters widest_bounds_parameters(const AggregateParameters& parameters) {
    AggregateParameters widest = parameters;
    const BoundsBudgetSplit split = split_bounds_budget(parameters.epsilon, parameters.delta);
    widest.epsilon = split.release_epsilon;
    widest.delta = split.release_delta;
    if (parameters.estimate_lower) widest.lower = -kBinnedValueLimit;
    if (parameters.estimate_upper) widest.upper = kBinnedValueLimit;
    widest.estimate_lower = widest.estimate_upper = false;
    widest.unit_exponent = sum_unit_exponent(widest.lower, widest.upper);
    return widest;
}

ReleaseBounds bounds_for_release(const AggregateParameters& parameters, const EstimatedBounds& estimate) {
    ReleaseBounds bounds{estimate.lower, estimate.upper};
    if (!parameters.estimate_lower) {
        bounds.lower = parameters.lower;
        if (!(bounds.upper > bounds.lower)) bounds.upper = edge_above(parameters.lower);
    }
    if (!parameters.estimate_upper) {
        bounds.upper = parameters.upper;
        if (!(bounds.lower < bounds.upper)) bounds.lower = edge_below(parameters.upper);
    }
    return bounds;
}

namespace {

// The bounds stage (on the counts) and the release's parameters for the bounds it returned.
AggregateParameters estimate_release_parameters(const AggregateParameters& parameters,
                                                const std::int64_t* counts, RandomSource& random,
                                                EstimatedBoundsRelease& out) {
    const BoundsBudgetSplit split = split_bounds_budget(parameters.epsilon, parameters.delta);
    BoundsParameters stage;
    stage.epsilon = split.bounds_epsilon;
    stage.rows_per_unit = 1;  // at person level the release reads one row per unit and group
    stage.groups_per_unit = parameters.groups_per_unit;
    const ReleasePlan stage_plan = plan_bounds_estimation(stage);
    const EstimatedBounds estimate = estimate_bounds(stage, stage_plan, counts, random);

    out.bounds = bounds_for_release(parameters, estimate);
    out.bounds_from_data = estimate.from_data;
    AggregateParameters release = parameters;
    release.estimate_lower = release.estimate_upper = false;
    release.lower = out.bounds.lower;
    release.upper = out.bounds.upper;
    release.epsilon = split.release_epsilon;
    // 'auto' resolved to Laplace in the charged plan, which dropped delta (plan_release): the
    // release is that plan's, so it takes delta = 0 too, not an error after the charge (red team
    // round 19).
    release.delta = parameters.mechanism == Mechanism::Laplace ? 0.0 : split.release_delta;
    release.unit_exponent = sum_unit_exponent(release.lower, release.upper);
    return release;
}

CentredSquaresFrame centred_squares_frame(const AggregateParameters& release) {
    const CentredSquareUnits units =
        centred_square_units(release.lower, release.upper, release.unit_exponent);
    return CentredSquaresFrame{release.lower, release.upper, units.bounds_units, release.unit_exponent,
                               units.square_exponent};
}

// The release's parameters and plan: at the estimated bounds, or at the widest ones when those
// cannot be planned (EstimatedBoundsRelease). plan_aggregate_release planned the widest before the
// charge, so the fallback does not raise.
AggregatePlan plan_or_widest(AggregateKind kind, const AggregateParameters& parameters,
                             AggregateParameters& release, EstimatedBoundsRelease& out) {
    try {
        return plan_at_release_bounds(kind, release);
    } catch (const RangeError&) {
    } catch (const ArgumentError&) {}
    const double delta = release.delta;
    release = widest_bounds_parameters(parameters);
    release.delta = delta;
    out.bounds = ReleaseBounds{release.lower, release.upper};
    return plan_at_release_bounds(kind, release);
}

}  // namespace

AggregatePlan plan_at_release_bounds(AggregateKind kind, const AggregateParameters& release) {
    if (!reads_squares(kind)) return plan_aggregate_release(kind, release);
    AggregatePlan plan{};
    plan.kind = kind;
    plan_variance_of_floored_totals(release, floored_squares_sensitivity(centred_squares_frame(release)),
                                    plan);
    return plan;
}

EstimatedBoundsRelease release_with_estimated_bounds(AggregateKind kind,
                                                     const AggregateParameters& parameters,
                                                     const BinnedSums& sums, RandomSource& random) {
    EstimatedBoundsRelease out;
    AggregateParameters release = estimate_release_parameters(parameters, sums.counts, random, out);
    const AggregatePlan plan = plan_or_widest(kind, parameters, release, out);
    ExactTotals totals;
    totals.rows = binned_rows(sums);
    totals.total_units = clamped_total_units(sums, release.lower, release.upper, release.unit_exponent);
    out.release = release_aggregate(release, plan, totals, random);
    return out;
}

EstimatedBoundsRelease release_variance_with_estimated_bounds(AggregateKind kind,
                                                              const AggregateParameters& parameters,
                                                              const BinnedSquares& binned,
                                                              RandomSource& random) {
    EstimatedBoundsRelease out;
    AggregateParameters release = estimate_release_parameters(parameters, binned.sums.counts, random, out);
    const AggregatePlan plan = plan_or_widest(kind, parameters, release, out);
    const CentredSquaresFrame frame = centred_squares_frame(release);
    ExactTotals totals;
    totals.rows = binned_rows(binned.sums);
    totals.total_units =
        clamped_total_units(binned.sums, release.lower, release.upper, release.unit_exponent);
    totals.square_units = clamped_centred_square_units(binned, frame);
    out.release = release_aggregate(release, plan, totals, random);
    return out;
}

}  // namespace pgdp
