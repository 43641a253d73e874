#include "core/cpp_only.hpp"
#include "core/validate.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "core/errors.hpp"

namespace pgdp {

std::string quoted(std::string_view text) {
    std::size_t characters = 0;
    std::size_t end = 0;
    // A UTF-8 character starts at every byte that is not a continuation byte (10xxxxxx).
    for (; end < text.size(); ++end) {
        const bool starts_character = (static_cast<unsigned char>(text[end]) & 0xC0) != 0x80;
        if (starts_character && ++characters > kMaxEchoedCharacters) break;
    }
    std::string result = "\"";
    result.append(text.substr(0, end));
    if (end < text.size()) result += "...";
    result += '"';
    return result;
}

namespace {

// The floor shared by epsilon and delta. One ulp below it passes too: releases are calibrated
// one ulp below their arguments (calibration_below) and the samplers check those again.
bool below_floor(double value) { return value < std::nextafter(kMinEpsilonDelta, 0.0); }

std::string below_floor_message(const char* argument, double value) {
    return std::string(argument) + " must be at least " + shown(kMinEpsilonDelta) + ", got " + shown(value);
}

}  // namespace

void require_epsilon(double epsilon) {
    const char* hint =
        "epsilon bounds the privacy loss of one release; typical values lie between 0.01 and 10.";
    if (!(std::isfinite(epsilon) && epsilon > 0.0)) {
        throw ArgumentError("epsilon",
                            "epsilon must be a finite number greater than 0, got " + shown(epsilon), hint);
    }
    if (below_floor(epsilon)) {
        throw EpsilonFloorError("epsilon", below_floor_message("epsilon", epsilon), hint);
    }
}

void require_delta(double delta, double upper, const char* why) {
    const char* hint =
        "delta is the probability of exceeding the epsilon bound; choose it far below 1/n for n "
        "rows, e.g. 1e-6.";
    if (!(std::isfinite(delta) && delta > 0.0 && delta < upper)) {
        std::string message = "delta must lie in the open interval (0, " + shown(upper) + ")";
        if (why != nullptr) message += std::string(" for ") + why;
        message += ", got " + shown(delta);
        throw ArgumentError("delta", message, hint);
    }
    if (below_floor(delta)) {
        throw ArgumentError("delta", below_floor_message("delta", delta), hint);
    }
}

void require_positive(const char* argument, double value) {
    if (std::isfinite(value) && value > 0.0) return;
    throw ArgumentError(
        argument, std::string(argument) + " must be a finite number greater than 0, got " + shown(value),
        std::string("Pass a positive ") + argument + ", e.g. 1.");
}

void require_groups_per_unit(std::int64_t groups_per_unit) {
    if (groups_per_unit >= 1 && groups_per_unit <= kMaxGroupsPerUnit) return;
    throw ArgumentError("max_groups_contributed",
                        "max_groups_contributed must lie in [1, " + std::to_string(kMaxGroupsPerUnit) +
                            "], got " + std::to_string(groups_per_unit),
                        "max_groups_contributed is the number of groups one privacy unit may contribute to, "
                        "e.g. 1.");
}

void require_alpha(double alpha) {
    if (std::isfinite(alpha) && alpha > 0.0 && alpha < 1.0) return;
    throw ArgumentError("alpha", "alpha must lie in the open interval (0, 1), got " + shown(alpha),
                        "alpha is the probability that the noise exceeds the returned half-width; "
                        "0.05 gives a 95% interval.");
}

double require_representable(double value, const char* quantity, bool zero_allowed) {
    if (std::isfinite(value) && (value > 0.0 || (zero_allowed && value == 0.0))) return value;
    throw RangeError("epsilon",
                     std::string("the ") + quantity +
                         " is not representable as a float8 (epsilon too small or sensitivity too large)",
                     "Use a larger epsilon or a smaller sensitivity.");
}

void require_sampler_scale(const char* argument, double scale) {
    require_positive(argument, scale);
    if (scale <= kMaxSamplerScale) return;
    throw ArgumentError(argument,
                        std::string(argument) + " must be at most " + shown(kMaxSamplerScale) +
                            " (2^47), got " + shown(scale),
                        std::string("Samples are drawn exactly on a grid of at most 1 and must stay below "
                                    "2^53 grid steps. For more noise, scale a smaller draw: c * ") +
                            (std::string(argument) == "sigma" ? "gaussian_noise" : "laplace_noise") +
                            "(x / c) is noise of " + argument + " x.");
}

void require_release_scale(double scale_in_grid_steps, double max_steps, const char* max_text) {
    if (scale_in_grid_steps <= max_steps) return;
    throw RangeError("epsilon",
                     "epsilon is too small for this release: its noise scale would be " +
                         shown(scale_in_grid_steps) + " grid steps, more than the " + max_text +
                         " that pgdp can draw exactly",
                     "Use a larger epsilon (for dp_sum and dp_mean, narrower bounds also help).");
}

void require_usable_bounds(double lower, double upper) {
    if (!std::isfinite(lower) || !std::isfinite(upper)) return;  // check_bounds reports these
    if (!std::isfinite(upper - lower)) {
        throw ArgumentError("upper",
                            "lower (" + shown(lower) + ") and upper (" + shown(upper) +
                                ") are too far apart: upper - lower is not a finite number",
                            "Use bounds whose difference is below 1.7e308.");
    }
    const char* names[2] = {"lower", "upper"};
    const double bounds[2] = {lower, upper};
    for (int i = 0; i < 2; ++i) {
        if (bounds[i] != 0.0 && std::fabs(bounds[i]) < std::numeric_limits<double>::min()) {
            throw ArgumentError(names[i],
                                std::string(names[i]) +
                                    " must be 0 or at least 2.2250738585072014e-308 in "
                                    "magnitude, got " +
                                    shown(bounds[i]),
                                "Scale the values up, or use 0.");
        }
    }
}

}  // namespace pgdp
