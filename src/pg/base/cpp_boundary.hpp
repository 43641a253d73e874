// The one exception barrier between the C++ core and PostgreSQL (the pattern of pg_duckdb's
// InvokeCPPFunc and MADlib's exception mapping):
//   * guarded() runs C++ code and catches every exception, copying its text into a plain struct;
//   * only after the catch block has been left, raise() calls ereport(ERROR), whose longjmp then
//     unwinds frames that hold nothing but plain data.
// Code inside guarded() must not call PostgreSQL functions that can ereport.
//
// What a user sees: pgdp's own errors (ArgumentError -> 22023, RangeError -> 22003, a state that
// fails validation, CorruptStateError -> XX001) with their message and hint. Any other exception is a
// library's or pgdp's failure: the user gets a fixed pgdp message and hint, and its raw text (which may name
// Boost or C++ functions) goes to the server log only (errdetail_log).
#pragma once

#include <new>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/state_bytes.hpp"
#include "core/interrupts.hpp"

namespace pgdp::pg {

struct ErrorReport {
    int sqlstate;
    char message[1024];
    char hint[1024];
    char log_detail[1024];  // server log only; empty for pgdp's own errors
};

enum class ErrorKind { InvalidParameter, OutOfRange, OutOfMemory, CorruptState, Internal, Interrupted };

// Records pgdp's own error: message and hint are shown to the user.
void record_error(ErrorReport& report, ErrorKind kind, const char* message, const char* hint) noexcept;
// Records an exception that is not pgdp's own: `what` goes to the server log only.
void record_foreign_error(ErrorReport& report, ErrorKind kind, const char* what) noexcept;
[[noreturn]] void raise(const ErrorReport& report);
// The core's interrupt check (core/interrupts.hpp): a query cancel or termination is pending and
// may be processed now.
bool cancel_or_die_pending();

template <typename Body>
bool guarded(ErrorReport& report, Body&& body) noexcept {
    try {
        body();
        return true;
    } catch (const pgdp::Interrupted&) {
        record_error(report, ErrorKind::Interrupted, "canceling statement: pgdp computation interrupted",
                     nullptr);
    } catch (const pgdp::ArgumentError& error) {
        record_error(report, ErrorKind::InvalidParameter, error.what(), error.hint().c_str());
    } catch (const pgdp::RangeError& error) {
        record_error(report, ErrorKind::OutOfRange, error.what(), error.hint().c_str());
    } catch (const pgdp::CorruptStateError& error) {
        record_error(report, ErrorKind::CorruptState, error.what(), nullptr);
    } catch (const std::overflow_error& error) {
        record_foreign_error(report, ErrorKind::OutOfRange, error.what());
    } catch (const std::underflow_error& error) {
        record_foreign_error(report, ErrorKind::OutOfRange, error.what());
    } catch (const std::bad_alloc&) {
        record_error(report, ErrorKind::OutOfMemory, "out of memory in pgdp", nullptr);
    } catch (const std::exception& error) {
        record_foreign_error(report, ErrorKind::Internal, error.what());
    } catch (...) {
        record_foreign_error(report, ErrorKind::Internal, "unknown C++ exception");
    }
    return false;
}

}  // namespace pgdp::pg

// Runs the statements behind the barrier and raises the recorded error, if any, afterwards.
// Variadic, so that a body with commas (a braced initializer, a template argument list) needs no
// extra parentheses: PGDP_GUARDED(x = f(a, b)); or PGDP_GUARDED(auto t = g(); use(t));
#define PGDP_GUARDED(...)                                                     \
    do {                                                                      \
        ::pgdp::pg::ErrorReport pgdp_error_report_;                           \
        if (!::pgdp::pg::guarded(pgdp_error_report_, [&]() { __VA_ARGS__; })) \
            ::pgdp::pg::raise(pgdp_error_report_);                            \
    } while (0)
