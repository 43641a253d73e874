// Helpers shared by the tests of the count releases (histograms, distinct values, bounds).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "core/errors.hpp"
#include "core/state_bytes.hpp"
#include "noise_test_helpers.hpp"

namespace pgdp_test {

// The argument an ArgumentError thrown by call() names; "no error" if none is thrown.
template <typename Call>
std::string thrown_argument(Call call) {
    try {
        call();
    } catch (const pgdp::ArgumentError& error) {
        return error.argument();
    }
    return "no error";
}

// True if call() throws CorruptStateError (a state's bytes rejected on reading).
template <typename Call>
bool rejects_state(Call call) {
    try {
        call();
    } catch (const pgdp::CorruptStateError&) {
        return true;
    }
    return false;
}

// True if `hits` successes in `trials` are compatible (kZ standard errors, one-sided) with a
// success probability of at least p.
inline bool at_least_rate(double hits, double trials, double p) {
    return hits / trials >= p - kZ * std::sqrt(p * (1 - p) / trials);
}

// splitmix64: an independent 64-bit hash for the tests (not the one the core uses for slots).
inline std::uint64_t test_hash(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace pgdp_test
