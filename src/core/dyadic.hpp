// A dyadic rational m * 2^e with a 64-bit mantissa: every noise parameter pgdp samples with is one
// (noise.hpp rounds scales and sigma^2 up to such numbers), so release plans store them as plain
// data and build the exact rational the samplers need only when a sample is drawn.
#pragma once

#include <cstdint>

#include "core/exact_sampling.hpp"

namespace pgdp {

struct Dyadic {
    std::int64_t mantissa = 0;
    int exponent = 0;

    Rational to_rational() const;
    // Rounded to nearest: for reports (noise_sd) and checks against limits, never for sampling.
    double to_double() const;
};

// The exact dyadic equal to value; std::logic_error if value is not m * 2^e with |m| < 2^63
// (a planning error: the callers' values are dyadics with mantissas below 2^62).
Dyadic dyadic_from_rational(const Rational& value);

}  // namespace pgdp
