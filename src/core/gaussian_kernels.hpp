// Numerical kernels shared by the Gaussian calibrations and the exact privacy profile.
// Internal to src/core.
#pragma once

#include <cmath>

#include "core/boost_policy.hpp"
#include "core/erfcx.hpp"

namespace pgdp::detail {

template <typename Real>
constexpr Real kTwoOverSqrtPi = Real(1.12837916709551257389615890312154517L);
template <typename Real>
constexpr Real kSqrt2 = Real(1.41421356237309504880168872420969808L);

// sigma = (x + sqrt(x^2 + eps)) * sens / (eps sqrt 2): the shape shared by the optimal Gaussian
// (002 Thm 2 eq. 5), Vinterbo's bounds (000 Thm 5 eq. 8, 9), Zhao's Mechanisms 1-4 (002 eq. 7b, 9,
// 13b, 14b, 15b) and the zCDP conversion (002 Sec. VII). For x < 0 the algebraically equal form
// sens / (sqrt 2 (sqrt(x^2 + eps) - x)) avoids cancellation.
template <typename Real>
Real sigma_from_shape(Real x, Real epsilon, Real sensitivity) {
    const Real root = std::sqrt(x * x + epsilon);
    if (x < 0) return sensitivity / (kSqrt2<Real> * (root - x));
    return (x + root) * sensitivity / (epsilon * kSqrt2<Real>);
}

// The inverse of sigma_from_shape: x = (eps sigma/sens - sens/(2 sigma)) / sqrt 2.
template <typename Real>
Real shape_from_sigma(Real sigma, Real epsilon, Real sensitivity) {
    return (epsilon * sigma / sensitivity - sensitivity / (2 * sigma)) / kSqrt2<Real>;
}

template <typename Real>
struct LogValueSlope {
    Real log_value;         // ln F(u)
    Real slope;             // d/du ln F(u)
    Real conditioning = 1;  // relative error of F over unit roundoff (cancellation), >= 1
};

// Balle-Wang: R(u) = erfc(u) - e^eps erfc(v), v = sqrt(u^2 + eps), equals 2 delta at the optimum
// (002 Thm 2 eq. 5; 2 delta(sigma) with u = shape_from_sigma). With erfcx, e^eps erfc(v) =
// e^{-u^2} erfcx(v), so nothing overflows for any eps. R'(u) = (2/sqrt pi) e^{-u^2} (u - v)/v
// (002 Remark 4).
template <typename Real>
LogValueSlope<Real> log_balle_wang(Real u, Real epsilon) {
    const Real v = std::sqrt(u * u + epsilon);
    if (u >= 0) {
        const Real u_minus_v = -epsilon / (u + v);
        const Real scaled_tail = erfcx(u);
        const Real gap = scaled_tail - erfcx(v);
        return {-u * u + std::log(gap), kTwoOverSqrtPi<Real> * u_minus_v / (v * gap), scaled_tail / gap};
    }
    const Real scale = std::exp(-u * u);
    const Real value = fast_erfc(u) - scale * erfcx(v);
    return {std::log(value), kTwoOverSqrtPi<Real> * scale * (u - v) / (v * value)};
}

// pDP-OPT: P(d) = erfc(d) + erfc(sqrt(d^2 + eps)) equals 2 delta (002 Thm 6 eq. 13a).
template <typename Real>
LogValueSlope<Real> log_probabilistic(Real d, Real epsilon) {
    const Real v = std::sqrt(d * d + epsilon);
    const Real damp = std::exp(-epsilon);
    if (d >= 0) {
        const Real sum = erfcx(d) + damp * erfcx(v);
        return {-d * d + std::log(sum), -kTwoOverSqrtPi<Real> * (1 + damp * d / v) / sum};
    }
    const Real scale = std::exp(-d * d);
    const Real value = fast_erfc(d) + scale * damp * erfcx(v);
    return {std::log(value), -kTwoOverSqrtPi<Real> * scale * (1 + damp * d / v) / value};
}

template <typename Real>
struct Root {
    Real point;              // where ln F(point) <= target holds as evaluated
    LogValueSlope<Real> at;  // ln F and its slope there
};

// Finds the root of the decreasing function ln F(u) - target on [lower, upper] where
// ln F(lower) >= target >= ln F(upper), by Newton steps safeguarded with bisection. Returns a
// point where ln F <= target (the side of larger u, i.e. larger sigma: the private side) within
// a few ulps of the root.
template <typename Real, typename LogFunction>
Root<Real> solve_decreasing(LogFunction log_f, Real target, Real lower, Real upper, Real start) {
    Real u = (start > lower && start < upper) ? start : lower + (upper - lower) / 2;
    const Real tiny = std::numeric_limits<Real>::epsilon();
    LogValueSlope<Real> at = log_f(u);
    for (int iteration = 0; iteration < 200; ++iteration) {
        const Real excess = at.log_value - target;
        if (excess > 0) {
            lower = u;
        } else {
            upper = u;
        }
        const Real newton_step = -excess / at.slope;
        // Stop once the step is below what rounding of ln F can resolve (conditioning ulps).
        const Real resolution =
            4 * tiny * std::fmax(std::fmax(Real(1), std::fabs(u)), at.conditioning / std::fabs(at.slope));
        if (excess == 0 || std::fabs(newton_step) <= resolution) break;
        Real next = u + newton_step;
        if (!(next > lower && next < upper)) next = lower + (upper - lower) / 2;
        if (next == u) break;
        u = next;
        at = log_f(u);
    }
    // Within rounding of the root. If the last point is on the wrong side as evaluated, step up
    // by a few ulps until ln F <= target holds, never jumping to a stale bracket end.
    Real bump = 4 * tiny * std::fmax(Real(1), std::fabs(u));
    for (int attempt = 0; attempt < 64 && at.log_value > target; ++attempt) {
        const Real candidate = u + bump;
        if (candidate >= upper) return {upper, log_f(upper)};
        const LogValueSlope<Real> there = log_f(candidate);
        if (there.log_value <= target) return {candidate, there};
        bump *= 2;
    }
    if (at.log_value > target) return {upper, log_f(upper)};
    return {u, at};
}

}  // namespace pgdp::detail
