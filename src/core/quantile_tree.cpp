#include "core/cpp_only.hpp"
#include "core/quantile_tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "core/clamped_sum.hpp"
#include "core/errors.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

constexpr std::uint32_t kFirstCapacity = 16;
// The largest table: 32768 slots of 12 bytes (384 KiB) stay below the dense array (512 KiB).
constexpr std::uint32_t kMaxSparseCapacity = 32768;

void* heap_allocate(void*, std::size_t bytes) { return std::malloc(bytes); }
void heap_release(void*, void* block) { std::free(block); }

void* allocate(const StateMemory& memory, std::size_t bytes) {
    void* block = memory.allocate(memory.context, bytes);
    if (block == nullptr) throw std::bad_alloc();
    return block;
}

void require_quantile_bounds(double lower, double upper) {
    (void)sum_unit_exponent(lower, upper);  // finite, lower <= upper
    require_usable_bounds(lower, upper);
    if (lower == upper) {
        throw ArgumentError("upper",
                            "upper (" + shown(upper) + ") must be greater than lower (" + shown(lower) + ")",
                            "Quantiles are searched in [lower, upper]; pass bounds that contain the values.");
    }
}

void require_log_quantile_bounds(double lower, double upper) {
    if (!(lower >= -kLogLeafValueLimit && lower < kLogLeafValueLimit)) {
        throw ArgumentError("lower",
                            "lower must lie in [-2^64, 2^64) when upper is NULL, got " + shown(lower),
                            "Pass NULL for lower, or a finite bound of smaller magnitude.");
    }
    if (!(upper > lower && upper <= kLogLeafValueLimit)) {
        throw ArgumentError("upper",
                            "upper (" + shown(upper) + ") must lie above lower (" + shown(lower) +
                                ") and within 2^64 when a bound is NULL",
                            "Pass NULL for upper, or a finite bound above lower.");
    }
}

// The leaf of a magnitude a in [0, 2^64] on the positive half (32768..65280).
std::uint32_t positive_log_leaf(double magnitude) {
    if (magnitude < std::ldexp(1.0, kLogLeafLowestExponent)) return kLogZeroLeaf;
    if (magnitude >= kLogLeafValueLimit) return kLogLastUsedLeaf;
    std::uint64_t bits;
    std::memcpy(&bits, &magnitude, sizeof bits);
    const int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;  // a normal double here
    const auto sub_leaf = static_cast<std::uint32_t>((bits >> 44) & 0xff);
    return kLogZeroLeaf + 1 +
           static_cast<std::uint32_t>(exponent - kLogLeafLowestExponent) * kLogLeavesPerBinade + sub_leaf;
}

// [lower, upper) of a positive leaf (32768..65280).
LeafInterval positive_leaf_interval(std::uint32_t leaf) {
    if (leaf == kLogZeroLeaf) return {0.0, std::ldexp(1.0, kLogLeafLowestExponent)};
    const std::uint32_t index = leaf - kLogZeroLeaf - 1;
    const int exponent = static_cast<int>(index / kLogLeavesPerBinade) + kLogLeafLowestExponent;
    const int sub_leaf = static_cast<int>(index % kLogLeavesPerBinade);
    return {std::ldexp(kLogLeavesPerBinade + sub_leaf, exponent - 8),
            std::ldexp(kLogLeavesPerBinade + sub_leaf + 1, exponent - 8)};
}

// Fibonacci hashing of a leaf onto a table of 2^bits slots.
std::uint32_t slot_of(std::uint32_t leaf, std::uint32_t capacity) {
    const int bits = __builtin_ctz(capacity);
    return static_cast<std::uint32_t>((leaf * 2654435769u) >> (32 - bits));
}

// A table of capacity slots in one block: the counts (8-byte aligned) then the keys.
void allocate_table(QuantileTreeState& state, std::uint32_t capacity, const StateMemory& memory) {
    const std::size_t bytes =
        static_cast<std::size_t>(capacity) * (sizeof(std::int64_t) + sizeof(std::uint32_t));
    auto* block = static_cast<unsigned char*>(allocate(memory, bytes));
    std::memset(block, 0, bytes);
    state.counts = reinterpret_cast<std::int64_t*>(block);
    state.keys = reinterpret_cast<std::uint32_t*>(block + capacity * sizeof(std::int64_t));
    state.capacity = capacity;
    state.dense = false;
}

