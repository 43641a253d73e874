// One noise draw, per mechanism, with three randomness sources:
//   Seeded   - SeededRandomSource (xoshiro256**), the sampler cost alone;
//   Urandom  - bytes read from /dev/urandom through a 4 KiB buffer: approximates
//              pg_strong_random when it is backed by OpenSSL's RAND_bytes (a userspace CSPRNG
//              that refills from the kernel), i.e. the production cost with buffering;
//   Getrandom- one getrandom(2) system call per fill() (8 bytes): the cost if every request
//              went to the kernel, an upper bound for an unbuffered pg_strong_random.
// Typical scales: the grids put sigma_int in [2^12, 2^13) and Laplace scales in [2^20, 2^21).
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include "core/gaussian_calibration.hpp"
#include "core/discrete_gaussian_calibration.hpp"
#include "core/noise.hpp"
#include "core/random_source.hpp"

namespace {

class UrandomBufferedSource final : public pgdp::RandomSource {
public:
    UrandomBufferedSource() : fd_(::open("/dev/urandom", O_RDONLY | O_CLOEXEC)) {
        if (fd_ < 0) throw std::runtime_error("cannot open /dev/urandom");
    }
    ~UrandomBufferedSource() override { ::close(fd_); }
    void fill(unsigned char* out, std::size_t n) override {
        while (n > 0) {
            if (pos_ == sizeof buffer_) refill();
            const std::size_t k = std::min(n, sizeof buffer_ - pos_);
            std::memcpy(out, buffer_ + pos_, k);
            std::memset(buffer_ + pos_, 0, k);  // do not keep used bytes around
            pos_ += k;
            out += k;
            n -= k;
        }
    }

private:
    void refill() {
        std::size_t got = 0;
        while (got < sizeof buffer_) {
            const ssize_t r = ::read(fd_, buffer_ + got, sizeof buffer_ - got);
            if (r <= 0) throw std::runtime_error("read /dev/urandom failed");
            got += static_cast<std::size_t>(r);
        }
        pos_ = 0;
    }
    int fd_;
    unsigned char buffer_[4096];
    std::size_t pos_ = sizeof buffer_;
};

class GetrandomSource final : public pgdp::RandomSource {
public:
    void fill(unsigned char* out, std::size_t n) override {
        while (n > 0) {
            const ssize_t r = ::getrandom(out, n, 0);
            if (r <= 0) throw std::runtime_error("getrandom failed");
            out += r;
            n -= static_cast<std::size_t>(r);
        }
    }
};

template <typename Source>
Source& source() {
    static Source s;
    return s;
}
template <>
pgdp::SeededRandomSource& source<pgdp::SeededRandomSource>() {
    static pgdp::SeededRandomSource s(20240601);
    return s;
}

// ---- standalone samplers (everything per call: grid, rounding, parameters, draw) ------------

template <typename Source>
void BM_GaussianNoise(benchmark::State& state) {
    auto& random = source<Source>();
    for (auto _ : state) benchmark::DoNotOptimize(pgdp::sample_gaussian_noise(3.7, random));
}
template <typename Source>
void BM_LaplaceNoise(benchmark::State& state) {
    auto& random = source<Source>();
    for (auto _ : state) benchmark::DoNotOptimize(pgdp::sample_laplace_noise(2.0, random));
}
template <typename Source>
void BM_TruncatedLaplaceNoise(benchmark::State& state) {
    auto& random = source<Source>();
    for (auto _ : state)
        benchmark::DoNotOptimize(pgdp::sample_truncated_laplace_noise(1.0, 1e-6, 1.0, random));
}

// ---- prepared integer samplers (what an aggregate's final function pays per release) --------

template <typename Source>
void BM_DiscreteGaussianPrepared(benchmark::State& state) {
    auto& random = source<Source>();
    const pgdp::DiscreteGaussianSampler sampler(pgdp::round_up_sigma2(6000.25L * 6000.25L));
    for (auto _ : state) benchmark::DoNotOptimize(sampler.sample_int64(random));
}
template <typename Source>
void BM_DiscreteLaplacePrepared(benchmark::State& state) {
    auto& random = source<Source>();
    const pgdp::DiscreteLaplaceSampler sampler(pgdp::laplace_scale_int(1.0, 1u << 20));
    for (auto _ : state) benchmark::DoNotOptimize(sampler.sample_int64(random));
}
template <typename Source>
void BM_TruncatedDiscreteLaplacePrepared(benchmark::State& state) {
    auto& random = source<Source>();
    const auto p = pgdp::truncated_discrete_laplace(1.0, 1e-6, (1u << 20) + 1);
    const pgdp::DiscreteLaplaceSampler sampler(p.scale_int, pgdp::BigInt(p.bound_int));
    for (auto _ : state) benchmark::DoNotOptimize(sampler.sample_int64(random));
}

// ---- one-off calibration costs ----------------------------------------------------------------

void BM_CalibrateDiscreteGaussian(benchmark::State& state) {
    const double eps = static_cast<double>(state.range(0)) / 10.0, delta = 1e-6;
    const double sigma = pgdp::analytic_gaussian_sigma(eps, delta, 1.0);
    const double g = pgdp::gaussian_granularity(sigma);
    const std::uint64_t d = pgdp::sensitivity_in_grid_units(1.0, g);
    const double start = pgdp::analytic_gaussian_sigma(eps, delta, static_cast<double>(d));
    for (auto _ : state) benchmark::DoNotOptimize(pgdp::calibrate_discrete_gaussian(eps, delta, d, start));
}
void BM_TruncatedDiscreteLaplaceParams(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(pgdp::truncated_discrete_laplace(1.0, 1e-6, (1u << 20) + 1));
}

using Seeded = pgdp::SeededRandomSource;
using Urandom = UrandomBufferedSource;
using Getrandom = GetrandomSource;

BENCHMARK_TEMPLATE(BM_GaussianNoise, Seeded);
BENCHMARK_TEMPLATE(BM_GaussianNoise, Urandom);
BENCHMARK_TEMPLATE(BM_GaussianNoise, Getrandom);
BENCHMARK_TEMPLATE(BM_LaplaceNoise, Seeded);
BENCHMARK_TEMPLATE(BM_LaplaceNoise, Urandom);
BENCHMARK_TEMPLATE(BM_LaplaceNoise, Getrandom);
BENCHMARK_TEMPLATE(BM_TruncatedLaplaceNoise, Seeded);
BENCHMARK_TEMPLATE(BM_TruncatedLaplaceNoise, Urandom);
BENCHMARK_TEMPLATE(BM_TruncatedLaplaceNoise, Getrandom);
BENCHMARK_TEMPLATE(BM_DiscreteGaussianPrepared, Seeded);
BENCHMARK_TEMPLATE(BM_DiscreteGaussianPrepared, Urandom);
BENCHMARK_TEMPLATE(BM_DiscreteLaplacePrepared, Seeded);
BENCHMARK_TEMPLATE(BM_DiscreteLaplacePrepared, Urandom);
BENCHMARK_TEMPLATE(BM_TruncatedDiscreteLaplacePrepared, Seeded);
BENCHMARK_TEMPLATE(BM_TruncatedDiscreteLaplacePrepared, Urandom);
BENCHMARK(BM_CalibrateDiscreteGaussian)->Arg(1)->Arg(10)->Arg(50)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TruncatedDiscreteLaplaceParams);

}  // namespace
