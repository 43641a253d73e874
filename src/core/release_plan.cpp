#include "core/cpp_only.hpp"
#include "core/release_plan.hpp"

#include "core/budget_accounting.hpp"

#include <algorithm>
#include <iterator>
#include <cmath>
#include <string>

#include "core/accuracy.hpp"
#include "core/discrete_gaussian_calibration.hpp"
#include "core/errors.hpp"
#include "core/gaussian_calibration.hpp"
#include "core/noise.hpp"
#include "core/truncated_laplace.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

constexpr std::string_view kMechanismNames[] = {"laplace", "gaussian", "tlap", "auto"};

void require_no_delta_for_laplace(double delta) {
    if (delta == 0.0) return;
    throw ArgumentError("delta",
                        "mechanism \"laplace\" is pure epsilon-DP and takes delta = 0, got " + shown(delta),
                        "Omit delta or pass 0 for 'laplace'; use 'gaussian', 'tlap' or 'auto' to spend a "
                        "positive delta.");
}

// Continuous noise variance of each mechanism at the declared sensitivity, used to resolve Auto
// (004 Section 6: the truncated Laplace usually wins for a single query).
double laplace_variance(double epsilon, double sensitivity) {
    const double scale = sensitivity / epsilon;
    return 2.0 * scale * scale;
}

// m groups per unit: the Laplace family at (epsilon/m, delta/m), the Gaussian at L2 sqrt(m) Delta.
Mechanism resolve_auto(double epsilon, double delta, double sensitivity, std::uint32_t m) {
    if (delta == 0.0) return Mechanism::Laplace;
    Mechanism best = Mechanism::Laplace;
    double best_variance = laplace_variance(epsilon / m, sensitivity);
    const double sigma =
        analytic_gaussian_sigma(epsilon, delta, std::sqrt(static_cast<double>(m)) * sensitivity);
    if (sigma * sigma < best_variance) {
        best = Mechanism::Gaussian;
        best_variance = sigma * sigma;
    }
    if (delta / m < 0.5) {
        const double power = truncated_laplace_params(epsilon / m, delta / m, sensitivity).power;
        if (power < best_variance) best = Mechanism::TruncatedLaplace;
    }
    return best;
}

double to_double(const Rational& value) { return static_cast<double>(value); }

// The analytic sigma at the calibrated (one ulp lower) arguments; a failure names the arguments
// as given (plan.epsilon, plan.delta), not the calibrated ones.
double analytic_sigma_as_given(const ReleasePlan& plan, double epsilon, double delta, double sensitivity) {
    try {
        return analytic_gaussian_sigma(epsilon, delta, sensitivity);
    } catch (const RangeError& error) {
        throw RangeError(error.argument(),
                         "no analytic Gaussian sigma could be computed for epsilon " + shown(plan.epsilon) +
                             " and delta " + shown(plan.delta),
                         error.hint());
    }
}

}  // namespace

// The Gaussian coordinate of a release over m > 1 groups: sigma_int^2 such that the m-dimensional
// discrete Gaussian with per-coordinate shifts of at most sensitivity_int is (epsilon, delta)-DP.
// Its privacy loss is bounded by the continuous Gaussian's with mu^2 = m sensitivity_int^2 /
// sigma_int^2 (002 Lemma 15 for the m coordinates; CKS 2020 Section 4 for the discrete
// coordinates, up to a term in exp(-2 pi^2 sigma_int^2) that is below 1e-540 for sigma_int >= 8),
// checked with the exact Balle-Wang profile and relative margins of 1e-9 (gaussian_part_fits),
// the argument of the ledger's Gaussian part (docs/privacy.md "Gaussian accounting").
Rational gaussian_sigma2_over_groups(double epsilon, double delta, std::uint64_t sensitivity_int,
                                     std::uint32_t m) {
    const double l2 = std::sqrt(static_cast<double>(m)) * static_cast<double>(sensitivity_int);
    double sigma = std::fmax(analytic_gaussian_sigma(epsilon, delta, l2), kMinGaussianPartSigma);
    require_release_scale(sigma, kMaxReleaseSigmaSteps, "1e9");
    for (int step = 0; step < 4096; ++step) {
        const Rational sigma2 = round_up_sigma2(static_cast<long double>(sigma) * sigma);
        const double mu2 = static_cast<double>(m) * gaussian_mu2_upper(sensitivity_int, sigma2);
        if (mu2 > 0.0 && gaussian_part_fits(mu2, epsilon, delta)) return sigma2;
        sigma *= 1.0 + 1.0 / 65536;
    }
    throw RangeError("epsilon",
                     "no Gaussian noise could be calibrated for epsilon " + shown(epsilon) + " and delta " +
                         shown(delta) + " over " + std::to_string(m) + " groups",
                     "Use a larger epsilon or delta.");
}

