// Cost of one calibration call, per method, cycling over 64 (epsilon, delta) pairs spread over
// epsilon in [1e-3, 50] and delta in [1e-12, 0.3] so that no input is repeated back to back.
// For comparison, BM_BisectionTo1e3 calibrates the analytic sigma the way Google's
// differential-privacy library does (bisection on the exact profile until the bracket is 1e-3
// relative).
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>

#include "core/gaussian_calibration.hpp"
#include "core/gaussian_method.hpp"
#include "core/gaussian_profile.hpp"
#include "core/truncated_laplace.hpp"

namespace {

struct Point {
    double epsilon;
    double delta;
};

std::array<Point, 64> make_points(double max_delta) {
    std::array<Point, 64> points{};
    for (std::size_t i = 0; i < points.size(); ++i) {
        const double a = static_cast<double>(i % 8) / 7.0;
        const double b = static_cast<double>(i / 8) / 7.0;
        points[i] = {std::pow(10.0, -3.0 + a * std::log10(50.0 / 1e-3)),
                     std::pow(10.0, -12.0 + b * std::log10(max_delta / 1e-12))};
    }
    return points;
}

void BM_GaussianSigma(benchmark::State& state, pgdp::GaussianMethod method) {
    const bool needs_small_epsilon =
        method == pgdp::GaussianMethod::Classic || method == pgdp::GaussianMethod::Dwork2006;
    auto points = make_points(0.3);
    if (needs_small_epsilon) {
        for (auto& point : points) point.epsilon = std::fmin(point.epsilon, 1.0);
    }
    std::size_t i = 0;
    for (auto _ : state) {
        const Point& p = points[i++ & 63];
        benchmark::DoNotOptimize(pgdp::gaussian_sigma(p.epsilon, p.delta, 1.0, method));
    }
}

void BM_GaussianDelta(benchmark::State& state) {
    const auto points = make_points(0.3);
    std::size_t i = 0;
    for (auto _ : state) {
        const Point& p = points[i++ & 63];
        benchmark::DoNotOptimize(pgdp::gaussian_delta(1.0 / p.epsilon, p.epsilon, 1.0));
    }
}

void BM_GaussianEpsilon(benchmark::State& state) {
    const auto points = make_points(0.3);
    std::size_t i = 0;
    for (auto _ : state) {
        const Point& p = points[i++ & 63];
        benchmark::DoNotOptimize(pgdp::gaussian_epsilon(1.0 / p.epsilon, p.delta, 1.0));
    }
}

void BM_TruncatedLaplaceParams(benchmark::State& state) {
    const auto points = make_points(0.3);
    std::size_t i = 0;
    for (auto _ : state) {
        const Point& p = points[i++ & 63];
        benchmark::DoNotOptimize(pgdp::truncated_laplace_params(p.epsilon, p.delta, 1.0));
    }
}

// Google-style: bisect sigma on the exact profile until the bracket is within 1e-3 relative.
void BM_BisectionTo1e3(benchmark::State& state) {
    const auto points = make_points(0.3);
    std::size_t i = 0;
    for (auto _ : state) {
        const Point& p = points[i++ & 63];
        double lower = 0.0;
        double upper = 1.0;
        while (pgdp::gaussian_delta_unchecked(upper, p.epsilon, 1.0) > p.delta) upper *= 2.0;
        while (upper - lower > 1e-3 * upper) {
            const double middle = (lower + upper) / 2.0;
            if (pgdp::gaussian_delta_unchecked(middle, p.epsilon, 1.0) > p.delta) {
                lower = middle;
            } else {
                upper = middle;
            }
        }
        benchmark::DoNotOptimize(upper);
    }
}

}  // namespace

BENCHMARK_CAPTURE(BM_GaussianSigma, analytic, pgdp::GaussianMethod::Analytic);
BENCHMARK_CAPTURE(BM_GaussianSigma, classic, pgdp::GaussianMethod::Classic);
BENCHMARK_CAPTURE(BM_GaussianSigma, dwork2006, pgdp::GaussianMethod::Dwork2006);
BENCHMARK_CAPTURE(BM_GaussianSigma, vinterbo, pgdp::GaussianMethod::Vinterbo);
BENCHMARK_CAPTURE(BM_GaussianSigma, vinterbo_closed, pgdp::GaussianMethod::VinterboClosed);
BENCHMARK_CAPTURE(BM_GaussianSigma, zhao1, pgdp::GaussianMethod::Zhao1);
BENCHMARK_CAPTURE(BM_GaussianSigma, zhao2, pgdp::GaussianMethod::Zhao2);
BENCHMARK_CAPTURE(BM_GaussianSigma, pdp, pgdp::GaussianMethod::Pdp);
BENCHMARK_CAPTURE(BM_GaussianSigma, zhao3, pgdp::GaussianMethod::Zhao3);
BENCHMARK_CAPTURE(BM_GaussianSigma, zhao4, pgdp::GaussianMethod::Zhao4);
BENCHMARK_CAPTURE(BM_GaussianSigma, zcdp, pgdp::GaussianMethod::Zcdp);
BENCHMARK(BM_GaussianDelta);
BENCHMARK(BM_GaussianEpsilon);
BENCHMARK(BM_TruncatedLaplaceParams);
BENCHMARK(BM_BisectionTo1e3);
