// The coordinator's side of the Citus forms of dp_histogram, the quantiles and dp_count_distinct
// (core/aggregate_release.hpp DistributedForm): the workers send, per group, the rows they counted
// per state key (bin, leaf, hash); adding those counts in any order and any split over shards
// must give exactly the single-node state of the same rows (checked against the single-node
// transition, adding one row at a time), and a count no rows could give is refused without
// changing the state.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "core/aggregate_release.hpp"
#include "core/histogram_release.hpp"
#include "core/quantile_tree.hpp"
#include "core/state_bytes.hpp"
#include "owned_distinct_table.hpp"

namespace {

using pgdp::AggregateKind;
using pgdp::DistributedForm;

const pgdp::StateMemory kHeap = pgdp::heap_state_memory();

// Rows split over `shards` shards at random; per shard, the count of each key (what one worker's
// GROUP BY key, count(*) returns), the shards' rows concatenated in a random order (Citus returns
// them so).
template <typename Key>
std::vector<std::pair<Key, std::int64_t>> worker_rows(const std::vector<Key>& keys, int shards,
                                                      std::mt19937_64& generator) {
    std::vector<std::map<Key, std::int64_t>> per_shard(shards);
    std::uniform_int_distribution<int> shard(0, shards - 1);
    for (const Key& key : keys) ++per_shard[shard(generator)][key];
    std::vector<std::pair<Key, std::int64_t>> rows;
    for (const auto& counts : per_shard) rows.insert(rows.end(), counts.begin(), counts.end());
    std::shuffle(rows.begin(), rows.end(), generator);
    return rows;
}

TEST(DistributedForms, EveryStatisticHasOne) {
    for (AggregateKind kind :
         {AggregateKind::Sum, AggregateKind::Mean, AggregateKind::Count, AggregateKind::Selection,
          AggregateKind::Variance, AggregateKind::StandardDeviation, AggregateKind::Histogram,
          AggregateKind::Quantiles, AggregateKind::CountDistinct}) {
        EXPECT_TRUE(pgdp::has_distributed_form(kind));
        // The statistics that keep their own state are exactly those split by a state key.
        EXPECT_EQ(pgdp::groups_by_state_key(pgdp::distributed_form(kind)), pgdp::keeps_own_state(kind));
    }
    EXPECT_EQ(pgdp::distributed_form(AggregateKind::Histogram), DistributedForm::BinCounts);
    EXPECT_EQ(pgdp::distributed_form(AggregateKind::Quantiles), DistributedForm::LeafCounts);
    EXPECT_EQ(pgdp::distributed_form(AggregateKind::CountDistinct), DistributedForm::DistinctHashes);
    EXPECT_FALSE(pgdp::groups_by_state_key(DistributedForm::Totals));
    EXPECT_FALSE(pgdp::groups_by_state_key(DistributedForm::None));
}

TEST(DistributedForms, HistogramBinCountsRebuildTheSingleNodeCounts) {
    std::mt19937_64 generator(31);
    const pgdp::HistogramSpec spec = pgdp::validate_histogram_spec(-5.0, 20.0, 7);
    std::vector<double> values;
    std::normal_distribution<double> normal(7.0, 9.0);
    for (int i = 0; i < 50000; ++i) values.push_back(normal(generator));
    values.insert(values.end(), {NAN, INFINITY, -INFINITY, 20.0, -5.0});
    std::vector<std::int64_t> single(spec.counts(), 0);
    for (double x : values) pgdp::add_to_histogram(spec, single.data(), x);
    std::vector<std::int64_t> bins;
    for (double x : values) bins.push_back(static_cast<std::int64_t>(pgdp::histogram_bin(spec, x)));
    for (int shards : {1, 3, 32}) {
        std::vector<std::int64_t> merged(spec.counts(), 0);
        for (const auto& [bin, count] : worker_rows(bins, shards, generator))
            pgdp::add_partial_bin_count(spec, merged.data(), bin, count);
        EXPECT_EQ(merged, single) << shards << " shards";
    }
}

TEST(DistributedForms, HistogramRefusesCountsNoRowsGive) {
    const pgdp::HistogramSpec spec = pgdp::validate_histogram_spec(0.0, 1.0, 4);
    std::vector<std::int64_t> counts(spec.counts(), 0);
    pgdp::add_partial_bin_count(spec, counts.data(), 0, 0);  // a bin of filtered rows only
    pgdp::add_partial_bin_count(spec, counts.data(), 5, 2);  // the overflow bin is bins + 1
    const std::vector<std::int64_t> before = counts;
    EXPECT_THROW(pgdp::add_partial_bin_count(spec, counts.data(), 6, 1), pgdp::CorruptStateError);
    EXPECT_THROW(pgdp::add_partial_bin_count(spec, counts.data(), -1, 1), pgdp::CorruptStateError);
    EXPECT_THROW(pgdp::add_partial_bin_count(spec, counts.data(), 2, -1), pgdp::CorruptStateError);
    pgdp::add_partial_bin_count(spec, counts.data(), 3, INT64_MAX);
    EXPECT_THROW(pgdp::add_partial_bin_count(spec, counts.data(), 3, 1), pgdp::CorruptStateError);
    counts[3] = 0;
    EXPECT_EQ(counts, before) << "a refused count changes nothing";
}

TEST(DistributedForms, QuantileLeafCountsRebuildTheSingleNodeTree) {
    std::mt19937_64 generator(32);
    // Few leaves (the sparse table) and many (the dense array), split over shards.
    for (int distinct : {3, 5000, 40000}) {
        std::vector<double> values;
        std::uniform_int_distribution<int> pick(0, distinct - 1);
        for (int i = 0; i < 120000; ++i) values.push_back(-1.0 + 12.0 * pick(generator) / distinct);
        values.push_back(-INFINITY);
        pgdp::QuantileTreeState single = pgdp::empty_quantile_tree(0.0, 10.0);
        for (double x : values) pgdp::add_to_quantile_tree(single, x, kHeap);
        std::vector<std::int64_t> leaves;
        for (double x : values) leaves.push_back(pgdp::quantile_leaf(x, 0.0, 10.0));
        pgdp::QuantileTreeState merged = pgdp::empty_quantile_tree(0.0, 10.0);
        for (const auto& [leaf, count] : worker_rows(leaves, 32, generator))
            pgdp::add_partial_leaf_count(merged, leaf, count, kHeap);
        const std::vector<pgdp::LeafCount> expected = pgdp::quantile_tree_leaves(single);
        const std::vector<pgdp::LeafCount> got = pgdp::quantile_tree_leaves(merged);
        ASSERT_EQ(got.size(), expected.size()) << distinct;
        for (std::size_t i = 0; i < got.size(); ++i) {
            EXPECT_EQ(got[i].leaf, expected[i].leaf);
            EXPECT_EQ(got[i].count, expected[i].count);
        }
        EXPECT_EQ(merged.rows, single.rows);
        EXPECT_EQ(merged.occupied, single.occupied);
        EXPECT_EQ(pgdp::serialize_quantile_tree(merged), pgdp::serialize_quantile_tree(single));
        pgdp::free_quantile_tree(single, kHeap);
        pgdp::free_quantile_tree(merged, kHeap);
    }
}

TEST(DistributedForms, QuantileRefusesCountsNoRowsGive) {
    pgdp::QuantileTreeState tree = pgdp::empty_quantile_tree(0.0, 1.0);
    pgdp::add_partial_leaf_count(tree, 65535, 3, kHeap);
    pgdp::add_partial_leaf_count(tree, 7, 0, kHeap);  // filtered rows only: no leaf
    EXPECT_EQ(tree.occupied, 1u);
    EXPECT_THROW(pgdp::add_partial_leaf_count(tree, 65536, 1, kHeap), pgdp::CorruptStateError);
    EXPECT_THROW(pgdp::add_partial_leaf_count(tree, -1, 1, kHeap), pgdp::CorruptStateError);
    EXPECT_THROW(pgdp::add_partial_leaf_count(tree, 4, -2, kHeap), pgdp::CorruptStateError);
    EXPECT_THROW(pgdp::add_partial_leaf_count(tree, 4, INT64_MAX, kHeap), pgdp::CorruptStateError);
    EXPECT_EQ(tree.rows, 3);
    EXPECT_EQ(tree.occupied, 1u);
    EXPECT_EQ(pgdp::quantile_leaf_count(tree, 4), 0);
    pgdp::free_quantile_tree(tree, kHeap);
}

TEST(DistributedForms, DistinctHashesUnionAcrossShards) {
    std::mt19937_64 generator(33);
    std::vector<std::uint64_t> hashes;
    std::uniform_int_distribution<std::uint64_t> pick(0, 30000);
    for (int i = 0; i < 100000; ++i) hashes.push_back(pick(generator) * 0x9E3779B97F4A7C15ull);
    hashes.push_back(0);  // the hash 0 is a value like any other
    pgdp_test::OwnedTable single;
    for (std::uint64_t h : hashes) single.insert(h);
    pgdp_test::OwnedTable merged;
    for (const auto& [hash, count] : worker_rows(hashes, 32, generator)) merged.add_partial(hash, count);
    EXPECT_EQ(merged.table.size, single.table.size);
    EXPECT_EQ(merged.table.has_zero, single.table.has_zero);
    EXPECT_EQ(pgdp::serialize_distinct(merged.table), pgdp::serialize_distinct(single.table));
}

TEST(DistributedForms, DistinctRefusesNegativeCountsAndSkipsFilteredHashes) {
    pgdp_test::OwnedTable table;
    table.add_partial(42, 0);  // rows of that value, none passing the call's FILTER
    EXPECT_EQ(table.table.size, 0u);
    table.add_partial(42, 2);
    EXPECT_THROW(table.add_partial(43, -1), pgdp::CorruptStateError);
    EXPECT_EQ(table.table.size, 1u);
}

}  // namespace
