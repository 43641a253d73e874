#include "core/cpp_only.hpp"
#include "core/quantile_release.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <unordered_map>

#include "core/count_vector.hpp"
#include "core/errors.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

constexpr std::uint32_t kLevels = kQuantileTreeHeight;
constexpr std::uint32_t kBranching = kQuantileTreeBranching;

// Each level of a group's tree is a vector of counts that one unit changes as count_vector.hpp
// states (its r rows change some of the level's nodes, all in one direction, by r in total), so
// the m groups' trees are 4 m such vectors: plan_count_vector over 4 m "groups". Laplace family:
// each level at (epsilon, delta) / 4m with sensitivity r, i.e. L1 = 4 m r; Gaussian: L2 =
// sqrt(4 m) r = 2 sqrt(m) r (coarser grids: count_vector's rounding bound).
std::uint32_t level_vectors(std::uint32_t groups_per_unit) {
    if (static_cast<std::int64_t>(groups_per_unit) * kLevels > kMaxGroupsPerUnit) {
        throw ArgumentError("max_groups_contributed",
                            "max_groups_contributed must be at most " +
                                std::to_string(kMaxGroupsPerUnit / kLevels) + " for quantiles, got " +
                                std::to_string(groups_per_unit),
                            "A group's tree releases 4 levels of counts; use fewer groups per unit.");
    }
    return groups_per_unit * kLevels;
}

ReleasePlan plan_nodes(const QuantileParameters& p, Mechanism mechanism, std::uint32_t vectors) {
    return plan_count_vector(p.epsilon, mechanism == Mechanism::Laplace ? 0.0 : p.delta, mechanism,
                             kQuantileTreeLeaves, static_cast<std::uint32_t>(p.rows_per_unit), vectors);
}

// Auto: the Laplace when delta = 0, else the least node-noise variance among the plans of the
// valid mechanisms. (plan_release's own rule compares continuous variances, but over 4 m >= 4
// vectors the discrete Gaussian's sigma is at least 8 counts, which that rule does not see.)
Mechanism resolve_auto(const QuantileParameters& p, std::uint32_t vectors) {
    if (p.delta == 0.0) return Mechanism::Laplace;
    Mechanism best = Mechanism::Laplace;
    double least = std::numeric_limits<double>::infinity();
    for (Mechanism candidate : {Mechanism::Laplace, Mechanism::TruncatedLaplace, Mechanism::Gaussian}) {
        if (candidate == Mechanism::TruncatedLaplace && !(p.delta < 0.5)) continue;
        try {
            const double variance = plan_nodes(p, candidate, vectors).noise_variance;
            if (variance < least) {
                best = candidate;
                least = variance;
            }
        } catch (const RangeError&) {  // not plannable at these parameters: not a candidate
        }
    }
    return best;
}

// The exact counts of the tree's nodes: levels 1 to 3 summed from the leaves once (4096 + 256
// + 16 counters), leaves read from the state.
class ExactTree {
public:
    explicit ExactTree(const QuantileTreeState& state) : state_(state) {
        levels_[3].assign(kQuantileTreeLeaves / kBranching, 0);
        if (state.dense) {
            for (std::uint32_t leaf = 0; leaf < kQuantileTreeLeaves; ++leaf)
                levels_[3][leaf / kBranching] += state.counts[leaf];
        } else {
            for (std::uint32_t slot = 0; slot < state.capacity; ++slot) {
                if (state.keys[slot] != 0)
                    levels_[3][(state.keys[slot] - 1) / kBranching] += state.counts[slot];
            }
        }
        for (int level = 2; level >= 1; --level) {
            levels_[level].assign(levels_[level + 1].size() / kBranching, 0);
            for (std::size_t i = 0; i < levels_[level + 1].size(); ++i)
                levels_[level][i / kBranching] += levels_[level + 1][i];
        }
    }

    std::int64_t count(std::uint32_t level, std::uint32_t index) const {
        return level == kLevels ? quantile_leaf_count(state_, index) : levels_[level][index];
    }

private:
    const QuantileTreeState& state_;
    std::vector<std::int64_t> levels_[kLevels];  // levels_[1..3]
};

// The noisy tree, drawn lazily: a node's noise is drawn the first time the descent reads it
// and kept, so every q of the release reads the same noisy count (docs/statistics/quantiles.md:
// the same distribution as noising all 69904 nodes first).
class NoisyTree {
public:
    NoisyTree(const QuantilePlan& plan, const QuantileTreeState& state, RandomSource& random)
        : plan_(plan), exact_(state), random_(random), threshold_(kQuantileNoiseThreshold * plan.noise_sd) {}

    // The weight the descent gives the node: its noisy count, or 0 at or below the threshold.
    double weight(std::uint32_t level, std::uint32_t index) {
        static constexpr std::uint32_t kFirstKey[] = {0, 0, 16, 16 + 256, 16 + 256 + 4096};
        const std::uint32_t key = kFirstKey[level] + index;
        auto found = noisy_.find(key);
        if (found == noisy_.end()) found = noisy_.emplace(key, draw(level, index)).first;
        return found->second > threshold_ ? found->second : 0.0;
    }

private:
    double draw(std::uint32_t level, std::uint32_t index) {
        return static_cast<double>(noisy_count(plan_.nodes, exact_.count(level, index), random_));
    }

    const QuantilePlan& plan_;
    ExactTree exact_;
    RandomSource& random_;
    double threshold_;
    std::unordered_map<std::uint32_t, double> noisy_;
};

