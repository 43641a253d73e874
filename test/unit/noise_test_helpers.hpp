// Statistical helpers shared by the noise tests (test_exact_sampling.cpp,
// test_noise_statistics.cpp). Every bound is chosen so that a correct sampler fails a given check
// with probability below 1e-5, i.e. < 1e-4 per test with up to ten checks.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace pgdp_test {

// Two-sided normal bound used by every mean / variance / proportion check: 4.5 standard errors
// (P[|N(0,1)| > 4.5] = 6.8e-6).
constexpr double kZ = 4.5;

// Upper quantile of chi-square with k degrees of freedom at tail probability 1e-5
// (Wilson-Hilferty, z = 4.265; accurate to well under 1% for k >= 5, and conservative).
inline double chi_square_critical(std::size_t k) {
    const double z = 4.265;
    const double kk = static_cast<double>(k);
    const double a = 2.0 / (9.0 * kk);
    return kk * std::pow(1.0 - a + z * std::sqrt(a), 3.0);
}

// Pearson statistic of observed counts against probabilities (same length, last bin may hold the
// remaining mass); bins with expected count < 5 are pooled with their neighbour.
struct ChiSquare {
    double statistic = 0.0;
    std::size_t degrees = 0;
};

inline ChiSquare chi_square(const std::vector<double>& observed, const std::vector<double>& probs, double n) {
    ChiSquare out;
    double obs = 0.0, exp = 0.0;
    std::size_t bins = 0;
    for (std::size_t i = 0; i < observed.size(); ++i) {
        obs += observed[i];
        exp += probs[i] * n;
        if (exp >= 5.0 || i + 1 == observed.size()) {
            if (exp > 0.0) {
                out.statistic += (obs - exp) * (obs - exp) / exp;
                ++bins;
            }
            obs = exp = 0.0;
        }
    }
    out.degrees = bins > 1 ? bins - 1 : 1;
    return out;
}

struct Moments {
    double n = 0, sum = 0, sum2 = 0, sum4 = 0, positive = 0, negative = 0;
    void add(double x) {
        n += 1;
        sum += x;
        sum2 += x * x;
        sum4 += x * x * x * x;
        if (x > 0) positive += 1;
        if (x < 0) negative += 1;
    }
    double mean() const { return sum / n; }
    double second() const { return sum2 / n; }  // E X^2 (the variance for a centred law)
    // Standard error of the mean when the true variance is var.
    double mean_se(double var) const { return std::sqrt(var / n); }
    // Standard error of the E X^2 estimate given the true E X^2 and E X^4.
    double second_se(double ex2, double ex4) const { return std::sqrt((ex4 - ex2 * ex2) / n); }
    // |P>0 - P<0| test: under symmetry positive - negative has variance (positive + negative).
    bool symmetric() const {
        return std::fabs(positive - negative) <= kZ * std::sqrt(positive + negative + 1.0);
    }
};

}  // namespace pgdp_test
