// Argument checks shared by every entry point. Each throws ArgumentError naming the argument.
#pragma once

#include <string>

namespace pgdp {

// The shortest decimal that reads back as the same double (0.7, not 0.69999999999999996), for
// messages.
std::string shown(double value);

// epsilon: finite and > 0.
void require_epsilon(double epsilon);
// delta: in the open interval (0, upper); upper is 1 unless a method needs less (e.g. 0.5).
void require_delta(double delta, double upper = 1.0, const char* why = nullptr);
// A finite, strictly positive scale-like argument: sensitivity, sigma, scale.
void require_positive(const char* argument, double value);
// alpha: in (0, 1).
void require_alpha(double alpha);
// A computed result that SQL will see: finite (and positive unless zero is allowed), or an
// ArgumentError blaming the extreme inputs. Returns value.
double require_representable(double value, const char* quantity, bool zero_allowed = false);

}  // namespace pgdp
