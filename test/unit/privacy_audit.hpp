// An empirical privacy audit: a statistical lower bound on the epsilon a release mechanism spends,
// from many releases on two neighbouring datasets (docs/statistics/audit.md).
//
// If M is (epsilon, delta)-DP, every event S satisfies P[M(D) in S] <= e^epsilon P[M(D') in S] +
// delta, and the same with D and D' swapped. For each event of a family fixed before the releases
// are drawn, the audit bounds the likelier side's probability from below and the other side's
// from above (Clopper-Pearson, Clopper and Pearson 1934), and reports
//
//     epsilon_lb = max over events and both directions of ln((p_lower - delta) / p_upper),
//
// floored at 0. All 4 one-sided bounds of every event hold together with probability >=
// 1 - failure_probability (Bonferroni: each at failure_probability / (4 events)), and then
// epsilon_lb <= epsilon. A test asserting epsilon_lb <= epsilon therefore fails a correct
// mechanism with probability <= failure_probability, and fails a mechanism that leaks beyond
// its (epsilon, delta) once the releases are many enough to show it.
//
// The events are threshold events {M > t} and {M < t} of a scalar release; a mechanism whose
// release is a vector is audited through a scalar statistic of it (a coordinate, their sum),
// which is post-processing and so cannot show more than the vector's epsilon.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "core/random_source.hpp"

