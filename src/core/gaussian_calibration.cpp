#include "core/cpp_only.hpp"
#include "core/gaussian_calibration.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <boost/math/policies/error_handling.hpp>
#include <boost/math/special_functions/erf.hpp>

#include "core/boost_policy.hpp"
#include "core/errors.hpp"
#include "core/erfcx.hpp"
#include "core/gaussian_kernels.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

using detail::sigma_from_shape;

double inverse_erfc(double p) { return boost::math::erfc_inv(p, detail::NoPromotion()); }

// Relative widening applied to numerically solved sigmas so that rounding in the solver can never
// leave them below the true optimum; far below the 1e-9 accuracy promised.
constexpr double kSolverSafetyMargin = 1e-12;
// Below this epsilon the analytic root is refined in long double (see analytic_gaussian_sigma).
constexpr double kLongDoubleRefinementBelow = 1e-3;

// Relative widening of a solved analytic sigma: the fixed margin plus the rounding error of the
// root. ln R(u) carries an error of ~ulp * erfcx(u) / (erfcx(u) - erfcx(v)) (the difference
// cancels when v - u = eps / (u + v) is small); that moves u by the error over |d ln R / du| and
// sigma by du / v relative, since d ln(u + v) / du = 1 / v.
template <typename Real>
Real solver_margin(Real u, Real epsilon, const detail::LogValueSlope<Real>& at, Real unit_roundoff) {
    const Real v = std::sqrt(u * u + epsilon);
    return kSolverSafetyMargin + 16 * unit_roundoff * at.conditioning / (std::fabs(at.slope) * v);
}

// Zhao et al. Mechanism 2's c (002 Thm 5 eq. 9): sqrt(ln(2 / (sqrt(16 delta + 1) - 1))), written
// as sqrt(ln((sqrt(1 + 16 delta) + 1) / (8 delta))) to avoid cancellation for small delta.
double zhao2_shape(double delta) {
    return std::sqrt(std::log((std::sqrt(1.0 + 16.0 * delta) + 1.0) / (8.0 * delta)));
}

// Zhao et al. Mechanism 4's g (002 Thm 9 eq. 15a), rewritten the same way.
double zhao4_shape(double delta) {
    return std::sqrt(std::log((std::sqrt(1.0 + 8.0 * delta) + 1.0) / (4.0 * delta)));
}

// Zhao et al. Mechanism 1's b (002 Thm 4 eq. 7a). e^eps erfc(sqrt eps) = erfcx(sqrt eps) and
// e^eps erfc(sqrt(w^2 + eps)) = e^{-w^2} erfcx(sqrt(w^2 + eps)) keep it finite for large eps.
double zhao1_shape(double epsilon, double delta) {
    // Below eps = 600, e^eps and erfc(v) (v <= sqrt(eps + w^2)) stay in range, so one exp serves
    // both products; above, the erfcx forms avoid overflow.
    const bool moderate = epsilon < 600.0;
    const double growth = moderate ? std::exp(epsilon) : 0.0;
    const double tail = moderate ? growth * detail::fast_erfc(std::sqrt(epsilon)) : erfcx(std::sqrt(epsilon));
    if (!(2.0 - tail > 2.0 * delta)) return 0.0;
    const double denominator = 2.0 * delta + tail;
    const double w = inverse_erfc(denominator);
    const double v = std::sqrt(w * w + epsilon);
    const double inner = moderate ? growth * detail::fast_erfc(v) : std::exp(-w * w) * erfcx(v);
    return inverse_erfc(2.0 * delta / (1.0 - inner / denominator));
}

// Vinterbo's (a, s) bound (000 Thm 5 eq. 9): sigma = D/(eps sqrt 2) (sqrt(a z + eps) + s sqrt(a z)),
// z = -ln(4 delta (1 - delta)); the shape x = s sqrt(a z).
double vinterbo_closed_shape(double delta) {
    const double z = -(std::log(4.0 * delta) + std::log1p(-delta));
    const bool small_delta = delta <= 0.5;
    const double a = small_delta ? 1.0 : 0.785398163397448309615660845819875721;  // pi/4
    const double magnitude = std::sqrt(a * std::fmax(z, 0.0));
    return small_delta ? magnitude : -magnitude;
}

// Boost.Math reports a result outside the double range by throwing (erfc_inv of an argument that
// rounded to 0, 2 or beyond: std::overflow_error, std::domain_error). For arguments that passed
// validation this means the method has no float8 sigma there: a RangeError naming them, so that
// Boost's text never reaches a user and the release fails closed.
template <typename Compute>
double mapping_library_errors(GaussianMethod method, double epsilon, double delta, Compute&& compute) {
    try {
        return compute();
    } catch (const ArgumentError&) {
        throw;
    } catch (const RangeError&) {
        throw;
    } catch (const std::domain_error&) {
    } catch (const std::overflow_error&) {
    } catch (const boost::math::evaluation_error&) {}
    throw RangeError("epsilon",
                     "method \"" + std::string(gaussian_method_name(method)) +
                         "\" has no float8 sigma for epsilon " + shown(epsilon) + " and delta " +
                         shown(delta) + " (its formula leaves the float8 range)",
                     "Use a larger epsilon or delta, or method 'analytic' (the optimal sigma, defined for "
                     "every epsilon > 0 and delta in (0, 1)).");
}

