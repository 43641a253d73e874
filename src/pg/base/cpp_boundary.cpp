#include "pg/base/postgres_headers.hpp"

#include "pg/base/cpp_boundary.hpp"

extern "C" {
#include "miscadmin.h"
}

#include <cstdio>

namespace pgdp::pg {

namespace {

int sqlstate_of(ErrorKind kind) noexcept {
    switch (kind) {
        case ErrorKind::InvalidParameter:
            return ERRCODE_INVALID_PARAMETER_VALUE;
        case ErrorKind::OutOfRange:
            return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
        case ErrorKind::OutOfMemory:
            return ERRCODE_OUT_OF_MEMORY;
        case ErrorKind::CorruptState:
            return ERRCODE_DATA_CORRUPTED;
        case ErrorKind::Interrupted:
            return ERRCODE_QUERY_CANCELED;
        case ErrorKind::Internal:
            break;
    }
    return ERRCODE_INTERNAL_ERROR;
}

}  // namespace

bool cancel_or_die_pending() {
    return InterruptPending && (QueryCancelPending || ProcDiePending) && InterruptHoldoffCount == 0 &&
           QueryCancelHoldoffCount == 0 && CritSectionCount == 0;
}

void record_error(ErrorReport& report, ErrorKind kind, const char* message, const char* hint) noexcept {
    report.sqlstate = sqlstate_of(kind);
    std::snprintf(report.message, sizeof report.message, "%s", message != nullptr ? message : "");
    std::snprintf(report.hint, sizeof report.hint, "%s", hint != nullptr ? hint : "");
    report.log_detail[0] = '\0';
}

void record_foreign_error(ErrorReport& report, ErrorKind kind, const char* what) noexcept {
    // A library's text (Boost names its functions and template arguments) is no message for a
    // user: a fixed one instead, the raw text for the server log.
    if (kind == ErrorKind::OutOfRange) {
        record_error(report, kind, "a pgdp calculation left the float8 range for these arguments",
                     "Use less extreme arguments (for example a larger epsilon or a smaller sensitivity).");
    } else {
        record_error(report, ErrorKind::Internal, "internal error in pgdp",
                     "Please report it with the query; the server log has the details.");
    }
    std::snprintf(report.log_detail, sizeof report.log_detail, "C++ exception: %s",
                  what != nullptr ? what : "");
}

void raise(const ErrorReport& report) {
    // An interrupted computation: PostgreSQL raises the pending cancel or termination itself.
    if (report.sqlstate == ERRCODE_QUERY_CANCELED) CHECK_FOR_INTERRUPTS();
    ereport(ERROR, (errcode(report.sqlstate), errmsg("%s", report.message),
                    report.hint[0] != '\0' ? errhint("%s", report.hint) : 0,
                    report.log_detail[0] != '\0' ? errdetail_log("%s", report.log_detail) : 0));
    pg_unreachable();
}

}  // namespace pgdp::pg