namespace pgdp_test {

struct AuditSettings {
    std::size_t releases_per_side = 200000;
    // Releases per side, drawn from their own random streams, that only place the thresholds:
    // the events are fixed before the audited releases are drawn.
    std::size_t pilot_releases_per_side = 20000;
    // Tail probabilities of the thresholds: 0.5 down to smallest_tail geometrically, in each tail
    // of the pilot releases pooled, tail_levels per tail (2 tail_levels thresholds at most).
    std::size_t tail_levels = 24;
    double smallest_tail = 1e-4;
    // alpha: the probability that some Clopper-Pearson bound of the audit is wrong (then, and
    // only then, epsilon_lb may exceed the true epsilon).
    double failure_probability = 1e-5;
    std::uint64_t seed = 1;
    // Each side is drawn by this many threads, each from its own seeded stream (the releases do
    // not depend on the machine's core count).
    unsigned threads = 2;
};

// The settings with `releases_per_side` releases on each side and a pilot of a tenth of that: for
// mechanisms whose release is costly (a vector of many noisy counts) or whose audit reaches its
// power with fewer releases. The Clopper-Pearson bounds widen as 1/sqrt(releases): at 2e4 per side a
// Laplace-family audit at epsilon 1 still shows about 90 % of epsilon (docs/statistics/audit.md).
inline AuditSettings audit_settings_with(std::size_t releases_per_side) {
    AuditSettings settings;
    settings.releases_per_side = releases_per_side;
    settings.pilot_releases_per_side = releases_per_side / 10;
    return settings;
}

// {M > threshold} (above) or {M < threshold}.
struct AuditEvent {
    double threshold = 0.0;
    bool above = true;
};

// The event and direction that attain epsilon_lb: P[likelier side in event] >= likely_lower and
// P[other side in event] <= unlikely_upper, the likelier side being D' if d_prime_likelier.
struct AuditWitness {
    AuditEvent event;
    bool d_prime_likelier = false;
    double likely_lower = 0.0;
    double unlikely_upper = 1.0;
};

struct AuditResult {
    double epsilon_lower_bound = 0.0;  // >= 0
    AuditWitness witness;              // meaningful when epsilon_lower_bound > 0
    std::size_t events = 0;            // events tested
    double bound_level = 0.0;          // failure probability of each one-sided bound
    std::size_t releases_per_side = 0;
};

// Clopper-Pearson bounds on a binomial proportion from `hits` of `trials`: P[lower > p] <= level
// and P[upper < p] <= level (the beta quantiles of Boost.Math).
double clopper_pearson_lower(std::size_t hits, std::size_t trials, double level);
double clopper_pearson_upper(std::size_t hits, std::size_t trials, double level);

// The thresholds (sorted, distinct) at the pooled pilot releases' quantiles of the settings'
// tail probabilities.
std::vector<double> audit_thresholds(std::vector<double> pilot, const AuditSettings& settings);

// epsilon_lb from releases on D and D' (any order; NaN is rejected with std::invalid_argument)
// over the events {M > t}, {M < t} of every threshold, against the declared delta.
AuditResult epsilon_lower_bound(std::vector<double> on_d, std::vector<double> on_d_prime,
                                const std::vector<double>& thresholds, double delta,
                                double failure_probability);

// `count` releases mechanism(dataset, random) -> double, split over `threads` threads, thread w
// drawing from SeededRandomSource(stream_seed + w). The mechanism must be safe to call from
// several threads at once (plans are plain data; the randomness is the thread's own).
template <typename Mechanism, typename Dataset>
std::vector<double> draw_releases(const Mechanism& mechanism, const Dataset& dataset, std::size_t count,
                                  std::uint64_t stream_seed, unsigned threads) {
    std::vector<double> releases(count);
    std::vector<std::exception_ptr> errors(threads);
    std::vector<std::thread> workers;
    for (unsigned w = 0; w < threads; ++w) {
        workers.emplace_back([&, w] {
            try {
                pgdp::SeededRandomSource random(stream_seed + w);
                for (std::size_t i = count * w / threads; i < count * (w + 1) / threads; ++i) {
                    releases[i] = mechanism(dataset, random);
                }
            } catch (...) {
                errors[w] = std::current_exception();
            }
        });
    }
    for (auto& worker : workers) worker.join();
    for (const auto& error : errors) {
        if (error) std::rethrow_exception(error);
    }
    return releases;
}

// An audit's releases: pilot releases place the thresholds, then releases_per_side on each side.
struct AuditDraws {
    std::vector<double> thresholds;
    std::vector<double> on_d;
    std::vector<double> on_d_prime;
};
template <typename Mechanism, typename Dataset>
AuditDraws draw_audit(const Mechanism& mechanism, const Dataset& d, const Dataset& d_prime,
                      const AuditSettings& settings) {
    // Four disjoint families of streams: (pilot, main) x (D, D').
    const std::uint64_t base = settings.seed * 4096;
    const unsigned t = settings.threads;
    std::vector<double> pilot = draw_releases(mechanism, d, settings.pilot_releases_per_side, base, t);
    const std::vector<double> pilot_prime =
        draw_releases(mechanism, d_prime, settings.pilot_releases_per_side, base + 1024, t);
    pilot.insert(pilot.end(), pilot_prime.begin(), pilot_prime.end());
    AuditDraws draws;
    draws.thresholds = audit_thresholds(std::move(pilot), settings);
    draws.on_d = draw_releases(mechanism, d, settings.releases_per_side, base + 2048, t);
    draws.on_d_prime = draw_releases(mechanism, d_prime, settings.releases_per_side, base + 3072, t);
    return draws;
}

// The audit of mechanism(dataset, random) -> double on neighbours D and D' at the declared delta
// (0 for pure DP).
template <typename Mechanism, typename Dataset>
AuditResult audit_mechanism(const Mechanism& mechanism, const Dataset& d, const Dataset& d_prime,
                            double delta, const AuditSettings& settings = {}) {
    AuditDraws draws = draw_audit(mechanism, d, d_prime, settings);
    return epsilon_lower_bound(std::move(draws.on_d), std::move(draws.on_d_prime), draws.thresholds, delta,
                               settings.failure_probability);
}

// A mechanism whose release is a vector (per-group releases, histogram bins, quantiles), audited
// through a scalar statistic of it: through_statistic(mechanism, statistic)(dataset, random) is
// statistic(mechanism(dataset, random)). Post-processing: it shows at most the vector's epsilon.
template <typename Mechanism, typename Statistic>
auto through_statistic(Mechanism mechanism, Statistic statistic) {
    return [mechanism, statistic](const auto& dataset, pgdp::RandomSource& random) {
        return statistic(mechanism(dataset, random));
    };
}

// Statistics of a vector release: one coordinate, and the sum of all (for m equal shifts of
// Gaussian coordinates the sum is the likelihood ratio's sufficient statistic).
inline auto coordinate(std::size_t index) {
    return [index](const std::vector<double>& release) { return release.at(index); };
}
inline double sum_of_coordinates(const std::vector<double>& release) {
    double total = 0.0;
    for (double x : release) total += x;
    return total;
}

// ---- Gaussian releases: a lower bound on mu (Gaussian differential privacy)
//
// A release the ledger charges to the Gaussian part declares more than (epsilon, delta): it is
// mu-GDP with mu^2 its charge's gaussian_mu2 (docs/privacy.md "Gaussian composition"; Dong, Roth
// and Su 2019, the trade-off function G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu)). Then every event
// S satisfies P[M(D') in S] <= Phi(mu + Phi^-1(P[M(D) in S])), i.e.
//
//     mu >= Phi^-1(P[M(D') in S]) - Phi^-1(P[M(D) in S])        (and with D, D' swapped),
//
// and mu_lb is the largest right-hand side over the events with the Clopper-Pearson bounds put in
// (lower on the likelier side, upper on the other), at the same Bonferroni level as the epsilon
// audit. Unlike epsilon at delta = 1e-5, which only the far tails show, mu shows in the bulk of
// the releases, so a Gaussian planned for too small a sensitivity (e.g. for one group where a
// unit reaches two) is caught with a few ten thousand releases.
struct MuAuditResult {
    double mu_lower_bound = 0.0;  // >= 0
    AuditWitness witness;         // the event and the bounds attaining it
    std::size_t events = 0;
    std::size_t releases_per_side = 0;
};
MuAuditResult mu_lower_bound(std::vector<double> on_d, std::vector<double> on_d_prime,
                             const std::vector<double>& thresholds, double failure_probability);

template <typename Mechanism, typename Dataset>
MuAuditResult audit_mechanism_mu(const Mechanism& mechanism, const Dataset& d, const Dataset& d_prime,
                                 const AuditSettings& settings = {}) {
    AuditDraws draws = draw_audit(mechanism, d, d_prime, settings);
    return mu_lower_bound(std::move(draws.on_d), std::move(draws.on_d_prime), draws.thresholds,
                          settings.failure_probability);
}

// mu_lb <= declared mu (soundness) and mu_lb >= power_fraction * declared mu (power). Prints a line.
void expect_mu_audit_within(const std::string& name, const MuAuditResult& result, double declared_mu,
                            double power_fraction);

// One line for the test log: "[audit] name: epsilon_lb ... of declared epsilon ..., event ...".
std::string describe_audit(const std::string& name, const AuditResult& result, double declared_epsilon);

// The two assertions of an audit: epsilon_lb <= declared epsilon (soundness: the mechanism leaks
// no more than declared, up to failure_probability) and epsilon_lb >= power_fraction * declared
// epsilon (the audit had the power to see most of the declared epsilon, so it did not pass
// vacuously; 0 skips it). Prints describe_audit.
void expect_audit_within(const std::string& name, const AuditResult& result, double declared_epsilon,
                         double power_fraction);

}  // namespace pgdp_test
