// Data of the accuracy figures (c) and (d) of docs/mechanisms.md, from the core's release code on
// synthetic data with fixed seeds (no database): `make figures-data` writes the CSVs next to this
// file, docs/figures/make_figures.sh draws them.
//
//   quantile_rank_error.csv   the median of 10000 rows (uniform on [0, 100] and lognormal(2, 1)
//                             inside [0, 1000]): mean and 95th percentile of the rank error over
//                             RELEASES releases per epsilon, for the tree (dp_median: Laplace and
//                             the discrete Gaussian at delta 1e-6, node noise on 4 levels) and the
//                             exponential mechanism (Smith 2011; one level per release)
//   histogram_error.csv       dp_histogram, 10 bins of 10000 uniform rows: mean absolute error per
//                             bin, the mean half-width of the 95 % per-bin interval and its
//                             coverage, per epsilon and mechanism (laplace, tlap, gaussian at
//                             delta 1e-6)
//
// The rank error of a value v for level q is the distance from q n to the ranks of v
// (test/unit/quantile_test_helpers.hpp), as a share of n: 0 when v is a q-quantile of the data.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/aggregate_release.hpp"
#include "core/exponential_quantile.hpp"
#include "core/histogram_release.hpp"
#include "core/quantile_release.hpp"
#include "core/quantile_tree.hpp"
#include "core/random_source.hpp"

namespace {

constexpr int kReleases = 1000;
constexpr std::size_t kRows = 10000;
const std::vector<double> kEpsilons{0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10};

double rank_error(const std::vector<double>& sorted, double q, double v) {
    const double n = static_cast<double>(sorted.size());
    const double below =
        static_cast<double>(std::lower_bound(sorted.begin(), sorted.end(), v) - sorted.begin());
    const double at_or_below =
        static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), v) - sorted.begin());
    return std::max({below - q * n, q * n - at_or_below, 0.0}) / n;
}

struct Summary {
    double mean;
    double p95;
};

Summary summarise(std::vector<double> errors) {
    std::sort(errors.begin(), errors.end());
    double total = 0;
    for (double e : errors) total += e;
    return {total / static_cast<double>(errors.size()),
            errors[static_cast<std::size_t>(0.95 * (errors.size() - 1))]};
}

void quantile_figure(const std::string& directory) {
    FILE* out = std::fopen((directory + "/quantile_rank_error.csv").c_str(), "w");
    std::fprintf(out, "data,epsilon,mechanism,mean_rank_error,p95_rank_error\n");
    pgdp::SeededRandomSource random(2024);
    const pgdp::StateMemory heap = pgdp::heap_state_memory();
    for (const std::string shape : {"uniform", "lognormal"}) {
        std::mt19937_64 generator(7);
        const double lower = 0.0, upper = shape == "uniform" ? 100.0 : 1000.0;
        std::vector<double> values;
        std::uniform_real_distribution<double> uniform(lower, upper);
        std::lognormal_distribution<double> lognormal(2.0, 1.0);
        for (std::size_t i = 0; i < kRows; ++i)
            values.push_back(shape == "uniform" ? uniform(generator) : std::min(lognormal(generator), upper));
        std::sort(values.begin(), values.end());
        pgdp::QuantileTreeState tree = pgdp::empty_quantile_tree(lower, upper);
        for (double x : values) pgdp::add_to_quantile_tree(tree, x, heap);
        const pgdp::ExponentialQuantileInput input = pgdp::prepare_exponential_quantile(values, lower, upper);
        for (double epsilon : kEpsilons) {
            for (const std::string mechanism : {"tree laplace", "tree gaussian", "exponential"}) {
                std::vector<double> errors;
                if (mechanism == "exponential") {
                    const pgdp::ExponentialQuantileSampler sampler(input, 0.5, epsilon);
                    for (int r = 0; r < kReleases; ++r)
                        errors.push_back(rank_error(values, 0.5, sampler.sample(random)));
                } else {
                    pgdp::QuantileParameters p;
                    p.lower = lower;
                    p.upper = upper;
                    p.epsilon = epsilon;
                    if (mechanism == "tree gaussian") {
                        p.delta = 1e-6;
                        p.mechanism = pgdp::Mechanism::Gaussian;
                    }
                    const pgdp::QuantilePlan plan = pgdp::plan_quantile_release(p);
                    for (int r = 0; r < kReleases; ++r)
                        errors.push_back(
                            rank_error(values, 0.5, pgdp::release_quantiles(plan, tree, {0.5}, random)[0]));
                }
                const Summary s = summarise(errors);
                std::fprintf(out, "%s,%g,%s,%.6g,%.6g\n", shape.c_str(), epsilon, mechanism.c_str(), s.mean,
                             s.p95);
            }
        }
        pgdp::free_quantile_tree(tree, heap);
    }
    std::fclose(out);
}

void histogram_figure(const std::string& directory) {
    FILE* out = std::fopen((directory + "/histogram_error.csv").c_str(), "w");
    std::fprintf(out, "epsilon,mechanism,mean_absolute_error,mean_half_width,coverage\n");
    pgdp::SeededRandomSource random(2025);
    std::mt19937_64 generator(8);
    pgdp::HistogramParameters parameters;
    parameters.spec = pgdp::validate_histogram_spec(0.0, 100.0, 10);
    std::vector<std::int64_t> counts(parameters.spec.counts(), 0);
    std::uniform_real_distribution<double> uniform(0.0, 100.0);
    for (std::size_t i = 0; i < kRows; ++i)
        pgdp::add_to_histogram(parameters.spec, counts.data(), uniform(generator));
    for (double epsilon : kEpsilons) {
        for (const std::string mechanism : {"laplace", "tlap", "gaussian"}) {
            parameters.epsilon = epsilon;
            parameters.delta = mechanism == "laplace" ? 0.0 : 1e-6;
            parameters.mechanism = mechanism == "laplace" ? pgdp::Mechanism::Laplace
                                   : mechanism == "tlap"  ? pgdp::Mechanism::TruncatedLaplace
                                                          : pgdp::Mechanism::Gaussian;
            const pgdp::ReleasePlan plan = pgdp::plan_histogram_release(parameters);
            double error = 0, half_width = 0, covered = 0, cells = 0;
            for (int r = 0; r < kReleases; ++r) {
                const std::vector<pgdp::HistogramBin> bins =
                    pgdp::release_histogram(parameters, plan, counts.data(), random);
                for (std::size_t b = 0; b < bins.size(); ++b) {
                    error += std::fabs(static_cast<double>(bins[b].count - counts[b]));
                    half_width += (bins[b].interval_high - bins[b].interval_low) / 2.0;
                    covered += bins[b].interval_low <= counts[b] && counts[b] <= bins[b].interval_high;
                    ++cells;
                }
            }
            std::fprintf(out, "%g,%s,%.6g,%.6g,%.4f\n", epsilon, mechanism.c_str(), error / cells,
                         half_width / cells, covered / cells);
        }
    }
    std::fclose(out);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string directory = argc > 1 ? argv[1] : ".";
    quantile_figure(directory);
    histogram_figure(directory);
    return 0;
}
