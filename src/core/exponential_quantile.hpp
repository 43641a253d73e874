// One differentially private quantile by the exponential mechanism over the sorted values
// (Smith 2011, "Privacy-preserving statistical estimation with optimal convergence rates",
// STOC: the interval-weighted form, whose output density on [lower, upper] is
// proportional to exp(-epsilon/2 * |rank error|)), as the alternative the quantile tree is
// measured against (docs/statistics/quantiles.md). Not a product aggregate: it needs every value
// sorted (memory grows with the rows), and every further quantile costs another release
// (JointExp, Gillenwater et al. 2021, answers many at once, still from the sorted values).
//
// What is implemented, exactly (no floating-point privacy loss):
//   * The outputs are the N + 1 points lower + j (upper - lower) / N of a fixed grid,
//     N = 2^32 (a continuous output would reveal the data's doubles, Mironov 2012). A value is
//     placed at a(x) = floor((clamp(x) - lower) / (upper - lower) N).
//   * The utility of grid point j is -d(j) with d(j) = dist(k, [c(j), c(j) + t(j)]),
//     c(j) = #{rows with a(x) < j}, t(j) = #{rows with a(x) = j}, k = floor(q n): 0 exactly at
//     the points that are a q-quantile (ties included), else the rank distance. Adding or
//     removing a row moves c, c + t and k by at most 1 each, so d by at most 1.
//   * P(j) is proportional to beta^d(j), beta = p / 2^64 the 64-bit dyadic just above
//     exp(-epsilon/2): the exponential mechanism with sensitivity 1 at epsilon' = -2 ln beta
//     <= epsilon (McSherry and Talwar 2007; Dwork and Roth 2014, Theorem 3.10), pure epsilon-DP.
//   * Sampling is exact by rejection: the grid points of equal utility form at most 2n + 1 runs;
//     a run is proposed with integer weight P_g >= 2^62 m_g beta^(d_g - d_ref) / m_ref (computed
//     in long double with a relative margin of 1e-9, far above expl's error), and accepted with
//     the exact rational probability 2^62 m_g beta^(d_g - d_ref) / (m_ref P_g) (checked <= 1);
//     the point inside the run is uniform. Expected proposals: about 1.
#pragma once

#include <cstdint>
#include <vector>

#include "core/random_source.hpp"

namespace pgdp {

constexpr int kExponentialQuantileGridBits = 32;

// The sorted grid positions of the clamped values (NaN skipped): one entry per row.
struct ExponentialQuantileInput {
    double lower;
    double upper;
    std::vector<std::uint64_t> positions;
};

// Validates the bounds as the quantile tree does (ArgumentError "lower"/"upper");
// std::length_error past 2^31 values.
ExponentialQuantileInput prepare_exponential_quantile(const std::vector<double>& values, double lower,
                                                      double upper);

// The mechanism for one (input, q, epsilon), prepared once: the runs of equal utility and their
// proposal weights. sample() is one release (pure epsilon-DP); tests draw many from one
// preparation. ArgumentError naming "q" or "epsilon".
class ExponentialQuantileSampler {
public:
    ExponentialQuantileSampler(const ExponentialQuantileInput& input, double q, double epsilon);
    // A grid point in [lower, upper]; an empty input gets a uniform grid point.
    double sample(RandomSource& random) const;

    struct Run {
        std::uint64_t first;  // grid points [first, first + size)
        std::uint64_t size;
        std::uint64_t distance;  // d of every point of the run
    };

private:
    double lower_, upper_;
    std::vector<Run> runs_;
    std::size_t reference_;                  // the run of the largest weight (approximately)
    std::vector<std::uint64_t> proposal_;    // P_g
    std::vector<unsigned __int128> prefix_;  // prefix sums of P_g
    unsigned __int128 p_;                    // beta = p_ / 2^64
};

// One release: ExponentialQuantileSampler(input, q, epsilon).sample(random).
double release_exponential_quantile(const ExponentialQuantileInput& input, double q, double epsilon,
                                    RandomSource& random);

}  // namespace pgdp
