#include "core/cpp_only.hpp"
#include "core/truncated_laplace.hpp"

#include <cmath>

#include "core/validate.hpp"

namespace pgdp {

namespace {

// L = A / lambda = ln(1 + (e^eps - 1) / (2 delta)) (004 Definition 3). For eps > 1 the form
// eps - ln(2 delta) + ln(1 + (2 delta - 1) e^-eps) cannot overflow.
long double log_bound_ratio(long double epsilon, long double delta) {
    if (epsilon <= 1.0L) return std::log1p(std::expm1(epsilon) / (2 * delta));
    return epsilon - std::log(2 * delta) + std::log1p((2 * delta - 1) * std::exp(-epsilon));
}

// E|X| / lambda = 1 - L / (e^L - 1) (004 Thm 2 proof: lambda - A/(e^{A/lambda} - 1)). Below
// L = 0.05 the Bernoulli series L/(e^L - 1) = sum B_n L^n / n! avoids cancellation.
long double amplitude_ratio(long double L) {
    if (L < 0.05L) {
        const long double L2 = L * L;
        return L / 2 - L2 / 12 + L2 * L2 / 720 - L2 * L2 * L2 / 30240 + L2 * L2 * L2 * L2 / 1209600;
    }
    return 1 - L / std::expm1(L);
}

// E X^2 / lambda^2 = 2 - (L^2 + 2L) / (e^L - 1) (004 Thm 3 proof). Series from (L + 2) times the
// Bernoulli series, whose constant and linear terms cancel the 2.
long double power_ratio(long double L) {
    if (L < 0.05L) {
        static constexpr long double kCoefficients[] = {
            1.0L / 3,      -1.0L / 12,    1.0L / 360,     1.0L / 720,       -1.0L / 15120,
            -1.0L / 30240, 1.0L / 604800, 1.0L / 1209600, -1.0L / 23950080,
        };
        long double sum = 0;
        long double power = L * L;
        for (long double coefficient : kCoefficients) {
            sum += coefficient * power;
            power *= L;
        }
        return sum;
    }
    return 2 - L * (L + 2) / std::expm1(L);
}

}  // namespace

TruncatedLaplaceParams truncated_laplace_params(double epsilon, double delta, double sensitivity) {
    require_epsilon(epsilon);
    require_delta(delta, 0.5, "the truncated Laplace mechanism (Geng et al., Definition 3)");
    require_positive("sensitivity", sensitivity);
    const long double lambda = static_cast<long double>(sensitivity) / epsilon;
    const long double L = log_bound_ratio(epsilon, delta);
    return TruncatedLaplaceParams{
        require_representable(static_cast<double>(lambda), "truncated Laplace scale"),
        require_representable(static_cast<double>(lambda * L), "truncated Laplace bound"),
        require_representable(static_cast<double>(lambda * amplitude_ratio(L)),
                              "truncated Laplace amplitude"),
        require_representable(static_cast<double>(lambda * lambda * power_ratio(L)),
                              "truncated Laplace power"),
    };
}

double truncated_laplace_accuracy(double epsilon, double delta, double sensitivity, double alpha) {
    require_alpha(alpha);
    const TruncatedLaplaceParams params = truncated_laplace_params(epsilon, delta, sensitivity);
    // P(|X| > a) = (e^{-a/lambda} - e^{-L}) / (1 - e^{-L}) for a <= A, so
    // a = -lambda ln(y), y = alpha + (1 - alpha) e^{-L} = 1 - (1 - alpha)(1 - e^{-L}),
    // e^{-L} = 2 delta / (2 delta + e^eps - 1). The log1p form keeps the digits when y is near 1
    // (small epsilon), the direct form when y is small (small alpha).
    const long double growth = std::expm1(static_cast<long double>(epsilon));
    const long double kept = 1.0L / (1.0L + 2.0L * delta / growth);  // 1 - e^{-L}
    const long double complement = 1.0L - static_cast<long double>(alpha);
    const long double y = alpha + complement * (2.0L * delta / (2.0L * delta + growth));
    const long double log_y = y < 0.5L ? std::log(y) : std::log1p(-complement * kept);
    const long double a = -static_cast<long double>(params.lambda) * log_y;
    return require_representable(static_cast<double>(a), "truncated Laplace accuracy");
}

}  // namespace pgdp
