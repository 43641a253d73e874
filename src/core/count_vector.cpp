#include "core/cpp_only.hpp"
#include "core/count_vector.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/budget_accounting.hpp"
#include "core/clamped_sum.hpp"
#include "core/errors.hpp"

namespace pgdp {

namespace {

// Integer bound on the L2 norm, in grid units, of the change one unit makes to one group's
// vector of rounded counts round(n_i / g): each touched coordinate moves by at most
// floor(c_i / g) + 1 (docs/privacy.md "Rounding charged to sensitivity"), so the norm is at most
// ||floor(c / g)||_2 + ||1_touched||_2 <= floor(k / g) + sqrt(touched), touched <= min(k, coordinates).
// On grid 1 nothing is rounded and the norm is ||c||_2 <= k.
std::uint64_t group_l2_bound_int(std::uint32_t k, double granularity, std::size_t coordinates) {
    if (granularity <= 1.0) return k;
    const double touched = static_cast<double>(std::min<std::size_t>(k, coordinates));
    return static_cast<std::uint64_t>(std::floor(k / granularity)) +
           static_cast<std::uint64_t>(std::ceil(std::sqrt(touched)));
}

}  // namespace

void require_rows_per_unit(const char* argument, std::int64_t rows_per_unit) {
    if (rows_per_unit >= 1 && rows_per_unit <= kMaxRowsPerUnit) return;
    throw ArgumentError(
        argument,
        std::string(argument) + " must lie in [1, " + std::to_string(kMaxRowsPerUnit) + "], got " +
            std::to_string(rows_per_unit),
        std::string(argument) + " is how many of one privacy unit's rows a group keeps, e.g. 1.");
}

ReleasePlan plan_count_vector(double epsilon, double delta, Mechanism mechanism, std::size_t coordinates,
                              std::uint32_t rows_per_unit, std::uint32_t groups_per_unit) {
    require_rows_per_unit("rows_per_unit", rows_per_unit);
    const std::uint32_t k = rows_per_unit;
    const std::uint32_t m = groups_per_unit;
    ReleasePlan plan = plan_release(epsilon, delta, mechanism, static_cast<double>(k), 1.0, true, m);
    if (plan.mechanism != Mechanism::Gaussian) {
        // k < 2^20: the Laplace family's grid is 1 (kMaxRowsPerUnit), so counts are never rounded
        // and a shift c_i of a coordinate is exactly c_i grid units.
        if (plan.granularity != 1.0) throw std::logic_error("plan_count_vector: Laplace grid above 1");
        return plan;
    }
    // k = 1: one coordinate per group moves, by one count; plan_release's scalar plan is exact.
    if (k == 1) return plan;
    // k > 1: a unit may spread its rows over several bins. The Gaussian over m groups is argued for
    // any shift of L2 norm sqrt(m) s_int (the multivariate discrete Gaussian, docs/privacy.md
    // "Releases over m groups"); plan_release's m = 1 plan covers one coordinate only.
    const std::uint64_t s_int = group_l2_bound_int(k, plan.granularity, coordinates);
    const Rational sigma2 =
        gaussian_sigma2_over_groups(calibration_below(epsilon), calibration_below(delta), s_int, m);
    const Rational planned = plan.gaussian_sigma2_int.to_rational();
    if (sigma2 > planned) {
        plan.gaussian_sigma2_int = dyadic_from_rational(sigma2);
        const double sigma2_value = static_cast<double>(sigma2);
        plan.noise_scale = std::sqrt(sigma2_value) * plan.granularity;
        plan.noise_variance = sigma2_value * plan.granularity * plan.granularity;
    }
    plan.sensitivity_int = std::max(plan.sensitivity_int, s_int);
    return plan;
}

ReleaseCharge count_release_charge(double epsilon, double delta, const ReleasePlan& plan,
                                   std::uint32_t groups_per_unit) {
    ReleaseCharge charge{};
    charge.mechanism = plan.mechanism;
    charge.mechanism_name = mechanism_name(plan.mechanism);
    charge.epsilon = epsilon;
    charge.delta = plan.mechanism == Mechanism::Laplace ? 0.0 : delta;
    charge.noise_scale = plan.noise_scale;
    charge.sensitivity = plan.sensitivity;
    if (plan.mechanism == Mechanism::Gaussian) {
        const double one = gaussian_mu2_upper(plan.sensitivity_int, plan.gaussian_sigma2_int.to_rational());
        charge.gaussian_mu2 = groups_per_unit == 1 ? one
                                                   : std::nextafter(one * groups_per_unit,
                                                                    std::numeric_limits<double>::infinity());
    }
    return charge;
}

std::int64_t noisy_count(const ReleasePlan& plan, std::int64_t count, RandomSource& random) {
    const __int128 grid_units =
        units_to_grid(count, 0, plan.granularity) + sample_release_noise(plan, random);
    return saturating_int64(grid_units_to_double(grid_units, plan.granularity));
}

std::int64_t saturating_int64(double value) {
    constexpr double kTwo63 = 9223372036854775808.0;
    if (!(value == value)) return 0;
    if (value >= kTwo63) return std::numeric_limits<std::int64_t>::max();
    if (value < -kTwo63) return std::numeric_limits<std::int64_t>::min();
    return static_cast<std::int64_t>(value);
}

void merge_counts(std::int64_t* into, const std::int64_t* from, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        if (__builtin_add_overflow(into[i], from[i], &into[i]))
            throw std::overflow_error("merge_counts: overflow");
    }
}

void put_counts(StateWriter& writer, const std::int64_t* counts, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) writer.put_i64(counts[i]);
}

void get_counts(StateReader& reader, std::int64_t* counts, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        counts[i] = reader.get_i64();
        if (counts[i] < 0) reader.fail("count " + std::to_string(i) + " is negative");
    }
}

}  // namespace pgdp