void require_epsilon_at_most_one(GaussianMethod method, double epsilon) {
    if (epsilon <= 1.0) return;
    throw ArgumentError("epsilon",
                        "method \"" + std::string(gaussian_method_name(method)) +
                            "\" is proven only for epsilon <= 1, got " + shown(epsilon) +
                            " (Zhao et al. 2019, Theorem 1: it is not private for large epsilon)",
                        "Use method 'analytic', the optimal sigma, valid for every epsilon > 0.");
}

// pDP-OPT (002 Thm 6): solve erfc(d) + erfc(sqrt(d^2 + eps)) = 2 delta; Lemma 5 brackets d by
// inverfc(2 delta) < d < inverfc(delta).
double probabilistic_shape(double epsilon, double delta) {
    const double target = std::log(2.0 * delta);
    auto log_f = [epsilon](double d) { return detail::log_probabilistic(d, epsilon); };
    double lower = inverse_erfc(std::fmin(2.0 * delta, 1.999999999999999));
    double upper = inverse_erfc(delta);
    // Rounding can put the Lemma 5 ends a hair on the wrong side; widen until they bracket.
    for (int step = 0; step < 64 && log_f(lower).log_value < target; ++step) lower -= std::fabs(lower) + 1.0;
    for (int step = 0; step < 64 && log_f(upper).log_value > target; ++step) upper += std::fabs(upper) + 1.0;
    return detail::solve_decreasing(log_f, target, lower, upper, upper).point;
}

}  // namespace

namespace {

double analytic_gaussian_sigma_unmapped(double epsilon, double delta, double sensitivity) {
    // 002 Thm 2: with a solving erfc(a) - e^eps erfc(sqrt(a^2 + eps)) = 2 delta,
    // sigma = (a + sqrt(a^2 + eps)) D / (eps sqrt 2). Brackets from 002 Lemma 14 (Appendix O):
    // a in (0, c) when 1 - e^eps erfc(sqrt eps) > 2 delta, else a in (-inverfc((2-2delta)/(e^eps+1)), 0].
    const double target = std::log(2.0 * delta);
    auto log_r = [epsilon](double u) { return detail::log_balle_wang(u, epsilon); };
    const double at_zero = 1.0 - erfcx(std::sqrt(epsilon));
    double lower;
    double upper;
    if (at_zero > 2.0 * delta) {
        lower = 0.0;
        upper = zhao2_shape(delta);
    } else {
        const double argument = (2.0 - 2.0 * delta) / (std::exp(epsilon) + 1.0);
        lower = argument > 1e-300 ? -inverse_erfc(argument) : -27.0;
        upper = 0.0;
    }
    for (int step = 0; step < 64 && log_r(lower).log_value < target && lower > -27.0; ++step) {
        lower -= std::fabs(lower) + 1.0;
    }
    for (int step = 0; step < 64 && log_r(upper).log_value > target; ++step) upper += std::fabs(upper) + 1.0;
    // Newton from the right of the root: Vinterbo's shape inverfc(2 delta) (000 eq. 8) is never
    // below a (its sigma is private, so at least the optimum) and is usually within a few percent.
    const double vinterbo = inverse_erfc(2.0 * delta);
    const double start = (vinterbo > lower && vinterbo < upper) ? vinterbo : upper;
    const detail::Root<double> root = detail::solve_decreasing(log_r, target, lower, upper, start);
    const double a = root.point;
    if (epsilon >= kLongDoubleRefinementBelow) {
        const double margin = solver_margin(a, epsilon, root.at, std::numeric_limits<double>::epsilon());
        return sigma_from_shape(a, epsilon, sensitivity) * (1.0 + margin);
    }
    // Tiny epsilon: refine the double root in long double, where the cancellation costs less.
    using Long = long double;
    const Long long_epsilon = epsilon;
    auto log_r_long = [long_epsilon](Long u) { return detail::log_balle_wang(u, long_epsilon); };
    const Long step = 64 * std::numeric_limits<double>::epsilon() * std::fmax(1.0, std::fabs(a));
    Long long_lower = a - step;
    Long long_upper = a + step;
    const Long long_target = std::log(Long(2) * delta);
    for (int widen = 0; widen < 64 && log_r_long(long_lower).log_value < long_target; ++widen) {
        long_lower -= (long_upper - long_lower);
    }
    for (int widen = 0; widen < 64 && log_r_long(long_upper).log_value > long_target; ++widen) {
        long_upper += (long_upper - long_lower);
    }
    const detail::Root<Long> long_root =
        detail::solve_decreasing(log_r_long, long_target, long_lower, long_upper, Long(a));
    const Long refined = long_root.point;
    const Long margin =
        solver_margin(refined, long_epsilon, long_root.at, std::numeric_limits<Long>::epsilon());
    const Long sigma = sigma_from_shape(refined, long_epsilon, Long(sensitivity)) * (1 + margin);
    double rounded = static_cast<double>(sigma);
    if (static_cast<Long>(rounded) < sigma) rounded = std::nextafter(rounded, HUGE_VAL);
    return rounded;
}

}  // namespace

