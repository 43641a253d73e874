// The Citus workers' state key of the quantiles (pgdp.quantile_leaf: quantile_leaf_spec of the
// call's bounds, NULL ones included, then quantile_row_leaf per row) against the single-node
// transition (validate_aggregate_parameters, the state of quantile_parameters, add_to_quantile_tree):
// for every bound setting (both NULL, one given, both given) and edge values (signed zeros,
// subnormals, the zero zone's edge, +-2^64 and beyond, infinities, NaN, the bounds themselves) the
// key is the one leaf the transition counts the row in (none for NaN); the counts per key, added on
// the coordinator over shards, rebuild the single-node state byte for byte; the key refuses exactly
// the bounds the call refuses, naming the same argument; counts in leaves no row of the state's
// map and bounds reaches are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/aggregate_release.hpp"
#include "core/errors.hpp"
#include "core/quantile_release.hpp"
#include "core/quantile_tree.hpp"
#include "quantile_test_helpers.hpp"

namespace {

using pgdp::AggregateKind;
using pgdp::QuantileLeafMap;

const pgdp::StateMemory kHeap = pgdp::heap_state_memory();
const double kLimit = std::ldexp(1.0, 64);

// A call's bounds as written: nullopt is SQL NULL.
struct Bounds {
    std::optional<double> lower;
    std::optional<double> upper;
};

std::string shown(const Bounds& b) {
    auto one = [](const std::optional<double>& x) { return x ? std::to_string(*x) : std::string("NULL"); };
    return "(" + one(b.lower) + ", " + one(b.upper) + ")";
}

// The single-node path: the call validated as the charge validates it, its state as the
// transition makes it.
pgdp::QuantileTreeState transition_state(const Bounds& b) {
    pgdp::AggregateParameters given;
    given.estimate_lower = !b.lower;
    given.estimate_upper = !b.upper;
    given.lower = b.lower.value_or(0.0);
    given.upper = b.upper.value_or(0.0);
    given.epsilon = 1.0;
    const pgdp::AggregateParameters p =
        pgdp::validate_aggregate_parameters(AggregateKind::Quantiles, false, given, "laplace");
    (void)pgdp::plan_aggregate_release(AggregateKind::Quantiles, p);
    return pgdp::empty_quantile_tree_for(pgdp::quantile_parameters(p));
}

// The worker's path: what pgdp.quantile_leaf computes (NULL for NaN).
pgdp::QuantileLeafSpec worker_spec(const Bounds& b) {
    return pgdp::quantile_leaf_spec(!b.lower, b.lower.value_or(0.0), !b.upper, b.upper.value_or(0.0));
}
std::optional<std::uint32_t> worker_key(const pgdp::QuantileLeafSpec& spec, double value) {
    if (std::isnan(value)) return std::nullopt;
    return pgdp::quantile_row_leaf(spec, value);
}

const std::vector<Bounds>& bound_settings() {
    static const std::vector<Bounds> settings = {
        {std::nullopt, std::nullopt},
        {0.0, std::nullopt},
        {-3.5, std::nullopt},
        {std::ldexp(1.0, -70), std::nullopt},
        {std::nullopt, 250.0},
        {std::nullopt, -1e-300},
        {std::nullopt, std::ldexp(1.0, 63)},
        {-std::ldexp(1.0, 63), std::nullopt},
        {0.0, 250.0},
        {-1e6, 1e-3},
    };
    return settings;
}

std::vector<double> edge_values() {
    const double tiny = std::numeric_limits<double>::denorm_min();
    const double zero_zone = std::ldexp(1.0, -63);
    std::vector<double> values = {0.0,
                                  -0.0,
                                  tiny,
                                  -tiny,
                                  std::numeric_limits<double>::min(),
                                  -std::numeric_limits<double>::min(),
                                  zero_zone,
                                  std::nextafter(zero_zone, 0.0),
                                  -zero_zone,
                                  -std::nextafter(zero_zone, 0.0),
                                  1.0,
                                  -1.0,
                                  std::nextafter(1.0, 2.0),
                                  std::nextafter(1.0, 0.0),
                                  249.75,
                                  250.0,
                                  std::nextafter(250.0, 300.0),
                                  -3.5,
                                  std::nextafter(-3.5, 0.0),
                                  1e-3,
                                  -1e6,
                                  kLimit,
                                  -kLimit,
                                  std::nextafter(kLimit, 0.0),
                                  std::nextafter(kLimit, INFINITY),
                                  std::ldexp(1.0, 63),
                                  1e300,
                                  -1e300,
                                  std::numeric_limits<double>::max(),
                                  -std::numeric_limits<double>::max(),
                                  INFINITY,
                                  -INFINITY,
                                  NAN};
    // A sub-leaf's edges: 1 + k/256 and its neighbours.
    for (int k : {1, 127, 255}) {
        const double edge = 1.0 + k / 256.0;
        values.push_back(edge);
        values.push_back(std::nextafter(edge, 0.0));
        values.push_back(-edge);
    }
    return values;
}

// The one leaf a state holding one row counts it in (nullopt: no row counted).
std::optional<std::uint32_t> only_leaf(const pgdp::QuantileTreeState& state) {
    const std::vector<pgdp::LeafCount> leaves = pgdp::quantile_tree_leaves(state);
    if (leaves.empty()) return std::nullopt;
    EXPECT_EQ(leaves.size(), 1u);
    EXPECT_EQ(leaves[0].count, 1);
    return leaves[0].leaf;
}

TEST(QuantileWorkerLeaves, TheWorkersKeyIsTheTransitionsLeafForEdgeValues) {
    for (const Bounds& b : bound_settings()) {
        const pgdp::QuantileLeafSpec spec = worker_spec(b);
        const pgdp::QuantileTreeState reference = transition_state(b);
        EXPECT_EQ(spec.map, reference.map) << shown(b);
        EXPECT_EQ(spec.map, b.lower && b.upper ? QuantileLeafMap::Linear : QuantileLeafMap::LogLinear);
        for (double value : edge_values()) {
            pgdp::QuantileTreeState state = transition_state(b);
            pgdp::add_to_quantile_tree(state, value, kHeap);
            EXPECT_EQ(worker_key(spec, value), only_leaf(state)) << shown(b) << " value " << value;
            // The key lies in the leaves the coordinator accepts for this state.
            if (const auto key = worker_key(spec, value)) {
                pgdp::QuantileTreeState partial = transition_state(b);
                EXPECT_NO_THROW(pgdp::add_partial_leaf_count(partial, *key, 1, kHeap)) << shown(b);
                EXPECT_EQ(pgdp::serialize_quantile_tree(partial), pgdp::serialize_quantile_tree(state));
                pgdp::free_quantile_tree(partial, kHeap);
            }
            pgdp::free_quantile_tree(state, kHeap);
        }
    }
}

TEST(QuantileWorkerLeaves, CountsPerKeyOverShardsRebuildTheSingleNodeState) {
    std::mt19937_64 generator(41);
    std::lognormal_distribution<double> lognormal(0.0, 12.0);
    std::uniform_int_distribution<int> shard(0, 31);
    for (const Bounds& b : bound_settings()) {
        const pgdp::QuantileLeafSpec spec = worker_spec(b);
        pgdp::QuantileTreeState single = transition_state(b);
        std::vector<std::map<std::uint32_t, std::int64_t>> per_shard(32);
        std::vector<double> values = edge_values();
        for (int i = 0; i < 30000; ++i) values.push_back((i % 3 ? 1 : -1) * lognormal(generator));
        for (double x : values) {
            pgdp::add_to_quantile_tree(single, x, kHeap);
            if (const auto key = worker_key(spec, x)) ++per_shard[shard(generator)][*key];
        }
        pgdp::QuantileTreeState merged = transition_state(b);
        for (const auto& counts : per_shard)
            for (const auto& [leaf, count] : counts) pgdp::add_partial_leaf_count(merged, leaf, count, kHeap);
        EXPECT_EQ(merged.rows, single.rows) << shown(b);
        EXPECT_EQ(pgdp::serialize_quantile_tree(merged), pgdp::serialize_quantile_tree(single)) << shown(b);
        pgdp::free_quantile_tree(single, kHeap);
        pgdp::free_quantile_tree(merged, kHeap);
    }
}

TEST(QuantileWorkerLeaves, TheKeyRefusesTheBoundsTheCallRefuses) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<Bounds> cases = {
        {nan, std::nullopt},
        {std::nullopt, nan},
        {INFINITY, std::nullopt},
        {std::nullopt, -INFINITY},
        {1e300, std::nullopt},
        {std::nullopt, -1e300},
        {std::ldexp(1.0, 64), std::nullopt},
        {std::nullopt, std::ldexp(1.0, 63)},
        {5.0, 5.0},
        {5.0, 1.0},
        {0.0, nan},
        {-INFINITY, 1.0},
        {0.0, 1e308},
        {-1e308, 1e308},
        {std::nullopt, std::nullopt},
        {0.0, std::nullopt},
    };
    for (const Bounds& b : cases) {
        const std::string key = pgdp_test::rejected_argument([&] { (void)worker_spec(b); });
        const std::string call = pgdp_test::rejected_argument([&] { (void)transition_state(b); });
        EXPECT_EQ(key, call) << shown(b);
    }
    // Some of them are refusals (the list is not all accepted bounds).
    EXPECT_EQ(pgdp_test::rejected_argument([] { (void)worker_spec({1e300, std::nullopt}); }), "lower");
    EXPECT_EQ(pgdp_test::rejected_argument([] { (void)worker_spec({5.0, 5.0}); }), "upper");
}

