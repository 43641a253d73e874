#include "core/cpp_only.hpp"

#include "core/random_source.hpp"

#include <cstring>
#include <stdexcept>

namespace pgdp {

std::uint64_t RandomSource::next_u64() {
    unsigned char bytes[8];
    fill(bytes, sizeof bytes);
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | bytes[i];
    return v;
}

std::uint64_t RandomSource::uniform_below(std::uint64_t n) {
    if (n == 0) throw std::invalid_argument("uniform_below: n must be positive");
    if ((n & (n - 1)) == 0) return next_u64() & (n - 1);  // power of two: mask, no rejection
    // Accept x in [2^64 mod n, 2^64): a range whose length is a multiple of n, so x mod n is
    // exactly uniform. Rejection probability < n / 2^64 <= 1/2.
    const std::uint64_t threshold = (0 - n) % n;  // == 2^64 mod n
    for (;;) {
        const std::uint64_t x = next_u64();
        if (x >= threshold) return x % n;
    }
}

bool RandomSource::next_bit() {
    unsigned char byte;
    fill(&byte, 1);
    return (byte & 1u) != 0;
}

namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

inline std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

SeededRandomSource::SeededRandomSource(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& s : state_) s = splitmix64(x);  // never all zero: splitmix64 is a bijection of x
}

std::uint64_t SeededRandomSource::next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
}

void SeededRandomSource::fill(unsigned char* out, std::size_t n) {
    while (n > 0) {
        std::uint64_t v = next();
        const std::size_t k = n < 8 ? n : 8;
        for (std::size_t i = 0; i < k; ++i) {
            out[i] = static_cast<unsigned char>(v & 0xffu);
            v >>= 8;
        }
        out += k;
        n -= k;
    }
}

}  // namespace pgdp
