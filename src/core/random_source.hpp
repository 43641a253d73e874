// Where noise gets its randomness. Production uses the CSPRNG behind pg_strong_random (see
// src/pg/strong_random.cpp); tests use SeededRandomSource so that they are reproducible.
#pragma once
#include "core/cpp_only.hpp"

#include <cstddef>
#include <cstdint>

namespace pgdp {

class RandomSource {
public:
    virtual ~RandomSource() = default;
    // Fills out[0..n) with independent uniform bytes. Throws std::runtime_error if the source fails.
    virtual void fill(unsigned char* out, std::size_t n) = 0;

    std::uint64_t next_u64();
};

// Deterministic generator for tests only (never used for releases unless a superuser sets the
// test seed GUC).
class SeededRandomSource final : public RandomSource {
public:
    explicit SeededRandomSource(std::uint64_t seed);
    void fill(unsigned char* out, std::size_t n) override;

private:
    std::uint64_t next();
    std::uint64_t state_[4];
};

}  // namespace pgdp
