// Exact order statistics and rank errors for the quantile tests (test_quantile_release.cpp,
// test_exponential_quantile.cpp), computed from the sorted clamped values alone.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace pgdp_test {

// The argument an ArgumentError names (a RangeError's as "range:ARGUMENT"), or "no error".
inline std::string rejected_argument(const std::function<void()>& call) {
    try {
        call();
    } catch (const pgdp::ArgumentError& error) {
        return error.argument();
    } catch (const pgdp::RangeError& error) {
        return "range:" + error.argument();
    }
    return "no error";
}

struct QuantileData {
    std::string shape;
    double lower;
    double upper;
    std::vector<double> values;  // clamped to [lower, upper], sorted
};

// The shapes of the accuracy table: uniform on the bounds; skewed (lognormal, a long right tail
// inside wide bounds); many ties (5 integer values with shares 40/30/15/10/5 %).
inline QuantileData make_quantile_data(const std::string& shape, std::size_t n, std::uint64_t seed) {
    std::mt19937_64 generator(seed);
    QuantileData data{shape, 0.0, 100.0, {}};
    if (shape == "uniform") {
        std::uniform_real_distribution<double> uniform(0.0, 100.0);
        for (std::size_t i = 0; i < n; ++i) data.values.push_back(uniform(generator));
    } else if (shape == "skewed") {
        data.upper = 1000.0;
        std::lognormal_distribution<double> lognormal(2.0, 1.0);
        for (std::size_t i = 0; i < n; ++i) data.values.push_back(std::min(lognormal(generator), 1000.0));
    } else {
        data.upper = 16.0;  // the tie values are grid points of both mechanisms
        std::discrete_distribution<int> pick({40, 30, 15, 10, 5});
        for (std::size_t i = 0; i < n; ++i) data.values.push_back(1.0 + pick(generator));
    }
    std::sort(data.values.begin(), data.values.end());
    return data;
}

// PostgreSQL's percentile_disc(q): the value at 1-based row ceil(q n) of the sorted values (the
// first row when that is 0), with q * n computed in float8 as PostgreSQL does.
inline double percentile_disc(const std::vector<double>& sorted, double q) {
    const double row = std::ceil(q * static_cast<double>(sorted.size()));
    const std::size_t index = row <= 1.0 ? 0 : static_cast<std::size_t>(row) - 1;
    return sorted[index];
}

// The distance from q n to the ranks [#{x < v}, #{x <= v}], as a share of n: 0 when v is a
// q-quantile of the data, whatever the ties.
inline double rank_error(const std::vector<double>& sorted, double q, double v) {
    const double n = static_cast<double>(sorted.size());
    const double below =
        static_cast<double>(std::lower_bound(sorted.begin(), sorted.end(), v) - sorted.begin());
    const double at_or_below =
        static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), v) - sorted.begin());
    const double target = q * n;
    return std::max({below - target, target - at_or_below, 0.0}) / n;
}

// Rank errors at the resolution of 65536 equal cells over [lower, upper] (the tree's leaves):
// values and the released value are replaced by their cell, computed here in long double.
class CellRanks {
public:
    explicit CellRanks(const QuantileData& data) : lower_(data.lower), upper_(data.upper) {
        for (double x : data.values) cells_.push_back(cell(x));
    }
    double cell(double x) const {
        const long double c = std::floor((static_cast<long double>(x) - lower_) /
                                         (static_cast<long double>(upper_) - lower_) * 65536.0L);
        return static_cast<double>(std::min<long double>(std::max<long double>(c, 0.0L), 65535.0L));
    }
    double error(double q, double v) const { return rank_error(cells_, q, cell(v)); }

private:
    double lower_, upper_;
    std::vector<double> cells_;
};

// Mean and the 95th percentile of a sample of errors.
struct ErrorSummary {
    double mean;
    double p95;
    double max;
};
inline ErrorSummary summarize(std::vector<double> errors) {
    std::sort(errors.begin(), errors.end());
    double sum = 0.0;
    for (double e : errors) sum += e;
    return {sum / errors.size(), errors[static_cast<std::size_t>(0.95 * (errors.size() - 1))], errors.back()};
}

}  // namespace pgdp_test
