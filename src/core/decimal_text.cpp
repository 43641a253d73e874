#include "core/cpp_only.hpp"
#include "core/decimal_text.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <system_error>

namespace pgdp {

std::string shown(double value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);  // shortest round trip
    if (result.ec != std::errc()) throw std::runtime_error("shown: conversion failed");
    return std::string(buffer, result.ptr);
}

}  // namespace pgdp
