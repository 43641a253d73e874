// The one exception type the core throws for bad arguments. The PostgreSQL shim maps it to
// SQLSTATE 22023 (invalid_parameter_value) with the message and hint given here.
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

}  // namespace pgdp
