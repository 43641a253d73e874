// The exception types the core throws for problems a user can fix. The PostgreSQL shim maps
// ArgumentError to SQLSTATE 22023 (invalid_parameter_value) and RangeError to 22003
// (numeric_value_out_of_range), each with its message and hint (src/pg/base/cpp_boundary.hpp). Any
// other exception is a bug or a library's failure: its text goes to the server log only.
#pragma once

#include <stdexcept>
#include <string>

namespace pgdp {

class ArgumentError : public std::invalid_argument {
public:
    ArgumentError(std::string argument, const std::string& message, std::string hint)
        : std::invalid_argument(message), argument_(std::move(argument)), hint_(std::move(hint)) {}

    // Name of the SQL argument at fault, e.g. "epsilon".
    const std::string& argument() const noexcept { return argument_; }
    const std::string& hint() const noexcept { return hint_; }

private:
    std::string argument_;
    std::string hint_;
};

// epsilon below the floor kMinEpsilonDelta (validate.hpp require_epsilon): a release that splits
// its epsilon into parts rethrows it naming the call's epsilon (plan_aggregate_release).
class EpsilonFloorError : public ArgumentError {
public:
    using ArgumentError::ArgumentError;
};

// Valid arguments whose result a float8 (or pgdp's exact samplers) cannot hold.
class RangeError : public std::overflow_error {
public:
    RangeError(std::string argument, const std::string& message, std::string hint)
        : std::overflow_error(message), argument_(std::move(argument)), hint_(std::move(hint)) {}

    // Name of the SQL argument to change, e.g. "epsilon".
    const std::string& argument() const noexcept { return argument_; }
    const std::string& hint() const noexcept { return hint_; }

private:
    std::string argument_;
    std::string hint_;
};

}  // namespace pgdp
