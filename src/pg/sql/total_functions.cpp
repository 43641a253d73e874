// Total forms of built-in functions that raise an error on some values (docs/privacy.md "Total
// forms of built-in functions"): each returns the built-in's value wherever the built-in returns
// one, and NULL (or, for the float casts, the saturated value) exactly where the built-in would
// raise. The DP-only planning substitutes them for the built-ins (planning/total_forms.hpp), so
// no hidden row can make a query fail. C code only: nothing here may be unwound by ereport.

#include "pg/base/postgres_headers.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "pg/base/pg_compat.hpp"

extern "C" {
#include "datatype/timestamp.h"
#include "parser/scansup.h"
#include "pgtime.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(pgdp_total_float8_numeric);
PG_FUNCTION_INFO_V1(pgdp_total_float4_numeric);
PG_FUNCTION_INFO_V1(pgdp_total_float4_float8);
PG_FUNCTION_INFO_V1(pgdp_total_date_trunc_timestamptz);
PG_FUNCTION_INFO_V1(pgdp_total_date_trunc_timestamp);
PG_FUNCTION_INFO_V1(pgdp_total_extract_timestamptz);
PG_FUNCTION_INFO_V1(pgdp_total_extract_timestamp);
PG_FUNCTION_INFO_V1(pgdp_total_date_part_timestamptz);
PG_FUNCTION_INFO_V1(pgdp_total_date_part_timestamp);
PG_FUNCTION_INFO_V1(pgdp_total_date_pl_int4);
PG_FUNCTION_INFO_V1(pgdp_total_timestamp_date);
PG_FUNCTION_INFO_V1(pgdp_total_timestamptz_date);
PG_FUNCTION_INFO_V1(pgdp_total_date_mi_int4);
PG_FUNCTION_INFO_V1(pgdp_canonical_key_numeric);
PG_FUNCTION_INFO_V1(pgdp_canonical_key_float8);
PG_FUNCTION_INFO_V1(pgdp_canonical_key_float4);
}

namespace {

// The decimal text of a numeric (what numeric_float8 and numeric_float4 parse).
char* numeric_text(Numeric value) {
    return DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(value)));
}

// A unit of date_trunc, extract and date_part as PostgreSQL decodes it; *type is UNITS, RESERV or
// another class (not recognized).
int decode_unit(text* unit, int* value, bool special_too) {
    char* lower = downcase_truncate_identifier(VARDATA_ANY(unit), VARSIZE_ANY_EXHDR(unit), false);
    int type = DecodeUnits(0, lower, value);
    if (special_too && type == UNKNOWN_FIELD) type = DecodeSpecial(0, lower, value);
    return type;
}

// date_trunc's truncation of a broken-down time (timestamp.c, timestamptz_trunc_internal);
// false for a unit date_trunc does not support. *redo_zone: the zone offset must be found again.
bool truncate_time(int unit, struct pg_tm* tm, fsec_t* fsec, bool* redo_zone) {
    *redo_zone = false;
    switch (unit) {
        case DTK_WEEK: {
            const int week = date2isoweek(tm->tm_year, tm->tm_mon, tm->tm_mday);
            if (week >= 52 && tm->tm_mon == 1) --tm->tm_year;
            if (week <= 1 && tm->tm_mon == MONTHS_PER_YEAR) ++tm->tm_year;
            isoweek2date(week, &tm->tm_year, &tm->tm_mon, &tm->tm_mday);
            tm->tm_hour = 0;
            tm->tm_min = 0;
            tm->tm_sec = 0;
            *fsec = 0;
            *redo_zone = true;
            return true;
        }
        case DTK_MILLENNIUM:
            tm->tm_year = tm->tm_year > 0 ? ((tm->tm_year + 999) / 1000) * 1000 - 999
                                          : -((999 - (tm->tm_year - 1)) / 1000) * 1000 + 1;
            [[fallthrough]];
        case DTK_CENTURY:
            tm->tm_year = tm->tm_year > 0 ? ((tm->tm_year + 99) / 100) * 100 - 99
                                          : -((99 - (tm->tm_year - 1)) / 100) * 100 + 1;
            [[fallthrough]];
        case DTK_DECADE:
            if (unit != DTK_MILLENNIUM && unit != DTK_CENTURY) {
                tm->tm_year =
                    tm->tm_year > 0 ? (tm->tm_year / 10) * 10 : -((8 - (tm->tm_year - 1)) / 10) * 10;
            }
            [[fallthrough]];
        case DTK_YEAR:
            tm->tm_mon = 1;
            [[fallthrough]];
        case DTK_QUARTER:
            tm->tm_mon = (3 * ((tm->tm_mon - 1) / 3)) + 1;
            [[fallthrough]];
        case DTK_MONTH:
            tm->tm_mday = 1;
            [[fallthrough]];
        case DTK_DAY:
            tm->tm_hour = 0;
            *redo_zone = true;
            [[fallthrough]];
        case DTK_HOUR:
            tm->tm_min = 0;
            [[fallthrough]];
        case DTK_MINUTE:
            tm->tm_sec = 0;
            [[fallthrough]];
        case DTK_SECOND:
            *fsec = 0;
            return true;
        case DTK_MILLISEC:
            *fsec = (*fsec / 1000) * 1000;
            return true;
        case DTK_MICROSEC:
            return true;
        default:
            return false;
    }
}

