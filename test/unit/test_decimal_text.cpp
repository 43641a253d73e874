// The one float8 printer (src/core/decimal_text.hpp): every finite double prints as a decimal that
// reads back as the same double, that no decimal with fewer significant digits does, and that
// fits kMaxDecimalTextLength; the ledger's charged decimal is that same text.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/budget_accounting.hpp"
#include "core/decimal_text.hpp"

namespace {

// Significant digits of a decimal in to_chars' form ("-1.25e-07" has 3).
int significant_digits(const std::string& text) {
    std::string digits;
    for (char c : text) {
        if (c == 'e') break;
        if (c >= '0' && c <= '9') digits += c;
    }
    const std::size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) return 1;
    const std::size_t last = digits.find_last_not_of('0');
    return static_cast<int>(last - first + 1);
}

std::vector<double> sample_doubles() {
    std::vector<double> values = {0.1,
                                  0.7,
                                  1.0 / 3.0,
                                  5e-324,
                                  2.2250738585072014e-308,
                                  1e-300,
                                  1e300,
                                  1.7976931348623157e308,
                                  -0.0,
                                  0.0,
                                  100.0,
                                  123456.0,
                                  9007199254740993.0,
                                  0.30000000000000004};
    std::mt19937_64 generator(20240917);
    for (int i = 0; i < 20000; ++i) {
        std::uint64_t bits = generator();
        double x;
        std::memcpy(&x, &bits, sizeof x);
        if (std::isfinite(x)) values.push_back(x);
    }
    return values;
}

TEST(DecimalText, ShortestRoundTrip) {
    for (const double x : sample_doubles()) {
        const std::string text = pgdp::shown(x);
        ASSERT_EQ(std::strtod(text.c_str(), nullptr), x) << text;
        EXPECT_EQ(std::signbit(std::strtod(text.c_str(), nullptr)), std::signbit(x)) << text;
        EXPECT_LE(text.size(), pgdp::kMaxDecimalTextLength) << text;
        // One significant digit fewer (correctly rounded by printf) no longer reads back as x.
        // Integers below 1e22 print in full when that is no longer than the exponent form
        // ("1123080345044722816"): their trailing digits are not a choice, so they are skipped.
        const bool full_integer = text.find_first_of(".e") == std::string::npos;
        const int digits = significant_digits(text);
        if (digits > 1 && !full_integer) {
            char fewer[64];
            std::snprintf(fewer, sizeof fewer, "%.*e", digits - 2, x);
            EXPECT_NE(std::strtod(fewer, nullptr), x) << text << " vs " << fewer;
        }
    }
}

TEST(DecimalText, NonFiniteSpelledAsPostgreSQLDoes) {
    EXPECT_EQ(pgdp::shown(std::numeric_limits<double>::quiet_NaN()), "NaN");
    EXPECT_EQ(pgdp::shown(std::numeric_limits<double>::infinity()), "Infinity");
    EXPECT_EQ(pgdp::shown(-std::numeric_limits<double>::infinity()), "-Infinity");
}

TEST(DecimalText, ChargedDecimalIsTheShownTextAndNeverNonFinite) {
    for (const double x : sample_doubles()) EXPECT_EQ(pgdp::shortest_decimal(x), pgdp::shown(x));
    EXPECT_THROW(pgdp::shortest_decimal(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
    EXPECT_THROW(pgdp::shortest_decimal(std::numeric_limits<double>::infinity()), std::invalid_argument);
}

}  // namespace
