// dp_count_distinct's core (src/core/distinct_count.hpp): the hash set against std::set, merge =
// union in any order (and saturation at the cap independent of the order), serialization with
// validation, the sensitivity of the released D = min(cap, distinct hashes) under collisions,
// exactness at huge epsilon against an independent distinct count, and interval coverage.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // Boost cpp_int, as in noise.cpp

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/distinct_count.hpp"
#include "core/random_source.hpp"
#include "count_release_test_helpers.hpp"
#include "owned_distinct_table.hpp"

namespace {

using pgdp::DistinctHashTable;
using pgdp::Mechanism;
using pgdp_test::OwnedTable;
using pgdp_test::test_hash;
using pgdp_test::thrown_argument;

std::vector<std::uint64_t> sample_values(std::size_t n, std::uint64_t range, std::uint64_t seed) {
    std::mt19937_64 generator(seed);
    std::vector<std::uint64_t> values(n);
    for (auto& v : values) v = generator() % range;
    return values;
}

void fill(OwnedTable& owned, const std::vector<std::uint64_t>& hashes) {
    for (std::uint64_t h : hashes) owned.insert(h);
}

TEST(DistinctCount, SetHoldsEachHashOnceLikeStdSet) {
    // Hashes include 0, small integers (a poor identity hash) and full 64-bit values.
    std::vector<std::uint64_t> hashes = sample_values(20000, 5000, 1);
    for (std::uint64_t v : sample_values(20000, 1u << 20, 2)) hashes.push_back(test_hash(v));
    hashes.push_back(0);
    hashes.push_back(~std::uint64_t{0});
    const std::set<std::uint64_t> reference(hashes.begin(), hashes.end());
    OwnedTable owned;
    fill(owned, hashes);
    const DistinctHashTable& set = owned.table;
    EXPECT_EQ(set.size, reference.size());
    for (std::uint64_t h : reference) ASSERT_TRUE(pgdp::contains_distinct(set, h)) << h;
    for (std::uint64_t h : {std::uint64_t{5001}, std::uint64_t{123456789}}) {
        EXPECT_EQ(pgdp::contains_distinct(set, h), reference.count(h) == 1);
    }
    // Memory: one buffer (the old ones were handed back), 8 bytes per slot at load between 1/4
    // and 1/2 (after the first growth).
    EXPECT_EQ(owned.buffers(), 1u);
    EXPECT_LE(8 * set.slot_count, 32 * set.size);
    EXPECT_GE(8 * set.slot_count, 16 * set.size);
}

// Any split of the rows into partial states, merged in any order (through their bytes), holds the
// union; with a cap, min(cap, |union|) whatever the split and order.
TEST(DistinctCount, MergeIsTheUnionInAnyOrderAndSaturatesAtTheCap) {
    std::mt19937_64 generator(9);
    for (std::uint64_t cap : {std::uint64_t{50}, std::uint64_t{3000}, pgdp::kMaxDistinctHashes}) {
        for (int trial = 0; trial < 30; ++trial) {
            std::vector<std::uint64_t> values = sample_values(4000, 2500, 100 + trial);
            const std::set<std::uint64_t> distinct(values.begin(), values.end());
            std::shuffle(values.begin(), values.end(), generator);
            const std::size_t parts = 1 + generator() % 5;
            std::deque<OwnedTable> partial;
            for (std::size_t i = 0; i < parts; ++i) partial.emplace_back(cap);
            for (std::uint64_t v : values) partial[generator() % parts].insert(v);
            std::vector<std::size_t> order(parts);
            for (std::size_t i = 0; i < parts; ++i) order[i] = i;
            std::shuffle(order.begin(), order.end(), generator);
            OwnedTable merged(cap);
            for (std::size_t i : order) {
                // Through the bytes (a parallel worker's partial), or directly (a local combine).
                OwnedTable received;
                received.read(pgdp::serialize_distinct(partial[i].table));
                merged.merge(i % 2 ? received.table : partial[i].table);
            }
            ASSERT_EQ(merged.table.size, std::min<std::uint64_t>(cap, distinct.size()))
                << cap << " " << trial;
        }
    }
}

TEST(DistinctCount, DeserializeRejectsWhatSerializeCannotWrite) {
    OwnedTable owned(10);
    fill(owned, {7, 3, 0, 99});
    const pgdp::StateBytes good = pgdp::serialize_distinct(owned.table);
    ASSERT_EQ(good.size(), 1u + 8 + 8 + 4 * 8);
    EXPECT_EQ(pgdp::read_distinct_state(good.data(), good.size()).count, 4u);
    auto rejected = [](const pgdp::StateBytes& bytes) {
        return pgdp_test::rejects_state([&] { pgdp::read_distinct_state(bytes.data(), bytes.size()); });
    };
    pgdp::StateBytes bad = good;
    bad[0] = 9;
    EXPECT_TRUE(rejected(bad));
    EXPECT_TRUE(rejected(pgdp::StateBytes(good.begin(), good.end() - 8)));  // one hash missing
    bad = good;
    std::swap(bad[17], bad[25]);  // hashes 0 and 3 swapped: not increasing
    EXPECT_TRUE(rejected(bad));
    bad = good;
    std::copy(good.begin() + 25, good.begin() + 33, bad.begin() + 33);  // 3, 3: a duplicate
    EXPECT_TRUE(rejected(bad));
    bad = good;
    bad[1] = 3;  // cap 3 < 4 hashes
    EXPECT_TRUE(rejected(bad));
    bad = good;
    bad[1] = 0;  // cap 0
    EXPECT_TRUE(rejected(bad));
    EXPECT_TRUE(rejected(pgdp::StateBytes{}));
}

// The released D is the number of distinct hashes (capped). Whatever the hash function (here one
// that collides on purpose, h(v) = v mod 7, and a good one), adding one row changes D by at most 1:
// the sensitivity does not depend on collisions, which only make D smaller than the distinct count.
TEST(DistinctCount, OneRowMovesDByAtMostOneEvenWithCollisions) {
    std::mt19937_64 generator(77);
    auto colliding = [](std::uint64_t v) { return v % 7; };
    for (std::uint64_t cap : {std::uint64_t{4}, std::uint64_t{100}}) {
        for (int trial = 0; trial < 300; ++trial) {
            const auto values = sample_values(generator() % 60, 40, 1000 + trial);
            const std::uint64_t extra = generator() % 40;
            for (bool collide : {true, false}) {
                auto hash = [&](std::uint64_t v) { return collide ? colliding(v) : test_hash(v); };
                OwnedTable without(cap), with(cap);
                for (std::uint64_t v : values) {
                    without.insert(hash(v));
                    with.insert(hash(v));
                }
                with.insert(hash(extra));
                ASSERT_LE(with.table.size - without.table.size, 1u);
                const std::set<std::uint64_t> distinct_values(values.begin(), values.end());
                ASSERT_LE(without.table.size, distinct_values.size());
            }
        }
    }
}

TEST(DistinctCount, PlanHasSensitivityCOverMGroups) {
    pgdp::DistinctCountParameters p;
    p.epsilon = 0.5;
    for (std::uint32_t c : {1u, 5u}) {
        for (std::uint32_t m : {1u, 3u}) {
            p.values_per_unit = c;
            p.groups_per_unit = m;
            const pgdp::ReleasePlan plan = pgdp::plan_distinct_count(p);
            EXPECT_EQ(plan.granularity, 1.0);
            EXPECT_EQ(plan.sensitivity_int, c);
            EXPECT_LE(pgdp::Rational(c) * m / plan.laplace_scale_int.to_rational(),
                      pgdp::Rational(p.epsilon));
        }
    }
    p.values_per_unit = 0;
    EXPECT_EQ(thrown_argument([&] { pgdp::plan_distinct_count(p); }), "values_per_unit");
    p.values_per_unit = 1;
    p.alpha = 1.5;
    EXPECT_EQ(thrown_argument([&] { pgdp::plan_distinct_count(p); }), "alpha");
    p.alpha = 0.0;
    p.epsilon = NAN;
    EXPECT_EQ(thrown_argument([&] { pgdp::plan_distinct_count(p); }), "epsilon");
}

// count(DISTINCT v) computed independently (std::set of the values, here strings) equals the
// release at epsilon 1e6 for every mechanism, hashed by a 64-bit hash of the string.
TEST(DistinctCount, HugeEpsilonReleasesTheExactDistinctCount) {
    pgdp::SeededRandomSource random(12);
    std::mt19937_64 generator(4);
    for (std::size_t n : {0u, 1u, 17u, 5000u, 100000u}) {
        std::vector<std::string> values;
        for (std::size_t i = 0; i < n; ++i)
            values.push_back("product-" + std::to_string(generator() % (n / 2 + 1)));
        const std::set<std::string> distinct(values.begin(), values.end());
        OwnedTable set;
        for (const std::string& v : values) set.insert(test_hash(std::hash<std::string>{}(v)));
        for (Mechanism mechanism : {Mechanism::Laplace, Mechanism::Gaussian, Mechanism::TruncatedLaplace}) {
            pgdp::DistinctCountParameters p;
            p.epsilon = 1e6;
            p.delta = mechanism == Mechanism::Laplace ? 0.0 : 1e-9;
            p.mechanism = mechanism;
            p.alpha = 0.05;
            const pgdp::AggregateRelease release =
                pgdp::release_distinct_count(p, pgdp::plan_distinct_count(p), set.table.size, random);
            EXPECT_EQ(release.value, static_cast<double>(distinct.size())) << n;
            EXPECT_LE(release.ci_lower, release.value);
            EXPECT_GE(release.ci_upper, release.value);
        }
    }
}

// 2000 releases at epsilon 0.5: the interval holds D with probability >= 1 - alpha, the noise is
// unbiased with the plan's variance (4.5 standard errors).
TEST(DistinctCount, IntervalsCoverOver2000Releases) {
    pgdp::SeededRandomSource random(31);
    for (Mechanism mechanism : {Mechanism::Laplace, Mechanism::Gaussian}) {
        pgdp::DistinctCountParameters p;
        p.epsilon = 0.5;
        p.delta = mechanism == Mechanism::Laplace ? 0.0 : 1e-6;
        p.mechanism = mechanism;
        p.alpha = 0.1;
        p.values_per_unit = 3;
        const pgdp::ReleasePlan plan = pgdp::plan_distinct_count(p);
        const int runs = 2000;
        const std::uint64_t exact = 250;
        double covered = 0.0;
        pgdp_test::Moments error;
        for (int run = 0; run < runs; ++run) {
            const pgdp::AggregateRelease r = pgdp::release_distinct_count(p, plan, exact, random);
            ASSERT_EQ(r.value, std::floor(r.value));
            if (r.ci_lower <= exact && exact <= r.ci_upper) covered += 1;
            error.add(r.value - static_cast<double>(exact));
        }
        EXPECT_TRUE(pgdp_test::at_least_rate(covered, runs, 1 - p.alpha)) << covered / runs;
        EXPECT_LE(std::fabs(error.mean()), pgdp_test::kZ * error.mean_se(plan.noise_variance));
    }
}

}  // namespace
