// Exact samplers for discrete noise (Canonne, Kamath, Steinke 2020, "The Discrete Gaussian for
// Differential Privacy", Algorithms 1-3; cited below as CKS). Every sampler works on integers and
// rationals only: no floating-point number is ever computed inside them, so the output
// distribution is exactly the stated pmf given uniform random bytes (Mironov 2012 shows how
// floating-point Laplace samplers leak). Randomness comes from a RandomSource; the number of
// bytes consumed is random, but the samplers return with probability 1.
//
// Parameters are boost::multiprecision rationals; hot paths use 128-bit integers whenever the
// values fit and fall back to cpp_int otherwise, with identical output distributions.
#pragma once

#include <cstdint>

// GCC 16 reports a memcpy inside cpp_int's resize (Boost 1.92) as overflowing the one-limb buffer
// it has just grown: false positives of -Wstringop-overflow and -Warray-bounds on Boost's code,
// inlined into ours (Debian unstable, the PostgreSQL 18 build).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
#include <boost/multiprecision/cpp_int.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include "core/random_source.hpp"

namespace pgdp {

using BigInt = boost::multiprecision::cpp_int;
using Rational = boost::multiprecision::cpp_rational;

// Uniform on {0, ..., n-1} by rejection (n > 0), exactly; expected < 2 attempts.
BigInt uniform_below(const BigInt& n, RandomSource& random);

// Bernoulli(p) for a rational 0 <= p <= 1.
bool sample_bernoulli(const Rational& p, RandomSource& random);
// Bernoulli(exp(-gamma)) for a rational gamma >= 0 (CKS Algorithm 1).
bool sample_bernoulli_exp(const Rational& gamma, RandomSource& random);

// Discrete Laplace with scale t > 0: P(x) proportional to exp(-|x|/t) on the integers
// (CKS Algorithm 2; the privacy property is CKS Section 2, eq. for Lap_Z).
BigInt sample_discrete_laplace(const Rational& scale, RandomSource& random);
// Discrete Gaussian N_Z(0, sigma2): P(x) proportional to exp(-x^2 / (2 sigma2)), sigma2 > 0
// (CKS Algorithm 3).
BigInt sample_discrete_gaussian(const Rational& sigma2, RandomSource& random);
// Truncated discrete Laplace: P(x) proportional to exp(-|x|/t) for |x| <= bound, 0 elsewhere
// (bound >= 0). Drawn without rejection of whole samples: the magnitude is a geometric variable
// reduced modulo bound+1, which is exactly the geometric law truncated to {0..bound}.
BigInt sample_truncated_discrete_laplace(const Rational& scale, const BigInt& bound, RandomSource& random);

// Prepared samplers: the parameters are converted once, sample() is the hot path. The free
// functions above construct one of these per call.
class DiscreteLaplaceSampler {
public:
    // scale > 0; bound < 0 means no truncation.
    explicit DiscreteLaplaceSampler(const Rational& scale, const BigInt& bound = BigInt(-1));
    BigInt sample(RandomSource& random) const;
    // The same draw as an int64 (std::overflow_error if it does not fit; for the scales pgdp
    // uses this has probability below exp(-2^40)).
    std::int64_t sample_int64(RandomSource& random) const;

private:
    BigInt t_, s_, bound_;                             // scale = t_/s_ in lowest terms; bound_ < 0: none
    bool fast_;                                        // t_, s_ and bound_+1 fit in 64 bits
    std::uint64_t t64_ = 0, s64_ = 0, modulus64_ = 0;  // modulus64_ = bound+1, 0 if none
    friend class DiscreteGaussianSampler;
};

class DiscreteGaussianSampler {
public:
    explicit DiscreteGaussianSampler(const Rational& sigma2);  // sigma2 > 0
    BigInt sample(RandomSource& random) const;
    std::int64_t sample_int64(RandomSource& random) const;

private:
    BigInt a_, b_, t_;                // sigma2 = a_/b_, t_ = floor(sigma) + 1
    BigInt den_;                      // 2 a b t^2: gamma = (|Y| b t - a)^2 / den_
    DiscreteLaplaceSampler laplace_;  // scale t_
    bool fast_;                       // a_, b_*t_ < 2^64 and den_ < 2^96
    unsigned __int128 a128_ = 0, bt128_ = 0, den128_ = 0;
};

}  // namespace pgdp