double analytic_gaussian_sigma(double epsilon, double delta, double sensitivity) {
    const double sigma = mapping_library_errors(GaussianMethod::Analytic, epsilon, delta, [&] {
        return analytic_gaussian_sigma_unmapped(epsilon, delta, sensitivity);
    });
    // Fail closed: the root finder loses the root for some tiny epsilon with tiny delta (e.g.
    // epsilon 1e-20, delta 1e-30 gave NaN or a negative sigma); no release may use such a sigma.
    if (std::isfinite(sigma) && sigma > 0.0) return sigma;
    throw RangeError("epsilon",
                     "no analytic Gaussian sigma could be computed for epsilon " + shown(epsilon) +
                         " and delta " + shown(delta),
                     epsilon < 1e-15 ? "Use a larger epsilon (1e-15 or more) or a larger delta."
                                     : "Use a larger delta, or a smaller sensitivity (narrower bounds).");
}

namespace {

double sigma_by_method(double epsilon, double delta, double sensitivity, GaussianMethod method) {
    double sigma = 0.0;
    switch (method) {
        case GaussianMethod::Analytic:
            sigma = analytic_gaussian_sigma(epsilon, delta, sensitivity);
            break;
        case GaussianMethod::Classic:
            // Dwork-Roth: sigma = sqrt(2 ln(1.25/delta)) D / eps, eps <= 1 (001 Thm 5.9; 003).
            require_epsilon_at_most_one(method, epsilon);
            sigma = std::sqrt(2.0 * std::log(1.25 / delta)) * sensitivity / epsilon;
            break;
        case GaussianMethod::Dwork2006:
            // Dwork et al. 2006: sigma = sqrt(2 ln(2/delta)) D / eps, eps <= 1 (002 eq. 1).
            require_epsilon_at_most_one(method, epsilon);
            sigma = std::sqrt(2.0 * std::log(2.0 / delta)) * sensitivity / epsilon;
            break;
        case GaussianMethod::Vinterbo:
            // 000 Thm 5 eq. (8): D/(2 eps) (q + sqrt(q^2 + 2 eps)), q = Phi^-1(1 - delta)
            // = sqrt 2 inverfc(2 delta); i.e. the shape x = inverfc(2 delta).
            sigma = sigma_from_shape(inverse_erfc(2.0 * delta), epsilon, sensitivity);
            break;
        case GaussianMethod::VinterboClosed:
            sigma = sigma_from_shape(vinterbo_closed_shape(delta), epsilon, sensitivity);
            break;
        case GaussianMethod::Zhao1:
            sigma = sigma_from_shape(zhao1_shape(epsilon, delta), epsilon, sensitivity);
            break;
        case GaussianMethod::Zhao2:
            sigma = sigma_from_shape(zhao2_shape(delta), epsilon, sensitivity);
            break;
        case GaussianMethod::Pdp:
            sigma = sigma_from_shape(probabilistic_shape(epsilon, delta), epsilon, sensitivity) *
                    (1.0 + kSolverSafetyMargin);
            break;
        case GaussianMethod::Zhao3:
            // 002 Thm 8 eq. (14a): f = inverfc(delta).
            sigma = sigma_from_shape(inverse_erfc(delta), epsilon, sensitivity);
            break;
        case GaussianMethod::Zhao4:
            sigma = sigma_from_shape(zhao4_shape(delta), epsilon, sensitivity);
            break;
        case GaussianMethod::Zcdp:
            // 002 Sec. VII: D (sqrt(ln 1/delta) + sqrt(ln 1/delta + eps)) / (sqrt 2 eps).
            sigma = sigma_from_shape(std::sqrt(-std::log(delta)), epsilon, sensitivity);
            break;
    }
    return sigma;
}

}  // namespace

double gaussian_sigma(double epsilon, double delta, double sensitivity, GaussianMethod method) {
    require_epsilon(epsilon);
    require_positive("sensitivity", sensitivity);
    if (method == GaussianMethod::Zhao2) {
        require_delta(delta, 0.5, "method \"zhao2\" (Zhao et al. 2019, Theorem 5)");
    } else {
        require_delta(delta);
    }

    const double sigma = mapping_library_errors(
        method, epsilon, delta, [&] { return sigma_by_method(epsilon, delta, sensitivity, method); });
    return require_representable(sigma, "calibrated sigma");
}

}  // namespace pgdp
