// The state of a differentially private quantile aggregate: the quantile tree of Google's
// differential-privacy library (cc/algorithms/quantile-tree.h; the write-up
// common_docs/Differentially_Private_Quantile_Trees.pdf), with its default shape: branching 16,
// height 4, so [lower, upper] is cut into 16^4 = 65536 equal leaves (with a NULL bound, the
// log-linear map below cuts [-2^64, 2^64] instead). A row is clamped to the bounds and counted in
// one leaf; the count of any inner node is the sum of its leaves, so the state keeps the leaf
// counts only. Releasing (noise on node counts, the descent) is core/quantile_release.hpp.
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

// How the 65536 leaves cut the value line. The map is fixed when the state is created, from the
// call's constant bounds, and is part of the state (serialized, compared before a merge).
enum class QuantileLeafMap : std::uint8_t {
    // Both bounds given: [lower, upper] in 65536 equal leaves (quantile_leaf).
    Linear = 0,
    // A bound NULL: the line [-2^64, 2^64] in leaves whose width is 2^-8 of the binade they lie in
    // (log_quantile_leaf), whatever the data; values are clamped to the given bound first.
    LogLinear = 1,
};

struct QuantileTreeState {
    double lower;  // the clamping bounds (LogLinear: a given bound or -2^64 / 2^64)
    double upper;
    std::int64_t rows;       // rows counted: the sum of the leaf counts
    std::uint32_t occupied;  // leaves with a nonzero count
    std::uint32_t capacity;  // sparse: slots (a power of two); dense: 0; none allocated yet: 0
    std::uint32_t* keys;     // sparse: leaf + 1 per slot, 0 = free; otherwise nullptr
    std::int64_t* counts;    // sparse: a count per slot; dense: kQuantileTreeLeaves counts
    bool dense;
    QuantileLeafMap map;  // zero-initialised: Linear
};
static_assert(std::is_trivially_copyable_v<QuantileTreeState>, "states are plain data");

// Validates the bounds (finite, lower < upper, usable: ArgumentError naming "lower" or "upper")
// and returns an empty state (nothing allocated until the first row).
QuantileTreeState empty_quantile_tree(double lower, double upper);

// The leaf of value (not NaN) clamped to [lower, upper]:
// min(65535, floor((clamp(value) - lower) / (upper - lower) * 65536)).
std::uint32_t quantile_leaf(double value, double lower, double upper);

// ---- The log-linear leaf map (a NULL bound; docs/statistics/quantiles.md section 7) ----
// Values are clamped to [-2^64, 2^64]. A magnitude a in [2^k, 2^(k+1)), k in -63..63, lies in one
// of 256 equal sub-leaves of its binade, chosen by the top 8 bits of its mantissa: leaf
// 32769 + 256 (k + 63) + those bits (2^64 itself in the top leaf, 65280, closed above); a
// magnitude below 2^-63 (zero, subnormals) in leaf 32768. A negative value x lies in the leaf
// mirrored about the middle, 65535 - leaf(-x) (so (-2^-63, 0) is leaf 32767, -0 is +0's leaf).
// Leaves 0..254 and 65281..65535 hold no value. The map is monotone (x <= y: leaf(x) <= leaf(y)),
// and a used leaf's values lie in an interval of width at most 2^-8 of their magnitude (or 2^-63).
constexpr double kLogLeafValueLimit = 18446744073709551616.0;  // 2^64
constexpr int kLogLeavesPerBinade = 256;
constexpr int kLogLeafLowestExponent = -63;  // magnitudes below 2^-63 share the zero leaf
constexpr int kLogLeafHighestExponent = 63;
constexpr std::uint32_t kLogZeroLeaf = 32768;
constexpr std::uint32_t kLogFirstUsedLeaf = 255;   // -2^64
constexpr std::uint32_t kLogLastUsedLeaf = 65280;  // 2^64

// The leaf of value (not NaN), clamped to [-2^64, 2^64] first.
std::uint32_t log_quantile_leaf(double value);