// One quantile: descend from the root by noisy counts, keeping the target rank t inside the
// current node (rescaled when the children's noisy counts do not add up to the node's), and
// interpolate linearly inside the node where the descent ends.
double descend(NoisyTree& tree, const QuantilePlan& plan, double q) {
    std::uint32_t index = 0;
    std::uint32_t first_leaf = 0;
    std::uint32_t span = kQuantileTreeLeaves;
    double target = 0.0;       // rank sought inside the node, in noisy counts
    double node_weight = 0.0;  // the node's weight as its parent saw it; 0 at the root
    double fraction = q;       // where in the node to interpolate
    for (std::uint32_t level = 1; level <= kLevels; ++level) {
        double weights[kBranching];
        double total = 0.0;
        for (std::uint32_t child = 0; child < kBranching; ++child) {
            weights[child] = tree.weight(level, index * kBranching + child);
            total += weights[child];
        }
        if (!(total > 0.0)) break;  // every child reads as empty: interpolate over this node
        // At huge epsilon the children add up to the node exactly and the ratio is 1: the
        // target stays q * n, compared with integer counts as percentile_disc does.
        target = node_weight > 0.0 ? target * (total / node_weight) : q * total;
        std::uint32_t chosen = kBranching;
        std::uint32_t last = 0;
        double before = 0.0;
        for (std::uint32_t child = 0; child < kBranching; ++child) {
            if (weights[child] <= 0.0) continue;
            if (before + weights[child] >= target) {
                chosen = child;
                break;
            }
            before += weights[child];
            last = child;
        }
        if (chosen == kBranching) {  // rounding left the target above the sum: the last child
            chosen = last;
            before -= weights[last];
        }
        node_weight = weights[chosen];
        target = std::min(std::max(target - before, 0.0), node_weight);
        fraction = target / node_weight;
        span /= kBranching;
        index = index * kBranching + chosen;
        first_leaf += chosen * span;
    }
    return quantile_value_at(plan.leaf_map, plan.lower, plan.upper, first_leaf + fraction * span);
}

}  // namespace

void require_quantile_levels(const std::vector<double>& q) {
    const char* hint = "Quantile levels lie in [0, 1]: 0.5 is the median, 0.95 the 95th percentile.";
    if (q.empty()) throw ArgumentError("q", "q must hold at least one quantile level", hint);
    if (q.size() > kMaxQuantileLevels) {
        throw ArgumentError("q",
                            "q holds " + std::to_string(q.size()) + " levels, more than the " +
                                std::to_string(kMaxQuantileLevels) + " one call may ask for",
                            "Ask for fewer levels, e.g. every percentile (101 levels).");
    }
    for (double level : q) {
        if (!(level >= 0.0 && level <= 1.0)) {
            throw ArgumentError("q", "each quantile level must lie in [0, 1], got " + shown(level), hint);
        }
    }
}

QuantileTreeState empty_quantile_tree_for(const QuantileParameters& parameters) {
    return parameters.leaf_map == QuantileLeafMap::Linear
               ? empty_quantile_tree(parameters.lower, parameters.upper)
               : empty_log_quantile_tree(parameters.lower, parameters.upper);
}

QuantilePlan plan_quantile_release(const QuantileParameters& parameters) {
    (void)empty_quantile_tree_for(parameters);  // validates the bounds for the map
    check_release_parameters(parameters.epsilon, parameters.delta, parameters.mechanism);
    require_rows_per_unit("rows_per_unit", parameters.rows_per_unit);
    require_groups_per_unit(parameters.groups_per_unit);
    QuantilePlan plan{};
    plan.leaf_map = parameters.leaf_map;
    plan.lower = parameters.lower;
    plan.upper = parameters.upper;
    plan.rows_per_unit = parameters.rows_per_unit;
    plan.groups_per_unit = parameters.groups_per_unit;
    plan.level_vectors = level_vectors(parameters.groups_per_unit);
    const Mechanism mechanism = parameters.mechanism == Mechanism::Auto
                                    ? resolve_auto(parameters, plan.level_vectors)
                                    : parameters.mechanism;
    plan.nodes = plan_nodes(parameters, mechanism, plan.level_vectors);
    plan.noise_sd = std::sqrt(plan.nodes.noise_variance);
    return plan;
}

std::vector<double> release_quantiles(const QuantilePlan& plan, const QuantileTreeState& state,
                                      const std::vector<double>& q, RandomSource& random) {
    require_quantile_levels(q);
    if (state.map != plan.leaf_map || state.lower != plan.lower || state.upper != plan.upper) {
        throw std::invalid_argument("release_quantiles: the state's leaf map or bounds are not the plan's");
    }
    NoisyTree tree(plan, state, random);
    // Increasing q, then a running maximum: monotone in q whatever the rounding
    // (post-processing of one noisy tree).
    std::vector<std::size_t> order(q.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&q](std::size_t a, std::size_t b) { return q[a] < q[b]; });
    std::vector<double> result(q.size());
    double highest = plan.lower;
    for (std::size_t i : order) {
        highest = std::max(highest, descend(tree, plan, q[i]));
        result[i] = highest;
    }
    return result;
}

ReleaseCharge quantile_release_charge(const QuantileParameters& parameters, const QuantilePlan& plan) {
    return count_release_charge(parameters.epsilon, parameters.delta, plan.nodes, plan.level_vectors);
}

}  // namespace pgdp
