// Total forms of numeric arithmetic and rounding (docs/privacy.md "What a DP-only analyst may
// compute"): the built-in's result, or NULL exactly where the built-in raises. numeric + - * / %
// raise for a result beyond the numeric format ("value overflows numeric format": a weight or
// display scale beyond its 16-bit fields) and for a zero divisor; PostgreSQL's own *_opt_error
// forms run the same code and report those cases instead (numeric.h, 15 to 18). round(numeric, n) raises
// only where rounding carries the value to 10^131072; trunc never raises. C code only: nothing here
// may be unwound by ereport.

#include "pg/base/postgres_headers.hpp"

#include <cstdio>

extern "C" {
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"
}

namespace {

using OptErrorArithmetic = Numeric (*)(Numeric, Numeric, bool*);

Datum total_arithmetic(FunctionCallInfo fcinfo, OptErrorArithmetic operation) {
    bool failed = false;
    const Numeric result = operation(PG_GETARG_NUMERIC(0), PG_GETARG_NUMERIC(1), &failed);
    if (failed || result == nullptr) PG_RETURN_NULL();
    PG_RETURN_NUMERIC(result);
}

Numeric numeric_of(const char* text) {
    return DatumGetNumeric(DirectFunctionCall3(numeric_in, CStringGetDatum(text),
                                               ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
}

int compare(Numeric a, Numeric b) {
    return DatumGetInt32(DirectFunctionCall2(numeric_cmp, NumericGetDatum(a), NumericGetDatum(b)));
}

// numeric_round's bounds of the scale (PostgreSQL 15 numeric.c): below the lower one every value
// rounds to 0; 10^131072 is the first value the numeric format cannot hold.
constexpr int lowest_rounding_scale = -131073;
constexpr int highest_scale = 16383;

// Whether round(value, scale) (scale clamped as numeric_round clamps it) raises: the rounding
// carries a finite value to 10^131072 or beyond. Only values of at least 5e131071 can carry that
// far (the largest digit position rounding reaches is 10^131072, at scale -131072); for them the
// carry is computed from trunc, which cannot raise: it happens iff twice the truncated part is at
// least one unit of the last kept digit, and the carry overflows iff the truncated value plus that
// unit does (numeric_add_opt_error reports it).
bool rounding_overflows(Numeric value, int scale) {
    if (numeric_is_nan(value) || numeric_is_inf(value)) return false;
    if (scale < lowest_rounding_scale) scale = lowest_rounding_scale;
    if (scale > highest_scale) scale = highest_scale;
    const Numeric magnitude = DatumGetNumeric(DirectFunctionCall1(numeric_abs, NumericGetDatum(value)));
    if (compare(magnitude, numeric_of("5e131071")) < 0) return false;
    if (scale == lowest_rounding_scale) return false;
    if (scale == lowest_rounding_scale + 1) return true;  // rounds at 10^131072: to 10^131072
    char unit_text[32];
    std::snprintf(unit_text, sizeof(unit_text), "1e%d", -scale);
    const Numeric unit = numeric_of(unit_text);
    const Numeric kept =
        DatumGetNumeric(DirectFunctionCall2(numeric_trunc, NumericGetDatum(magnitude), Int32GetDatum(scale)));
    bool failed = false;
    const Numeric dropped = numeric_sub_opt_error(magnitude, kept, &failed);
    if (failed) return false;
    const Numeric twice = numeric_add_opt_error(dropped, dropped, &failed);
    if (failed || compare(twice, unit) < 0) return false;
    (void)numeric_add_opt_error(kept, unit, &failed);
    return failed;
}

}  // namespace

extern "C" {
PG_FUNCTION_INFO_V1(pgdp_total_numeric_add);
PG_FUNCTION_INFO_V1(pgdp_total_numeric_sub);
PG_FUNCTION_INFO_V1(pgdp_total_numeric_mul);
PG_FUNCTION_INFO_V1(pgdp_total_numeric_div);
PG_FUNCTION_INFO_V1(pgdp_total_numeric_mod);
PG_FUNCTION_INFO_V1(pgdp_total_numeric_round);
PG_FUNCTION_INFO_V1(pgdp_total_numeric_round_integer);
PG_FUNCTION_INFO_V1(pgdp_total_numeric_trunc_integer);
PG_FUNCTION_INFO_V1(pgdp_total_width_bucket_numeric);

Datum pgdp_total_numeric_add(PG_FUNCTION_ARGS) { return total_arithmetic(fcinfo, numeric_add_opt_error); }
Datum pgdp_total_numeric_sub(PG_FUNCTION_ARGS) { return total_arithmetic(fcinfo, numeric_sub_opt_error); }
Datum pgdp_total_numeric_mul(PG_FUNCTION_ARGS) { return total_arithmetic(fcinfo, numeric_mul_opt_error); }
Datum pgdp_total_numeric_div(PG_FUNCTION_ARGS) { return total_arithmetic(fcinfo, numeric_div_opt_error); }
Datum pgdp_total_numeric_mod(PG_FUNCTION_ARGS) { return total_arithmetic(fcinfo, numeric_mod_opt_error); }

// round(value, scale): the built-in's value, NULL where it overflows.
Datum pgdp_total_numeric_round(PG_FUNCTION_ARGS) {
    if (rounding_overflows(PG_GETARG_NUMERIC(0), PG_GETARG_INT32(1))) PG_RETURN_NULL();
    PG_RETURN_DATUM(DirectFunctionCall2(numeric_round, PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

// round(value) and trunc(value) (SQL functions calling round(value, 0), trunc(value, 0)).
Datum pgdp_total_numeric_round_integer(PG_FUNCTION_ARGS) {
    if (rounding_overflows(PG_GETARG_NUMERIC(0), 0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(DirectFunctionCall2(numeric_round, PG_GETARG_DATUM(0), Int32GetDatum(0)));
}

Datum pgdp_total_numeric_trunc_integer(PG_FUNCTION_ARGS) {
    PG_RETURN_DATUM(DirectFunctionCall2(numeric_trunc, PG_GETARG_DATUM(0), Int32GetDatum(0)));
}

// width_bucket(operand, low, high, count) of numeric: NULL where width_bucket_numeric raises
// (count <= 0, a NaN, an infinite bound, equal bounds: numeric.c, the same checks in 15 to 18),
// otherwise the built-in's bucket. The bucket, at most count + 1, leaves int4 only for count =
// 2147483647; the built-in's division rounds an operand inside the range at extreme scales up to
// count + 1 (width_bucket('1e-16383', 10, 0, 100) is 101), so there any bucket above 0 is NULL.
Datum pgdp_total_width_bucket_numeric(PG_FUNCTION_ARGS) {
    const Numeric operand = PG_GETARG_NUMERIC(0);
    const Numeric low = PG_GETARG_NUMERIC(1);
    const Numeric high = PG_GETARG_NUMERIC(2);
    const int32 count = PG_GETARG_INT32(3);
    if (count <= 0 || numeric_is_nan(operand) || numeric_is_nan(low) || numeric_is_nan(high))
        PG_RETURN_NULL();
    if (numeric_is_inf(low) || numeric_is_inf(high)) PG_RETURN_NULL();
    const int order = compare(low, high);
    if (order == 0) PG_RETURN_NULL();
    const bool below = order < 0 ? compare(operand, low) < 0 : compare(operand, low) > 0;
    if (count == PG_INT32_MAX && !below) PG_RETURN_NULL();
    PG_RETURN_DATUM(DirectFunctionCall4(width_bucket_numeric, PG_GETARG_DATUM(0), PG_GETARG_DATUM(1),
                                        PG_GETARG_DATUM(2), PG_GETARG_DATUM(3)));
}

}  // extern "C"
