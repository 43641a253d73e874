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
// per group, so a unit adds at most c hashes: sensitivity c. docs/statistics/histograms.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/aggregate_release.hpp"
#include "core/random_source.hpp"
#include "core/release_plan.hpp"
#include "core/state_bytes.hpp"

namespace pgdp {

// The most distinct hashes a group's state holds (2^24, 16.8 million): at most 256 MiB of table
// (2^25 slots) and 128 MiB serialized, below PostgreSQL's 1 GB allocation limit. Further new
// values are not stored; the count saturates at the cap (see D above).
constexpr std::uint64_t kMaxDistinctHashes = std::uint64_t{1} << 24;
constexpr std::uint64_t kMinDistinctSlots = 16;

// A set of 64-bit hashes as plain data: one open-addressing table (linear probing, load <= 1/2,
// 0 marks an empty slot, a flag records the hash 0) whose slots the caller allocates (the shim in
// the aggregate's memory context, never with new/malloc). 8 bytes per slot: 16 to 32 bytes per
// stored hash, 8 serialized. Saturates at its cap: once it holds cap hashes, new ones are dropped,
// so any order of inserts and merges of the same values ends with min(cap, distinct hashes).
struct DistinctHashTable {
    std::uint64_t* slots = nullptr;  // slot_count entries
    std::uint64_t slot_count = 0;    // a power of two >= kMinDistinctSlots
    std::uint64_t size = 0;          // hashes held, the hash 0 included
    std::uint64_t cap = kMaxDistinctHashes;
    bool has_zero = false;
};
static_assert(std::is_trivially_copyable_v<DistinctHashTable>, "aggregate state is plain data");

// The slot count the table needs before one more insert: slot_count, or twice it when a new hash
// would raise the load above 1/2 (never past what cap needs).
std::uint64_t distinct_slots_wanted(const DistinctHashTable& table);
// Puts every hash of `from` into `to`, whose slots (to.slot_count of them, a power of two at least
// twice from.size) are all 0; copies size, cap and the zero flag.
void rehash_distinct(const DistinctHashTable& from, DistinctHashTable& to);
// Inserts hash; requires distinct_slots_wanted(table) == table.slot_count.
void insert_distinct(DistinctHashTable& table, std::uint64_t hash);
bool contains_distinct(const DistinctHashTable& table, std::uint64_t hash);

// Inserts hash, first moving the table to grow(old_slots, old_count, new_count) - a zeroed buffer
// of new_count slots, the callee freeing the old one - when it needs more slots.
template <typename Grow>
void add_distinct(DistinctHashTable& table, std::uint64_t hash, Grow&& grow) {
    const std::uint64_t wanted = distinct_slots_wanted(table);
    if (wanted != table.slot_count) {
        DistinctHashTable bigger = table;
        bigger.slot_count = wanted;
        bigger.slots = grow(static_cast<std::uint64_t*>(nullptr), std::uint64_t{0}, wanted);
        rehash_distinct(table, bigger);
        grow(table.slots, table.slot_count, std::uint64_t{0});
        table = bigger;
    }
    insert_distinct(table, hash);
}

// into = into union from (saturating at into.cap).
template <typename Grow>
void merge_distinct(DistinctHashTable& into, const DistinctHashTable& from, Grow&& grow) {
    if (from.has_zero) add_distinct(into, 0, grow);
    for (std::uint64_t i = 0; i < from.slot_count; ++i) {
        if (from.slots[i] != 0) add_distinct(into, from.slots[i], grow);
    }
}

// Citus (aggregate_release.hpp DistributedForm::DistinctHashes): a worker's row (hash, count), count
// being the rows of the group with a value of that hash (0: none passed the call's FILTER, nothing
// added). CorruptStateError for a negative count; any 64-bit hash is one some value could have.
template <typename Grow>
void add_partial_distinct(DistinctHashTable& table, std::uint64_t hash, std::int64_t count, Grow&& grow) {
    if (count < 0) throw CorruptStateError("distinct partial: a negative count");
    if (count > 0) add_distinct(table, hash, grow);
}

// State bytes: version, cap, size, then the hashes in increasing order.
StateBytes serialize_distinct(const DistinctHashTable& table);
// Validated serialized state: CorruptStateError unless the version and length match, the cap is
// in [1, kMaxDistinctHashes] and the hashes are strictly increasing and at most cap.
struct DistinctStateView {
    std::uint64_t cap;
    std::uint64_t count;
    const unsigned char* hashes;  // count little-endian uint64

    std::uint64_t hash(std::uint64_t i) const;
};
DistinctStateView read_distinct_state(const unsigned char* data, std::size_t size);

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
