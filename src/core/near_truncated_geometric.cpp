#include "core/cpp_only.hpp"
#include "core/near_truncated_geometric.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "core/interrupts.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

using U128 = unsigned __int128;

constexpr U128 kOne = U128(1) << 64;      // pi = 1 on the 2^-64 grid
constexpr U128 kTwo63 = U128(1) << 63;    // denominator of a and b
constexpr U128 kTwo127 = U128(1) << 127;  // a P below this fits
// Relative margin on the long double e^eps, e^-eps: expl is accurate to a few ulps (1e-19) and
// eps itself to one ulp of eps <= 40 (2e-18 relative in e^eps); 1e-16 dominates both.
constexpr long double kExpMargin = 1e-16L;

// One step of the recurrence on the grid (near_truncated_geometric.hpp): P(n) from P(n-1).
U128 next_numerator(const NearTruncatedGeometric& g, U128 p) {
    const U128 d = g.d_numerator;
    // K1 term: floor(a P) + D, where a P / 2^64-grid = a_numerator P / 2^63.
    U128 first;
    if (p == 0) {
        first = d;
    } else if (p >= (kTwo127 + g.a_numerator() - 1) / g.a_numerator()) {
        first = kOne;  // a_numerator P >= 2^127: a P >= 2^64, i.e. >= 1
    } else {
        first = g.a_numerator() * p / kTwo63 + d;
    }
    // D1 term: 2^64 - ceil(b (2^64 - P - D)); 1 when P + D >= 2^64.
    U128 second = kOne;
    if (p + d < kOne) {
        const U128 x = kOne - p - d;  // < 2^64, times b_numerator <= 2^63: below 2^127
        const U128 product = U128(g.b_numerator) * x;
        const U128 ceiling = (product + kTwo63 - 1) / kTwo63;
        second = kOne - ceiling;
    }
    return std::min({first, second, kOne});
}

}  // namespace

NearTruncatedGeometric near_truncated_geometric(double epsilon, double delta) {
    if (!(epsilon > 0.0) || !(delta > 0.0 && delta < 1.0))
        throw std::invalid_argument("near_truncated_geometric: epsilon > 0 and 0 < delta < 1 expected");
    if (delta < kNtgMinDelta) {
        throw RangeError("delta",
                         "the per-group delta " + shown(delta) +
                             " is below 2^-50, too small for the near-truncated-geometric selection",
                         "Use a larger delta, a smaller max_groups_contributed, or the 'laplace' or "
                         "'gaussian' selection.");
    }
    NearTruncatedGeometric g{};
    g.epsilon = std::min(epsilon, kNtgMaxEpsilon);
    g.delta = delta;
    const long double eps = g.epsilon;
    // a = floor(e^eps (1 - margin) 2^63) / 2^63 <= e^eps, and >= 1 (1 is on the grid).
    const long double a_scaled = std::ldexp(std::exp(eps) * (1.0L - kExpMargin), 63);
    const U128 a_numerator = std::max<U128>(static_cast<U128>(std::floor(a_scaled)), kTwo63);
    g.a_numerator_low = static_cast<std::uint64_t>(a_numerator);
    g.a_numerator_high = static_cast<std::uint64_t>(a_numerator >> 64);
    // b = ceil(e^-eps (1 + margin) 2^63) / 2^63 >= e^-eps, and <= 1.
    const long double b_scaled = std::ldexp(std::exp(-eps) * (1.0L + kExpMargin), 63);
    g.b_numerator =
        static_cast<std::uint64_t>(std::min<U128>(static_cast<U128>(std::ceil(b_scaled)), kTwo63));
    // delta_r = floor(delta 2^64) / 2^64: exact for a double delta (a power-of-two scaling).
    g.d_numerator = static_cast<std::uint64_t>(std::floor(std::ldexp(delta, 64)));

    // Run to the first n with pi(n) = 1 (it exists: 1 - pi drops by >= b delta_r each step once
    // the second term is the minimum, and pi grows by >= delta_r before).
    U128 p = 0;
    std::uint64_t n = 0;
    while (p < kOne) {
        if (++n > kNtgMaxSteps) {
            throw RangeError("epsilon",
                             "the near-truncated-geometric selection needs more than " +
                                 std::to_string(kNtgMaxSteps) + " units to keep a group surely at epsilon " +
                                 shown(epsilon) + " per group",
                             "Use a larger epsilon, a smaller max_groups_contributed, or the 'laplace' or "
                             "'gaussian' selection.");
        }
        if (n % 65536 == 0) poll_interrupts();
        p = next_numerator(g, p);
    }
    g.n_one = n;
    g.stride = std::max<std::uint64_t>(1, (n + kNtgCheckpoints - 1) / kNtgCheckpoints);
    // Second pass to store the checkpoints P(k stride) for k stride < n_one.
    p = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        if (i % g.stride == 0) g.checkpoint[i / g.stride] = static_cast<std::uint64_t>(p);
        if (i % 65536 == 65535) poll_interrupts();
        p = next_numerator(g, p);
    }
    return g;
}

unsigned __int128 ntg_keep_numerator(const NearTruncatedGeometric& g, std::uint64_t n) {
    if (n >= g.n_one) return kOne;
    const std::uint64_t k = n / g.stride;  // < kNtgCheckpoints since n < n_one <= 64 stride
    U128 p = g.checkpoint[k];
    for (std::uint64_t i = k * g.stride; i < n; ++i) p = next_numerator(g, p);
    return p;
}

double ntg_keep_probability(const NearTruncatedGeometric& g, std::uint64_t n) {
    const U128 p = ntg_keep_numerator(g, n);
    if (p == kOne) return 1.0;
    return std::ldexp(static_cast<double>(static_cast<std::uint64_t>(p)), -64);
}

bool ntg_keep(const NearTruncatedGeometric& g, std::uint64_t n, RandomSource& random) {
    const U128 p = ntg_keep_numerator(g, n);
    if (p == kOne) return true;
    if (p == 0) return false;
    return random.next_u64() < static_cast<std::uint64_t>(p);  // P[U < P] = P / 2^64 exactly
}

std::uint64_t ntg_units_for_half(const NearTruncatedGeometric& g) {
    const U128 half = kOne / 2;
    // The checkpoints are non-decreasing: find the last one below 1/2, then step.
    std::uint64_t n = 0;
    U128 p = 0;
    for (int k = 0; k < kNtgCheckpoints; ++k) {
        const std::uint64_t at = static_cast<std::uint64_t>(k) * g.stride;
        if (at >= g.n_one || g.checkpoint[k] >= half) break;
        n = at;
        p = g.checkpoint[k];
    }
    while (p < half) {
        p = next_numerator(g, p);
        ++n;
    }
    return n;
}

}  // namespace pgdp