Mechanism parse_mechanism(std::string_view name) {
    for (std::size_t i = 0; i < std::size(kMechanismNames); ++i) {
        if (kMechanismNames[i] == name) return static_cast<Mechanism>(i);
    }
    throw ArgumentError("mechanism", "unknown mechanism " + quoted(name),
                        "Known mechanisms: gaussian, tlap, laplace, auto (the least noise variance "
                        "for the given epsilon and delta).");
}

std::string_view mechanism_name(Mechanism mechanism) { return kMechanismNames[static_cast<int>(mechanism)]; }

void check_release_parameters(double epsilon, double delta, Mechanism mechanism) {
    require_epsilon(epsilon);
    switch (mechanism) {
        case Mechanism::Laplace:
            require_no_delta_for_laplace(delta);
            break;
        case Mechanism::Gaussian:
            require_delta(delta);
            break;
        case Mechanism::TruncatedLaplace:
            require_delta(delta, 0.5, "mechanism \"tlap\" (Geng et al., Definition 3)");
            break;
        case Mechanism::Auto:
            if (delta != 0.0) require_delta(delta);
            break;
    }
}

ReleasePlan plan_release(double epsilon, double delta, Mechanism mechanism, double sensitivity,
                         double min_granularity, bool value_is_integer, std::uint32_t groups_per_unit) {
    check_release_parameters(epsilon, delta, mechanism);
    require_positive("sensitivity", sensitivity);
    require_groups_per_unit(groups_per_unit);
    const std::uint32_t m = groups_per_unit;
    if (mechanism == Mechanism::Auto) mechanism = resolve_auto(epsilon, delta, sensitivity, m);

    ReleasePlan plan{};
    plan.epsilon = epsilon;
    plan.delta = mechanism == Mechanism::Laplace ? 0.0 : delta;
    // The noise is calibrated one ulp below the arguments: the budget ledger charges the shortest
    // decimals that round-trip to them, which lie above (budget_accounting.hpp), so exact decimal
    // sums of the charges bound the true composition.
    epsilon = calibration_below(epsilon);
    delta = calibration_below(delta);
    // The Laplace family over m groups: each coordinate at (epsilon/m, delta/m), rounded down.
    const double coordinate_epsilon = m == 1 ? epsilon : calibration_below(epsilon / m);
    const double coordinate_delta = m == 1 ? delta : calibration_below(delta / m);
    // An integer value is a multiple of every power-of-two grid g <= 1: no rounding to charge.
    auto grid_sensitivity = [&](double granularity) {
        return sensitivity_in_grid_units(sensitivity, granularity, value_is_integer && granularity <= 1.0);
    };
    plan.mechanism = mechanism;
    plan.sensitivity = sensitivity;
    switch (mechanism) {
        case Mechanism::Gaussian: {
            // Grid from the continuous optimum; then sigma_int calibrated to the exact profile of
            // the discrete Gaussian for the sensitivity in grid units (CKS 2020 Theorem 7).
            const double l2 = std::sqrt(static_cast<double>(m)) * sensitivity;
            const double sigma = analytic_sigma_as_given(plan, epsilon, delta, l2);
            plan.granularity = gaussian_granularity(sigma, min_granularity);
            plan.sensitivity_int = grid_sensitivity(plan.granularity);
            if (m > 1) {
                const Rational sigma2 = gaussian_sigma2_over_groups(epsilon, delta, plan.sensitivity_int, m);
                plan.gaussian_sigma2_int = dyadic_from_rational(sigma2);
                plan.noise_variance = to_double(sigma2) * plan.granularity * plan.granularity;
                plan.noise_scale = std::sqrt(to_double(sigma2)) * plan.granularity;
                break;
            }
            const double sensitivity_int = static_cast<double>(plan.sensitivity_int);
            const double start_sigma_int = analytic_gaussian_sigma(epsilon, delta, sensitivity_int);
            require_release_scale(start_sigma_int, kMaxReleaseSigmaSteps, "1e9");
            const DiscreteGaussianCalibration calibration =
                calibrate_discrete_gaussian(epsilon, delta, plan.sensitivity_int, start_sigma_int);
            plan.gaussian_sigma2_int = dyadic_from_rational(calibration.sigma2_int);
            plan.noise_scale = calibration.sigma_int * plan.granularity;
            plan.noise_variance = to_double(calibration.sigma2_int) * plan.granularity * plan.granularity;
            break;
        }
        case Mechanism::Laplace: {
            // Grid from min(scale, sensitivity): sensitivity >= 2^R grid units, so the rounding
            // charged inflates it by at most 2^-R.
            plan.granularity = laplace_family_granularity(coordinate_epsilon, sensitivity, min_granularity);
            plan.sensitivity_int = grid_sensitivity(plan.granularity);
            const Rational scale_int = laplace_scale_int(coordinate_epsilon, plan.sensitivity_int);
            require_release_scale(to_double(scale_int), kMaxReleaseScaleSteps, "2^57");
            plan.laplace_scale_int = dyadic_from_rational(scale_int);
            plan.noise_scale = to_double(scale_int) * plan.granularity;
            plan.noise_variance = 2.0 * plan.noise_scale * plan.noise_scale;
            break;
        }
        case Mechanism::TruncatedLaplace: {
            plan.granularity = laplace_family_granularity(coordinate_epsilon, sensitivity, min_granularity);
            plan.sensitivity_int = grid_sensitivity(plan.granularity);
            const TruncatedDiscreteLaplace params =
                truncated_discrete_laplace(coordinate_epsilon, coordinate_delta, plan.sensitivity_int);
            plan.bound_int = params.bound_int;
            require_release_scale(static_cast<double>(params.bound_int), kMaxReleaseScaleSteps, "2^57");
            plan.laplace_scale_int = dyadic_from_rational(params.scale_int);
            plan.noise_scale = to_double(params.scale_int) * plan.granularity;
            // 004 Theorem 3 with the grid's scale and bound: lambda^2 (2 - (L^2 + 2L)/(e^L - 1)).
            const double L = static_cast<double>(params.bound_int) / to_double(params.scale_int);
            plan.noise_variance = plan.noise_scale * plan.noise_scale * (2.0 - L * (L + 2.0) / std::expm1(L));
            break;
        }
        case Mechanism::Auto:
            break;  // resolved above
    }
    // What the release reports (noise_sd, intervals) must be a number: a scale past 1e300 in value
    // units (a tiny epsilon with wide bounds) overflows its variance.
    if (!(std::isfinite(plan.noise_scale) && plan.noise_scale <= 1e300 &&
          std::isfinite(plan.noise_variance))) {
        throw RangeError("epsilon",
                         "epsilon is too small for this release: its noise scale would be " +
                             shown(plan.noise_scale) + ", beyond what a float8 release can report",
                         "Use a larger epsilon (for dp_sum and dp_mean, narrower bounds also help).");
    }
    return plan;
}

