// Total forms of timestamp, timestamptz and date +- interval (docs/privacy.md "What a DP-only
// analyst may compute"): PostgreSQL's own steps (timestamp.c: timestamp[tz]_pl_interval, and
// date_pl_interval through date2timestamp), each "timestamp out of range" a NULL. Months are added
// on the broken-down time (the day clamped to the month's end), then days through the Julian day,
// then the microseconds; with a zone, each step's local time is placed in the session's zone again.
// C code only: nothing here may be unwound by ereport.

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "common/int.h"
#include "datatype/timestamp.h"
#include "pgtime.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"
}

#include "pg/base/pg_compat.hpp"

namespace {

// timestamp + span; false where the built-in raises.
bool add_interval(Timestamp timestamp, const Interval* span, bool with_zone, Timestamp* result) {
    const int infinity = pgdp::pg::compat::interval_infinity(span);
    if (infinity != 0) {
        // Infinite intervals (17+): -infinity + infinity raises.
        if (infinity < 0 ? TIMESTAMP_IS_NOEND(timestamp) : TIMESTAMP_IS_NOBEGIN(timestamp)) return false;
        if (infinity < 0)
            TIMESTAMP_NOBEGIN(*result);
        else
            TIMESTAMP_NOEND(*result);
        return true;
    }
    if (TIMESTAMP_NOT_FINITE(timestamp)) {
        *result = timestamp;
        return true;
    }
    int zone = 0;
    int* const zone_of = with_zone ? &zone : nullptr;
    struct pg_tm tm;
    fsec_t fsec = 0;
    if (span->month != 0) {
        if (timestamp2tm(timestamp, zone_of, &tm, &fsec, nullptr, nullptr) != 0) return false;
        if (pg_add_s32_overflow(tm.tm_mon, span->month, &tm.tm_mon)) return false;
        if (tm.tm_mon > MONTHS_PER_YEAR) {
            tm.tm_year += (tm.tm_mon - 1) / MONTHS_PER_YEAR;
            tm.tm_mon = ((tm.tm_mon - 1) % MONTHS_PER_YEAR) + 1;
        } else if (tm.tm_mon < 1) {
            tm.tm_year += tm.tm_mon / MONTHS_PER_YEAR - 1;
            tm.tm_mon = tm.tm_mon % MONTHS_PER_YEAR + MONTHS_PER_YEAR;
        }
        if (tm.tm_mday > day_tab[isleap(tm.tm_year)][tm.tm_mon - 1])
            tm.tm_mday = day_tab[isleap(tm.tm_year)][tm.tm_mon - 1];
        if (with_zone) zone = DetermineTimeZoneOffset(&tm, session_timezone);
        if (tm2timestamp(&tm, fsec, zone_of, &timestamp) != 0) return false;
    }
    if (span->day != 0) {
        if (timestamp2tm(timestamp, zone_of, &tm, &fsec, nullptr, nullptr) != 0) return false;
        // timestamptz allows the Julian day -1 (a local date just before the range in a zone east
        // of UTC), timestamp does not.
        int julian = date2j(tm.tm_year, tm.tm_mon, tm.tm_mday);
        if (pg_add_s32_overflow(julian, span->day, &julian) || julian < (with_zone ? -1 : 0)) return false;
        j2date(julian, &tm.tm_year, &tm.tm_mon, &tm.tm_mday);
        if (with_zone) zone = DetermineTimeZoneOffset(&tm, session_timezone);
        if (tm2timestamp(&tm, fsec, zone_of, &timestamp) != 0) return false;
    }
    if (pg_add_s64_overflow(timestamp, span->time, &timestamp)) return false;
    if (!IS_VALID_TIMESTAMP(timestamp)) return false;
    *result = timestamp;
    return true;
}

// timestamp - span: the negated span added (timestamp[tz]_mi_interval).
bool subtract_interval(Timestamp timestamp, const Interval* span, bool with_zone, Timestamp* result) {
    Interval negated;
    if (!pgdp::pg::compat::negate_interval(span, &negated)) return false;
    return add_interval(timestamp, &negated, with_zone, result);
}

// date2timestamp: false for a finite date from 294277 on.
bool timestamp_of_date(DateADT date, Timestamp* result) {
    if (DATE_IS_NOBEGIN(date)) {
        TIMESTAMP_NOBEGIN(*result);
    } else if (DATE_IS_NOEND(date)) {
        TIMESTAMP_NOEND(*result);
    } else {
        if (date >= (TIMESTAMP_END_JULIAN - POSTGRES_EPOCH_JDATE)) return false;
        *result = date * USECS_PER_DAY;
    }
    return true;
}

}  // namespace

extern "C" {
PG_FUNCTION_INFO_V1(pgdp_total_timestamp_pl_interval);
PG_FUNCTION_INFO_V1(pgdp_total_timestamp_mi_interval);
PG_FUNCTION_INFO_V1(pgdp_total_timestamptz_pl_interval);
PG_FUNCTION_INFO_V1(pgdp_total_timestamptz_mi_interval);
PG_FUNCTION_INFO_V1(pgdp_total_date_pl_interval);
PG_FUNCTION_INFO_V1(pgdp_total_date_mi_interval);

Datum pgdp_total_timestamp_pl_interval(PG_FUNCTION_ARGS) {
    Timestamp result = 0;
    if (!add_interval(PG_GETARG_TIMESTAMP(0), PG_GETARG_INTERVAL_P(1), false, &result)) PG_RETURN_NULL();
    PG_RETURN_TIMESTAMP(result);
}

Datum pgdp_total_timestamp_mi_interval(PG_FUNCTION_ARGS) {
    Timestamp result = 0;
    if (!subtract_interval(PG_GETARG_TIMESTAMP(0), PG_GETARG_INTERVAL_P(1), false, &result)) PG_RETURN_NULL();
    PG_RETURN_TIMESTAMP(result);
}

Datum pgdp_total_timestamptz_pl_interval(PG_FUNCTION_ARGS) {
    TimestampTz result = 0;
    if (!add_interval(PG_GETARG_TIMESTAMPTZ(0), PG_GETARG_INTERVAL_P(1), true, &result)) PG_RETURN_NULL();
    PG_RETURN_TIMESTAMPTZ(result);
}

Datum pgdp_total_timestamptz_mi_interval(PG_FUNCTION_ARGS) {
    TimestampTz result = 0;
    if (!subtract_interval(PG_GETARG_TIMESTAMPTZ(0), PG_GETARG_INTERVAL_P(1), true, &result))
        PG_RETURN_NULL();
    PG_RETURN_TIMESTAMPTZ(result);
}

Datum pgdp_total_date_pl_interval(PG_FUNCTION_ARGS) {
    Timestamp start = 0;
    Timestamp result = 0;
    if (!timestamp_of_date(PG_GETARG_DATEADT(0), &start) ||
        !add_interval(start, PG_GETARG_INTERVAL_P(1), false, &result))
        PG_RETURN_NULL();
    PG_RETURN_TIMESTAMP(result);
}

Datum pgdp_total_date_mi_interval(PG_FUNCTION_ARGS) {
    Timestamp start = 0;
    Timestamp result = 0;
    if (!timestamp_of_date(PG_GETARG_DATEADT(0), &start) ||
        !subtract_interval(start, PG_GETARG_INTERVAL_P(1), false, &result))
        PG_RETURN_NULL();
    PG_RETURN_TIMESTAMP(result);
}

}  // extern "C"
