// The log-linear leaf map of the quantile tree (a NULL bound, src/core/quantile_tree.hpp): every
// double lands in a leaf whose interval holds it (the leaf also computed here from frexp), the
// map is monotone, the intervals tile [-2^64, 2^64] with a width of at most 2^-8 of their values,
// the inverse is continuous and monotone, a given bound clamps; states serialize with the map and
// refuse bytes no state of that map could write; at huge epsilon the release lies in the leaf of
// percentile_disc; at any epsilon it is finite, monotone in q and inside the bounds.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/quantile_release.hpp"
#include "core/quantile_tree.hpp"
#include "core/random_source.hpp"
#include "quantile_test_helpers.hpp"

namespace {

using pgdp::Mechanism;
using pgdp::QuantileLeafMap;

const pgdp::StateMemory kHeap = pgdp::heap_state_memory();
const double kLimit = std::ldexp(1.0, 64);
const double kZeroZone = std::ldexp(1.0, -63);

struct OwnedTree {
    pgdp::QuantileTreeState state;
    OwnedTree(double lower, double upper) : state(pgdp::empty_log_quantile_tree(lower, upper)) {}
    explicit OwnedTree(const std::vector<unsigned char>& bytes)
        : state(pgdp::deserialize_quantile_tree(bytes.data(), bytes.size(), kHeap)) {}
    ~OwnedTree() { pgdp::free_quantile_tree(state, kHeap); }
    OwnedTree(const OwnedTree&) = delete;
    OwnedTree& operator=(const OwnedTree&) = delete;
    void add(double value) { pgdp::add_to_quantile_tree(state, value, kHeap); }
};

// The leaf of x computed from frexp: x clamped to +-2^64; |x| = m 2^e with m in [0.5, 1) is in
// binade k = e - 1 and sub-leaf floor((2m - 1) 256) (both exact in double).
std::uint32_t expected_leaf(double x) {
    const double c = std::min(std::max(x, -kLimit), kLimit);
    const double a = std::fabs(c);
    std::uint32_t positive;
    if (a < kZeroZone) {
        positive = 32768;
    } else if (a == kLimit) {
        positive = 65280;
    } else {
        int e = 0;
        const double m = std::frexp(a, &e);
        const int k = e - 1;
        const auto sub = static_cast<std::uint32_t>(std::floor((2 * m - 1) * 256));
        positive = 32769 + static_cast<std::uint32_t>(k + 63) * 256 + sub;
    }
    return c < 0 ? 65535 - positive : positive;
}

// Doubles of every kind: zeros, subnormals, the zero zone's edge, ordinary values, the limit's
// neighbours, the largest doubles and infinities, and random bit patterns (NaN excluded).
std::vector<double> probe_values() {
    std::vector<double> values;
    const double specials[] = {0.0,
                               std::numeric_limits<double>::denorm_min(),
                               1e-310,
                               std::numeric_limits<double>::min(),
                               1e-300,
                               kZeroZone,
                               std::nextafter(kZeroZone, 0.0),
                               std::nextafter(kZeroZone, 1.0),
                               1e-19,
                               0.1,
                               0.5,
                               1.0,
                               std::nextafter(1.0, 0.0),
                               std::nextafter(1.0, 2.0),
                               1.5,
                               std::ldexp(257.0, -8),
                               std::nextafter(std::ldexp(257.0, -8), 0.0),
                               3.0,
                               1000.0,
                               1e18,
                               std::ldexp(1.0, 63),
                               std::nextafter(kLimit, 0.0),
                               kLimit,
                               std::nextafter(kLimit, INFINITY),
                               1e300,
                               std::numeric_limits<double>::max(),
                               INFINITY};
    for (double s : specials) {
        values.push_back(s);
        values.push_back(-s);
    }
    values.push_back(-0.0);
    std::mt19937_64 generator(31);
    for (int i = 0; i < 200000; ++i) {
        std::uint64_t bits = generator();
        double x;
        std::memcpy(&x, &bits, sizeof x);
        if (!std::isnan(x)) values.push_back(x);
    }
    // Values of ordinary magnitudes, where data lives.
    std::lognormal_distribution<double> lognormal(0.0, 5.0);
    for (int i = 0; i < 100000; ++i) values.push_back((i % 2 ? 1 : -1) * lognormal(generator));
    return values;
}

TEST(QuantileLogLeaves, EveryDoubleLandsInTheLeafWhoseIntervalHoldsIt) {
    for (double x : probe_values()) {
        const std::uint32_t leaf = pgdp::log_quantile_leaf(x);
        ASSERT_EQ(leaf, expected_leaf(x)) << x;
        ASSERT_GE(leaf, pgdp::kLogFirstUsedLeaf);
        ASSERT_LE(leaf, pgdp::kLogLastUsedLeaf);
        const double c = std::min(std::max(x, -kLimit), kLimit);
        const pgdp::LeafInterval interval = pgdp::log_leaf_interval(leaf);
        if (leaf >= 32768) {  // [lower, upper), the top leaf closed
            ASSERT_TRUE(interval.lower <= c && (c < interval.upper || (leaf == 65280 && c == kLimit))) << x;
        } else {  // (lower, upper], the bottom leaf closed
            ASSERT_TRUE((interval.lower < c || (leaf == 255 && c == -kLimit)) && c <= interval.upper) << x;
        }
    }
    EXPECT_EQ(pgdp::log_quantile_leaf(-0.0), pgdp::log_quantile_leaf(0.0));
    EXPECT_EQ(pgdp::log_quantile_leaf(0.0), 32768u);
    EXPECT_EQ(pgdp::log_quantile_leaf(-std::numeric_limits<double>::denorm_min()), 32767u);
    EXPECT_EQ(pgdp::log_quantile_leaf(INFINITY), 65280u);
    EXPECT_EQ(pgdp::log_quantile_leaf(-INFINITY), 255u);
}

TEST(QuantileLogLeaves, TheMapIsMonotone) {
    std::vector<double> values = probe_values();
    std::sort(values.begin(), values.end());
    for (std::size_t i = 1; i < values.size(); ++i) {
        ASSERT_LE(pgdp::log_quantile_leaf(values[i - 1]), pgdp::log_quantile_leaf(values[i]))
            << values[i - 1] << " " << values[i];
    }
}

TEST(QuantileLogLeaves, LeavesTileTheLineAtRelativeWidthTwoToTheMinusEight) {
    EXPECT_EQ(pgdp::log_leaf_interval(255).lower, -kLimit);
    EXPECT_EQ(pgdp::log_leaf_interval(65280).upper, kLimit);
    EXPECT_EQ(pgdp::log_leaf_interval(32768).lower, 0.0);
    EXPECT_EQ(pgdp::log_leaf_interval(32767).upper, 0.0);
    for (std::uint32_t leaf = 255; leaf <= 65280; ++leaf) {
        const pgdp::LeafInterval interval = pgdp::log_leaf_interval(leaf);
        ASSERT_LT(interval.lower, interval.upper) << leaf;
        const double width = interval.upper - interval.lower;
        if (leaf == 32767 || leaf == 32768) {
            ASSERT_EQ(width, kZeroZone);
        } else {
            // Every value of the leaf is at least 2^8 widths from 0.
            ASSERT_LE(width, std::ldexp(std::min(std::fabs(interval.lower), std::fabs(interval.upper)), -8))
                << leaf;
        }
        if (leaf < 65280) {
            ASSERT_EQ(interval.upper, pgdp::log_leaf_interval(leaf + 1).lower) << leaf;
        }
    }
    EXPECT_THROW(pgdp::log_leaf_interval(254), std::out_of_range);
    EXPECT_THROW(pgdp::log_leaf_interval(65281), std::out_of_range);
    EXPECT_THROW(pgdp::log_leaf_interval(0), std::out_of_range);
    EXPECT_THROW(pgdp::log_leaf_interval(65535), std::out_of_range);
}

TEST(QuantileLogLeaves, TheInverseIsContinuousAndMonotone) {
    double previous = -INFINITY;
    for (std::uint32_t leaf = 0; leaf < 65536; ++leaf) {
        for (double fraction : {0.0, 0.25, 0.5, 0.75}) {
            const double v = pgdp::log_leaf_value(leaf + fraction);
            ASSERT_GE(v, previous) << leaf << " " << fraction;
            previous = v;
            if (leaf < pgdp::kLogFirstUsedLeaf) {
                ASSERT_EQ(v, -kLimit);
            } else if (leaf > pgdp::kLogLastUsedLeaf) {
                ASSERT_EQ(v, kLimit);
            } else {
                const pgdp::LeafInterval interval = pgdp::log_leaf_interval(leaf);
                ASSERT_TRUE(v >= interval.lower && v <= interval.upper) << leaf;
                if (fraction == 0.5) {  // strictly inside
                    ASSERT_EQ(pgdp::log_quantile_leaf(v), leaf) << leaf;
                }
            }
        }
        if (leaf >= pgdp::kLogFirstUsedLeaf && leaf <= pgdp::kLogLastUsedLeaf) {
            // Continuous: the end of a leaf is the start of the next.
            const pgdp::LeafInterval interval = pgdp::log_leaf_interval(leaf);
            ASSERT_EQ(pgdp::log_leaf_value(leaf + 1.0), interval.upper) << leaf;
        }
    }
    EXPECT_EQ(pgdp::log_leaf_value(65536.0), kLimit);
    EXPECT_EQ(pgdp::log_leaf_value(0.0), -kLimit);
}

TEST(QuantileLogLeaves, AGivenBoundClampsAndBadBoundsNameTheArgument) {
    OwnedTree above_five(5.0, kLimit);
    EXPECT_EQ(above_five.state.map, QuantileLeafMap::LogLinear);
    EXPECT_EQ(pgdp::leaf_of(above_five.state, -100.0), pgdp::log_quantile_leaf(5.0));
    EXPECT_EQ(pgdp::leaf_of(above_five.state, 1e300), 65280u);
    EXPECT_EQ(pgdp::quantile_value_at(QuantileLeafMap::LogLinear, 5.0, kLimit, 0.0), 5.0);
    EXPECT_EQ(pgdp::quantile_value_at(QuantileLeafMap::LogLinear, -kLimit, -3.0, 65536.0), -3.0);
    above_five.add(NAN);  // not a row
    EXPECT_EQ(above_five.state.rows, 0);
    above_five.add(-INFINITY);
    EXPECT_EQ(pgdp::quantile_leaf_count(above_five.state, pgdp::log_quantile_leaf(5.0)), 1);
    auto argument_of = [](double lower, double upper) {
        return pgdp_test::rejected_argument([&] { (void)pgdp::empty_log_quantile_tree(lower, upper); });
    };
    EXPECT_EQ(argument_of(NAN, kLimit), "lower");
    EXPECT_EQ(argument_of(-INFINITY, kLimit), "lower");
    EXPECT_EQ(argument_of(-kLimit * 2, kLimit), "lower");
    EXPECT_EQ(argument_of(kLimit, kLimit), "lower");
    EXPECT_EQ(argument_of(-kLimit, NAN), "upper");
    EXPECT_EQ(argument_of(-kLimit, kLimit * 2), "upper");
    EXPECT_EQ(argument_of(3.0, 3.0), "upper");
    EXPECT_EQ(argument_of(-kLimit, kLimit), "no error");
}

TEST(QuantileLogLeaves, StatesSerializeWithTheirMap) {
    std::mt19937_64 generator(32);
    std::lognormal_distribution<double> lognormal(0.0, 8.0);
    for (int rows : {0, 1, 50, 40000}) {
        OwnedTree tree(-kLimit, kLimit);
        for (int i = 0; i < rows; ++i) tree.add((i % 3 ? 1 : -1) * lognormal(generator));
        const std::vector<unsigned char> bytes = pgdp::serialize_quantile_tree(tree.state);
        EXPECT_EQ(bytes[0], pgdp::kLogQuantileTreeFormatVersion);
        OwnedTree copy(bytes);
        EXPECT_EQ(copy.state.map, QuantileLeafMap::LogLinear);
        EXPECT_EQ(copy.state.rows, rows);
        EXPECT_EQ(pgdp::serialize_quantile_tree(copy.state), bytes);
    }
    // A linear state with the same bounds is another map: no merge either way.
    OwnedTree log_tree(-1.0, 1.0);
    pgdp::QuantileTreeState linear = pgdp::empty_quantile_tree(-1.0, 1.0);
    EXPECT_THROW(pgdp::merge_quantile_trees(log_tree.state, linear, kHeap), std::invalid_argument);
    EXPECT_THROW(pgdp::merge_quantile_trees(linear, log_tree.state, kHeap), std::invalid_argument);
    // Workers count log-linear leaves too (0.14), within the bounds' leaves only: 1 is leaf 48897.
    pgdp::add_partial_leaf_count(log_tree.state, 40000, 1, kHeap);
    EXPECT_EQ(log_tree.state.rows, 1);
    EXPECT_THROW(pgdp::add_partial_leaf_count(log_tree.state, 48898, 1, kHeap), pgdp::CorruptStateError);
}

// Bytes by hand: version 2, bounds, the varints (k, then gap and count pairs).
std::vector<unsigned char> handmade(double lower, double upper, const std::vector<std::uint64_t>& varints) {
    std::vector<unsigned char> out{pgdp::kLogQuantileTreeFormatVersion};
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

TEST(QuantileLogLeaves, DeserializationRefusesWhatNoStateOfTheMapWrites) {
    EXPECT_FALSE(rejected(handmade(-kLimit, kLimit, {1, 32768, 2})));  // two rows at 0
    EXPECT_FALSE(rejected(handmade(-kLimit, kLimit, {2, 255, 1, 65280 - 256, 1})));
    EXPECT_TRUE(rejected(handmade(-kLimit, kLimit, {1, 254, 1})));    // an unused leaf below
    EXPECT_TRUE(rejected(handmade(-kLimit, kLimit, {1, 65281, 1})));  // and above
    // Bounds [5, 2^64]: no row lands below 5's leaf.
    const std::uint32_t five = pgdp::log_quantile_leaf(5.0);
    EXPECT_FALSE(rejected(handmade(5.0, kLimit, {1, five, 1})));
    EXPECT_TRUE(rejected(handmade(5.0, kLimit, {1, five - 1, 1})));
    EXPECT_TRUE(rejected(handmade(-kLimit * 2, kLimit, {0})));  // bounds beyond 2^64
    EXPECT_TRUE(rejected(handmade(1.0, 1.0, {0})));
    EXPECT_TRUE(rejected(handmade(NAN, kLimit, {0})));
    // Random byte flips: rejected, or a state that writes exactly the flipped bytes (canonical).
    OwnedTree tree(-kLimit, kLimit);
    for (double x : {-3.0, 0.0, 1e-30, 7.5, 7.5, 1e15}) tree.add(x);
    const std::vector<unsigned char> good = pgdp::serialize_quantile_tree(tree.state);
    std::mt19937_64 generator(33);
    for (int trial = 0; trial < 3000; ++trial) {
        std::vector<unsigned char> flipped = good;
        flipped[generator() % flipped.size()] ^= static_cast<unsigned char>(1u << (generator() % 8));
        try {
            OwnedTree copy(flipped);
            ASSERT_EQ(pgdp::serialize_quantile_tree(copy.state), flipped);
        } catch (const pgdp::CorruptStateError&) {}
    }
}

pgdp::QuantilePlan log_plan(double epsilon, double delta, Mechanism mechanism, double lower, double upper) {
    pgdp::QuantileParameters p;
    p.leaf_map = QuantileLeafMap::LogLinear;
    p.lower = lower;
    p.upper = upper;
    p.epsilon = epsilon;
    p.delta = delta;
    p.mechanism = mechanism;
    return pgdp::plan_quantile_release(p);
}

// Samples where a NULL bound is meant to help: lognormal, both signs with zeros, 60 binades, ties.
std::vector<double> log_sample(const std::string& shape, std::size_t n, std::uint64_t seed) {
    std::mt19937_64 generator(seed);
    std::vector<double> values;
    for (std::size_t i = 0; i < n; ++i) {
        if (shape == "lognormal") {
            values.push_back(std::lognormal_distribution<double>(2.0, 1.0)(generator));
        } else if (shape == "signed") {
            const double x = std::lognormal_distribution<double>(0.0, 3.0)(generator);
            values.push_back(i % 5 == 0 ? 0.0 : (i % 2 ? x : -x));
        } else if (shape == "wide") {
            values.push_back(std::pow(10.0, std::uniform_real_distribution<double>(-30.0, 30.0)(generator)));
        } else {
            values.push_back(static_cast<double>(generator() % 4) * 1e6);
        }
    }
    return values;
}

TEST(QuantileLogLeaves, HugeEpsilonReleasesPercentileDiscInItsLeaf) {
    pgdp::SeededRandomSource random(34);
    const std::vector<double> q{0.0, 1e-9, 0.01, 0.1, 0.25, 1.0 / 3, 0.5, 0.75, 0.9, 0.99, 1.0};
    struct Bounds {
        double lower, upper;
    };
    for (const std::string shape : {"lognormal", "signed", "wide", "ties"}) {
        for (std::size_t n : {1u, 2u, 7u, 1000u, 100000u}) {
            const std::vector<double> raw = log_sample(shape, n, 35 + n);
            for (Bounds bounds : {Bounds{-kLimit, kLimit}, Bounds{0.0, kLimit}, Bounds{-kLimit, 100.0}}) {
                OwnedTree tree(bounds.lower, bounds.upper);
                std::vector<double> clamped;
                for (double x : raw) {
                    tree.add(x);
                    clamped.push_back(std::min(std::max(x, bounds.lower), bounds.upper));
                }
                std::sort(clamped.begin(), clamped.end());
                for (auto [mechanism, delta] :
                     {std::pair{Mechanism::Laplace, 0.0}, std::pair{Mechanism::TruncatedLaplace, 1e-9}}) {
                    const pgdp::QuantilePlan plan =
                        log_plan(1e6, delta, mechanism, bounds.lower, bounds.upper);
                    const std::vector<double> released = pgdp::release_quantiles(plan, tree.state, q, random);
                    for (std::size_t i = 0; i < q.size(); ++i) {
                        const double expected = pgdp_test::percentile_disc(clamped, q[i]);
                        const pgdp::LeafInterval leaf =
                            pgdp::log_leaf_interval(pgdp::log_quantile_leaf(expected));
                        EXPECT_TRUE(released[i] >= leaf.lower && released[i] <= leaf.upper &&
                                    released[i] >= bounds.lower && released[i] <= bounds.upper)
                            << shape << " n=" << n << " q=" << q[i] << " " << released[i] << " " << expected;
                        // The stated resolution: 2^-8 of the value, or 2^-63 near 0.
                        EXPECT_LE(std::fabs(released[i] - expected),
                                  std::max(std::ldexp(std::fabs(expected), -8), kZeroZone));
                    }
                }
            }
        }
    }
}

TEST(QuantileLogLeaves, ReleasesAreFiniteMonotoneAndInsideTheBoundsEvenForEmptyGroups) {
    pgdp::SeededRandomSource random(36);
    std::vector<double> q;
    for (int i = 0; i <= 20; ++i) q.push_back(i / 20.0);
    for (std::size_t n : {0u, 1u, 2u, 500u}) {
        const std::vector<double> raw = log_sample("signed", n, 37);
        for (auto [lower, upper] :
             {std::pair{-kLimit, kLimit}, std::pair{0.0, kLimit}, std::pair{-kLimit, -2.0}}) {
            OwnedTree tree(lower, upper);
            for (double x : raw) tree.add(x);
            for (Mechanism mechanism :
                 {Mechanism::Laplace, Mechanism::Gaussian, Mechanism::TruncatedLaplace}) {
                const pgdp::QuantilePlan plan =
                    log_plan(0.1, mechanism == Mechanism::Laplace ? 0.0 : 1e-6, mechanism, lower, upper);
                for (int trial = 0; trial < 100; ++trial) {
                    const std::vector<double> released = pgdp::release_quantiles(plan, tree.state, q, random);
                    for (std::size_t i = 0; i < q.size(); ++i) {
                        ASSERT_TRUE(std::isfinite(released[i]) && released[i] >= lower &&
                                    released[i] <= upper)
                            << released[i];
                        if (i > 0) {
                            ASSERT_LE(released[i - 1], released[i]);
                        }
                    }
                }
            }
        }
    }
}

TEST(QuantileLogLeaves, TheNoiseAndTheChargeAreTheBoundedCallsOwn) {
    // One row changes one leaf whatever the map: the same node noise, the same charge.
    for (auto [mechanism, delta] : {std::pair{Mechanism::Laplace, 0.0}, std::pair{Mechanism::Gaussian, 1e-6},
                                    std::pair{Mechanism::TruncatedLaplace, 1e-6}}) {
        pgdp::QuantileParameters bounded;
        bounded.lower = 0.0;
        bounded.upper = 100.0;
        bounded.epsilon = 0.7;
        bounded.delta = delta;
        bounded.mechanism = mechanism;
        bounded.rows_per_unit = 3;
        pgdp::QuantileParameters unbounded = bounded;
        unbounded.leaf_map = QuantileLeafMap::LogLinear;
        unbounded.lower = -kLimit;
        unbounded.upper = kLimit;
        const pgdp::QuantilePlan a = pgdp::plan_quantile_release(bounded);
        const pgdp::QuantilePlan b = pgdp::plan_quantile_release(unbounded);
        EXPECT_EQ(a.noise_sd, b.noise_sd);
        EXPECT_EQ(a.level_vectors, b.level_vectors);
        const pgdp::ReleaseCharge ca = pgdp::quantile_release_charge(bounded, a);
        const pgdp::ReleaseCharge cb = pgdp::quantile_release_charge(unbounded, b);
        EXPECT_EQ(ca.epsilon, cb.epsilon);
        EXPECT_EQ(ca.delta, cb.delta);
        EXPECT_EQ(ca.gaussian_mu2, cb.gaussian_mu2);
        EXPECT_EQ(ca.sensitivity, cb.sensitivity);
    }
}

}  // namespace
