// DP partition (group) selection: which groups of a query over a protected relation may be
// released, decided per group from its number of privacy units n (after per-unit and
// cross-group bounding: a unit counts at most once per group and in at most m groups). The
// neighbouring relation adds or removes one unit, which changes the counts of at most m groups
// by one each; a group with count 0 does not exist and is never released. docs/privacy.md,
// "Private group selection (core, issue 10)", gives the argument for each mechanism:
//
//   * NearTruncatedGeometric: the optimal keep probability pi(n) of Desfontaines, Voss, Gipson,
//     Mandayam (PoPETs 2022), per group at (eps/m, 1 - (1 - delta)^(1/m)), composed over the m
//     groups a unit touches: (eps, delta) in total. Keeps or drops only: no noisy count.
//   * LaplaceThreshold (ZetaSQL's): n + Z >= tau, Z discrete Laplace of scale t >= m/eps,
//     tau the least integer >= 2 with P[1 + Z >= tau] <= delta' (the discrete tail; ZetaSQL's
//     continuous tau = 1 - (m/eps) ln(2 delta') rounded up is NOT always enough for the discrete
//     Laplace, whose tail q^k / (1 + q) exceeds the continuous q^k / 2). (eps, delta) in total.
//   * GaussianThreshold: n + Z >= tau, Z discrete Gaussian; delta/2 for the threshold (a unit's
//     new groups are all kept with probability <= delta/2) and delta/2 for the noise, at
//     eps_g = eps + ln(1 - delta/2) (the threshold's multiplicative share, see privacy.md).
//     sigma: m = 1 exactly by the discrete Gaussian's profile (CKS Theorem 7); m > 1 by the
//     Balle-Wang profile at L2 sensitivity sqrt(m) (gaussian_sigma2_over_groups). (eps, delta).
//   * Auto: the mechanism with the fewest units for a 50 % keep probability.
//
// A minimum number of units k (pre-threshold): groups with n < k are dropped, and the mechanism
// runs on the shifted count n - (k - 1). Dropping on the raw count alone would not be private
// (pi(k) > delta = e^eps pi(k-1) + delta); shifting keeps every constraint, since neighbouring
// shifted counts still differ by at most one and a shifted count <= 0 is treated as absent.
//
// The noisy count n + Z of the threshold mechanisms is part of their output: releasing it (as
// the group's dp_count) costs nothing beyond the selection's (eps, delta), when the count the
// query asks for is exactly the selection's n (distinct units after the same bounding) and the
// value released is that same draw (not a fresh one). It is biased upward (it is conditioned on
// n + Z >= tau).
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "core/dyadic.hpp"
#include "core/near_truncated_geometric.hpp"
#include "core/random_source.hpp"
#include "core/validate.hpp"

namespace pgdp {

enum class PartitionSelectionMechanism {
    NearTruncatedGeometric,
    LaplaceThreshold,
    GaussianThreshold,
    Auto,
};

// "truncated_geometric", "laplace", "gaussian", "auto"; ArgumentError("mechanism") otherwise.
PartitionSelectionMechanism parse_partition_selection_mechanism(std::string_view name);
std::string_view partition_selection_mechanism_name(PartitionSelectionMechanism mechanism);

// The largest min_units accepted (max_groups_contributed: kMaxGroupsPerUnit, core/validate.hpp).
constexpr std::int64_t kMaxMinUnits = std::int64_t{1} << 40;
// The largest number of units a group may report (n + noise stays far from int64 overflow).
constexpr std::int64_t kMaxGroupUnits = std::int64_t{1} << 62;

// Plain data (trivially copyable): cached per call site and copied freely.
struct PartitionSelectionPlan {
    PartitionSelectionMechanism mechanism;  // resolved: never Auto
    double epsilon;                         // the total spent: (epsilon, delta)
    double delta;
    std::int64_t max_groups;  // m
    std::int64_t min_units;   // k >= 1 (1: no pre-threshold)
    // NearTruncatedGeometric: per group (eps/m, delta').
    NearTruncatedGeometric geometric;
    // Threshold mechanisms: keep iff (n - (k - 1)) + Z >= threshold, with n >= k.
    Dyadic laplace_scale;    // LaplaceThreshold: t >= m / eps
    Dyadic gaussian_sigma2;  // GaussianThreshold: sigma^2
    std::int64_t threshold;  // tau
    double noise_sd;         // standard deviation of Z (0 for NearTruncatedGeometric), reports
};
static_assert(std::is_trivially_copyable_v<PartitionSelectionPlan>, "plans are plain data");

// Validates epsilon (ArgumentError "epsilon"), delta in (0, 1) ("delta"), max_groups in
// [1, kMaxGroupsPerUnit] ("max_groups_contributed"), min_units in [1, kMaxMinUnits]
// ("min_units"); resolves Auto. RangeError when the chosen mechanism cannot be built for these
// parameters (Auto then picks among those that can; if none can, the first error is thrown).
PartitionSelectionPlan plan_partition_selection(double epsilon, double delta, std::int64_t max_groups,
                                                PartitionSelectionMechanism mechanism,
                                                std::int64_t min_units = 1);

struct PartitionDecision {
    bool keep;
    bool has_noisy_count;      // threshold mechanisms, when the group reached the noise draw
    std::int64_t noisy_count;  // n + Z (unshifted), valid if has_noisy_count
};

// One group with n_units units (0 <= n_units <= kMaxGroupUnits; std::invalid_argument otherwise).
PartitionDecision select_partition(const PartitionSelectionPlan& plan, std::int64_t n_units,
                                   RandomSource& random);
bool keep_partition(const PartitionSelectionPlan& plan, std::int64_t n_units, RandomSource& random);

// P[keep] for a group of n_units units, as a double (reports and tests; never used to sample).
// Threshold mechanisms sum the discrete law in long double (Gaussian sigma > 1e5: the normal
// approximation with continuity correction).
double partition_keep_probability(const PartitionSelectionPlan& plan, std::int64_t n_units);

// The least n with P[keep] >= 1/2 (min_units included).
std::int64_t partition_units_for_half(const PartitionSelectionPlan& plan);

// Exact keep probability of a threshold test count + Z >= threshold for the discrete Laplace of
// scale t (long double): P[Z >= threshold - count].
long double discrete_laplace_tail(long double scale, std::int64_t k);  // P[Z >= k]

}  // namespace pgdp