// The units extract and date_part support for every finite value of the type and that they
// also answer for +-infinity (timestamp.c: timestamp[tz]_part_common, NonFiniteTimestampTzPart).
enum class PartOfInfinity { Unsupported, Zero, Signed };

PartOfInfinity part_class(int type, int unit, bool with_zone) {
    if (type == RESERV) return unit == DTK_EPOCH ? PartOfInfinity::Signed : PartOfInfinity::Unsupported;
    if (type != UNITS) return PartOfInfinity::Unsupported;
    switch (unit) {
        case DTK_TZ:
        case DTK_TZ_MINUTE:
        case DTK_TZ_HOUR:
            return with_zone ? PartOfInfinity::Zero : PartOfInfinity::Unsupported;
        case DTK_MICROSEC:
        case DTK_MILLISEC:
        case DTK_SECOND:
        case DTK_MINUTE:
        case DTK_HOUR:
        case DTK_DAY:
        case DTK_MONTH:
        case DTK_QUARTER:
        case DTK_WEEK:
        case DTK_DOW:
        case DTK_ISODOW:
        case DTK_DOY:
            return PartOfInfinity::Zero;
        case DTK_YEAR:
        case DTK_DECADE:
        case DTK_CENTURY:
        case DTK_MILLENNIUM:
        case DTK_JULIAN:
        case DTK_ISOYEAR:
            return PartOfInfinity::Signed;
        default:
            return PartOfInfinity::Unsupported;
    }
}

Datum numeric_of_text(const char* text) {
    return DirectFunctionCall3(numeric_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid),
                               Int32GetDatum(-1));
}

