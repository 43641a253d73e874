// The state of a differentially private quantile aggregate: the quantile tree of Google's
// differential-privacy library (cc/algorithms/quantile-tree.h; the write-up
// common_docs/Differentially_Private_Quantile_Trees.pdf), with its default shape: branching 16,
// height 4, so [lower, upper] is cut into 16^4 = 65536 equal leaves. A row is clamped to the
// bounds and counted in one leaf; the count of any inner node is the sum of its leaves, so the
// state keeps the leaf counts only. Releasing (noise on node counts, the descent) is
// core/quantile_release.hpp.
//
// The state is plain data (trivially copyable, no constructor or destructor): the shim keeps it
// in PostgreSQL's aggregate memory context, whose allocator it passes as a StateMemory, and
// tests pass heap_state_memory(). Counts are integers, so merging adds them exactly and in any
// order (parallel workers, Citus partials).
//
// Memory per group (bounded whatever the number of rows): leaves with a nonzero count are kept
// in an open-addressing table of (leaf + 1, count) slots, 12 bytes a slot, at most half full,
// of 16 to 32768 slots (192 bytes to 384 KiB); past 16384 occupied leaves the state switches to
// a dense array of 65536 int64 counts (512 KiB). So a state holds at most 512 KiB plus the
// struct, and at most 896 KiB for the moment of the switch (old table and new array).
// Serialized, a state takes at most 17 + 3 + 65536 * 11 bytes (varints), typically a few bytes
// a distinct leaf.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/state_bytes.hpp"

namespace pgdp {

constexpr int kQuantileTreeBranching = 16;
constexpr int kQuantileTreeHeight = 4;
constexpr std::uint32_t kQuantileTreeLeaves = 65536;  // branching^height

// Where a state's memory comes from. allocate returns nullptr when out of memory (the core
// then throws std::bad_alloc; it must not raise a PostgreSQL error itself); release may do
// nothing (memory contexts free everything at once).
struct StateMemory {
    void* (*allocate)(void* context, std::size_t bytes);
    void (*release)(void* context, void* block);
    void* context;
};
// std::malloc and std::free.
StateMemory heap_state_memory();

struct QuantileTreeState {
    double lower;
    double upper;
    std::int64_t rows;       // rows counted: the sum of the leaf counts
    std::uint32_t occupied;  // leaves with a nonzero count
    std::uint32_t capacity;  // sparse: slots (a power of two); dense: 0; none allocated yet: 0
    std::uint32_t* keys;     // sparse: leaf + 1 per slot, 0 = free; otherwise nullptr
    std::int64_t* counts;    // sparse: a count per slot; dense: kQuantileTreeLeaves counts
    bool dense;
};
static_assert(std::is_trivially_copyable_v<QuantileTreeState>, "states are plain data");

// Validates the bounds (finite, lower < upper, usable: ArgumentError naming "lower" or "upper")
// and returns an empty state (nothing allocated until the first row).
QuantileTreeState empty_quantile_tree(double lower, double upper);

// The leaf of value (not NaN) clamped to [lower, upper]:
// min(65535, floor((clamp(value) - lower) / (upper - lower) * 65536)).
std::uint32_t quantile_leaf(double value, double lower, double upper);

// Counts one row (clamped to the bounds). NaN is not counted (it is not a row, as for dp_sum).
void add_to_quantile_tree(QuantileTreeState& state, double value, const StateMemory& memory);

// Adds from's counts to into's, exactly. std::invalid_argument if the bounds differ,
// std::overflow_error if the row count would pass 2^63 - 1.
void merge_quantile_trees(QuantileTreeState& into, const QuantileTreeState& from, const StateMemory& memory);

// Citus (aggregate_release.hpp DistributedForm::LeafCounts): adds a worker's count of the rows in
// one leaf. CorruptStateError unless 0 <= leaf < 65536, count >= 0 and the rows stay below 2^63
// (nothing added then); a count of 0 adds nothing.
void add_partial_leaf_count(QuantileTreeState& state, std::int64_t leaf, std::int64_t count,
                            const StateMemory& memory);

// Releases the state's memory; the state is empty afterwards.
void free_quantile_tree(QuantileTreeState& state, const StateMemory& memory);

struct LeafCount {
    std::uint32_t leaf;
    std::int64_t count;
};
// The nonzero leaf counts in increasing leaf order.
std::vector<LeafCount> quantile_tree_leaves(const QuantileTreeState& state);
// The count of one leaf (< 65536).
std::int64_t quantile_leaf_count(const QuantileTreeState& state, std::uint32_t leaf);

// Serialization, format version 1 (little-endian, whatever the host):
//   byte 0      version (1)
//   bytes 1-16  lower, upper (IEEE 754 binary64 bit patterns)
//   varint      k, the number of nonzero leaves (<= 65536)
//   k times     varint gap (leaf - previous leaf - 1, the first leaf itself), varint count (>= 1)
// Varints are LEB128, shortest form only.
constexpr unsigned char kQuantileTreeFormatVersion = 1;
StateBytes serialize_quantile_tree(const QuantileTreeState& state);
// Builds a state from bytes; CorruptStateError unless the bytes are exactly what
// serialize_quantile_tree writes for some state (version, bounds valid, leaves increasing and
// below 65536, counts >= 1, their sum below 2^63, no trailing bytes).
QuantileTreeState deserialize_quantile_tree(const unsigned char* bytes, std::size_t size,
                                            const StateMemory& memory);

}  // namespace pgdp
