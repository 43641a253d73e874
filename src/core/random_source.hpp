// Where noise gets its randomness. Production uses the CSPRNG behind pg_strong_random (see
// src/pg/base/strong_random.cpp); tests use SeededRandomSource so that they are reproducible.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pgdp {

class RandomSource {
public:
    virtual ~RandomSource() = default;
    // Fills out[0..n) with independent uniform bytes. Throws std::runtime_error if the source fails.
    virtual void fill(unsigned char* out, std::size_t n) = 0;

    // 64 uniform bits (8 bytes from fill, little-endian so that the result does not depend on the
    // host byte order).
    std::uint64_t next_u64();
    // Uniform on {0, ..., n-1}, exactly (rejection sampling, no modulo bias). n must be > 0
    // (std::invalid_argument otherwise: this is a programming error, not a user error).
    std::uint64_t uniform_below(std::uint64_t n);
    // One fair bit.
    bool next_bit();
};

// Deterministic generator for tests only (never used for releases unless a superuser sets the
// test seed GUC): xoshiro256** (Blackman-Vigna 2018) with its state seeded by splitmix64 of seed.
// Not cryptographically secure.
class SeededRandomSource final : public RandomSource {
public:
    explicit SeededRandomSource(std::uint64_t seed);
    void fill(unsigned char* out, std::size_t n) override;

private:
    std::uint64_t next();
    std::uint64_t state_[4];
};

}  // namespace pgdp