// The values a used leaf holds lie between lower and upper (both exact doubles): positive leaves
// [lower, upper), negative ones (lower, upper], the outermost leaves closed at +-2^64.
struct LeafInterval {
    double lower;
    double upper;
};
// std::out_of_range for a leaf that holds no value.
LeafInterval log_leaf_interval(std::uint32_t leaf);

// The continuous inverse of the map: position p in [0, 65536] (in leaves) is the point a fraction
// p - floor(p) into leaf floor(p)'s interval (-2^64 / 2^64 in the unused leaves below / above).
// Continuous and non-decreasing in p, so the descent's answers stay monotone in q.
double log_leaf_value(double position);

// A LogLinear state clamping to [lower, upper] (-2^64 <= lower < upper <= 2^64, finite; a NULL
// bound is passed as -2^64 or 2^64). ArgumentError naming "lower" or "upper".
QuantileTreeState empty_log_quantile_tree(double lower, double upper);

// What a row's leaf depends on: the tree's leaf map and clamping bounds (LogLinear: a given bound
// or -2^64 / 2^64 for a NULL one).
struct QuantileLeafSpec {
    QuantileLeafMap map;
    double lower;
    double upper;
};

// The one per-row leaf map: the leaf of value (not NaN) in a tree of spec, clamped to its bounds
// (Linear quantile_leaf, LogLinear log_quantile_leaf of the clamped value). The single-node
// transition (add_to_quantile_tree, through leaf_of) and the Citus workers' state key
// (pgdp.quantile_leaf) both call it, so a worker counts every row in the transition's leaf.
std::uint32_t quantile_row_leaf(const QuantileLeafSpec& spec, double value);

// The leaf of value (not NaN) in the state's map, clamped to its bounds: quantile_row_leaf of the
// state's spec.
std::uint32_t leaf_of(const QuantileTreeState& state, double value);

// The value at position p in [0, 65536] (in leaves) of a state's map, clamped to its bounds:
// Linear lower + p / 65536 (upper - lower), LogLinear log_leaf_value(p).
double quantile_value_at(QuantileLeafMap map, double lower, double upper, double position);

// Counts one row (clamped to the bounds). NaN is not counted (it is not a row, as for dp_sum).
void add_to_quantile_tree(QuantileTreeState& state, double value, const StateMemory& memory);

// Adds from's counts to into's, exactly. std::invalid_argument if the maps or bounds differ,
// std::overflow_error if the row count would pass 2^63 - 1.
void merge_quantile_trees(QuantileTreeState& into, const QuantileTreeState& from, const StateMemory& memory);

// Citus (aggregate_release.hpp DistributedForm::LeafCounts): adds a worker's count of the rows in
// one leaf, of either map. CorruptStateError unless 0 <= leaf < 65536, the leaf lies between the
// leaves of the state's bounds (some row of this map and these bounds lands in it: LogLinear never
// the unused leaves), count >= 0 and the rows stay below 2^63 (nothing added then); a count of 0
// adds nothing.
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

// Serialization, format version 1 for the Linear map, 2 for LogLinear (little-endian, whatever
// the host):
//   byte 0      version (1 or 2: the leaf map)
//   bytes 1-16  lower, upper (IEEE 754 binary64 bit patterns)
//   varint      k, the number of nonzero leaves (<= 65536)
//   k times     varint gap (leaf - previous leaf - 1, the first leaf itself), varint count (>= 1)
// Varints are LEB128, shortest form only.
constexpr unsigned char kQuantileTreeFormatVersion = 1;
constexpr unsigned char kLogQuantileTreeFormatVersion = 2;
StateBytes serialize_quantile_tree(const QuantileTreeState& state);
// Builds a state from bytes; CorruptStateError unless the bytes are exactly what
// serialize_quantile_tree writes for some state (version, bounds valid for its map, leaves
// increasing and below 65536 (LogLinear: used leaves only), counts >= 1, their sum below 2^63, no
// trailing bytes).
QuantileTreeState deserialize_quantile_tree(const unsigned char* bytes, std::size_t size,
                                            const StateMemory& memory);

}  // namespace pgdp
