#include "core/cpp_only.hpp"

#include "core/exact_sampling.hpp"

#include <limits>
#include <stdexcept>

namespace pgdp {

namespace {

using u128 = unsigned __int128;
using boost::multiprecision::msb;

constexpr u128 kOne128 = 1;
// Fast paths keep every denominator below 2^96 so that den * k stays below 2^128 for k < 2^31.
constexpr unsigned kFastDenBits = 96;
constexpr std::uint64_t kFastKLimit = std::uint64_t{1} << 31;
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

BigInt to_big(u128 x) {
    BigInt r = static_cast<std::uint64_t>(x >> 64);
    r <<= 64;
    r |= static_cast<std::uint64_t>(x);
    return r;
}

bool fits_bits(const BigInt& x, unsigned bits) { return x >= 0 && (x == 0 || msb(x) < bits); }

std::uint64_t to_u64(const BigInt& x) { return x.convert_to<std::uint64_t>(); }  // 0 <= x < 2^64

u128 to_u128(const BigInt& x) {  // 0 <= x < 2^128
    const BigInt hi = x >> 64;
    const BigInt lo = x & BigInt(kU64Max);
    return (static_cast<u128>(to_u64(hi)) << 64) | to_u64(lo);
}

u128 uniform_below_u128(u128 n, RandomSource& random) {
    const std::uint64_t hi_n = static_cast<std::uint64_t>(n >> 64);
    if (hi_n == 0) return random.uniform_below(static_cast<std::uint64_t>(n));
    const int bits = 64 - __builtin_clzll(hi_n);
    const std::uint64_t mask = bits == 64 ? kU64Max : (std::uint64_t{1} << bits) - 1;
    for (;;) {  // acceptance probability > 1/2
        const std::uint64_t hi = random.next_u64() & mask;
        const std::uint64_t lo = random.next_u64();
        const u128 x = (static_cast<u128>(hi) << 64) | lo;
        if (x < n) return x;
    }
}

// ---- Bernoulli(exp(-num/den)) for 0 <= num <= den (CKS Algorithm 1, gamma in [0, 1]) --------
// K <- 1; repeat { A <- Bernoulli(gamma/K); if A = 0 stop; K <- K+1 }; return [K odd].
// P[K > k] = gamma^k / k!, hence P[K odd] = sum_k (-gamma)^k / k! = exp(-gamma).

bool bernoulli_exp_le1_big(const BigInt& num, const BigInt& den, BigInt k, RandomSource& random) {
    for (;;) {
        if (!(uniform_below(den * k, random) < num)) break;  // Bernoulli(num / (den k))
        ++k;
    }
    return static_cast<unsigned>(k & 1u) != 0;
}

// Fast path: den < 2^96, so den * k < 2^127 for k < 2^31.
bool bernoulli_exp_le1_fast(u128 num, u128 den, RandomSource& random) {
    if (num == 0) return true;
    std::uint64_t k = 1;
    for (;;) {
        if (k >= kFastKLimit) {
            // Reached with probability 1/(2^31)!; continue exactly in big integers.
            return bernoulli_exp_le1_big(to_big(num), to_big(den), BigInt(k), random);
        }
        if (!(uniform_below_u128(den * k, random) < num)) break;
        ++k;
    }
    return (k & 1) != 0;
}

bool bernoulli_exp_le1(const BigInt& num, const BigInt& den, RandomSource& random) {
    if (fits_bits(den, kFastDenBits)) return bernoulli_exp_le1_fast(to_u128(num), to_u128(den), random);
    return bernoulli_exp_le1_big(num, den, BigInt(1), random);
}

// Bernoulli(exp(-1)).
inline bool bernoulli_exp_minus_one(RandomSource& random) { return bernoulli_exp_le1_fast(1, 1, random); }

// Bernoulli(exp(-num/den)) for any num >= 0 (CKS Algorithm 1): exp(-gamma) =
// exp(-1)^floor(gamma) * exp(-(gamma - floor(gamma))), each factor an independent Bernoulli.
bool bernoulli_exp_fast(u128 num, u128 den, RandomSource& random) {  // den < 2^96
    u128 whole = num / den;
    const u128 rest = num % den;
    for (; whole > 0; --whole) {
        if (!bernoulli_exp_minus_one(random)) return false;
    }
    return bernoulli_exp_le1_fast(rest, den, random);
}

bool bernoulli_exp_big(const BigInt& num, const BigInt& den, RandomSource& random) {
    BigInt whole = num / den;
    const BigInt rest = num % den;
    for (; whole > 0; --whole) {
        if (!bernoulli_exp_minus_one(random)) return false;
    }
    return bernoulli_exp_le1(rest, den, random);
}

void require_rational_positive(const Rational& value, const char* what) {
    if (value <= 0) throw std::invalid_argument(std::string(what) + " must be positive");
}

}  // namespace

// ---- uniform integers, Bernoulli ------------------------------------------------------------

BigInt uniform_below(const BigInt& n, RandomSource& random) {
    if (n <= 0) throw std::invalid_argument("uniform_below: n must be positive");
    if (fits_bits(n, 128)) return to_big(uniform_below_u128(to_u128(n), random));
    const unsigned bits = static_cast<unsigned>(msb(n)) + 1;
    const unsigned words = (bits + 63) / 64;
    const unsigned top_bits = bits - 64 * (words - 1);
    const std::uint64_t top_mask = top_bits == 64 ? kU64Max : (std::uint64_t{1} << top_bits) - 1;
    for (;;) {  // acceptance probability > 1/2
        BigInt x = random.next_u64() & top_mask;
        for (unsigned i = 1; i < words; ++i) {
            x <<= 64;
            x |= random.next_u64();
        }
        if (x < n) return x;
    }
}

bool sample_bernoulli(const Rational& p, RandomSource& random) {
    if (p < 0 || p > 1) throw std::invalid_argument("sample_bernoulli: p must lie in [0, 1]");
    return uniform_below(denominator(p), random) < numerator(p);
}

bool sample_bernoulli_exp(const Rational& gamma, RandomSource& random) {
    if (gamma < 0) throw std::invalid_argument("sample_bernoulli_exp: gamma must be >= 0");
    const BigInt num = numerator(gamma);
    const BigInt den = denominator(gamma);
    if (fits_bits(num, 128) && fits_bits(den, kFastDenBits))
        return bernoulli_exp_fast(to_u128(num), to_u128(den), random);
    return bernoulli_exp_big(num, den, random);
}

// ---- discrete Laplace (CKS Algorithm 2) ------------------------------------------------------
// With scale t/s (integers t, s >= 1):
//   U <- Uniform{0..t-1}; accept U with probability exp(-U/t), else restart;
//   V <- number of successes of Bernoulli(exp(-1)) before the first failure;
//   X <- U + t V, so P[X = x] ∝ exp(-x/t) on {0, 1, ...};  Y <- floor(X / s), so P[Y = y] ∝
//   exp(-y s/t) (a geometric law);  B <- fair bit; if B = 1 and Y = 0 restart; return (1-2B) Y.
// Truncation to |x| <= K replaces Y by Y mod (K+1): for a geometric Y, P[Y mod m = y] ∝
// sum_j q^{y + j m} ∝ q^y for 0 <= y < m, the geometric law truncated to {0..K}, exactly.

DiscreteLaplaceSampler::DiscreteLaplaceSampler(const Rational& scale, const BigInt& bound)
    : t_(numerator(scale)), s_(denominator(scale)), bound_(bound < 0 ? BigInt(-1) : bound) {
    require_rational_positive(scale, "discrete Laplace scale");
    fast_ = fits_bits(t_, 64) && fits_bits(s_, 64) && (bound_ < 0 || fits_bits(bound_ + 1, 64));
    if (fast_) {
        t64_ = to_u64(t_);
        s64_ = to_u64(s_);
        modulus64_ = bound_ < 0 ? 0 : to_u64(bound_ + 1);
    }
}

namespace {

// Returns the magnitude |x| (u128) and the sign of one fast-path draw.
void laplace_fast(std::uint64_t t, std::uint64_t s, std::uint64_t modulus, RandomSource& random,
                  u128& magnitude, bool& negative) {
    for (;;) {
        const std::uint64_t u = random.uniform_below(t);
        if (!bernoulli_exp_le1_fast(u, t, random)) continue;
        std::uint64_t v = 0;
        while (bernoulli_exp_minus_one(random)) {
            if (++v == kU64Max) throw std::runtime_error("discrete Laplace: geometric overflow");
        }
        const u128 x = static_cast<u128>(u) + static_cast<u128>(t) * v;  // < 2^128
        u128 y = x / s;
        if (modulus != 0) y %= modulus;
        const bool b = random.next_bit();
        if (b && y == 0) continue;
        magnitude = y;
        negative = b;
        return;
    }
}

}  // namespace

BigInt DiscreteLaplaceSampler::sample(RandomSource& random) const {
    if (fast_) {
        u128 magnitude;
        bool negative;
        laplace_fast(t64_, s64_, modulus64_, random, magnitude, negative);
        BigInt r = to_big(magnitude);
        return negative ? BigInt(-r) : r;
    }
    for (;;) {
        const BigInt u = uniform_below(t_, random);
        if (!bernoulli_exp_le1(u, t_, random)) continue;
        BigInt v = 0;
        while (bernoulli_exp_minus_one(random)) ++v;
        BigInt y = (u + t_ * v) / s_;
        if (bound_ >= 0) y %= (bound_ + 1);
        const bool b = random.next_bit();
        if (b && y == 0) continue;
        return b ? BigInt(-y) : y;
    }
}

namespace {

std::int64_t to_int64_checked(const BigInt& x) {
    if (x > std::numeric_limits<std::int64_t>::max() || x < -std::numeric_limits<std::int64_t>::max())
        throw std::overflow_error("discrete noise sample does not fit in 64 bits");
    return x.convert_to<std::int64_t>();
}

std::int64_t signed_int64(u128 magnitude, bool negative) {
    if (magnitude > static_cast<u128>(std::numeric_limits<std::int64_t>::max()))
        throw std::overflow_error("discrete noise sample does not fit in 64 bits");
    const auto m = static_cast<std::int64_t>(magnitude);
    return negative ? -m : m;
}

}  // namespace

std::int64_t DiscreteLaplaceSampler::sample_int64(RandomSource& random) const {
    if (fast_) {
        u128 magnitude;
        bool negative;
        laplace_fast(t64_, s64_, modulus64_, random, magnitude, negative);
        return signed_int64(magnitude, negative);
    }
    return to_int64_checked(sample(random));
}

// ---- discrete Gaussian (CKS Algorithm 3) -----------------------------------------------------
// t <- floor(sigma) + 1; repeat { Y <- discrete Laplace with scale t; accept Y with probability
// exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2)) }. With sigma^2 = a/b the exponent is the rational
// (|Y| b t - a)^2 / (2 a b t^2). floor(sqrt(a/b)) = isqrt(floor(a/b)) is exact integer arithmetic.

namespace {
BigInt gaussian_t(const Rational& sigma2) {
    require_rational_positive(sigma2, "discrete Gaussian sigma^2");
    const BigInt whole = numerator(sigma2) / denominator(sigma2);
    return BigInt(boost::multiprecision::sqrt(whole)) + 1;
}
}  // namespace

DiscreteGaussianSampler::DiscreteGaussianSampler(const Rational& sigma2)
    : a_(numerator(sigma2)),
      b_(denominator(sigma2)),
      t_(gaussian_t(sigma2)),
      den_(2 * a_ * b_ * t_ * t_),
      laplace_(Rational(t_)) {
    const BigInt bt = b_ * t_;
    fast_ = laplace_.fast_ && fits_bits(a_, 64) && fits_bits(bt, 64) && fits_bits(den_, kFastDenBits);
    if (fast_) {
        a128_ = to_u128(a_);
        bt128_ = to_u128(bt);
        den128_ = to_u128(den_);
    }
}

namespace {

// |y| b t - a  squared, if it fits in 128 bits.
bool gaussian_exponent_fast(u128 y, u128 bt, u128 a, u128& out) {
    if ((y >> 64) != 0) return false;
    const u128 m = y * bt;  // y, bt < 2^64
    const u128 diff = m >= a ? m - a : a - m;
    if ((diff >> 64) != 0) return false;
    out = diff * diff;
    return true;
}

}  // namespace

BigInt DiscreteGaussianSampler::sample(RandomSource& random) const {
    if (fast_) return BigInt(sample_int64(random));
    for (;;) {
        const BigInt y = laplace_.sample(random);
        const BigInt diff = abs(y) * b_ * t_ - a_;
        if (bernoulli_exp_big(diff * diff, den_, random)) return y;
    }
}

std::int64_t DiscreteGaussianSampler::sample_int64(RandomSource& random) const {
    if (!fast_) return to_int64_checked(sample(random));
    for (;;) {
        u128 magnitude;
        bool negative;
        laplace_fast(laplace_.t64_, 1, 0, random, magnitude, negative);
        u128 num;
        bool accept;
        if (gaussian_exponent_fast(magnitude, bt128_, a128_, num)) {
            accept = bernoulli_exp_fast(num, den128_, random);
        } else {  // |Y| beyond ~2^64 / (b t): exact big-integer path, same law
            const BigInt diff = to_big(magnitude) * b_ * t_ - a_;
            accept = bernoulli_exp_big(diff * diff, den_, random);
        }
        if (accept) return signed_int64(magnitude, negative);
    }
}

// ---- free functions --------------------------------------------------------------------------

BigInt sample_discrete_laplace(const Rational& scale, RandomSource& random) {
    return DiscreteLaplaceSampler(scale).sample(random);
}

BigInt sample_discrete_gaussian(const Rational& sigma2, RandomSource& random) {
    return DiscreteGaussianSampler(sigma2).sample(random);
}

BigInt sample_truncated_discrete_laplace(const Rational& scale, const BigInt& bound, RandomSource& random) {
    if (bound < 0) throw std::invalid_argument("truncated discrete Laplace: bound must be >= 0");
    return DiscreteLaplaceSampler(scale, bound).sample(random);
}

}  // namespace pgdp
