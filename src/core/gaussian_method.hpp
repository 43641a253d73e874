// The Gaussian calibrations pgdp offers, by SQL name.
#pragma once

#include <string>
#include <string_view>

namespace pgdp {

enum class GaussianMethod {
    Analytic,        // optimal sigma, Balle-Wang condition (002 Thm 2, 000 eq. 11, 001 Thm 5.18)
    Classic,         // Dwork-Roth sqrt(2 ln(1.25/delta)) (001 Thm 5.9), epsilon <= 1
    Dwork2006,       // sqrt(2 ln(2/delta)) (002 eq. 1), epsilon <= 1
    Vinterbo,        // 000 Thm 5 eq. (8)
    VinterboClosed,  // 000 Thm 5 eq. (9)
    Zhao1,           // 002 Thm 4 (Mechanism 1)
    Zhao2,           // 002 Thm 5 (Mechanism 2), delta < 0.5
    Pdp,             // 002 Thm 6 (pDP-OPT)
    Zhao3,           // 002 Thm 8 (Mechanism 3)
    Zhao4,           // 002 Thm 9 (Mechanism 4)
    Zcdp,            // 002 Sec. VII (zCDP / RDP conversion)
};

// Parses a method name (exact, lower case). Throws ArgumentError(argument "method") listing the
// known names when the name is unknown.
GaussianMethod parse_gaussian_method(std::string_view name);
std::string_view gaussian_method_name(GaussianMethod method);
// "analytic, classic, dwork2006, ..." for messages and docs.
std::string gaussian_method_list();

}  // namespace pgdp