// extract / date_part: NULL for an unsupported unit and for a finite value outside the range
// timestamp2tm converts (near the ends of the range, shifted by the session's zone); otherwise
// the built-in's answer.
Datum total_part(FunctionCallInfo fcinfo, bool with_zone, bool numeric_result, PGFunction builtin) {
    text* unit = PG_GETARG_TEXT_PP(0);
    const Timestamp value = PG_GETARG_TIMESTAMP(1);
    int unit_value = 0;
    const int type = decode_unit(unit, &unit_value, true);
    const PartOfInfinity part = part_class(type, unit_value, with_zone);
    if (part == PartOfInfinity::Unsupported) PG_RETURN_NULL();
    if (TIMESTAMP_NOT_FINITE(value)) {
        if (part == PartOfInfinity::Zero) PG_RETURN_NULL();
        const bool negative = TIMESTAMP_IS_NOBEGIN(value);
        if (numeric_result) PG_RETURN_DATUM(numeric_of_text(negative ? "-Infinity" : "Infinity"));
        PG_RETURN_FLOAT8(negative ? -get_float8_infinity() : get_float8_infinity());
    }
    int zone = 0;
    fsec_t fsec = 0;
    struct pg_tm tm;
    if (timestamp2tm(value, with_zone ? &zone : nullptr, &tm, &fsec, nullptr, nullptr) != 0) PG_RETURN_NULL();
    PG_RETURN_DATUM(DirectFunctionCall2(builtin, PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

// Whether date_trunc returns an infinite value as it is for this unit (it raises otherwise):
// always up to 17; from 18 only for a unit it supports (pg_compat.hpp).
bool infinite_value_truncates(text* unit) {
    if (!pgdp::pg::compat::date_trunc_checks_unit_of_infinite_value) return true;
    int unit_value = 0;
    if (decode_unit(unit, &unit_value, false) != UNITS) return false;
    struct pg_tm tm = {};
    tm.tm_year = 2000;
    tm.tm_mon = 1;
    tm.tm_mday = 1;
    fsec_t fsec = 0;
    bool redo_zone = false;
    return truncate_time(unit_value, &tm, &fsec, &redo_zone);
}

}  // namespace

extern "C" {

// float8(numeric): numeric_float8 parses the decimal text with float8in, which raises where
// strtod overflows to +-Infinity or underflows to 0; here those give strtod's value (numeric_out
// spells +-Infinity as strtod reads them).
Datum pgdp_total_float8_numeric(PG_FUNCTION_ARGS) {
    const Numeric value = PG_GETARG_NUMERIC(0);
    if (numeric_is_nan(value)) PG_RETURN_FLOAT8(get_float8_nan());
    char* text = numeric_text(value);
    errno = 0;
    const double result = std::strtod(text, nullptr);
    pfree(text);
    PG_RETURN_FLOAT8(result);
}

// float4(numeric), as float8(numeric) with float4in's strtof.
Datum pgdp_total_float4_numeric(PG_FUNCTION_ARGS) {
    const Numeric value = PG_GETARG_NUMERIC(0);
    if (numeric_is_nan(value)) PG_RETURN_FLOAT4(get_float4_nan());
    char* text = numeric_text(value);
    errno = 0;
    const float result = std::strtof(text, nullptr);
    pfree(text);
    PG_RETURN_FLOAT4(result);
}

// float4(float8): dtof raises where the conversion overflows to +-Infinity or underflows to 0;
// here the converted value (C's conversion rounds to nearest, saturating at +-Infinity).
Datum pgdp_total_float4_float8(PG_FUNCTION_ARGS) {
    PG_RETURN_FLOAT4(static_cast<float4>(PG_GETARG_FLOAT8(0)));
}

// date_trunc(unit, timestamptz) in the session's time zone; NULL where the built-in raises (a unit
// it does not know or support, a value whose local time or truncation leaves the range).
Datum pgdp_total_date_trunc_timestamptz(PG_FUNCTION_ARGS) {
    text* unit = PG_GETARG_TEXT_PP(0);
    const TimestampTz value = PG_GETARG_TIMESTAMPTZ(1);
    if (TIMESTAMP_NOT_FINITE(value)) {
        if (!infinite_value_truncates(unit)) PG_RETURN_NULL();
        PG_RETURN_TIMESTAMPTZ(value);
    }
    int unit_value = 0;
    if (decode_unit(unit, &unit_value, false) != UNITS) PG_RETURN_NULL();
    int zone = 0;
    fsec_t fsec = 0;
    struct pg_tm tm;
    if (timestamp2tm(value, &zone, &tm, &fsec, nullptr, session_timezone) != 0) PG_RETURN_NULL();
    bool redo_zone = false;
    if (!truncate_time(unit_value, &tm, &fsec, &redo_zone)) PG_RETURN_NULL();
    if (redo_zone) zone = DetermineTimeZoneOffset(&tm, session_timezone);
    TimestampTz result = 0;
    if (tm2timestamp(&tm, fsec, &zone, &result) != 0) PG_RETURN_NULL();
    PG_RETURN_TIMESTAMPTZ(result);
}

// date_trunc(unit, timestamp); NULL where the built-in raises.
Datum pgdp_total_date_trunc_timestamp(PG_FUNCTION_ARGS) {
    text* unit = PG_GETARG_TEXT_PP(0);
    const Timestamp value = PG_GETARG_TIMESTAMP(1);
    if (TIMESTAMP_NOT_FINITE(value)) {
        if (!infinite_value_truncates(unit)) PG_RETURN_NULL();
        PG_RETURN_TIMESTAMP(value);
    }
    int unit_value = 0;
    if (decode_unit(unit, &unit_value, false) != UNITS) PG_RETURN_NULL();
    fsec_t fsec = 0;
    struct pg_tm tm;
    if (timestamp2tm(value, nullptr, &tm, &fsec, nullptr, nullptr) != 0) PG_RETURN_NULL();
    bool redo_zone = false;
    if (!truncate_time(unit_value, &tm, &fsec, &redo_zone)) PG_RETURN_NULL();
    Timestamp result = 0;
    if (tm2timestamp(&tm, fsec, nullptr, &result) != 0) PG_RETURN_NULL();
    PG_RETURN_TIMESTAMP(result);
}

Datum pgdp_total_extract_timestamptz(PG_FUNCTION_ARGS) {
    return total_part(fcinfo, true, true, extract_timestamptz);
}

Datum pgdp_total_extract_timestamp(PG_FUNCTION_ARGS) {
    return total_part(fcinfo, false, true, extract_timestamp);
}

Datum pgdp_total_date_part_timestamptz(PG_FUNCTION_ARGS) {
    return total_part(fcinfo, true, false, timestamptz_part);
}

Datum pgdp_total_date_part_timestamp(PG_FUNCTION_ARGS) {
    return total_part(fcinfo, false, false, timestamp_part);
}

// date + days, date - days (date_pli, date_mii): NULL where the built-in raises (a result outside
// the date range); +-infinity stays as it is, as in the built-in.
Datum pgdp_total_date_pl_int4(PG_FUNCTION_ARGS) {
    const DateADT date = PG_GETARG_DATEADT(0);
    if (DATE_NOT_FINITE(date)) PG_RETURN_DATEADT(date);
    const int64 result = static_cast<int64>(date) + PG_GETARG_INT32(1);
    if (result < PG_INT32_MIN || result > PG_INT32_MAX || !IS_VALID_DATE(result)) PG_RETURN_NULL();
    PG_RETURN_DATEADT(static_cast<DateADT>(result));
}

Datum pgdp_total_date_mi_int4(PG_FUNCTION_ARGS) {
    const DateADT date = PG_GETARG_DATEADT(0);
    if (DATE_NOT_FINITE(date)) PG_RETURN_DATEADT(date);
    const int64 result = static_cast<int64>(date) - PG_GETARG_INT32(1);
    if (result < PG_INT32_MIN || result > PG_INT32_MAX || !IS_VALID_DATE(result)) PG_RETURN_NULL();
    PG_RETURN_DATEADT(static_cast<DateADT>(result));
}

// timestamp(date) (date2timestamp): NULL for a date from 294277 on, beyond the timestamp range;
// +-infinity stays infinite.
Datum pgdp_total_timestamp_date(PG_FUNCTION_ARGS) {
    const DateADT date = PG_GETARG_DATEADT(0);
    Timestamp result = 0;
    if (DATE_IS_NOBEGIN(date)) {
        TIMESTAMP_NOBEGIN(result);
    } else if (DATE_IS_NOEND(date)) {
        TIMESTAMP_NOEND(result);
    } else {
        if (date >= (TIMESTAMP_END_JULIAN - POSTGRES_EPOCH_JDATE)) PG_RETURN_NULL();
        result = date * USECS_PER_DAY;
    }
    PG_RETURN_TIMESTAMP(result);
}

// timestamptz(date) (date2timestamptz): midnight in the session's zone; NULL where the built-in
// raises (the date beyond the timestamp range, or midnight there shifted beyond it by the zone).
Datum pgdp_total_timestamptz_date(PG_FUNCTION_ARGS) {
    const DateADT date = PG_GETARG_DATEADT(0);
    TimestampTz result = 0;
    if (DATE_IS_NOBEGIN(date)) {
        TIMESTAMP_NOBEGIN(result);
    } else if (DATE_IS_NOEND(date)) {
        TIMESTAMP_NOEND(result);
    } else {
        if (date >= (TIMESTAMP_END_JULIAN - POSTGRES_EPOCH_JDATE)) PG_RETURN_NULL();
        struct pg_tm tm;
        j2date(date + POSTGRES_EPOCH_JDATE, &tm.tm_year, &tm.tm_mon, &tm.tm_mday);
        tm.tm_hour = 0;
        tm.tm_min = 0;
        tm.tm_sec = 0;
        const int zone = DetermineTimeZoneOffset(&tm, session_timezone);
        result = date * USECS_PER_DAY + zone * USECS_PER_SEC;
        if (!IS_VALID_TIMESTAMP(result)) PG_RETURN_NULL();
    }
    PG_RETURN_TIMESTAMPTZ(result);
}

// Equal numerics (1.0 = 1.00) print alike at their smallest scale (trim_scale; NaN and
// +-Infinity print alike already).
Datum pgdp_canonical_key_numeric(PG_FUNCTION_ARGS) {
    PG_RETURN_DATUM(DirectFunctionCall1(numeric_trim_scale, PG_GETARG_DATUM(0)));
}

// Equal floats print alike once -0 is 0 and every NaN is the one NaN.
Datum pgdp_canonical_key_float8(PG_FUNCTION_ARGS) {
    const double value = PG_GETARG_FLOAT8(0);
    if (std::isnan(value)) PG_RETURN_FLOAT8(get_float8_nan());
    PG_RETURN_FLOAT8(value == 0.0 ? 0.0 : value);
}

Datum pgdp_canonical_key_float4(PG_FUNCTION_ARGS) {
    const float value = PG_GETARG_FLOAT4(0);
    if (std::isnan(value)) PG_RETURN_FLOAT4(get_float4_nan());
    PG_RETURN_FLOAT4(value == 0.0f ? 0.0f : value);
}

}  // extern "C"
