#include "core/cpp_only.hpp"
#include "core/variance_release.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/centred_squares.hpp"
#include "core/clamped_sum.hpp"

namespace pgdp {

namespace {

// share * total rounded toward 0, so that the shares of a budget never add up to more than it
// (basic composition, 001 Lemma 5.3, needs sum epsilon_i <= epsilon).
double budget_share(double total, double share) {
    const double product = total * share;
    return product > 0.0 ? std::nextafter(product, 0.0) : 0.0;
}

// The exact totals of the three releases, each on its plan's grid.
struct GridTotals {
    __int128 squares;
    __int128 sum;
    __int128 count;
};

GridTotals grid_totals(const AggregateParameters& p, const AggregatePlan& plan, const ExactTotals& totals) {
    const CentredSquareUnits units = centred_square_units(p.lower, p.upper, p.unit_exponent);
    // Sum of centred values in half units: 2 total - rows (lower_units + upper_units).
    const __int128 centred = 2 * totals.total_units -
                             static_cast<__int128>(totals.rows) * static_cast<__int128>(units.bounds_units);
    return GridTotals{units_to_grid(totals.square_units, units.square_exponent, plan.squares.granularity),
                      units_to_grid(centred, p.unit_exponent - 1, plan.sum.granularity),
                      units_to_grid(totals.rows, 0, plan.count.granularity)};
}

// B/n - A^2/n^2, the variance of n values whose centred sum is A and sum of squares B.
double moments_variance(double n, double a, double b) { return b / n - (a / n) * (a / n); }

// The range of the exact variance when the exact count, centred sum and sum of squares lie in
// [n_lo, n_hi] (n_lo >= 1), [a_lo, a_hi] and [b_lo, b_hi]. For fixed n the variance grows with b
// and with a closer to 0; in n, g(n) = B/n - A^2/n^2 has g'(n) = (2A^2 - Bn)/n^3, so it rises up
// to n* = 2A^2/B and falls after: its maximum on [n_lo, n_hi] is at n* clamped, its minimum at an
// end.
void variance_range(double n_lo, double n_hi, double a_lo, double a_hi, double b_lo, double b_hi,
                    double* lowest, double* highest) {
    const double a_near = a_lo <= 0.0 && a_hi >= 0.0 ? 0.0 : std::fmin(std::fabs(a_lo), std::fabs(a_hi));
    const double a_far = std::fmax(std::fabs(a_lo), std::fabs(a_hi));
    const double peak = b_hi > 0.0 ? 2.0 * a_near * a_near / b_hi : std::numeric_limits<double>::infinity();
    *highest = moments_variance(std::fmin(std::fmax(peak, n_lo), n_hi), a_near, b_hi);
    *lowest = std::fmin(moments_variance(n_lo, a_far, b_lo), moments_variance(n_hi, a_far, b_lo));
}

}  // namespace

VarianceShares variance_budget_shares() {
    // epsilon_i proportional to (c_i Delta_i)^(2/3) for c_i Delta_i = 1 : 2 : 1 (times R^2/4).
    const double middle = std::cbrt(4.0);  // 2^(2/3)
    const double outer = 1.0 / (2.0 + middle);
    // 2 outer lies in [1/2, 1], so 1 - 2 outer is exact (Sterbenz): the shares add up to 1 exactly.
    return VarianceShares{outer, 1.0 - 2.0 * outer, outer};
}

namespace {

// The three plans for sensitivities in accumulation units (half units of 2^(e-1) for the centred
// sum, square units for the squares): each release gets its share of epsilon and delta; all three
// use the mechanism resolved on the squares, so by basic composition (001 Lemma 5.3) the call is
// (epsilon, delta)-DP, or epsilon-DP for Laplace.
void plan_variance_releases(const AggregateParameters& p, std::int64_t sum_half_units,
                            std::int64_t squares_units, AggregatePlan& plan) {
    const VarianceShares shares = variance_budget_shares();
    const CentredSquareUnits units = centred_square_units(p.lower, p.upper, p.unit_exponent);
    const double square_unit = std::ldexp(1.0, units.square_exponent);
    const double half_unit = std::ldexp(1.0, p.unit_exponent - 1);
    // lower == upper: every total is 0 on both sides; one grid step keeps the plans valid.
    const double squares_sensitivity =
        static_cast<double>(std::max<std::int64_t>(squares_units, 1)) * square_unit;
    const double sum_sensitivity = static_cast<double>(std::max<std::int64_t>(sum_half_units, 1)) * half_unit;
    plan.squares =
        plan_release(budget_share(p.epsilon, shares.squares), budget_share(p.delta, shares.squares),
                     p.mechanism, squares_sensitivity, square_unit, false, p.groups_per_unit);
    const Mechanism mechanism = plan.squares.mechanism;
    const bool pure = mechanism == Mechanism::Laplace;
    plan.sum =
        plan_release(budget_share(p.epsilon, shares.sum), pure ? 0.0 : budget_share(p.delta, shares.sum),
                     mechanism, sum_sensitivity, half_unit, false, p.groups_per_unit);
    plan.count =
        plan_release(budget_share(p.epsilon, shares.count), pure ? 0.0 : budget_share(p.delta, shares.count),
                     mechanism, 1.0, 1.0, true, p.groups_per_unit);
}

}  // namespace

// Sensitivities (docs/statistics/variance.md): one row moves the count by 1, the centred sum by at
// most D half units and the sum of squares by at most the largest square (centred_squares.hpp),
// all exact for the accumulated units (their rounding is inside).
void plan_variance(const AggregateParameters& p, AggregatePlan& plan) {
    const CentredSquareUnits units = centred_square_units(p.lower, p.upper, p.unit_exponent);
    plan_variance_releases(p, units.spread, units.largest, plan);
}

// The centred sum is 2 floor(T / 2^e) - n B (B = lower_units + upper_units): a row x in
// [lower, upper] moves the floor by an integer in [floor(lower / 2^e), ceil(upper / 2^e)]
// (floor(a + b) - floor(a) lies in [floor(b), ceil(b)]), so the sum by at most the larger of
// B - 2 floor(lower / 2^e) and 2 ceil(upper / 2^e) - B half units (D, or at most D + 2 when a
// bound is not a multiple of 2^e).
void plan_variance_of_floored_totals(const AggregateParameters& p, std::int64_t squares_units,
                                     AggregatePlan& plan) {
    const CentredSquareUnits units = centred_square_units(p.lower, p.upper, p.unit_exponent);
    const auto low = static_cast<std::int64_t>(std::floor(std::ldexp(p.lower, -p.unit_exponent)));
    const auto high = static_cast<std::int64_t>(std::ceil(std::ldexp(p.upper, -p.unit_exponent)));
    const std::int64_t sum_half_units = std::max(units.bounds_units - 2 * low, 2 * high - units.bounds_units);
    plan_variance_releases(p, sum_half_units, squares_units, plan);
}

AggregateRelease release_variance(const AggregateParameters& p, const AggregatePlan& plan,
                                  const ExactTotals& totals, RandomSource& random) {
    const GridTotals exact = grid_totals(p, plan, totals);
    const double squares = noisy_grid_value(plan.squares, exact.squares, random);
    const double sum = noisy_grid_value(plan.sum, exact.sum, random);
    const double count = noisy_grid_value(plan.count, exact.count, random);
    // Post-processing: a count below 1 is read as 1; the mean offset is clamped to [-R/2, R/2] and
    // the second moment about the midpoint to [0, R^2/4], so the variance m2 - mu^2 lies in
    // [0, R^2/4] (and below (R/2 - mu)(R/2 + mu), the Bhatia-Davis bound).
    const double half_range = (p.upper - p.lower) / 2.0;
    const double largest = half_range * half_range;
    const double divisor = std::fmax(count, 1.0);
    const double offset = std::fmin(std::fmax(sum / divisor, -half_range), half_range);
    const double second = std::fmin(std::fmax(squares / divisor, 0.0), largest);
    const double variance = std::fmax(second - offset * offset, 0.0);
    const bool deviation = plan.kind == AggregateKind::StandardDeviation;
    AggregateRelease out;
    out.value = deviation ? std::sqrt(variance) : variance;
    // Delta method: sd of (dS2 - 2 mu dS1 + (2 mu^2 - m2) dn) / n.
    const double count_coefficient = 2.0 * offset * offset - second;
    const double variance_sd =
        std::sqrt(plan.squares.noise_variance + 4.0 * offset * offset * plan.sum.noise_variance +
                  count_coefficient * count_coefficient * plan.count.noise_variance) /
        divisor;
    if (deviation) {
        // d sqrt(V) = dV / (2 sqrt V); near V = 0 the square root of the variance's spread instead.
        const double spread = out.value > 0.0 ? variance_sd / (2.0 * out.value) : std::sqrt(variance_sd);
        out.noise_sd = std::fmin(spread, half_range);
    } else {
        out.noise_sd = std::fmin(variance_sd, largest);
    }
    if (p.alpha > 0.0) {
        // Union bound: each release misses its interval (noise beyond the half-width at alpha/3,
        // plus half a grid step of rounding) with probability <= alpha/3.
        auto half = [&](const ReleasePlan& r) {
            return release_half_width(r, p.alpha / 3) + r.granularity / 2;
        };
        const double squares_half = half(plan.squares);
        const double sum_half = half(plan.sum);
        const double count_half = half(plan.count);
        double lowest = 0.0;
        double highest = largest;
        // A variance is defined for n >= 1 rows; no such n in the count's interval: nothing known.
        if (count + count_half >= 1.0) {
            variance_range(std::fmax(count - count_half, 1.0), count + count_half, sum - sum_half,
                           sum + sum_half, std::fmax(squares - squares_half, 0.0),
                           std::fmax(squares + squares_half, 0.0), &lowest, &highest);
            lowest = std::fmin(std::fmax(lowest, 0.0), variance);
            highest = std::fmax(std::fmin(highest, largest), variance);
        }
        out.ci_lower = deviation ? std::sqrt(lowest) : lowest;
        out.ci_upper = deviation ? std::sqrt(highest) : highest;
    }
    return out;
}

}  // namespace pgdp
