#include "core/cpp_only.hpp"

// GCC 12 reports a false -Wmaybe-uninitialized inside boost::rational::normalize (Boost 1.74)
// once it is inlined here; the warning is about Boost's internals, not this file.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "core/partition_selection.hpp"

#include "core/release_plan.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/discrete_gaussian_calibration.hpp"
#include "core/errors.hpp"
#include "core/exact_sampling.hpp"
#include "core/gaussian_calibration.hpp"
#include "core/noise.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

constexpr std::string_view kNames[] = {"truncated_geometric", "laplace", "gaussian", "auto"};

// Relative margin on the long double evaluation of delta' (log1p, expm1: a few ulps, 1e-19).
constexpr long double kDeltaMargin = 1e-16L;

// The largest double <= x (x >= 0 finite).
double round_down(long double x) {
    double d = static_cast<double>(x);
    if (static_cast<long double>(d) > x) d = std::nextafter(d, 0.0);
    return d;
}

// delta' = 1 - (1 - delta)^(1/m), rounded down, so that 1 - (1 - delta')^m <= delta.
double per_group_delta(double delta, std::int64_t m) {
    if (m == 1) return delta;
    const long double exact = -std::expm1(std::log1p(-static_cast<long double>(delta)) / m);
    return round_down(exact * (1.0L - kDeltaMargin));
}

// eps / m, rounded down (one ulp below the rounded quotient, which is within half an ulp).
double per_group_epsilon(double epsilon, std::int64_t m) {
    if (m == 1) return epsilon;
    return std::nextafter(epsilon / static_cast<double>(m), 0.0);
}

void validate(double epsilon, double delta, std::int64_t max_groups, std::int64_t min_units) {
    require_epsilon(epsilon);
    require_delta(delta);
    require_groups_per_unit(max_groups);
    if (min_units < 1 || min_units > kMaxMinUnits) {
        throw ArgumentError("min_units", "min_units must lie in [1, 2^40], got " + std::to_string(min_units),
                            "min_units drops groups with fewer units before the private selection; "
                            "1 drops none.");
    }
}

// ---- Laplace threshold -----------------------------------------------------------------------

long double laplace_q(long double scale) { return std::exp(-1.0L / scale); }

// The least k >= 1 with tail(k) (1 + margin) <= target; tail non-increasing in k.
template <typename Tail>
std::int64_t least_k_below(Tail tail, long double target) {
    auto ok = [&](std::int64_t k) { return tail(k) * (1.0L + kLongDoubleSafetyMargin) <= target; };
    std::int64_t hi = 1;
    while (!ok(hi)) {
        if (hi > (std::int64_t{1} << 52)) {
            throw RangeError("epsilon", "the selection threshold exceeds 2^52 units",
                             "Use a larger epsilon or delta.");
        }
        hi *= 2;
    }
    std::int64_t lo = hi / 2;  // !ok(lo) unless lo == 0 (hi == 1)
    if (hi == 1) return 1;
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (ok(mid) ? hi : lo) = mid;
    }
    return hi;
}

void plan_laplace(PartitionSelectionPlan& plan) {
    const double delta_group = per_group_delta(plan.delta, plan.max_groups);
    // t >= m / eps: the discrete Laplace is (1/t)-DP for a change of 1, so each group's noisy
    // count is (eps/m)-DP (CKS Section 2).
    const Rational scale = laplace_scale_int(plan.epsilon, static_cast<std::uint64_t>(plan.max_groups));
    plan.laplace_scale = dyadic_from_rational(scale);
    const long double t = scale.convert_to<long double>();
    const long double q = laplace_q(t);
    // A group of one unit is kept iff 1 + Z >= tau: P = P[Z >= tau - 1] <= delta'.
    const std::int64_t k = least_k_below([&](std::int64_t j) { return discrete_laplace_tail(t, j); },
                                         static_cast<long double>(delta_group));
    plan.threshold = 1 + k;
    plan.noise_sd = static_cast<double>(std::sqrt(2.0L * q) / (1.0L - q));
}

// ---- Gaussian threshold ----------------------------------------------------------------------

constexpr long double kSqrt2Pi = 2.5066282746310005024157652848110452530L;

// An upper bound on P[Z >= k], Z ~ N_Z(0, sigma2), k >= 0: the ratios f(j+1)/f(j) =
// exp(-(2j+1)/(2 sigma2)) decrease in j, so sum_{j>=k} f(j) <= f(k) / (1 - r(k)); the
// normaliser is >= sqrt(2 pi) sigma (Poisson summation, as in discrete_gaussian_calibration).
long double gaussian_tail_bound(long double sigma2, std::int64_t k) {
    const long double kl = static_cast<long double>(k);
    const long double f = std::exp(-kl * kl / (2.0L * sigma2));
    const long double one_minus_r = -std::expm1(-(2.0L * kl + 1.0L) / (2.0L * sigma2));
    return f / one_minus_r / (kSqrt2Pi * std::sqrt(sigma2)) * (1.0L + kLongDoubleSafetyMargin) /
           (1.0L - kLongDoubleSafetyMargin);
}

