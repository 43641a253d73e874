#include "unit/privacy_audit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/normal.hpp>

namespace pgdp_test {

// The lower bound is the level-quantile of Beta(hits, trials - hits + 1), the upper bound the
// (1 - level)-quantile of Beta(hits + 1, trials - hits) (Clopper and Pearson 1934; e.g. Brown,
// Cai, DasGupta 2001, eq. 4), each exact for its one side.
double clopper_pearson_lower(std::size_t hits, std::size_t trials, double level) {
    if (hits == 0) return 0.0;
    const boost::math::beta_distribution<double> law(static_cast<double>(hits),
                                                     static_cast<double>(trials - hits + 1));
    return boost::math::quantile(law, level);
}

double clopper_pearson_upper(std::size_t hits, std::size_t trials, double level) {
    if (hits == trials) return 1.0;
    const boost::math::beta_distribution<double> law(static_cast<double>(hits + 1),
                                                     static_cast<double>(trials - hits));
    return boost::math::quantile(boost::math::complement(law, level));
}

std::vector<double> audit_thresholds(std::vector<double> pilot, const AuditSettings& settings) {
    std::sort(pilot.begin(), pilot.end());
    std::vector<double> thresholds;
    if (pilot.empty()) return thresholds;
    const double n = static_cast<double>(pilot.size());
    const double levels = static_cast<double>(settings.tail_levels);
    const double ratio = std::pow(settings.smallest_tail / 0.5, 1.0 / std::max(levels - 1.0, 1.0));
    for (std::size_t i = 0; i < settings.tail_levels; ++i) {
        const double tail = 0.5 * std::pow(ratio, static_cast<double>(i));
        const auto low = static_cast<std::size_t>(std::floor(tail * (n - 1)));
        thresholds.push_back(pilot[low]);
        thresholds.push_back(pilot[pilot.size() - 1 - low]);
    }
    std::sort(thresholds.begin(), thresholds.end());
    thresholds.erase(std::unique(thresholds.begin(), thresholds.end()), thresholds.end());
    return thresholds;
}

namespace {

// Releases of one side, sorted, counting those above or below a threshold.
class SortedReleases {
public:
    explicit SortedReleases(std::vector<double> releases) : releases_(std::move(releases)) {
        for (double x : releases_) {
            if (std::isnan(x)) throw std::invalid_argument("a release is NaN: no threshold event orders it");
        }
        std::sort(releases_.begin(), releases_.end());
    }
    std::size_t size() const { return releases_.size(); }
    std::size_t hits(const AuditEvent& event) const {
        if (event.above) {
            return static_cast<std::size_t>(
                releases_.end() - std::upper_bound(releases_.begin(), releases_.end(), event.threshold));
        }
        return static_cast<std::size_t>(
            std::lower_bound(releases_.begin(), releases_.end(), event.threshold) - releases_.begin());
    }

private:
    std::vector<double> releases_;
};

// Every event {M > t}, {M < t} of the thresholds in both directions, with its Clopper-Pearson
// bounds at `level`: visit(witness), where witness.likely_lower bounds the likelier side's
// probability from below and witness.unlikely_upper the other side's from above.
template <typename Visit>
void for_each_event(const SortedReleases& d, const SortedReleases& d_prime,
                    const std::vector<double>& thresholds, double level, Visit visit) {
    for (double threshold : thresholds) {
        for (bool above : {true, false}) {
            const AuditEvent event{threshold, above};
            const std::size_t hits_d = d.hits(event);
            const std::size_t hits_d_prime = d_prime.hits(event);
            for (bool d_prime_likelier : {true, false}) {
                const double lower = clopper_pearson_lower(d_prime_likelier ? hits_d_prime : hits_d,
                                                           (d_prime_likelier ? d_prime : d).size(), level);
                const double upper = clopper_pearson_upper(d_prime_likelier ? hits_d : hits_d_prime,
                                                           (d_prime_likelier ? d : d_prime).size(), level);
                visit(AuditWitness{event, d_prime_likelier, lower, upper});
            }
        }
    }
}

// Each one-sided bound at failure_probability / (4 events) (Bonferroni over all of them).
double bound_level(std::size_t events, double failure_probability) {
    return failure_probability / (4.0 * static_cast<double>(std::max<std::size_t>(events, 1)));
}

// "[audit] name: <what> <value> of declared <declared> (<share>%), event ...; N events, M per side".
std::string audit_line(const std::string& name, const char* what, double value, double declared,
                       const AuditWitness& w, std::size_t events, std::size_t releases_per_side) {
    std::ostringstream out;
    out.precision(4);
    out << "[audit] " << name << ": " << what << " " << value << " of declared " << declared << " ("
        << 100.0 * value / declared << "%)";
    if (value > 0.0) {
        out << ", event {M " << (w.event.above ? ">" : "<") << " " << w.event.threshold << "}: P["
            << (w.d_prime_likelier ? "D'" : "D") << "] >= " << w.likely_lower << ", P["
            << (w.d_prime_likelier ? "D" : "D'") << "] <= " << w.unlikely_upper;
    }
    out << "; " << events << " events, " << releases_per_side << " releases per side";
    return out.str();
}

}  // namespace

AuditResult epsilon_lower_bound(std::vector<double> on_d, std::vector<double> on_d_prime,
                                const std::vector<double>& thresholds, double delta,
                                double failure_probability) {
    const SortedReleases d(std::move(on_d));
    const SortedReleases d_prime(std::move(on_d_prime));
    if (d.size() == 0 || d_prime.size() == 0) throw std::invalid_argument("no releases to audit");
    AuditResult result;
    result.events = 2 * thresholds.size();
    result.bound_level = bound_level(result.events, failure_probability);
    result.releases_per_side = std::min(d.size(), d_prime.size());
    for_each_event(d, d_prime, thresholds, result.bound_level, [&](const AuditWitness& w) {
        if (w.likely_lower - delta <= 0.0) return;
        const double epsilon = std::log((w.likely_lower - delta) / w.unlikely_upper);
        if (epsilon > result.epsilon_lower_bound) {
            result.epsilon_lower_bound = epsilon;
            result.witness = w;
        }
    });
    return result;
}

MuAuditResult mu_lower_bound(std::vector<double> on_d, std::vector<double> on_d_prime,
                             const std::vector<double>& thresholds, double failure_probability) {
    const SortedReleases d(std::move(on_d));
    const SortedReleases d_prime(std::move(on_d_prime));
    if (d.size() == 0 || d_prime.size() == 0) throw std::invalid_argument("no releases to audit");
    const boost::math::normal_distribution<double> standard;
    MuAuditResult result;
    result.events = 2 * thresholds.size();
    result.releases_per_side = std::min(d.size(), d_prime.size());
    for_each_event(d, d_prime, thresholds, bound_level(result.events, failure_probability),
                   [&](const AuditWitness& w) {
                       if (w.likely_lower <= 0.0 || w.unlikely_upper >= 1.0) return;
                       const double mu = boost::math::quantile(standard, w.likely_lower) -
                                         boost::math::quantile(standard, w.unlikely_upper);
                       if (mu > result.mu_lower_bound) {
                           result.mu_lower_bound = mu;
                           result.witness = w;
                       }
                   });
    return result;
}

void expect_mu_audit_within(const std::string& name, const MuAuditResult& result, double declared_mu,
                            double power_fraction) {
    const std::string line = audit_line(name, "mu_lb", result.mu_lower_bound, declared_mu, result.witness,
                                        result.events, result.releases_per_side);
    std::cout << line << "\n";
    EXPECT_LE(result.mu_lower_bound, declared_mu) << line;
    EXPECT_GE(result.mu_lower_bound, power_fraction * declared_mu) << line;
}

std::string describe_audit(const std::string& name, const AuditResult& result, double declared_epsilon) {
    return audit_line(name, "epsilon_lb", result.epsilon_lower_bound, declared_epsilon, result.witness,
                      result.events, result.releases_per_side);
}

void expect_audit_within(const std::string& name, const AuditResult& result, double declared_epsilon,
                         double power_fraction) {
    const std::string line = describe_audit(name, result, declared_epsilon);
    std::cout << line << "\n";
    EXPECT_LE(result.epsilon_lower_bound, declared_epsilon) << line;
    EXPECT_GE(result.epsilon_lower_bound, power_fraction * declared_epsilon) << line;
}

}  // namespace pgdp_test