void allocate_dense(QuantileTreeState& state, const StateMemory& memory) {
    const std::size_t bytes = kQuantileTreeLeaves * sizeof(std::int64_t);
    state.counts = static_cast<std::int64_t*>(allocate(memory, bytes));
    std::memset(state.counts, 0, bytes);
    state.keys = nullptr;
    state.capacity = 0;
    state.dense = true;
}

// Adds count to the leaf's slot (the table has a free slot: it is at most half full).
bool add_to_slot(QuantileTreeState& state, std::uint32_t leaf, std::int64_t count) {
    const std::uint32_t mask = state.capacity - 1;
    std::uint32_t slot = slot_of(leaf, state.capacity);
    while (state.keys[slot] != 0 && state.keys[slot] != leaf + 1) slot = (slot + 1) & mask;
    const bool fresh = state.keys[slot] == 0;
    state.keys[slot] = leaf + 1;
    state.counts[slot] += count;
    return fresh;
}

// Moves the leaves into a table twice as large, or into the dense array past the largest table.
void grow(QuantileTreeState& state, const StateMemory& memory) {
    QuantileTreeState old = state;
    if (old.capacity * 2 > kMaxSparseCapacity) {
        allocate_dense(state, memory);
        for (std::uint32_t slot = 0; slot < old.capacity; ++slot) {
            if (old.keys[slot] != 0) state.counts[old.keys[slot] - 1] = old.counts[slot];
        }
    } else {
        allocate_table(state, old.capacity * 2, memory);
        for (std::uint32_t slot = 0; slot < old.capacity; ++slot) {
            if (old.keys[slot] != 0) add_to_slot(state, old.keys[slot] - 1, old.counts[slot]);
        }
    }
    memory.release(memory.context, old.counts);
}

// count >= 1; the caller has checked that rows + count does not overflow.
void add_to_leaf(QuantileTreeState& state, std::uint32_t leaf, std::int64_t count,
                 const StateMemory& memory) {
    if (state.counts == nullptr) allocate_table(state, kFirstCapacity, memory);
    state.rows += count;
    if (state.dense) {
        if (state.counts[leaf] == 0) ++state.occupied;
        state.counts[leaf] += count;
        return;
    }
    if (add_to_slot(state, leaf, count) && ++state.occupied * 2 > state.capacity) grow(state, memory);
}

}  // namespace

StateMemory heap_state_memory() { return StateMemory{heap_allocate, heap_release, nullptr}; }

QuantileTreeState empty_quantile_tree(double lower, double upper) {
    require_quantile_bounds(lower, upper);
    QuantileTreeState state{};
    state.lower = lower;
    state.upper = upper;
    return state;
}

std::uint32_t quantile_leaf(double value, double lower, double upper) {
    const double clamped = std::min(std::max(value, lower), upper);
    // The fraction is in [0, 1] (the difference of the bounds is finite), and rounding is
    // monotone, so leaves are ordered like the values.
    const double position = (clamped - lower) / (upper - lower) * kQuantileTreeLeaves;
    return std::min(static_cast<std::uint32_t>(position), kQuantileTreeLeaves - 1);
}

std::uint32_t log_quantile_leaf(double value) {
    const double clamped = std::min(std::max(value, -kLogLeafValueLimit), kLogLeafValueLimit);
    // -0 == 0 is +0's leaf; a negative value mirrors its magnitude's leaf.
    return clamped < 0.0 ? kQuantileTreeLeaves - 1 - positive_log_leaf(-clamped) : positive_log_leaf(clamped);
}

LeafInterval log_leaf_interval(std::uint32_t leaf) {
    if (leaf < kLogFirstUsedLeaf || leaf > kLogLastUsedLeaf) {
        throw std::out_of_range("log_leaf_interval: leaf " + std::to_string(leaf) + " holds no value");
    }
    if (leaf >= kLogZeroLeaf) return positive_leaf_interval(leaf);
    const LeafInterval mirrored = positive_leaf_interval(kQuantileTreeLeaves - 1 - leaf);
    return {-mirrored.upper, -mirrored.lower};
}

double log_leaf_value(double position) {
    if (!(position >= kLogFirstUsedLeaf)) return -kLogLeafValueLimit;  // below the used leaves (or NaN)
    if (position >= kLogLastUsedLeaf + 1) return kLogLeafValueLimit;
    const auto leaf = static_cast<std::uint32_t>(position);
    const double fraction = std::min(std::max(position - leaf, 0.0), 1.0);
    const LeafInterval interval = log_leaf_interval(leaf);
    // The width is a power of two: the product is exact, and the sum rounds monotonically, at
    // most to upper.
    return std::min(interval.lower + fraction * (interval.upper - interval.lower), interval.upper);
}

