// The aggregates' parameters as a call gives them, shared by the aggregate tests
// (test_aggregate_release.cpp, test_variance_release.cpp).
#pragma once

#include "core/aggregate_release.hpp"

namespace pgdp_test {

inline pgdp::AggregateParameters given(double lower, double upper, double epsilon, double delta,
                                       double alpha = 0.0, bool integer_values = false) {
    pgdp::AggregateParameters p;
    p.lower = lower;
    p.upper = upper;
    p.epsilon = epsilon;
    p.delta = delta;
    p.alpha = alpha;
    p.integer_values = integer_values;
    return p;
}

}  // namespace pgdp_test