// P[Z >= k] for Z ~ N_Z(0, sigma2) (reports): a direct long double sum for sigma <= 1e5.
long double discrete_gaussian_tail(long double sigma2, std::int64_t k) {
    const long double sigma = std::sqrt(sigma2);
    if (sigma > 1e5L)
        return 0.5L * std::erfc((static_cast<long double>(k) - 0.5L) / (sigma * std::sqrt(2.0L)));
    const auto limit = static_cast<std::int64_t>(std::ceil(40.0L * sigma)) + 10;
    if (k > limit) return 0.0L;
    if (k < -limit) return 1.0L;
    long double total = 0.0L, tail = 0.0L;
    for (std::int64_t y = -limit; y <= limit; ++y) {
        const long double yl = static_cast<long double>(y);
        const long double f = std::exp(-yl * yl / (2.0L * sigma2));
        total += f;
        if (y >= k) tail += f;
    }
    return tail / total;
}

void plan_gaussian(PartitionSelectionPlan& plan) {
    const double half_delta = plan.delta / 2.0;  // exact
    const std::int64_t m = plan.max_groups;
    // The threshold's delta/2 also shrinks epsilon: e^eps_g <= e^eps (1 - delta/2) (privacy.md).
    const long double eps_g_exact = static_cast<long double>(plan.epsilon) + std::log1p(-0.5L * plan.delta);
    const double eps_g = std::nextafter(round_down(std::max(eps_g_exact, 0.0L)), 0.0);
    if (!(eps_g >= kMinEpsilonDelta)) {
        throw RangeError("epsilon",
                         "gaussian selection needs epsilon > -ln(1 - delta/2), got epsilon " +
                             shown(plan.epsilon) + " and delta " + shown(plan.delta),
                         "Use a larger epsilon or a smaller delta, or the 'laplace' selection.");
    }
    Rational sigma2;
    if (m == 1) {
        // One coordinate, sensitivity 1: the exact discrete profile (CKS Theorem 7).
        const double start = analytic_gaussian_sigma(eps_g, half_delta, 1.0);
        sigma2 = calibrate_discrete_gaussian(eps_g, half_delta, 1, start).sigma2_int;
    } else {
        // m coordinates (the counts of a unit's groups that exist on both inputs), each changed
        // by at most 1: the Gaussian over m groups of the release plans (release_plan.hpp), L2
        // sensitivity sqrt(m), exact Balle-Wang profile, sigma_int >= 8.
        sigma2 = gaussian_sigma2_over_groups(eps_g, half_delta, 1, static_cast<std::uint32_t>(m));
    }
    plan.gaussian_sigma2 = dyadic_from_rational(sigma2);
    const long double s2 = sigma2.convert_to<long double>();
    // Each of a unit's up to m new groups (count 1) is kept with probability <= q, so some is
    // kept with probability <= 1 - (1 - q)^m <= delta/2.
    const double q = per_group_delta(half_delta, m);
    plan.threshold = 1 + least_k_below([&](std::int64_t j) { return gaussian_tail_bound(s2, j); }, q);
    plan.noise_sd = static_cast<double>(std::sqrt(s2));
}

PartitionSelectionPlan plan_resolved(double epsilon, double delta, std::int64_t max_groups,
                                     PartitionSelectionMechanism mechanism, std::int64_t min_units) {
    PartitionSelectionPlan plan{};
    plan.mechanism = mechanism;
    plan.epsilon = epsilon;
    plan.delta = delta;
    plan.max_groups = max_groups;
    plan.min_units = min_units;
    switch (mechanism) {
        case PartitionSelectionMechanism::NearTruncatedGeometric:
            plan.geometric = near_truncated_geometric(per_group_epsilon(epsilon, max_groups),
                                                      per_group_delta(delta, max_groups));
            break;
        case PartitionSelectionMechanism::LaplaceThreshold:
            plan_laplace(plan);
            break;
        case PartitionSelectionMechanism::GaussianThreshold:
            plan_gaussian(plan);
            break;
        case PartitionSelectionMechanism::Auto:
            throw std::logic_error("plan_resolved: Auto");
    }
    return plan;
}

// n - (k - 1): the count the mechanism sees; <= 0 means dropped (treated as absent).
std::int64_t shifted_count(const PartitionSelectionPlan& plan, std::int64_t n_units) {
    if (n_units < 0 || n_units > kMaxGroupUnits)
        throw std::invalid_argument("partition selection: unit count out of range");
    return n_units - (plan.min_units - 1);
}

}  // namespace

PartitionSelectionMechanism parse_partition_selection_mechanism(std::string_view name) {
    for (int i = 0; i < 4; ++i)
        if (name == kNames[i]) return static_cast<PartitionSelectionMechanism>(i);
    throw ArgumentError("mechanism", "unknown group selection mechanism " + quoted(name),
                        "Use 'truncated_geometric', 'laplace', 'gaussian' or 'auto'.");
}