QuantileTreeState empty_log_quantile_tree(double lower, double upper) {
    require_log_quantile_bounds(lower, upper);
    QuantileTreeState state{};
    state.lower = lower;
    state.upper = upper;
    state.map = QuantileLeafMap::LogLinear;
    return state;
}

std::uint32_t quantile_row_leaf(const QuantileLeafSpec& spec, double value) {
    if (spec.map == QuantileLeafMap::Linear) return quantile_leaf(value, spec.lower, spec.upper);
    return log_quantile_leaf(std::min(std::max(value, spec.lower), spec.upper));
}

std::uint32_t leaf_of(const QuantileTreeState& state, double value) {
    return quantile_row_leaf(QuantileLeafSpec{state.map, state.lower, state.upper}, value);
}

double quantile_value_at(QuantileLeafMap map, double lower, double upper, double position) {
    if (map == QuantileLeafMap::Linear) {
        const double share = position / kQuantileTreeLeaves;
        return std::min(std::max(lower + share * (upper - lower), lower), upper);
    }
    return std::min(std::max(log_leaf_value(position), lower), upper);
}

void add_to_quantile_tree(QuantileTreeState& state, double value, const StateMemory& memory) {
    if (std::isnan(value)) return;
    if (state.rows == INT64_MAX) throw std::overflow_error("quantile state: more than 2^63 - 1 rows");
    add_to_leaf(state, leaf_of(state, value), 1, memory);
}

void merge_quantile_trees(QuantileTreeState& into, const QuantileTreeState& from, const StateMemory& memory) {
    if (into.map != from.map || into.lower != from.lower || into.upper != from.upper) {
        throw std::invalid_argument("quantile states with different leaf maps or bounds cannot be merged");
    }
    std::int64_t total;
    if (__builtin_add_overflow(into.rows, from.rows, &total)) {
        throw std::overflow_error("quantile state: more than 2^63 - 1 rows");
    }
    for (const LeafCount& leaf : quantile_tree_leaves(from)) add_to_leaf(into, leaf.leaf, leaf.count, memory);
}

void add_partial_leaf_count(QuantileTreeState& state, std::int64_t leaf, std::int64_t count,
                            const StateMemory& memory) {
    if (leaf < 0 || leaf >= static_cast<std::int64_t>(kQuantileTreeLeaves))
        throw CorruptStateError("quantile partial: leaf " + std::to_string(leaf) + " is not a leaf");
    if (count < 0) throw CorruptStateError("quantile partial: a negative count");
    // As deserialize_quantile_tree: no row of the state's map and bounds lands outside these leaves
    // (Linear: all of them).
    if (leaf < leaf_of(state, state.lower) || leaf > leaf_of(state, state.upper)) {
        throw CorruptStateError("quantile partial: leaf " + std::to_string(leaf) +
                                " lies outside its bounds' leaves");
    }
    std::int64_t total;
    if (__builtin_add_overflow(state.rows, count, &total))
        throw CorruptStateError("quantile partial: more than 2^63 - 1 rows");
    if (count > 0) add_to_leaf(state, static_cast<std::uint32_t>(leaf), count, memory);
}

void free_quantile_tree(QuantileTreeState& state, const StateMemory& memory) {
    if (state.counts != nullptr) memory.release(memory.context, state.counts);
    state.rows = 0;
    state.occupied = state.capacity = 0;
    state.keys = nullptr;
    state.counts = nullptr;
    state.dense = false;
}

std::int64_t quantile_leaf_count(const QuantileTreeState& state, std::uint32_t leaf) {
    if (state.dense) return state.counts[leaf];
    if (state.counts == nullptr) return 0;
    const std::uint32_t mask = state.capacity - 1;
    for (std::uint32_t slot = slot_of(leaf, state.capacity); state.keys[slot] != 0;
         slot = (slot + 1) & mask) {
        if (state.keys[slot] == leaf + 1) return state.counts[slot];
    }
    return 0;
}

