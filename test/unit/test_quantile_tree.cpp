// The quantile tree's state (src/core/quantile_tree.cpp): leaves, exact counts against an
// independent count per leaf, merges in any order, the bounded memory the header states, and a
// serialization that round-trips and rejects every malformed byte string tried.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/quantile_tree.hpp"
#include "quantile_test_helpers.hpp"

namespace {

using pgdp::QuantileTreeState;

const pgdp::StateMemory kHeap = pgdp::heap_state_memory();

// A state freed at the end of the scope.
struct OwnedTree {
    QuantileTreeState state;
    explicit OwnedTree(double lower, double upper) : state(pgdp::empty_quantile_tree(lower, upper)) {}
    explicit OwnedTree(const std::vector<unsigned char>& bytes)
        : state(pgdp::deserialize_quantile_tree(bytes.data(), bytes.size(), kHeap)) {}
    ~OwnedTree() { pgdp::free_quantile_tree(state, kHeap); }
    OwnedTree(const OwnedTree&) = delete;
    OwnedTree& operator=(const OwnedTree&) = delete;
    void add(double value) { pgdp::add_to_quantile_tree(state, value, kHeap); }
};

// The leaf of x computed here with the leaf bounds' definition, in long double: the largest j
// with lower + j (upper - lower) / 65536 <= x.
std::map<std::uint32_t, std::int64_t> independent_counts(const std::vector<double>& values, double lower,
                                                         double upper) {
    std::map<std::uint32_t, std::int64_t> counts;
    for (double x : values) {
        if (std::isnan(x)) continue;
        const long double clamped = std::min<long double>(std::max<long double>(x, lower), upper);
        const long double j =
            std::floor((clamped - lower) / (static_cast<long double>(upper) - lower) * 65536.0L);
        ++counts[static_cast<std::uint32_t>(std::min(j, 65535.0L))];
    }
    return counts;
}

std::map<std::uint32_t, std::int64_t> state_counts(const QuantileTreeState& state) {
    std::map<std::uint32_t, std::int64_t> counts;
    for (const pgdp::LeafCount& leaf : pgdp::quantile_tree_leaves(state)) counts[leaf.leaf] = leaf.count;
    return counts;
}

std::string argument_of(double lower, double upper) {
    return pgdp_test::rejected_argument([=] { (void)pgdp::empty_quantile_tree(lower, upper); });
}

TEST(QuantileTree, BadBoundsNameTheArgument) {
    EXPECT_EQ(argument_of(2.0, 1.0), "lower");
    EXPECT_EQ(argument_of(NAN, 1.0), "lower");
    EXPECT_EQ(argument_of(-INFINITY, 1.0), "lower");
    EXPECT_EQ(argument_of(0.0, INFINITY), "upper");
    EXPECT_EQ(argument_of(3.0, 3.0), "upper");
    EXPECT_EQ(argument_of(-1.7e308, 1.7e308), "upper");  // the difference is not finite
    EXPECT_EQ(argument_of(-1.0, 1.0), "no error");
}

TEST(QuantileTree, LeavesCutTheBoundsIntoEqualParts) {
    EXPECT_EQ(pgdp::quantile_leaf(0.0, 0.0, 1.0), 0u);
    EXPECT_EQ(pgdp::quantile_leaf(1.0, 0.0, 1.0), 65535u);  // the upper bound is in the last leaf
    EXPECT_EQ(pgdp::quantile_leaf(-5.0, 0.0, 1.0), 0u);     // clamped
    EXPECT_EQ(pgdp::quantile_leaf(INFINITY, 0.0, 1.0), 65535u);
    EXPECT_EQ(pgdp::quantile_leaf(0.5, 0.0, 1.0), 32768u);
    EXPECT_EQ(pgdp::quantile_leaf(0.5 - 1e-9, 0.0, 1.0), 32767u);
    std::mt19937_64 generator(1);
    std::uniform_real_distribution<double> uniform(-120.0, 130.0);
    std::vector<double> values(20000);
    for (double& x : values) x = uniform(generator);
    std::sort(values.begin(), values.end());
    std::uint32_t previous = 0;
    for (double x : values) {
        const std::uint32_t leaf = pgdp::quantile_leaf(x, -100.0, 100.0);
        ASSERT_GE(leaf, previous) << x;  // ordered like the values
        previous = leaf;
        const auto expected = independent_counts({x}, -100.0, 100.0).begin()->first;
        ASSERT_LE(std::max(leaf, expected) - std::min(leaf, expected), 1u) << x;  // rounding at a boundary
    }
}

TEST(QuantileTree, CountsEveryRowInItsLeaf) {
    std::mt19937_64 generator(2);
    // Few distinct leaves (the sparse table), and many (past 16384 leaves: the dense array).
    for (int distinct : {1, 7, 3000, 60000}) {
        OwnedTree tree(-3.0, 5.0);
        std::vector<double> values;
        std::uniform_int_distribution<int> pick(0, distinct - 1);
        for (int i = 0; i < 200000; ++i) values.push_back(-4.0 + 10.0 * pick(generator) / distinct);
        values.push_back(NAN);  // not a row
        values.push_back(-INFINITY);
        for (double x : values) tree.add(x);
        EXPECT_EQ(tree.state.rows, 200001);
        EXPECT_EQ(state_counts(tree.state), independent_counts(values, -3.0, 5.0)) << distinct;
        EXPECT_EQ(tree.state.occupied, independent_counts(values, -3.0, 5.0).size());
    }
}

// Peak and current bytes of the blocks a state holds.
struct CountingMemory {
    std::map<void*, std::size_t> blocks;
    std::size_t live = 0, peak = 0;
    static void* allocate(void* self, std::size_t bytes) {
        auto* memory = static_cast<CountingMemory*>(self);
        void* block = std::malloc(bytes);
        memory->blocks[block] = bytes;
        memory->live += bytes;
        memory->peak = std::max(memory->peak, memory->live);
        return block;
    }
    static void release(void* self, void* block) {
        auto* memory = static_cast<CountingMemory*>(self);
        memory->live -= memory->blocks.at(block);
        memory->blocks.erase(block);
        std::free(block);
    }
    pgdp::StateMemory hooks() { return {allocate, release, this}; }
};

TEST(QuantileTree, MemoryPerGroupIsBounded) {
    // The header's bound: at most 512 KiB held, 896 KiB at the switch to the dense array,
    // whatever the rows; a handful of distinct values keep the first 192-byte table.
    CountingMemory memory;
    QuantileTreeState state = pgdp::empty_quantile_tree(0.0, 1.0);
    for (int round = 0; round < 3; ++round) {
        for (std::uint32_t leaf = 0; leaf < 65536; ++leaf) {
            pgdp::add_to_quantile_tree(state, (leaf + 0.5) / 65536.0, memory.hooks());
            ASSERT_LE(memory.live, 512u * 1024u);
        }
    }
    EXPECT_EQ(state.occupied, 65536u);
    EXPECT_LE(memory.peak, 896u * 1024u);
    EXPECT_GT(memory.peak, 512u * 1024u);  // the switch did happen
    pgdp::free_quantile_tree(state, memory.hooks());
    EXPECT_EQ(memory.live, 0u);

    CountingMemory small;
    state = pgdp::empty_quantile_tree(0.0, 1.0);
    for (int i = 0; i < 100000; ++i) pgdp::add_to_quantile_tree(state, (i % 5) / 5.0, small.hooks());
    EXPECT_EQ(small.peak, 192u);
    pgdp::free_quantile_tree(state, small.hooks());
}

TEST(QuantileTree, OutOfMemoryThrowsAndKeepsTheState) {
    const pgdp::StateMemory none{[](void*, std::size_t) -> void* { return nullptr; }, [](void*, void*) {},
                                 nullptr};
    QuantileTreeState state = pgdp::empty_quantile_tree(0.0, 1.0);
    EXPECT_THROW(pgdp::add_to_quantile_tree(state, 0.5, none), std::bad_alloc);
    EXPECT_EQ(state.counts, nullptr);
}

TEST(QuantileTree, MergeIsExactInAnyOrder) {
    std::mt19937_64 generator(3);
    std::lognormal_distribution<double> skewed(0.0, 1.5);
    std::vector<double> values;
    for (int i = 0; i < 50000; ++i) values.push_back(skewed(generator));
    OwnedTree whole(0.0, 20.0);
    for (double x : values) whole.add(x);
    const std::vector<unsigned char> expected = pgdp::serialize_quantile_tree(whole.state);
    for (int trial = 0; trial < 20; ++trial) {
        // A random split into 1 to 12 parts (some empty), merged in a random order, sometimes
        // into an empty state first.
        const int parts = 1 + static_cast<int>(generator() % 12);
        std::vector<OwnedTree*> trees;
        for (int p = 0; p < parts; ++p) trees.push_back(new OwnedTree(0.0, 20.0));
        for (double x : values) trees[generator() % parts]->add(x);
        std::shuffle(trees.begin(), trees.end(), generator);
        OwnedTree merged(0.0, 20.0);
        for (OwnedTree* tree : trees) pgdp::merge_quantile_trees(merged.state, tree->state, kHeap);
        EXPECT_EQ(merged.state.rows, 50000);
        EXPECT_EQ(pgdp::serialize_quantile_tree(merged.state), expected) << trial;
        for (OwnedTree* tree : trees) delete tree;
    }
    OwnedTree other(0.0, 21.0);
    EXPECT_THROW(pgdp::merge_quantile_trees(whole.state, other.state, kHeap), std::invalid_argument);
}

TEST(QuantileTree, SerializationRoundTrips) {
    std::mt19937_64 generator(4);
    for (int distinct : {0, 1, 40, 20000}) {
        OwnedTree tree(-1.5, 2.25);
        for (int i = 0; i < 30 * distinct; ++i)
            tree.add(-1.5 + 3.75 * static_cast<double>(generator() % distinct) / distinct);
        const std::vector<unsigned char> bytes = pgdp::serialize_quantile_tree(tree.state);
        EXPECT_EQ(bytes[0], pgdp::kQuantileTreeFormatVersion);
        OwnedTree copy(bytes);
        EXPECT_EQ(copy.state.lower, -1.5);
        EXPECT_EQ(copy.state.upper, 2.25);
        EXPECT_EQ(copy.state.rows, tree.state.rows);
        EXPECT_EQ(copy.state.occupied, tree.state.occupied);
        EXPECT_EQ(state_counts(copy.state), state_counts(tree.state));
        EXPECT_EQ(pgdp::serialize_quantile_tree(copy.state), bytes);
        copy.add(0.0);  // a deserialized state keeps counting
        EXPECT_EQ(copy.state.rows, tree.state.rows + 1);
    }
}

// Serialized bytes written by hand: version, bounds, then the varints given.
std::vector<unsigned char> handmade(double lower, double upper, const std::vector<std::uint64_t>& varints,
                                    unsigned char version = 1) {
    std::vector<unsigned char> out{version};
    for (double bound : {lower, upper}) {
        std::uint64_t bits;
        std::memcpy(&bits, &bound, 8);
        for (int i = 0; i < 8; ++i) out.push_back(static_cast<unsigned char>(bits >> (8 * i)));
    }
    for (std::uint64_t v : varints) {
        while (v >= 0x80) {
            out.push_back(static_cast<unsigned char>(v | 0x80));
            v >>= 7;
        }
        out.push_back(static_cast<unsigned char>(v));
    }
    return out;
}

bool rejected(const std::vector<unsigned char>& bytes) {
    try {
        OwnedTree tree(bytes);
    } catch (const pgdp::CorruptStateError&) {
        return true;
    }
    return false;
}

TEST(QuantileTree, DeserializationRejectsMalformedBytes) {
    // Well formed: two leaves, 3 and 70000 - 1 + ... (gaps 3 and 10), counts 5 and 1.
    const std::vector<unsigned char> good = handmade(0.0, 1.0, {2, 3, 5, 10, 1});
    ASSERT_FALSE(rejected(good));
    EXPECT_TRUE(rejected({}));
    EXPECT_TRUE(rejected(handmade(0.0, 1.0, {2, 3, 5, 10, 1}, 3)));  // unknown version
    for (std::size_t cut = 0; cut < good.size(); ++cut) {            // every truncation
        EXPECT_TRUE(rejected(std::vector<unsigned char>(good.begin(), good.begin() + cut))) << cut;
    }
    std::vector<unsigned char> trailing = good;
    trailing.push_back(0);
    EXPECT_TRUE(rejected(trailing));
    EXPECT_TRUE(rejected(handmade(1.0, 0.0, {0})));                      // lower > upper
    EXPECT_TRUE(rejected(handmade(0.0, NAN, {0})));                      // bound not finite
    EXPECT_TRUE(rejected(handmade(0.0, 1.0, {1, 65536, 1})));            // leaf beyond 65535
    EXPECT_TRUE(rejected(handmade(0.0, 1.0, {2, 65535, 1, 0, 1})));      // a second leaf past it
    EXPECT_TRUE(rejected(handmade(0.0, 1.0, {1, 0, 0})));                // count 0
    EXPECT_TRUE(rejected(handmade(0.0, 1.0, {2, 0, INT64_MAX, 0, 1})));  // more than 2^63 - 1 rows
    EXPECT_TRUE(rejected(handmade(0.0, 1.0, {1, 0, std::uint64_t{1} << 63})));
    EXPECT_TRUE(rejected(handmade(0.0, 1.0, {65537})));  // more leaves than the tree
    std::vector<unsigned char> overlong = handmade(0.0, 1.0, {});
    for (unsigned char byte : {0x81, 0x00, 0x00, 0x01}) overlong.push_back(byte);  // 1 in two bytes
    EXPECT_TRUE(rejected(overlong));
    std::vector<unsigned char> wide = handmade(0.0, 1.0, {});
    for (int i = 0; i < 10; ++i) wide.push_back(0xFF);  // a varint beyond 64 bits
    wide.push_back(0x01);
    EXPECT_TRUE(rejected(wide));
    // Any flipped byte: rejected, or a valid state that serializes back to the same bytes.
    std::mt19937_64 generator(5);
    OwnedTree tree(0.0, 1.0);
    for (int i = 0; i < 500; ++i) tree.add(std::ldexp(static_cast<double>(generator() % 4096), -12));
    const std::vector<unsigned char> bytes = pgdp::serialize_quantile_tree(tree.state);
    for (int trial = 0; trial < 3000; ++trial) {
        std::vector<unsigned char> changed = bytes;
        changed[generator() % changed.size()] ^= static_cast<unsigned char>(1 + generator() % 255);
        try {
            OwnedTree copy(changed);
            EXPECT_EQ(pgdp::serialize_quantile_tree(copy.state), changed);
        } catch (const pgdp::CorruptStateError&) {}
    }
}

}  // namespace
