// Total forms of integer and float arithmetic (docs/privacy.md "What a DP-only analyst may
// compute"): the built-in's result, or NULL exactly where the built-in raises (integer overflow,
// division by zero, float overflow and underflow as float.h's checks define them). C code only:
// nothing here may be unwound by ereport.

#include "pg/base/postgres_headers.hpp"

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

}  // extern "C"
