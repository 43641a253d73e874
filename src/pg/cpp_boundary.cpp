#include "pg/postgres_headers.hpp"

#include "pg/cpp_boundary.hpp"

#include <cstdio>

namespace pgdp::pg {

void record_error(ErrorReport& report, ErrorKind kind, const char* message, const char* hint) noexcept {
    switch (kind) {
        case ErrorKind::InvalidParameter:
            report.sqlstate = ERRCODE_INVALID_PARAMETER_VALUE;
            break;
        case ErrorKind::OutOfRange:
            report.sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
            break;
        case ErrorKind::OutOfMemory:
            report.sqlstate = ERRCODE_OUT_OF_MEMORY;
            break;
        case ErrorKind::Internal:
            report.sqlstate = ERRCODE_INTERNAL_ERROR;
            break;
    }
    std::snprintf(report.message, sizeof report.message, "%s", message != nullptr ? message : "");
    std::snprintf(report.hint, sizeof report.hint, "%s", hint != nullptr ? hint : "");
}

void raise(const ErrorReport& report) {
    ereport(ERROR, (errcode(report.sqlstate), errmsg("%s", report.message),
                    report.hint[0] != '\0' ? errhint("%s", report.hint) : 0));
    pg_unreachable();
}

}  // namespace pgdp::pg
