// How one release is noised: the mechanism, the power-of-two grid, the sensitivity in grid units
// and the exact sampler parameters, all fixed from the query's constant parameters before any
// row is seen. Used by the aggregates (dp_sum, dp_mean, dp_count).
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "core/dyadic.hpp"
#include "core/random_source.hpp"

namespace pgdp {

enum class Mechanism {
    Laplace,           // epsilon-DP, delta must be 0
    Gaussian,          // analytic sigma, calibrated to the discrete Gaussian's exact profile
    TruncatedLaplace,  // 004 Definition 3 on the grid, 0 < delta < 1/2
    Auto,              // least noise variance among the mechanisms valid for (epsilon, delta)
};

// "laplace", "gaussian", "tlap", "auto"; ArgumentError("mechanism") otherwise.
Mechanism parse_mechanism(std::string_view name);
std::string_view mechanism_name(Mechanism mechanism);

// Plain data (trivially copyable): cached per call site and copied freely.
struct ReleasePlan {
    Mechanism mechanism;  // resolved: never Auto
    double epsilon;
    double delta;                   // 0 for Laplace
    double sensitivity;             // declared, in value units
    double granularity;             // g: released values are multiples of g
    std::uint64_t sensitivity_int;  // sensitivity in grid units, rounding charged
    Dyadic laplace_scale_int;       // Laplace and TruncatedLaplace: the scale t in grid units
    Dyadic gaussian_sigma2_int;     // Gaussian: sigma^2 in grid units
    std::uint64_t bound_int;        // TruncatedLaplace: |Z| <= bound_int
    double noise_scale;             // sigma (Gaussian) or Laplace scale, in value units
    double noise_variance;          // variance of the released noise, value units
};
static_assert(std::is_trivially_copyable_v<ReleasePlan>, "release plans are plain data");

// Validates epsilon and delta for the mechanism (ArgumentError naming the argument). Cheap: the
// aggregates call it on their first row, before any value is looked at.
void check_release_parameters(double epsilon, double delta, Mechanism mechanism);

// Validates epsilon, delta (per mechanism), sensitivity and min_granularity, resolves Auto, and
// fixes the grid and sampler. value_is_integer: the exact value is an integer (a count), so it
// is already on any grid g <= 1 and no rounding is charged there; on a coarser grid it is
// rounded like any value.
//
// groups_per_unit (m >= 1): the release is one coordinate of a vector of per-group releases in
// which one privacy unit changes at most m coordinates, each by at most the sensitivity
// (person-level releases with cross-group bounding, issue 10); the plan makes the whole vector
// (epsilon, delta)-DP (docs/privacy.md "Releases over m groups"): Laplace and truncated Laplace
// calibrate each coordinate at (epsilon/m, delta/m) (basic composition), the Gaussian at L2
// sensitivity sqrt(m) times the sensitivity. m = 1 is the single release.
ReleasePlan plan_release(double epsilon, double delta, Mechanism mechanism, double sensitivity,
                         double min_granularity, bool value_is_integer, std::uint32_t groups_per_unit = 1);

// sigma_int^2 of each coordinate of an m-dimensional discrete Gaussian (m >= 2) whose coordinates
// each move by at most sensitivity_int, such that the vector is (epsilon, delta)-DP: the exact
// Balle-Wang profile of mu^2 = m sensitivity_int^2 / sigma_int^2 with relative margins 1e-9, and
// sigma_int >= 8 (CKS 2020 Section 4's discrete correction below 1e-540; docs/privacy.md
// "Releases over m groups"). epsilon and delta must already be rounded down by the caller.
Rational gaussian_sigma2_over_groups(double epsilon, double delta, std::uint64_t sensitivity_int,
                                     std::uint32_t m);

// One draw of the plan's integer noise, in grid units.
std::int64_t sample_release_noise(const ReleasePlan& plan, RandomSource& random);

// Half-width a with P(|noise| > a) <= alpha for the plan's noise (value units).
double release_half_width(const ReleasePlan& plan, double alpha);

}  // namespace pgdp
