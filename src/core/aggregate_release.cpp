#include "core/cpp_only.hpp"
#include "core/aggregate_release.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/budget_accounting.hpp"
#include "core/centred_squares.hpp"
#include "core/clamped_sum.hpp"
#include "core/count_vector.hpp"
#include "core/distinct_count.hpp"
#include "core/quantile_release.hpp"
#include "core/errors.hpp"
#include "core/estimated_bounds_release.hpp"
#include "core/validate.hpp"
#include "core/variance_release.hpp"

namespace pgdp {

namespace {

// The quantiles' bounds as given (the plan checks them for the leaf map). A NULL bound: the
// log-linear leaf map (quantile_parameters), a given bound next to it within +-2^63 as for dp_sum.
void require_quantile_call_bounds(AggregateParameters& given) {
    if (estimates_bounds(given)) {
        require_estimable_bounds(AggregateKind::Quantiles, given);
        if (given.estimate_lower) given.lower = 0.0;
        if (given.estimate_upper) given.upper = 0.0;
    } else {
        require_usable_bounds(given.lower, given.upper);
    }
}

// dp_sum: adding or removing one row moves the total by at most max(|lower|, |upper|), plus the
// accumulation unit's rounding (clamped_sum_sensitivity). The grid is never finer than the unit,
// so rounding the total to it is a right shift that cannot overflow, whatever epsilon. An integer
// column with integer bounds is on every grid g <= 1: no rounding is charged there.
ReleasePlan plan_sum(const AggregateParameters& p) {
    const bool integer_values =
        p.integer_values && std::floor(p.lower) == p.lower && std::floor(p.upper) == p.upper;
    const double unit = std::ldexp(1.0, p.unit_exponent);
    return plan_release(p.epsilon, p.delta, p.mechanism,
                        clamped_sum_sensitivity(p.lower, p.upper, p.unit_exponent),
                        std::fmax(integer_values ? 1.0 : 0.0, unit), integer_values, p.groups_per_unit);
}

// dp_mean (docs/privacy.md "Aggregates"): half the budget each for the sum of (value - midpoint),
// sensitivity (upper - lower)/2 plus one unit of rounding, on a grid of half units, and for the
// count, sensitivity 1 (basic composition, 001 Lemma 5.3). One mechanism for both halves
// ('auto' is resolved once, on the sum), so the call is charged the delta it spends.
void plan_mean(const AggregateParameters& p, AggregatePlan& plan) {
    const double unit = std::ldexp(1.0, p.unit_exponent);
    const double half_range = (p.upper - p.lower) / 2.0;
    const double centred_sensitivity = half_range > 0.0 ? half_range + unit : unit;
    plan.sum = plan_release(p.epsilon / 2, p.delta / 2, p.mechanism, centred_sensitivity,
                            std::ldexp(1.0, p.unit_exponent - 1), false, p.groups_per_unit);
    const Mechanism mechanism = plan.sum.mechanism;
    plan.count = plan_release(p.epsilon / 2, mechanism == Mechanism::Laplace ? 0.0 : p.delta / 2, mechanism,
                              1.0, 1.0, true, p.groups_per_unit);
}

// value +- the plan's half-width at alpha (release_half_width).
void set_interval(AggregateRelease& out, const ReleasePlan& plan, double alpha) {
    const double half = release_half_width(plan, alpha);
    out.ci_lower = out.value - half;
    out.ci_upper = out.value + half;
}

AggregateRelease release_mean(const AggregateParameters& p, const AggregatePlan& plan,
                              const ExactTotals& totals, RandomSource& random) {
    // Sum of (value - midpoint) in half units: 2 total - rows (lower_units + upper_units).
    const __int128 bound_units =
        static_cast<__int128>(clamped_units(p.lower, p.lower, p.upper, p.unit_exponent)) +
        clamped_units(p.upper, p.lower, p.upper, p.unit_exponent);
    const __int128 centred = 2 * totals.total_units - static_cast<__int128>(totals.rows) * bound_units;
    const double noisy_sum =
        noisy_grid_value(plan.sum, units_to_grid(centred, p.unit_exponent - 1, plan.sum.granularity), random);
    const double count =
        noisy_grid_value(plan.count, units_to_grid(totals.rows, 0, plan.count.granularity), random);
    const double midpoint = p.lower + (p.upper - p.lower) / 2.0;
    auto clamp = [&](double x) { return std::fmin(std::fmax(x, p.lower), p.upper); };
    // Post-processing: a count below 1 is read as 1; the mean is clamped to the bounds.
    const double divisor = std::fmax(count, 1.0);
    const double offset = noisy_sum / divisor;
    AggregateRelease out;
    out.value = clamp(midpoint + offset);
    // Delta method: sd of (S + m N_err)/N with m the released mean's offset from the midpoint.
    out.noise_sd = std::sqrt(plan.sum.noise_variance + offset * offset * plan.count.noise_variance) / divisor;
    if (p.alpha > 0.0) {
        // Union bound: the sum and the count each miss with probability alpha/2; every ratio of
        // values inside both intervals lies between the corner ratios.
        const double sum_half = release_half_width(plan.sum, p.alpha / 2);
        const double count_half = release_half_width(plan.count, p.alpha / 2);
        const double smallest_count = count - count_half;
        if (smallest_count <= 0.0) {
            out.ci_lower = p.lower;
            out.ci_upper = p.upper;
        } else {
            const double corners[4] = {
                (noisy_sum - sum_half) / smallest_count, (noisy_sum - sum_half) / (count + count_half),
                (noisy_sum + sum_half) / smallest_count, (noisy_sum + sum_half) / (count + count_half)};
            out.ci_lower = clamp(midpoint + *std::min_element(corners, corners + 4));
            out.ci_upper = clamp(midpoint + *std::max_element(corners, corners + 4));
        }
    }
    return out;
}

}  // namespace

double noisy_grid_value(const ReleasePlan& plan, __int128 grid_units, RandomSource& random) {
    return grid_units_to_double(grid_units + sample_release_noise(plan, random), plan.granularity);
}

AggregateParameters validate_aggregate_parameters(AggregateKind kind, bool with_interval,
                                                  AggregateParameters given,
                                                  std::string_view mechanism_name) {
    require_groups_per_unit(given.groups_per_unit);
    // Only the row-capped statistics read k (their plans validate it); the others see one row per unit.
    if (!has_row_capped_person_form(kind)) given.rows_per_unit = 1;
    if (kind == AggregateKind::Selection) {
        // Validated with the plan (plan_partition_selection): epsilon, delta, m, min_units.
        given.selection_mechanism = parse_partition_selection_mechanism(mechanism_name);
        (void)plan_partition_selection(given.epsilon, given.delta, given.groups_per_unit,
                                       given.selection_mechanism, given.min_units);
        given.lower = given.upper = given.alpha = 0.0;
        given.integer_values = false;
        given.unit_exponent = 0;
        return given;
    }
    given.min_units = 1;
    if (kind == AggregateKind::Histogram) {
        // Validated with the plan: lower < upper, bins; an interval for every bin at alpha 0.05.
        (void)validate_histogram_spec(given.lower, given.upper, given.bins);
        given.mechanism = parse_mechanism(mechanism_name);
        check_release_parameters(given.epsilon, given.delta, given.mechanism);
        given.alpha = kHistogramAlpha;
        given.integer_values = false;
        given.unit_exponent = 0;
        return given;
    }
    given.bins = 0;
    if (kind == AggregateKind::CountDistinct) {
        given.mechanism = parse_mechanism(mechanism_name);
        check_release_parameters(given.epsilon, given.delta, given.mechanism);
        if (with_interval) {
            require_alpha(given.alpha);
        } else {
            given.alpha = 0.0;
        }
        given.lower = given.upper = 0.0;
        given.integer_values = false;
        given.unit_exponent = 0;
        return given;
    }
    if (kind == AggregateKind::Quantiles) {
        // Bounds and mechanism are validated with the plan (plan_quantile_release: 'auto' picks the
        // least node noise); epsilon and delta here, before the plan.
        require_quantile_call_bounds(given);
        given.mechanism = parse_mechanism(mechanism_name);
        check_release_parameters(given.epsilon, given.delta, given.mechanism);
        given.alpha = 0.0;
        given.integer_values = false;
        given.unit_exponent = 0;
        return given;
    }
    if (estimates_bounds(given)) {
        require_estimable_bounds(kind, given);
    } else if (reads_bounded_value(kind)) {
        require_usable_bounds(given.lower, given.upper);
    }
    given.mechanism = parse_mechanism(mechanism_name);
    check_release_parameters(given.epsilon, given.delta, given.mechanism);
    if (with_interval) {
        require_alpha(given.alpha);
    } else {
        given.alpha = 0.0;
    }
    if (estimates_bounds(given)) {
        if (given.estimate_lower) given.lower = 0.0;
        if (given.estimate_upper) given.upper = 0.0;
        given.unit_exponent = widest_bounds_parameters(given).unit_exponent;
    } else if (reads_bounded_value(kind)) {
        given.unit_exponent = sum_unit_exponent(given.lower, given.upper);
        if (reads_squares(kind)) (void)centred_square_units(given.lower, given.upper, given.unit_exponent);
    } else {
        given.lower = given.upper = 0.0;
        given.integer_values = false;
        given.unit_exponent = 0;
    }
    return given;
}

namespace {
AggregatePlan plan_statistic(AggregateKind kind, const AggregateParameters& parameters);
}  // namespace

AggregatePlan plan_aggregate_release(AggregateKind kind, const AggregateParameters& parameters) {
    try {
        return plan_statistic(kind, parameters);
    } catch (const EpsilonFloorError& error) {
        // A release that splits its epsilon (the bounds stage's share, dp_mean's halves, the
        // variance's three parts, the quantile tree's levels) checks each part against the floor:
        // the message names the call's epsilon, not an internal part.
        if (!(parameters.epsilon >= kMinEpsilonDelta)) throw;
        throw ArgumentError("epsilon",
                            "epsilon " + shown(parameters.epsilon) +
                                " is too small for this release: each of the parts it is split into "
                                "must be at least " +
                                shown(kMinEpsilonDelta),
                            error.hint());
    }
}

namespace {

AggregatePlan plan_statistic(AggregateKind kind, const AggregateParameters& parameters) {
    // The quantiles need no bounds stage (quantile_parameters: the log-linear leaf map).
    if (estimates_bounds(parameters) && kind != AggregateKind::Quantiles) {
        // The charge's plan (estimated_bounds_release.hpp): the release's share of the budget at the
        // widest bounds; the bounds stage's plan is checked here too, before the charge.
        BoundsParameters stage;
        stage.epsilon = split_bounds_budget(parameters.epsilon, parameters.delta).bounds_epsilon;
        stage.groups_per_unit = parameters.groups_per_unit;
        (void)plan_bounds_estimation(stage);
        const AggregateParameters widest = widest_bounds_parameters(parameters);
        // The plan a release falls back to (estimated_bounds_release.hpp), so it cannot raise later.
        if (reads_squares(kind)) (void)plan_at_release_bounds(kind, widest);
        return plan_aggregate_release(kind, widest);
    }
    AggregatePlan plan{};
    plan.kind = kind;
    switch (kind) {
        case AggregateKind::Sum:
            plan.sum = plan_sum(parameters);
            break;
        case AggregateKind::Mean:
            plan_mean(parameters, plan);
            break;
        case AggregateKind::Variance:
        case AggregateKind::StandardDeviation:
            plan_variance(parameters, plan);
            break;
        case AggregateKind::Count:
            plan.count = plan_release(parameters.epsilon, parameters.delta, parameters.mechanism, 1.0, 1.0,
                                      true, parameters.groups_per_unit);
            break;
        case AggregateKind::Selection:
            plan.selection =
                plan_partition_selection(parameters.epsilon, parameters.delta, parameters.groups_per_unit,
                                         parameters.selection_mechanism, parameters.min_units);
            break;
        case AggregateKind::Histogram:
            plan.count = plan_histogram_release(histogram_parameters(parameters));
            break;
        case AggregateKind::Quantiles:
            plan.quantiles = plan_quantile_release(quantile_parameters(parameters));
            break;
        case AggregateKind::CountDistinct:
            plan.count = plan_distinct_count(distinct_count_parameters(parameters));
            break;
    }
    return plan;
}

}  // namespace

DistinctCountParameters distinct_count_parameters(const AggregateParameters& parameters) {
    DistinctCountParameters distinct;
    distinct.epsilon = parameters.epsilon;
    distinct.delta = parameters.delta;
    distinct.mechanism = parameters.mechanism;
    distinct.alpha = parameters.alpha;
    distinct.values_per_unit = parameters.rows_per_unit;
    distinct.groups_per_unit = parameters.groups_per_unit;
    return distinct;
}

QuantileParameters quantile_parameters(const AggregateParameters& parameters) {
    QuantileParameters quantiles;
    // No bounds stage: a NULL bound selects the data-independent log-linear map over the whole
    // clamped line (docs/privacy.md "Bounds the analyst need not guess: the quantiles").
    quantiles.leaf_map = estimates_bounds(parameters) ? QuantileLeafMap::LogLinear : QuantileLeafMap::Linear;
    quantiles.lower = parameters.estimate_lower ? -kLogLeafValueLimit : parameters.lower;
    quantiles.upper = parameters.estimate_upper ? kLogLeafValueLimit : parameters.upper;
    quantiles.epsilon = parameters.epsilon;
    quantiles.delta = parameters.delta;
    quantiles.mechanism = parameters.mechanism;
    quantiles.rows_per_unit = parameters.rows_per_unit;
    quantiles.groups_per_unit = parameters.groups_per_unit;
    return quantiles;
}

QuantileLeafSpec quantile_leaf_spec(bool lower_null, double lower, bool upper_null, double upper) {
    AggregateParameters given;
    given.estimate_lower = lower_null;
    given.estimate_upper = upper_null;
    given.lower = lower_null ? 0.0 : lower;
    given.upper = upper_null ? 0.0 : upper;
    // The checks of a call's bounds before its charge: validate_aggregate_parameters, then the plan's.
    require_quantile_call_bounds(given);
    const QuantileParameters quantiles = quantile_parameters(given);
    (void)empty_quantile_tree_for(quantiles);
    return QuantileLeafSpec{quantiles.leaf_map, quantiles.lower, quantiles.upper};
}

HistogramParameters histogram_parameters(const AggregateParameters& parameters) {
    HistogramParameters histogram;
    histogram.spec = validate_histogram_spec(parameters.lower, parameters.upper, parameters.bins);
    histogram.epsilon = parameters.epsilon;
    histogram.delta = parameters.delta;
    histogram.mechanism = parameters.mechanism;
    histogram.alpha = parameters.alpha;
    histogram.rows_per_unit = parameters.rows_per_unit;
    histogram.groups_per_unit = parameters.groups_per_unit;
    return histogram;
}

PartitionDecision release_selection(const AggregatePlan& plan, std::int64_t units, RandomSource& random) {
    return select_partition(plan.selection, units, random);
}

AggregateRelease release_aggregate(const AggregateParameters& parameters, const AggregatePlan& plan,
                                   const ExactTotals& totals, RandomSource& random) {
    if (plan.kind == AggregateKind::Mean) return release_mean(parameters, plan, totals, random);
    if (reads_squares(plan.kind)) return release_variance(parameters, plan, totals, random);
    const ReleasePlan& main = plan.main();
    const __int128 exact =
        plan.kind == AggregateKind::Count
            ? units_to_grid(totals.rows, 0, main.granularity)
            : units_to_grid(totals.total_units, parameters.unit_exponent, main.granularity);
    AggregateRelease out;
    out.value = noisy_grid_value(main, exact, random);
    out.noise_sd = std::sqrt(main.noise_variance);
    if (parameters.alpha > 0.0) set_interval(out, main, parameters.alpha);
    return out;
}

ReleaseCharge release_charge(const AggregateParameters& parameters, const AggregatePlan& plan) {
    ReleaseCharge charge{};
    if (plan.kind == AggregateKind::Selection) {
        // (epsilon, delta) in total over the m groups a unit may touch (partition_selection.hpp).
        charge.mechanism = Mechanism::Auto;
        charge.mechanism_name = partition_selection_mechanism_name(plan.selection.mechanism);
        charge.epsilon = parameters.epsilon;
        charge.delta = parameters.delta;
        charge.noise_scale = plan.selection.noise_sd;
        charge.sensitivity = 1.0;
        return charge;
    }
    if (plan.kind == AggregateKind::Histogram || plan.kind == AggregateKind::CountDistinct) {
        return count_release_charge(parameters.epsilon, parameters.delta, plan.count,
                                    parameters.groups_per_unit);
    }
    if (plan.kind == AggregateKind::Quantiles) {
        return quantile_release_charge(quantile_parameters(parameters), plan.quantiles);
    }
    const ReleasePlan& main = plan.main();
    charge.mechanism = main.mechanism;
    charge.mechanism_name = mechanism_name(main.mechanism);
    charge.epsilon = parameters.epsilon;
    charge.delta = main.mechanism == Mechanism::Laplace ? 0.0 : parameters.delta;
    charge.noise_scale = main.noise_scale;
    charge.sensitivity = main.sensitivity;
    if (main.mechanism == Mechanism::Gaussian) {
        // The call's Gaussian releases (dp_mean: sum and count) join the Gaussian part only if
        // every one of them is eligible (budget_accounting.hpp kMinGaussianPartSigma).
        // Over m groups, m coordinates of each (plan_release).
        const std::uint32_t m = parameters.groups_per_unit;
        auto coordinates_mu2 = [m](const ReleasePlan& r) {
            const double one = gaussian_mu2_upper(r.sensitivity_int, r.gaussian_sigma2_int.to_rational());
            return m == 1 ? one : std::nextafter(one * m, std::numeric_limits<double>::infinity());
        };
        // dp_mean adds the count's; dp_variance and dp_stddev (main: the squares) the sum's and count's.
        double mu2 = coordinates_mu2(main);
        auto add = [&](const ReleasePlan& r) {
            const double more = coordinates_mu2(r);
            mu2 = mu2 > 0.0 && more > 0.0 ? add_rounded_up(mu2, more) : 0.0;
        };
        if (plan.kind == AggregateKind::Mean) add(plan.count);
        if (reads_squares(plan.kind)) {
            add(plan.sum);
            add(plan.count);
        }
        // Estimated bounds: the bounds stage is a Laplace release, so the call is charged to the
        // basic part as a whole (its (epsilon, delta) by basic composition).
        charge.gaussian_mu2 = estimates_bounds(parameters) ? 0.0 : mu2;
    }
    return charge;
}

double value_half_width(const AggregateParameters& parameters, const AggregatePlan& plan, double alpha) {
    const bool value_noise = plan.kind == AggregateKind::Sum || plan.kind == AggregateKind::Count ||
                             plan.kind == AggregateKind::Histogram ||
                             plan.kind == AggregateKind::CountDistinct;
    if (!value_noise || estimates_bounds(parameters)) return std::numeric_limits<double>::quiet_NaN();
    return release_half_width(plan.main(), alpha);
}

}  // namespace pgdp
