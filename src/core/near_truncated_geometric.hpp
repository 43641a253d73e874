// The optimal keep probability of DP partition selection for one partition: Desfontaines, Voss,
// Gipson, Mandayam, "Differentially private partition selection" (PoPETs 2022), the
// "near-truncated geometric" of their main theorem (recalled here; the paper is not among
// /work/shared/papers). A partition with n units is kept with probability pi(n):
//
//   pi(0) = 0,  pi(n) = min(e^eps pi(n-1) + delta, 1 - e^-eps (1 - pi(n-1) - delta), 1).
//
// Why these three terms: for neighbouring counts n-1 and n (one unit added) the keep/drop
// output must satisfy (eps, delta)-DP in both directions, i.e.
//   (K1) pi(n)     <= e^eps pi(n-1)         + delta     (keep, unit added)
//   (D1) 1-pi(n-1) <= e^eps (1 - pi(n))     + delta     (drop, unit added)
//   (K2) pi(n-1)   <= e^eps pi(n)           + delta     (keep, unit removed)
//   (D2) 1-pi(n)   <= e^eps (1 - pi(n-1))   + delta     (drop, unit removed)
// K2 and D2 hold whenever pi is non-decreasing; K1 is the first term, D1 rearranged is the
// second (pi(n) <= 1 - e^-eps (1 - pi(n-1) - delta)); the largest pi meeting all of them is the
// minimum, and the paper proves it is pointwise optimal. n = 0 is the absent partition: it is
// never released, so pi(0) = 0 and the step 0 -> 1 is the "new partition" case.
//
// Exactness despite floating point: pi is computed on the dyadic grid 2^-64 in integer
// arithmetic, with a <= e^eps and b >= e^-eps rationals on the grid 2^-63 (1 <= a, b <= 1) and
// delta_r = floor(delta 2^64) / 2^64 <= delta, every pi(n) rounded DOWN to the grid:
//   P(n) = min(floor(a P(n-1)) + D, 2^64 - ceil(b (2^64 - P(n-1) - D)), 2^64)   (pi = P / 2^64),
// the second term being 2^64 when P(n-1) + D >= 2^64.
//   K1: pi(n) <= a pi(n-1) + delta_r <= e^eps pi(n-1) + delta.
//   D1: if x = 1 - pi(n-1) - delta_r > 0 then 1 - pi(n) >= b x >= e^-eps x
//       >= e^-eps (1 - pi(n-1) - delta); otherwise 1 - pi(n-1) <= delta_r <= delta.
//   Monotone (hence K2, D2): a >= 1 gives floor(a P) + D >= P; b <= 1 gives
//       ceil(b x 2^64) <= x 2^64 = 2^64 - P - D, so the second term is >= P + D >= P.
// By induction the grid pi is also <= the exact pi (each term is non-decreasing in pi(n-1), a
// and delta and non-increasing in b), so rounding only ever drops more.
//
// m > 1 (a unit touches up to m partitions): each partition runs the mechanism at
// eps' = eps / m and delta' = 1 - (1 - delta)^(1/m) (rounded down); the m partitions a unit can
// change are independent (eps', delta') mechanisms, and composing them gives
// (m eps', 1 - (1 - delta')^m) <= (eps, delta) (composition of (eps_i, delta_i)-DP mechanisms
// is (sum eps_i, 1 - prod (1 - delta_i))-DP, as in the paper's Section on m > 1).
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/random_source.hpp"

namespace pgdp {

// Checkpoints of P(n) kept in the plain-data plan: pi(n) is recomputed from the nearest one,
// at most ceil(n_one / kNtgCheckpoints) steps.
constexpr int kNtgCheckpoints = 64;
// The most steps the recurrence may take to reach 1 (refused beyond: RangeError "epsilon").
constexpr std::uint64_t kNtgMaxSteps = 20000000;
// The per-partition epsilon is capped here (a smaller epsilon is still private at the larger
// one; at 40, pi(1) = delta' and pi(2) = 1 for every delta' used): keeps a * P within 128 bits.
constexpr double kNtgMaxEpsilon = 40.0;
// delta' below 2^-50 would be rounded to the 2^-64 grid with a relative error above 2^-14.
constexpr double kNtgMinDelta = 8.8817841970012523e-16;  // 2^-50

// Plain data (trivially copyable).
struct NearTruncatedGeometric {
    double epsilon;  // per-partition eps' actually used (after the cap)
    double delta;    // per-partition delta' (before rounding to the grid)
    // a = a_numerator() / 2^63, 1 <= a <= e^eps'; two halves so that plans stay 8-byte aligned
    // (they are copied into palloc'd memory, which is aligned to 8 only).
    std::uint64_t a_numerator_low;
    std::uint64_t a_numerator_high;
    unsigned __int128 a_numerator() const {
        return (static_cast<unsigned __int128>(a_numerator_high) << 64) | a_numerator_low;
    }
    std::uint64_t b_numerator;                  // b = b_numerator / 2^63, e^-eps' <= b <= 1
    std::uint64_t d_numerator;                  // delta_r = d_numerator / 2^64 <= delta'
    std::uint64_t n_one;                        // the least n with pi(n) = 1
    std::uint64_t stride;                       // checkpoint k holds P(k * stride)
    std::uint64_t checkpoint[kNtgCheckpoints];  // P(k stride) < 2^64 for k stride < n_one
};
static_assert(std::is_trivially_copyable_v<NearTruncatedGeometric>, "plans are plain data");

// The mechanism for a per-partition (epsilon, delta) (callers pass eps/m and delta'; unvalidated
// apart from: RangeError("delta") if delta < kNtgMinDelta, RangeError("epsilon") if pi needs more
// than kNtgMaxSteps steps to reach 1). Polls for interrupts.
NearTruncatedGeometric near_truncated_geometric(double epsilon, double delta);

// P(n) = pi(n) 2^64 as an exact integer in [0, 2^64].
unsigned __int128 ntg_keep_numerator(const NearTruncatedGeometric& g, std::uint64_t n);
// pi(n) rounded to the nearest double (reports and tests).
double ntg_keep_probability(const NearTruncatedGeometric& g, std::uint64_t n);
// Bernoulli(pi(n)) exactly: a uniform 64-bit integer U, kept iff U < P(n) (no randomness is
// drawn when pi(n) is 0 or 1).
bool ntg_keep(const NearTruncatedGeometric& g, std::uint64_t n, RandomSource& random);
// The least n with pi(n) >= 1/2.
std::uint64_t ntg_units_for_half(const NearTruncatedGeometric& g);

}  // namespace pgdp
