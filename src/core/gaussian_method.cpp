#include "core/cpp_only.hpp"
#include "core/gaussian_method.hpp"

#include <array>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

constexpr std::array<std::pair<std::string_view, GaussianMethod>, 11> kMethods{{
    {"analytic", GaussianMethod::Analytic},
    {"classic", GaussianMethod::Classic},
    {"dwork2006", GaussianMethod::Dwork2006},
    {"vinterbo", GaussianMethod::Vinterbo},
    {"vinterbo_closed", GaussianMethod::VinterboClosed},
    {"zhao1", GaussianMethod::Zhao1},
    {"zhao2", GaussianMethod::Zhao2},
    {"pdp", GaussianMethod::Pdp},
    {"zhao3", GaussianMethod::Zhao3},
    {"zhao4", GaussianMethod::Zhao4},
    {"zcdp", GaussianMethod::Zcdp},
}};

}  // namespace

GaussianMethod parse_gaussian_method(std::string_view name) {
    for (const auto& [known, method] : kMethods) {
        if (known == name) return method;
    }
    throw ArgumentError(
        "method", "unknown Gaussian calibration method " + quoted(name),
        "Known methods: " + gaussian_method_list() + ". 'analytic' (the optimal sigma) is the default.");
}

std::string_view gaussian_method_name(GaussianMethod method) {
    for (const auto& [known, candidate] : kMethods) {
        if (candidate == method) return known;
    }
    return "unknown";
}

std::string gaussian_method_list() {
    std::string list;
    for (const auto& entry : kMethods) {
        if (!list.empty()) list += ", ";
        list += entry.first;
    }
    return list;
}

}  // namespace pgdp
