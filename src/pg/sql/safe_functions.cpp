// Functions that cannot fail, for expressions over protected rows read with DP-only access
// (issue 11): every input gives a value or NULL, never an error, so they are declared LEAKPROOF
// (extension/pgdp.sql.in "DP-only access"). Built-in arithmetic can raise an error on some values
// (division by zero, overflow), which would show a person's value beside the release.

#include "pg/base/postgres_headers.hpp"

#include <cmath>
#include <cstdint>

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_bucket_float8);
PG_FUNCTION_INFO_V1(pgdp_bucket_int8);
PG_FUNCTION_INFO_V1(pgdp_clamp_float8);

// floor(value / width) * width; NULL when width is not a positive finite number, or value or the
// result is not finite.
Datum pgdp_bucket_float8(PG_FUNCTION_ARGS) {
    const double value = PG_GETARG_FLOAT8(0);
    const double width = PG_GETARG_FLOAT8(1);
    if (!(width > 0.0) || !std::isfinite(width) || !std::isfinite(value)) PG_RETURN_NULL();
    const double start = std::floor(value / width) * width;
    if (!std::isfinite(start)) PG_RETURN_NULL();
    PG_RETURN_FLOAT8(start);
}

// The largest multiple of width <= value; NULL when width <= 0 or the multiple is below the
// bigint range.
Datum pgdp_bucket_int8(PG_FUNCTION_ARGS) {
    const __int128 value = PG_GETARG_INT64(0);
    const __int128 width = PG_GETARG_INT64(1);
    if (width <= 0) PG_RETURN_NULL();
    __int128 quotient = value / width;
    if (quotient * width > value) quotient -= 1;  // C++ division truncates toward zero
    const __int128 start = quotient * width;
    if (start < INT64_MIN) PG_RETURN_NULL();
    PG_RETURN_INT64(static_cast<int64>(start));
}

// value limited to [lower, upper]; NULL when a bound is NaN or lower > upper.
Datum pgdp_clamp_float8(PG_FUNCTION_ARGS) {
    const double value = PG_GETARG_FLOAT8(0);
    const double lower = PG_GETARG_FLOAT8(1);
    const double upper = PG_GETARG_FLOAT8(2);
    if (std::isnan(lower) || std::isnan(upper) || lower > upper) PG_RETURN_NULL();
    if (std::isnan(value)) PG_RETURN_NULL();
    PG_RETURN_FLOAT8(std::fmin(std::fmax(value, lower), upper));
}

}  // extern "C"
