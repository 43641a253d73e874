// The empirical privacy audit (unit/privacy_audit.hpp) of the standalone samplers behind SQL's
// laplace_noise, gaussian_noise and tlap_noise (core/noise.hpp), used as docs/privacy.md "The
// standalone SQL samplers" says they may be: added to a value on their grid (an integer here),
// whose neighbours differ by the sensitivity. 2e5 releases per side; a correct sampler fails an
// audit with probability <= 1e-5.
#include <gtest/gtest.h>

#include "core/gaussian_calibration.hpp"
#include "core/noise.hpp"
#include "unit/privacy_audit.hpp"

namespace {

using pgdp::RandomSource;
using pgdp_test::audit_mechanism;
using pgdp_test::expect_audit_within;

// value + laplace_noise(sensitivity / epsilon): epsilon-DP for an integer value (Delta/g is then an
// integer, docs/privacy.md). Power: the discrete Laplace's tails have ratio e^epsilon exactly.
TEST(PrivacyAudit, LaplaceNoiseSpendsNoMoreThanItsBudget) {
    for (const double sensitivity : {1.0, 3.0}) {
        const double epsilon = 1.0;
        const auto release = [&](double value, RandomSource& random) {
            return value + pgdp::sample_laplace_noise(sensitivity / epsilon, random);
        };
        expect_audit_within("laplace_noise sensitivity=" + std::to_string(sensitivity) + " eps=1",
                            audit_mechanism(release, 0.0, sensitivity, 0.0), epsilon, 0.5);
    }
}

// value + gaussian_noise(analytic sigma for (epsilon, delta, sensitivity)): declared (epsilon,
// delta) as the continuous calibration promises; docs/privacy.md notes the discrete law may spend
// a relative ~1e-7 more delta, far below what any audit can see. Power floor as the aggregates'.
TEST(PrivacyAudit, GaussianNoiseSpendsNoMoreThanItsBudget) {
    const double epsilon = 1.0, delta = 1e-5, sensitivity = 1.0;
    const double sigma = pgdp::analytic_gaussian_sigma(epsilon, delta, sensitivity);
    const auto release = [&](double value, RandomSource& random) {
        return value + pgdp::sample_gaussian_noise(sigma, random);
    };
    expect_audit_within("gaussian_noise eps=1 delta=1e-5", audit_mechanism(release, 0.0, sensitivity, delta),
                        epsilon, 0.2);
}

// value + tlap_noise(epsilon, delta, sensitivity): (epsilon, delta)-DP; in its body the ratio of
// neighbouring tails is e^epsilon as for the Laplace.
TEST(PrivacyAudit, TruncatedLaplaceNoiseSpendsNoMoreThanItsBudget) {
    const double epsilon = 1.0, delta = 1e-5, sensitivity = 2.0;
    const auto release = [&](double value, RandomSource& random) {
        return value + pgdp::sample_truncated_laplace_noise(epsilon, delta, sensitivity, random);
    };
    expect_audit_within("tlap_noise eps=1 delta=1e-5", audit_mechanism(release, 0.0, sensitivity, delta),
                        epsilon, 0.5);
}

}  // namespace
