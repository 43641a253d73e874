// dp_count_distinct(value, epsilon [, delta]): the number of distinct values of a group (not of
// units). The state is the set of 64-bit hashes of the values (the shim hashes with PostgreSQL's
// extended hash function of the type, seed 0: a public, data-independent map); merge is the
// union, exact in any order. What is released is
//
//     D = min(cap, |{h(v) : v a value of the group}|),
//
// the number of distinct hashes, saturated at a public cap. Its sensitivity is 1 per row
// whatever the hash function does: one added row adds at most one hash, one removed row removes
// at most one, and min(cap, .) does not increase that. A collision (two values, one hash) makes
// D smaller than the distinct count (expected n^2 / 2^65 lost values for n values), never moves
// it by more than 1 per row. Person level: the shim keeps at most c distinct values of one unit
// per group, so a unit adds at most c hashes: sensitivity c. docs/drafts/histograms.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/aggregate_release.hpp"
#include "core/random_source.hpp"
#include "core/release_plan.hpp"
#include "core/state_bytes.hpp"

namespace pgdp {

// The most distinct hashes a group's state holds (2^24, 16.8 million): at most 256 MiB of table
// (2^25 slots) and 128 MiB serialized, below PostgreSQL's 1 GB allocation limit. Further new
// values are not stored; the count saturates at the cap (see D above).
constexpr std::uint64_t kMaxDistinctHashes = std::uint64_t{1} << 24;

// A set of 64-bit hashes in one open-addressing table (linear probing, load <= 1/2, 0 marks an
// empty slot and a separate flag records the hash 0): 8 bytes per slot, 16 to 32 bytes per stored
// hash in memory, 8 serialized. Saturates at its cap: once it holds cap hashes, inserts of new
// ones are dropped, so that any order of inserts and merges of the same values ends with
// min(cap, number of distinct hashes) elements.
class DistinctHashSet {
public:
    explicit DistinctHashSet(std::uint64_t cap = kMaxDistinctHashes);

    void insert(std::uint64_t hash);
    void merge(const DistinctHashSet& other);
    std::uint64_t size() const { return size_; }
    std::uint64_t cap() const { return cap_; }
    bool contains(std::uint64_t hash) const;
    std::size_t memory_bytes() const { return slots_.size() * sizeof(std::uint64_t); }

    // Version, cap, size, then the hashes in increasing order.
    StateBytes serialize() const;
    // CorruptStateError unless the hashes are strictly increasing and at most cap of them.
    static DistinctHashSet deserialize(const unsigned char* data, std::size_t size);

private:
    std::size_t slot_of(std::uint64_t hash) const;
    void grow();

    std::uint64_t cap_;
    std::uint64_t size_ = 0;
    bool has_zero_ = false;
    std::vector<std::uint64_t> slots_;  // power-of-two length
};

struct DistinctCountParameters {
    double epsilon = 0.0;
    double delta = 0.0;
    Mechanism mechanism = Mechanism::Laplace;
    double alpha = 0.0;                 // *_ci: P(D outside the interval) <= alpha; else 0
    std::uint32_t values_per_unit = 1;  // person level: distinct values one unit keeps per group (c)
    std::uint32_t groups_per_unit = 1;  // person level: groups one unit may change (m)
};

// plan_release at sensitivity c over m groups, the count being an integer. ArgumentError naming
// epsilon, delta, mechanism, alpha (when > 0), values_per_unit, max_groups_contributed.
ReleasePlan plan_distinct_count(const DistinctCountParameters& parameters);

// value: the noisy D (an integer); for alpha > 0 the interval value +- release_half_width.
AggregateRelease release_distinct_count(const DistinctCountParameters& parameters, const ReleasePlan& plan,
                                        std::uint64_t distinct, RandomSource& random);

}  // namespace pgdp
