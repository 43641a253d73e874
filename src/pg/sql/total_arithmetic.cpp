// Total forms of integer and float arithmetic and width_bucket (docs/privacy.md "What a DP-only analyst may
// compute"): the built-in's result, or NULL exactly where the built-in raises (integer overflow,
// division by zero, float overflow and underflow as float.h's checks define them). C code only:
// nothing here may be unwound by ereport.

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "utils/fmgrprotos.h"
}

#include <cmath>
#include <cstdint>

extern "C" {
PG_FUNCTION_INFO_V1(pgdp_total_int4_add);
PG_FUNCTION_INFO_V1(pgdp_total_int4_sub);
PG_FUNCTION_INFO_V1(pgdp_total_int4_mul);
PG_FUNCTION_INFO_V1(pgdp_total_int4_div);
PG_FUNCTION_INFO_V1(pgdp_total_int4_abs);
PG_FUNCTION_INFO_V1(pgdp_total_int8_add);
PG_FUNCTION_INFO_V1(pgdp_total_int8_sub);
PG_FUNCTION_INFO_V1(pgdp_total_int8_mul);
PG_FUNCTION_INFO_V1(pgdp_total_int8_div);
PG_FUNCTION_INFO_V1(pgdp_total_int8_abs);
PG_FUNCTION_INFO_V1(pgdp_total_float8_add);
PG_FUNCTION_INFO_V1(pgdp_total_float8_sub);
PG_FUNCTION_INFO_V1(pgdp_total_float8_mul);
PG_FUNCTION_INFO_V1(pgdp_total_float8_div);
PG_FUNCTION_INFO_V1(pgdp_total_width_bucket_float8);

// int4pl, int4mi, int4mul, int8pl, int8mi, int8mul: NULL where the result overflows.
Datum pgdp_total_int4_add(PG_FUNCTION_ARGS) {
    int32 result = 0;
    if (__builtin_add_overflow(PG_GETARG_INT32(0), PG_GETARG_INT32(1), &result)) PG_RETURN_NULL();
    PG_RETURN_INT32(result);
}

Datum pgdp_total_int4_sub(PG_FUNCTION_ARGS) {
    int32 result = 0;
    if (__builtin_sub_overflow(PG_GETARG_INT32(0), PG_GETARG_INT32(1), &result)) PG_RETURN_NULL();
    PG_RETURN_INT32(result);
}

Datum pgdp_total_int4_mul(PG_FUNCTION_ARGS) {
    int32 result = 0;
    if (__builtin_mul_overflow(PG_GETARG_INT32(0), PG_GETARG_INT32(1), &result)) PG_RETURN_NULL();
    PG_RETURN_INT32(result);
}

// int4div: NULL for a zero divisor and for INT_MIN / -1 (the two errors of the built-in);
// C's division truncates toward zero, as the built-in's.
Datum pgdp_total_int4_div(PG_FUNCTION_ARGS) {
    const int32 dividend = PG_GETARG_INT32(0);
    const int32 divisor = PG_GETARG_INT32(1);
    if (divisor == 0 || (divisor == -1 && dividend == PG_INT32_MIN)) PG_RETURN_NULL();
    PG_RETURN_INT32(dividend / divisor);
}

// int4abs: NULL for INT_MIN.
Datum pgdp_total_int4_abs(PG_FUNCTION_ARGS) {
    const int32 value = PG_GETARG_INT32(0);
    if (value == PG_INT32_MIN) PG_RETURN_NULL();
    PG_RETURN_INT32(value < 0 ? -value : value);
}

Datum pgdp_total_int8_add(PG_FUNCTION_ARGS) {
    int64 result = 0;
    if (__builtin_add_overflow(PG_GETARG_INT64(0), PG_GETARG_INT64(1), &result)) PG_RETURN_NULL();
    PG_RETURN_INT64(result);
}

Datum pgdp_total_int8_sub(PG_FUNCTION_ARGS) {
    int64 result = 0;
    if (__builtin_sub_overflow(PG_GETARG_INT64(0), PG_GETARG_INT64(1), &result)) PG_RETURN_NULL();
    PG_RETURN_INT64(result);
}

Datum pgdp_total_int8_mul(PG_FUNCTION_ARGS) {
    int64 result = 0;
    if (__builtin_mul_overflow(PG_GETARG_INT64(0), PG_GETARG_INT64(1), &result)) PG_RETURN_NULL();
    PG_RETURN_INT64(result);
}

Datum pgdp_total_int8_div(PG_FUNCTION_ARGS) {
    const int64 dividend = PG_GETARG_INT64(0);
    const int64 divisor = PG_GETARG_INT64(1);
    if (divisor == 0 || (divisor == -1 && dividend == PG_INT64_MIN)) PG_RETURN_NULL();
    PG_RETURN_INT64(dividend / divisor);
}

Datum pgdp_total_int8_abs(PG_FUNCTION_ARGS) {
    const int64 value = PG_GETARG_INT64(0);
    if (value == PG_INT64_MIN) PG_RETURN_NULL();
    PG_RETURN_INT64(value < 0 ? -value : value);
}

// float8pl, float8mi: NULL where a finite sum overflows (float_overflow_error in float8_pl).
Datum pgdp_total_float8_add(PG_FUNCTION_ARGS) {
    const double a = PG_GETARG_FLOAT8(0);
    const double b = PG_GETARG_FLOAT8(1);
    const double result = a + b;
    if (std::isinf(result) && !std::isinf(a) && !std::isinf(b)) PG_RETURN_NULL();
    PG_RETURN_FLOAT8(result);
}

Datum pgdp_total_float8_sub(PG_FUNCTION_ARGS) {
    const double a = PG_GETARG_FLOAT8(0);
    const double b = PG_GETARG_FLOAT8(1);
    const double result = a - b;
    if (std::isinf(result) && !std::isinf(a) && !std::isinf(b)) PG_RETURN_NULL();
    PG_RETURN_FLOAT8(result);
}

// float8mul: NULL on overflow of finite factors and on underflow of nonzero ones to 0.
Datum pgdp_total_float8_mul(PG_FUNCTION_ARGS) {
    const double a = PG_GETARG_FLOAT8(0);
    const double b = PG_GETARG_FLOAT8(1);
    const double result = a * b;
    if (std::isinf(result) && !std::isinf(a) && !std::isinf(b)) PG_RETURN_NULL();
    if (result == 0.0 && a != 0.0 && b != 0.0) PG_RETURN_NULL();
    PG_RETURN_FLOAT8(result);
}

// float8div: NULL for a zero divisor (of a number), overflow, underflow (float8_div's checks).
Datum pgdp_total_float8_div(PG_FUNCTION_ARGS) {
    const double a = PG_GETARG_FLOAT8(0);
    const double b = PG_GETARG_FLOAT8(1);
    if (b == 0.0 && !std::isnan(a)) PG_RETURN_NULL();
    const double result = a / b;
    if (std::isinf(result) && !std::isinf(a)) PG_RETURN_NULL();
    if (result == 0.0 && a != 0.0 && !std::isinf(b)) PG_RETURN_NULL();
    PG_RETURN_FLOAT8(result);
}

// width_bucket(operand, b1, b2, count): NULL exactly where width_bucket_float8 raises (count <= 0,
// a NaN, an infinite bound, equal bounds, the top bucket count + 1 beyond int4); otherwise the
// built-in's bucket.
Datum pgdp_total_width_bucket_float8(PG_FUNCTION_ARGS) {
    const double operand = PG_GETARG_FLOAT8(0);
    const double bound1 = PG_GETARG_FLOAT8(1);
    const double bound2 = PG_GETARG_FLOAT8(2);
    const int32 count = PG_GETARG_INT32(3);
    if (count <= 0 || std::isnan(operand) || std::isnan(bound1) || std::isnan(bound2)) PG_RETURN_NULL();
    if (std::isinf(bound1) || std::isinf(bound2) || bound1 == bound2) PG_RETURN_NULL();
    const bool above = bound1 < bound2 ? operand >= bound2 : operand <= bound2;
    if (above && count == PG_INT32_MAX) PG_RETURN_NULL();
    PG_RETURN_DATUM(DirectFunctionCall4(width_bucket_float8, PG_GETARG_DATUM(0), PG_GETARG_DATUM(1),
                                        PG_GETARG_DATUM(2), PG_GETARG_DATUM(3)));
}

}  // extern "C"
