#include "core/cpp_only.hpp"
#include "core/validate.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/errors.hpp"

namespace pgdp {

std::string shown(double value) {
    char text[64];
    for (int digits = 6; digits <= 17; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, value);
        if (std::strtod(text, nullptr) == value || std::isnan(value)) break;
    }
    return text;
}

void require_epsilon(double epsilon) {
    if (!(std::isfinite(epsilon) && epsilon > 0.0)) {
        throw ArgumentError("epsilon",
                            "epsilon must be a finite number greater than 0, got " + shown(epsilon),
                            "epsilon bounds the privacy loss of one release; typical values lie "
                            "between 0.01 and 10.");
    }
}

void require_delta(double delta, double upper, const char* why) {
    if (std::isfinite(delta) && delta > 0.0 && delta < upper) return;
    std::string message = "delta must lie in the open interval (0, " + shown(upper) + ")";
    if (why != nullptr) message += std::string(" for ") + why;
    message += ", got " + shown(delta);
    throw ArgumentError("delta", message,
                        "delta is the probability of exceeding the epsilon bound; choose it far "
                        "below 1/n for n rows, e.g. 1e-6.");
}

void require_positive(const char* argument, double value) {
    if (std::isfinite(value) && value > 0.0) return;
    throw ArgumentError(argument,
                        std::string(argument) + " must be a finite number greater than 0, got " +
                            shown(value),
                        std::string("Pass a positive ") + argument + ", e.g. 1.");
}

void require_alpha(double alpha) {
    if (std::isfinite(alpha) && alpha > 0.0 && alpha < 1.0) return;
    throw ArgumentError("alpha", "alpha must lie in the open interval (0, 1), got " + shown(alpha),
                        "alpha is the probability that the noise exceeds the returned half-width; "
                        "0.05 gives a 95% interval.");
}

double require_representable(double value, const char* quantity, bool zero_allowed) {
    if (std::isfinite(value) && (value > 0.0 || (zero_allowed && value == 0.0))) return value;
    throw ArgumentError("epsilon",
                        std::string("the ") + quantity +
                            " is not representable as a float8 (epsilon too small or sensitivity too large)",
                        "Use a larger epsilon or a smaller sensitivity.");
}

}  // namespace pgdp
