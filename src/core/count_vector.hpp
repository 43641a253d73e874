// A vector of counts released at once: the bins of a histogram (histogram_release.hpp) and the
// log-scale bins that estimate clamping bounds (bounds_estimation.hpp). The state is plain
// int64 counts (exact merge in any order, serialized with a version byte); the release noises
// every coordinate independently with one plan calibrated for the whole vector
// (docs/statistics/histograms.md "One release of a vector of counts").
//
// Neighbouring inputs: row level, one row added or removed changes exactly one coordinate by 1.
// Person level, one privacy unit keeps at most k rows per group (the shim enforces it) in at most
// m groups: in each group its rows change at most min(k, coordinates) coordinates, all in the same
// direction, by a total of at most k (L1 = k, L2 <= k, all of them in one bin being the worst L2).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/aggregate_release.hpp"
#include "core/random_source.hpp"
#include "core/release_plan.hpp"
#include "core/state_bytes.hpp"

namespace pgdp {

// The most rows (or distinct values) per unit per group a release accepts: below 2^20, so that
// the Laplace family's grid for a count is always 1 (laplace_family_granularity of a sensitivity
// < 2^20 is below 1 and raised to 1): counts are never rounded there.
constexpr std::int64_t kMaxRowsPerUnit = 1000000;
// rows_per_unit: an integer in [1, kMaxRowsPerUnit]; ArgumentError naming `argument` otherwise.
void require_rows_per_unit(const char* argument, std::int64_t rows_per_unit);

// The plan of every coordinate of a vector of `coordinates` counts that one unit changes as
// stated above (k = rows_per_unit, m = groups_per_unit; k = m = 1 is row level). Laplace and
// truncated Laplace: plan_release at sensitivity k over m groups (per-coordinate shifts c_i with
// sum c_i <= k compose to at most the plan's (epsilon, delta), grid 1). Gaussian: k = 1 is
// plan_release's own plan (one coordinate per group); for k > 1 sigma is raised, if needed, to
// the Gaussian of L2 sensitivity sqrt(m) s_int (gaussian_sigma2_over_groups) with s_int the
// integer bound on the L2 norm of one group's shift in grid units (k on grid 1; with a coarser
// grid g, floor(k/g) + ceil(sqrt(min(k, coordinates))) for the rounding of each touched bin), and
// sensitivity_int is set to s_int (the ledger's Gaussian accounting reads it).
ReleasePlan plan_count_vector(double epsilon, double delta, Mechanism mechanism, std::size_t coordinates,
                              std::uint32_t rows_per_unit, std::uint32_t groups_per_unit);

// What the ledger charges for one call that releases with `plan` over m groups (a histogram's bins,
// a distinct count): the call's (epsilon, delta) (delta 0 for the Laplace), and for a Gaussian plan
// whose sigma_int >= 8 the Gaussian part's mu^2 = m sensitivity_int^2 / sigma_int^2, rounded up
// (sensitivity_int being the L2 bound of one group's shift: plan_count_vector). A call with other
// stages besides this release (the bounds stage) composes their charges itself.
ReleaseCharge count_release_charge(double epsilon, double delta, const ReleasePlan& plan,
                                   std::uint32_t groups_per_unit);

// One coordinate: g (round(count / g) + Z) with Z the plan's integer noise (an integer: g >= 1),
// saturated to the int64 range (beyond it only with noise scales no plan accepts).
std::int64_t noisy_count(const ReleasePlan& plan, std::int64_t count, RandomSource& random);

// An integer-valued double as an int64, saturating at the type's range (NaN: 0).
std::int64_t saturating_int64(double value);

// into[i] += from[i] for i < n, exactly (std::overflow_error past int64: not reachable by counts
// of rows).
void merge_counts(std::int64_t* into, const std::int64_t* from, std::size_t n);

// counts[0..n) as n int64 fields; read back requiring exactly n non-negative counts.
void put_counts(StateWriter& writer, const std::int64_t* counts, std::size_t n);
void get_counts(StateReader& reader, std::int64_t* counts, std::size_t n);

}  // namespace pgdp