std::int64_t sample_release_noise(const ReleasePlan& plan, RandomSource& random) {
    switch (plan.mechanism) {
        case Mechanism::Gaussian:
            return sample_gaussian_int(plan.gaussian_sigma2_int.to_rational(), random);
        case Mechanism::Laplace:
            return sample_laplace_int(plan.laplace_scale_int.to_rational(), random);
        case Mechanism::TruncatedLaplace: {
            TruncatedDiscreteLaplace params{};
            params.scale_int = plan.laplace_scale_int.to_rational();
            params.bound_int = plan.bound_int;
            params.sensitivity_int = plan.sensitivity_int;
            return sample_truncated_laplace_int(params, random);
        }
        case Mechanism::Auto:
            break;
    }
    throw std::logic_error("sample_release_noise: unresolved mechanism");
}

double release_half_width(const ReleasePlan& plan, double alpha) {
    require_alpha(alpha);
    // One grid step covers both the discreteness of the noise and the rounding of the exact
    // value to the grid (at most g/2).
    const double g = plan.granularity;
    switch (plan.mechanism) {
        case Mechanism::Gaussian:
            return gaussian_accuracy_for_sigma(plan.noise_scale, alpha) + g;
        case Mechanism::Laplace:
            return laplace_accuracy_for_scale(plan.noise_scale, alpha) + g;
        case Mechanism::TruncatedLaplace: {
            const double lambda = plan.noise_scale;
            const double bound = static_cast<double>(plan.bound_int) * g;
            const double a = -lambda * std::log(alpha + (1.0 - alpha) * std::exp(-bound / lambda));
            return std::fmin(a, bound) + g;
        }
        case Mechanism::Auto:
            break;
    }
    throw std::logic_error("release_half_width: unresolved mechanism");
}

}  // namespace pgdp
