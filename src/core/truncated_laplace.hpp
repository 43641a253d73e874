// The truncated Laplace mechanism of Geng et al. (004, Definition 3, Theorems 1-3; 001 Thm 5.6).
#pragma once

namespace pgdp {

struct TruncatedLaplaceParams {
    double lambda;     // Laplace scale Delta/epsilon
    double bound;      // A: the noise never leaves [-A, A]
    double amplitude;  // E|X|  (004 Theorem 2)
    double power;      // E X^2 (004 Theorem 3)
};

// Validates epsilon > 0, 0 < delta < 1/2, sensitivity > 0.
TruncatedLaplaceParams truncated_laplace_params(double epsilon, double delta, double sensitivity);
// Half-width a with P(|X| > a) = alpha (validated).
double truncated_laplace_accuracy(double epsilon, double delta, double sensitivity, double alpha);

}  // namespace pgdp