std::string_view partition_selection_mechanism_name(PartitionSelectionMechanism mechanism) {
    return kNames[static_cast<int>(mechanism)];
}

long double discrete_laplace_tail(long double scale, std::int64_t k) {
    // P(z) = (1 - q)/(1 + q) q^|z|: P[Z >= k] = q^k / (1 + q) for k >= 1, 1 - P[Z >= 1 - k] else.
    const long double q = laplace_q(scale);
    if (k >= 1) return std::exp(-static_cast<long double>(k) / scale) / (1.0L + q);
    return 1.0L - std::exp(-static_cast<long double>(1 - k) / scale) / (1.0L + q);
}

PartitionSelectionPlan plan_partition_selection(double epsilon, double delta, std::int64_t max_groups,
                                                PartitionSelectionMechanism mechanism,
                                                std::int64_t min_units) {
    validate(epsilon, delta, max_groups, min_units);
    if (mechanism != PartitionSelectionMechanism::Auto)
        return plan_resolved(epsilon, delta, max_groups, mechanism, min_units);
    // Auto: fewest units for a 50 % keep; ties go to the earlier (the optimal one first).
    bool found = false;
    PartitionSelectionPlan best{};
    std::int64_t best_units = 0;
    bool have_error = false;
    RangeError error("", "", "");  // the first candidate's error, thrown if none can be built
    for (auto candidate :
         {PartitionSelectionMechanism::NearTruncatedGeometric, PartitionSelectionMechanism::LaplaceThreshold,
          PartitionSelectionMechanism::GaussianThreshold}) {
        try {
            const PartitionSelectionPlan plan =
                plan_resolved(epsilon, delta, max_groups, candidate, min_units);
            const std::int64_t units = partition_units_for_half(plan);
            if (!found || units < best_units) {
                best = plan;
                best_units = units;
                found = true;
            }
        } catch (const RangeError& e) {
            if (!have_error) error = e;
            have_error = true;
        }
    }
    if (!found) throw error;
    return best;
}

PartitionDecision select_partition(const PartitionSelectionPlan& plan, std::int64_t n_units,
                                   RandomSource& random) {
    const std::int64_t count = shifted_count(plan, n_units);
    PartitionDecision decision{false, false, 0};
    if (count <= 0) return decision;
    std::int64_t noise = 0;
    switch (plan.mechanism) {
        case PartitionSelectionMechanism::NearTruncatedGeometric:
            decision.keep = ntg_keep(plan.geometric, static_cast<std::uint64_t>(count), random);
            return decision;
        case PartitionSelectionMechanism::LaplaceThreshold:
            noise = sample_laplace_int(plan.laplace_scale.to_rational(), random);
            break;
        case PartitionSelectionMechanism::GaussianThreshold:
            noise = sample_gaussian_int(plan.gaussian_sigma2.to_rational(), random);
            break;
        case PartitionSelectionMechanism::Auto:
            throw std::logic_error("select_partition: unresolved plan");
    }
    // |noise| < 2^62 for every scale a plan holds (far beyond 2^52 sigma), count <= 2^62.
    decision.keep = static_cast<__int128>(count) + noise >= plan.threshold;
    // Only a kept group's noisy count is part of the mechanism's output.
    decision.has_noisy_count = decision.keep;
    if (decision.keep) decision.noisy_count = n_units + noise;
    return decision;
}

bool keep_partition(const PartitionSelectionPlan& plan, std::int64_t n_units, RandomSource& random) {
    return select_partition(plan, n_units, random).keep;
}

double partition_keep_probability(const PartitionSelectionPlan& plan, std::int64_t n_units) {
    const std::int64_t count = shifted_count(plan, n_units);
    if (count <= 0) return 0.0;
    switch (plan.mechanism) {
        case PartitionSelectionMechanism::NearTruncatedGeometric:
            return ntg_keep_probability(plan.geometric, static_cast<std::uint64_t>(count));
        case PartitionSelectionMechanism::LaplaceThreshold:
            return static_cast<double>(discrete_laplace_tail(
                plan.laplace_scale.to_rational().convert_to<long double>(), plan.threshold - count));
        case PartitionSelectionMechanism::GaussianThreshold:
            return static_cast<double>(discrete_gaussian_tail(
                plan.gaussian_sigma2.to_rational().convert_to<long double>(), plan.threshold - count));
        case PartitionSelectionMechanism::Auto:
            break;
    }
    throw std::logic_error("partition_keep_probability: unresolved plan");
}

std::int64_t partition_units_for_half(const PartitionSelectionPlan& plan) {
    const std::int64_t shift = plan.min_units - 1;
    if (plan.mechanism == PartitionSelectionMechanism::NearTruncatedGeometric)
        return static_cast<std::int64_t>(ntg_units_for_half(plan.geometric)) + shift;
    // A symmetric integer noise Z has P[Z >= 0] > 1/2 > P[Z >= 1]: count + Z >= tau holds with
    // probability >= 1/2 exactly when count >= tau.
    return plan.threshold + shift;
}

}  // namespace pgdp