std::vector<LeafCount> quantile_tree_leaves(const QuantileTreeState& state) {
    std::vector<LeafCount> leaves;
    leaves.reserve(state.occupied);
    if (state.dense) {
        for (std::uint32_t leaf = 0; leaf < kQuantileTreeLeaves; ++leaf) {
            if (state.counts[leaf] != 0) leaves.push_back({leaf, state.counts[leaf]});
        }
        return leaves;
    }
    for (std::uint32_t slot = 0; slot < state.capacity; ++slot) {
        if (state.keys[slot] != 0) leaves.push_back({state.keys[slot] - 1, state.counts[slot]});
    }
    std::sort(leaves.begin(), leaves.end(),
              [](const LeafCount& a, const LeafCount& b) { return a.leaf < b.leaf; });
    return leaves;
}

StateBytes serialize_quantile_tree(const QuantileTreeState& state) {
    const std::vector<LeafCount> leaves = quantile_tree_leaves(state);
    StateWriter out(state.map == QuantileLeafMap::Linear ? kQuantileTreeFormatVersion
                                                         : kLogQuantileTreeFormatVersion);
    out.put_f64(state.lower);
    out.put_f64(state.upper);
    out.put_varint(leaves.size());
    std::int64_t previous = -1;
    for (const LeafCount& leaf : leaves) {
        out.put_varint(static_cast<std::uint64_t>(leaf.leaf - previous - 1));
        out.put_varint(static_cast<std::uint64_t>(leaf.count));
        previous = leaf.leaf;
    }
    return out.take();
}

QuantileTreeState deserialize_quantile_tree(const unsigned char* bytes, std::size_t size,
                                            const StateMemory& memory) {
    // The version byte names the leaf map; StateReader refuses any other byte.
    const bool log_map = size > 0 && bytes[0] == kLogQuantileTreeFormatVersion;
    StateReader in(bytes, size, log_map ? kLogQuantileTreeFormatVersion : kQuantileTreeFormatVersion,
                   "quantile state");
    const double lower = in.get_f64();
    const double upper = in.get_f64();
    QuantileTreeState state;
    try {
        state = log_map ? empty_log_quantile_tree(lower, upper) : empty_quantile_tree(lower, upper);
    } catch (const ArgumentError& error) {
        in.fail(std::string("its bounds are invalid: ") + error.what());
    }
    // No row of this map and these bounds lands outside these leaves.
    const std::uint32_t first_leaf = leaf_of(state, lower);
    const std::uint32_t last_leaf = leaf_of(state, upper);
    const std::uint64_t leaves = in.get_varint();
    if (leaves > kQuantileTreeLeaves) in.fail("it has more leaves than the tree");
    // Read everything first, so that a corrupt state allocates nothing.
    std::vector<LeafCount> parsed;
    parsed.reserve(static_cast<std::size_t>(leaves));
    std::uint64_t next_leaf = 0;  // the smallest leaf the next entry may name
    std::int64_t rows = 0;
    for (std::uint64_t i = 0; i < leaves; ++i) {
        const std::uint64_t gap = in.get_varint();
        if (gap >= kQuantileTreeLeaves - next_leaf) in.fail("a leaf lies beyond 65535");
        const std::uint64_t count = in.get_varint();
        if (count == 0 || count > static_cast<std::uint64_t>(INT64_MAX)) in.fail("a count is out of range");
        if (__builtin_add_overflow(rows, static_cast<std::int64_t>(count), &rows)) {
            in.fail("it counts more than 2^63 - 1 rows");
        }
        const auto leaf = static_cast<std::uint32_t>(next_leaf + gap);
        if (leaf < first_leaf || leaf > last_leaf) in.fail("a leaf lies outside its bounds' leaves");
        parsed.push_back({leaf, static_cast<std::int64_t>(count)});
        next_leaf = leaf + 1;
    }
    in.expect_end();
    if (parsed.size() * 2 > kMaxSparseCapacity) {
        allocate_dense(state, memory);
        for (const LeafCount& leaf : parsed) state.counts[leaf.leaf] = leaf.count;
    } else if (!parsed.empty()) {
        std::uint32_t capacity = kFirstCapacity;
        while (capacity < parsed.size() * 2) capacity *= 2;
        allocate_table(state, capacity, memory);
        for (const LeafCount& leaf : parsed) add_to_slot(state, leaf.leaf, leaf.count);
    }
    state.occupied = static_cast<std::uint32_t>(parsed.size());
    state.rows = rows;
    return state;
}

}  // namespace pgdp
