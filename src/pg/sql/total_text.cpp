// Total forms of lower(text) and upper(text) (docs/privacy.md "What a DP-only analyst may
// compute"): the built-in's value for text of at most total_case_bytes bytes, NULL for longer text.
// Where the built-ins raise for valid text under a determined collation, they raise because a
// buffer sized from the input's length exceeds MaxAllocSize (1 GB - 1); below the bound no buffer
// can (the largest, ICU's UTF-8 result, is at most 9 bytes per input byte; the wide-character
// workspace of libc 4 per byte; a built-in provider's full case mapping 3 per byte). The collations
// whose other paths cannot fail are chosen while planning (planning/total_forms.cpp). C code only.

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "utils/fmgrprotos.h"
}

namespace {

// 16 MiB: 9 * 16 MiB + 64 < MaxAllocSize with room to spare on every major.
constexpr Size total_case_bytes = Size{1} << 24;

Datum total_case(FunctionCallInfo fcinfo, PGFunction builtin) {
    text* value = PG_GETARG_TEXT_PP(0);
    if (VARSIZE_ANY_EXHDR(value) > total_case_bytes) PG_RETURN_NULL();
    PG_RETURN_DATUM(DirectFunctionCall1Coll(builtin, PG_GET_COLLATION(), PointerGetDatum(value)));
}

}  // namespace

extern "C" {
PG_FUNCTION_INFO_V1(pgdp_total_lower);
PG_FUNCTION_INFO_V1(pgdp_total_upper);

Datum pgdp_total_lower(PG_FUNCTION_ARGS) { return total_case(fcinfo, lower); }
Datum pgdp_total_upper(PG_FUNCTION_ARGS) { return total_case(fcinfo, upper); }

}  // extern "C"