TEST(QuantileWorkerLeaves, TheCoordinatorRefusesLeavesNoRowOfTheStateReaches) {
    // Both bounds NULL: leaves 0..254 and 65281..65535 hold no value.
    pgdp::QuantileTreeState line = transition_state({std::nullopt, std::nullopt});
    EXPECT_THROW(pgdp::add_partial_leaf_count(line, 254, 1, kHeap), pgdp::CorruptStateError);
    EXPECT_THROW(pgdp::add_partial_leaf_count(line, 65281, 1, kHeap), pgdp::CorruptStateError);
    EXPECT_THROW(pgdp::add_partial_leaf_count(line, 65536, 1, kHeap), pgdp::CorruptStateError);
    pgdp::add_partial_leaf_count(line, 255, 2, kHeap);
    pgdp::add_partial_leaf_count(line, 65280, 3, kHeap);
    EXPECT_EQ(line.rows, 5);
    // lower = 0: no negative leaf; upper = 250: nothing above 250's leaf.
    pgdp::QuantileTreeState positive = transition_state({0.0, std::nullopt});
    EXPECT_THROW(pgdp::add_partial_leaf_count(positive, pgdp::kLogZeroLeaf - 1, 1, kHeap),
                 pgdp::CorruptStateError);
    pgdp::add_partial_leaf_count(positive, pgdp::kLogZeroLeaf, 1, kHeap);
    pgdp::QuantileTreeState below = transition_state({std::nullopt, 250.0});
    const std::uint32_t top = pgdp::log_quantile_leaf(250.0);
    EXPECT_THROW(pgdp::add_partial_leaf_count(below, top + 1, 1, kHeap), pgdp::CorruptStateError);
    pgdp::add_partial_leaf_count(below, top, 1, kHeap);
    EXPECT_EQ(below.rows, 1);
    for (auto* state : {&line, &positive, &below}) pgdp::free_quantile_tree(*state, kHeap);
}

}  // namespace
