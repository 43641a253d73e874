// The one exception barrier between the C++ core and PostgreSQL (the pattern of pg_duckdb's
// InvokeCPPFunc and MADlib's exception mapping):
//   * guarded() runs C++ code and catches every exception, copying its text into a plain struct;
//   * only after the catch block has been left, raise() calls ereport(ERROR), whose longjmp then
//     unwinds frames that hold nothing but plain data.
// Code inside guarded() must not call PostgreSQL functions that can ereport.
#pragma once

#include <new>
#include <stdexcept>

#include "core/errors.hpp"

namespace pgdp::pg {

struct ErrorReport {
    int sqlstate;
    char message[1024];
    char hint[1024];
};

enum class ErrorKind { InvalidParameter, OutOfRange, OutOfMemory, Internal };

void record_error(ErrorReport& report, ErrorKind kind, const char* message, const char* hint) noexcept;
[[noreturn]] void raise(const ErrorReport& report);

template <typename Body>
bool guarded(ErrorReport& report, Body&& body) noexcept {
    try {
        body();
        return true;
    } catch (const pgdp::ArgumentError& error) {
        record_error(report, ErrorKind::InvalidParameter, error.what(), error.hint().c_str());
    } catch (const std::overflow_error& error) {
        record_error(report, ErrorKind::OutOfRange, error.what(), nullptr);
    } catch (const std::bad_alloc&) {
        record_error(report, ErrorKind::OutOfMemory, "out of memory in pgdp", nullptr);
    } catch (const std::exception& error) {
        record_error(report, ErrorKind::Internal, error.what(), nullptr);
    } catch (...) {
        record_error(report, ErrorKind::Internal, "unknown C++ exception in pgdp", nullptr);
    }
    return false;
}

}  // namespace pgdp::pg

// Runs `statement` behind the barrier and raises the recorded error, if any, afterwards.
#define PGDP_GUARDED(statement)                                              \
    do {                                                                     \
        ::pgdp::pg::ErrorReport pgdp_error_report_;                          \
        if (!::pgdp::pg::guarded(pgdp_error_report_, [&]() { statement; }))  \
            ::pgdp::pg::raise(pgdp_error_report_);                           \
    } while (0)
