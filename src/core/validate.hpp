// Argument checks shared by every entry point. Each throws ArgumentError naming the argument
// (SQLSTATE 22023), or RangeError for valid arguments whose result is out of range (22003).
#pragma once

#include "core/errors.hpp"

#include <cstdint>
#include <string>
#include <string_view>

#include "core/decimal_text.hpp"

namespace pgdp {

// shown(value), a float8 argument as the user wrote it in messages: core/decimal_text.hpp.

// Longest user-supplied text a message echoes, in characters; longer text is cut and ends in "...".
constexpr std::size_t kMaxEchoedCharacters = 40;
// A user-supplied text for messages: double-quoted, at most kMaxEchoedCharacters UTF-8
// characters (cut at a character boundary, then "..." inside the quotes).
std::string quoted(std::string_view text);

// The least epsilon and delta accepted: 1e-300. Smaller positive float8s are near or below the
// subnormal range (2.2e-308), where a float8 holds fewer significant bits and the one-ulp-below
// calibration of a release (budget_accounting.hpp) can turn 5e-324 into 0; no meaningful release
// or calibration needs them.
constexpr double kMinEpsilonDelta = 1e-300;

// epsilon: finite and >= kMinEpsilonDelta.
void require_epsilon(double epsilon);
// (Below the floor it throws EpsilonFloorError.)
// delta: in [kMinEpsilonDelta, upper); upper is 1 unless
// a method needs less (e.g. 0.5).
void require_delta(double delta, double upper = 1.0, const char* why = nullptr);
// A finite, strictly positive scale-like argument: sensitivity, sigma, scale.
void require_positive(const char* argument, double value);
// alpha: in (0, 1).
void require_alpha(double alpha);

// The most groups one privacy unit may contribute to (max_groups_contributed, m) that release
// plans and partition selection accept.
constexpr std::int64_t kMaxGroupsPerUnit = 1000000;
// max_groups_contributed: an integer in [1, kMaxGroupsPerUnit].
void require_groups_per_unit(std::int64_t groups_per_unit);
// A computed result that SQL will see: finite (and positive unless zero is allowed), or a
// RangeError blaming the extreme inputs. Returns value.
double require_representable(double value, const char* quantity, bool zero_allowed = false);

// The largest noise scale (Gaussian sigma, Laplace scale) of the standalone samplers
// gaussian_noise and laplace_noise: 2^47. Their samples are multiples of a grid of at most 1
// and must stay below 2^53 grid steps to be exact float8s; at 2^47 that fails with probability
// below exp(-64) (Laplace) and far less (Gaussian), so the limit is checked up front.
constexpr double kMaxSamplerScale = 140737488355328.0;  // 2^47
// argument (sigma or scale) must lie in (0, kMaxSamplerScale].
void require_sampler_scale(const char* argument, double scale);

// The largest Laplace scale of an aggregate's release, in grid units: 2^57. Release noise is
// drawn as a 64-bit integer; at 2^57 a draw exceeds 2^63 with probability below exp(-64), so a
// plan beyond it is refused when it is made, before it is charged.
constexpr double kMaxReleaseScaleSteps = 144115188075855872.0;  // 2^57
// The largest Gaussian sigma of a release in grid units: the exact discrete profile is
// evaluated up to 1e9 (calibrate_discrete_gaussian, src/core/noise.cpp).
constexpr double kMaxReleaseSigmaSteps = 1e9;
// RangeError naming epsilon if scale_in_grid_steps exceeds max_steps (or is NaN); max_text
// spells max_steps for the message ("2^57").
void require_release_scale(double scale_in_grid_steps, double max_steps, const char* max_text);

// Clamping bounds a release plan can use: when both are finite, upper - lower must be finite and
// a nonzero bound must not be subnormal (its sensitivity and scales would underflow); otherwise
// ArgumentError naming "lower"/"upper" as the user gave them.
void require_usable_bounds(double lower, double upper);

}  // namespace pgdp
