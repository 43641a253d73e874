// The parameters and plan of a quantile release (quantile_release.hpp), plain data, apart so that
// the aggregate plan (aggregate_release.hpp) can hold one.
#pragma once

#include <cstdint>

#include "core/quantile_tree.hpp"
#include "core/release_plan.hpp"

namespace pgdp {

struct QuantileParameters {
    // Linear: the call's bounds. LogLinear (leaf_map, a NULL bound): the clamping bounds, a given
    // bound or -2^64 / 2^64 for a NULL one.
    double lower = 0.0;
    double upper = 0.0;
    double epsilon = 0.0;
    double delta = 0.0;
    Mechanism mechanism = Mechanism::Laplace;  // as requested (may be Auto)
    std::int64_t rows_per_unit = 1;     // r: rows one unit may add to a group (argument "rows_per_unit")
    std::uint32_t groups_per_unit = 1;  // m: groups one unit may change
    QuantileLeafMap leaf_map = QuantileLeafMap::Linear;
};

// Plain data.
struct QuantilePlan {
    double lower;
    double upper;
    std::int64_t rows_per_unit;
    std::uint32_t groups_per_unit;
    // The noise of each node count (count_vector.hpp): the tree's 4 levels in each of the m
    // groups a unit may change are level_vectors = 4 m count vectors, each changed by at most r
    // rows: Laplace family at sensitivity r over 4 m vectors (L1 = 4 m r, grid one count),
    // Gaussian at L2 = sqrt(4 m) r.
    ReleasePlan nodes;
    std::uint32_t level_vectors;
    double noise_sd;  // standard deviation of one node's noise, in counts
    QuantileLeafMap leaf_map;
};

}  // namespace pgdp
