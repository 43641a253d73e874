#include "core/cpp_only.hpp"
#include "core/accuracy.hpp"

#include <cmath>

#include <boost/math/special_functions/erf.hpp>

#include "core/gaussian_calibration.hpp"
#include "core/validate.hpp"

namespace pgdp {

double gaussian_accuracy_for_sigma(double sigma, double alpha) {
    // 003 Theorem 1: alpha = 1 - erf(a / (sigma sqrt 2)), so a = sigma sqrt2 erfinv(1 - alpha)
    // = sigma sqrt2 inverfc(alpha); the inverfc form keeps precision for small alpha.
    require_positive("sigma", sigma);
    require_alpha(alpha);
    return sigma * 1.41421356237309504880 * boost::math::erfc_inv(alpha);
}

double gaussian_accuracy(double epsilon, double delta, double sensitivity, double alpha,
                         GaussianMethod method) {
    require_alpha(alpha);
    return require_representable(
        gaussian_accuracy_for_sigma(gaussian_sigma(epsilon, delta, sensitivity, method), alpha),
        "Gaussian accuracy");
}

double laplace_accuracy_for_scale(double scale, double alpha) {
    // P(|X| > a) = exp(-a / b) for X ~ Laplace(b).
    require_positive("scale", scale);
    require_alpha(alpha);
    return -scale * std::log(alpha);
}

}  // namespace pgdp
