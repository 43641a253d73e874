// The quantile tree's cost per row against sorting the same rows (what percentile_cont does):
//   QuantileTreeInsert/<shape>  10M rows into one state, ns per row (items/s);
//   SortDoubles/<shape>         std::sort of the same 10M float8, ns per row: a lower bound of
//                               PostgreSQL's tuplesort, so an insert at or below it meets the
//                               issue-24 bar (dp_quantiles with 9 q <= 1.0x one percentile_cont);
//   QuantileTreeMerge           merging two dense states;
//   QuantileRelease/<q count>   one release (noise drawn lazily) from a dense state.
// Shapes: 0 uniform on the bounds (dense array), 1 lognormal (skewed, ~ 5000 leaves), 2 five
// distinct values (a 16-slot table). Run: make bench-core BENCH_ARGS=--benchmark_filter=Quantile\|Sort
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/quantile_release.hpp"
#include "core/quantile_tree.hpp"
#include "core/random_source.hpp"

namespace {

constexpr std::size_t kRows = 10000000;

const std::vector<double>& rows(int shape) {
    static std::vector<double> data[3];
    std::vector<double>& values = data[shape];
    if (values.empty()) {
        std::mt19937_64 generator(7);
        std::uniform_real_distribution<double> uniform(0.0, 1000.0);
        std::lognormal_distribution<double> lognormal(3.0, 1.0);
        values.resize(kRows);
        for (double& x : values) {
            x = shape == 0   ? uniform(generator)
                : shape == 1 ? lognormal(generator)
                             : 100.0 * (generator() % 5);
        }
    }
    return values;
}

const pgdp::StateMemory kHeap = pgdp::heap_state_memory();

void BM_QuantileTreeInsert(benchmark::State& bench) {
    const std::vector<double>& values = rows(static_cast<int>(bench.range(0)));
    for (auto _ : bench) {
        pgdp::QuantileTreeState state = pgdp::empty_quantile_tree(0.0, 1000.0);
        for (double x : values) pgdp::add_to_quantile_tree(state, x, kHeap);
        benchmark::DoNotOptimize(state.rows);
        pgdp::free_quantile_tree(state, kHeap);
    }
    bench.SetItemsProcessed(static_cast<std::int64_t>(bench.iterations() * values.size()));
}
BENCHMARK(BM_QuantileTreeInsert)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_SortDoubles(benchmark::State& bench) {
    const std::vector<double>& values = rows(static_cast<int>(bench.range(0)));
    std::vector<double> copy;
    for (auto _ : bench) {
        bench.PauseTiming();
        copy = values;
        bench.ResumeTiming();
        std::sort(copy.begin(), copy.end());
        benchmark::DoNotOptimize(copy.data());
    }
    bench.SetItemsProcessed(static_cast<std::int64_t>(bench.iterations() * values.size()));
}
BENCHMARK(BM_SortDoubles)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

pgdp::QuantileTreeState dense_state() {
    pgdp::QuantileTreeState state = pgdp::empty_quantile_tree(0.0, 1000.0);
    const std::vector<double>& values = rows(0);
    for (std::size_t i = 0; i < 1000000; ++i) pgdp::add_to_quantile_tree(state, values[i], kHeap);
    return state;
}

void BM_QuantileTreeMerge(benchmark::State& bench) {
    pgdp::QuantileTreeState from = dense_state();
    for (auto _ : bench) {
        bench.PauseTiming();
        pgdp::QuantileTreeState into = dense_state();
        bench.ResumeTiming();
        pgdp::merge_quantile_trees(into, from, kHeap);
        bench.PauseTiming();
        pgdp::free_quantile_tree(into, kHeap);
        bench.ResumeTiming();
    }
    pgdp::free_quantile_tree(from, kHeap);
}
BENCHMARK(BM_QuantileTreeMerge)->Unit(benchmark::kMicrosecond);

void BM_QuantileRelease(benchmark::State& bench) {
    pgdp::QuantileTreeState state = dense_state();
    pgdp::QuantileParameters p;
    p.lower = 0.0;
    p.upper = 1000.0;
    p.epsilon = 1.0;
    const pgdp::QuantilePlan plan = pgdp::plan_quantile_release(p);
    std::vector<double> q(static_cast<std::size_t>(bench.range(0)));
    for (std::size_t i = 0; i < q.size(); ++i) q[i] = (i + 1.0) / (q.size() + 1.0);
    pgdp::SeededRandomSource random(8);
    for (auto _ : bench) benchmark::DoNotOptimize(pgdp::release_quantiles(plan, state, q, random));
    pgdp::free_quantile_tree(state, kHeap);
}
BENCHMARK(BM_QuantileRelease)->Arg(1)->Arg(9)->Arg(99)->Unit(benchmark::kMicrosecond);

}  // namespace
