#include "pg/channels/statement_seal.hpp"

#include <cstring>

extern "C" {
#include "access/parallel.h"
#include "access/xact.h"
#include "libpq/libpq.h"
}

namespace pgdp::pg {
namespace {

// Protocol message types (PostgreSQL frontend/backend protocol 3.0).
constexpr char kNoticeResponse = 'N';
constexpr char kReadyForQuery = 'Z';

// The connection's methods pgdp's wrap (set when the wrap is put in place).
const PQcommMethods* wrapped_methods = nullptr;
// True while PqCommMethods leads through kSealedMethods (directly, or through a module that
// replaced the methods after pgdp's wrap was put in place: then the wrap stays, passing through).
bool wrap_in_place = false;
bool sealed = false;
// Notices of pgdp's own that may pass while sealed (begin_own_notice).
int own_notices = 0;

void unseal();

// True if a message of `type` goes on to the client; ends the seal at ReadyForQuery (which is
// sent).
bool passes(char type) {
    if (!sealed) return true;
    if (type == kNoticeResponse) {
        if (own_notices == 0) return false;
        --own_notices;
        return true;
    }
    if (type == kReadyForQuery) unseal();
    return true;
}

void sealed_comm_reset() { wrapped_methods->comm_reset(); }
int sealed_flush() { return wrapped_methods->flush(); }
int sealed_flush_if_writable() { return wrapped_methods->flush_if_writable(); }
bool sealed_is_send_pending() { return wrapped_methods->is_send_pending(); }

int sealed_putmessage(char type, const char* body, size_t length) {
    const PQcommMethods* methods = wrapped_methods;
    if (!passes(type)) return 0;
    return methods->putmessage(type, body, length);
}

void sealed_putmessage_noblock(char type, const char* body, size_t length) {
    const PQcommMethods* methods = wrapped_methods;
    if (!passes(type)) return;
    methods->putmessage_noblock(type, body, length);
}

const PQcommMethods kSealedMethods = {sealed_comm_reset,      sealed_flush,      sealed_flush_if_writable,
                                      sealed_is_send_pending, sealed_putmessage, sealed_putmessage_noblock};

// Size limits that would turn a data-dependent size into an error, lifted while sealed:
// temp_file_limit, the admin's (superuser) limit on temporary files of sorts and hashes (the files
// of a cursor over hidden rows stay open and count against it in later commands), and
// citus.max_intermediate_result_size, a limit any user may set on the partial results of a
// distributed plan, which follow the groups. Set at session level, so that no function's SET
// clause ends it early (a rolled-back transaction undoes it with the files it lifted it for), and
// reset when the seal ends. Not in parallel mode, where no setting may change (the statement's
// planning and start lifted them before).
constexpr const char* kCitusResultLimit = "citus.max_intermediate_result_size";
bool lifted_temp_file_limit = false;
bool lifted_citus_limit = false;

void lift_size_limits() {
    if (IsInParallelMode()) return;
    if (temp_file_limit >= 0) {
        (void)set_config_option("temp_file_limit", "-1", PGC_SUSET, PGC_S_SESSION, GUC_ACTION_SET, true, 0,
                                false);
        lifted_temp_file_limit = true;
    }
    const char* citus_limit = GetConfigOption(kCitusResultLimit, true, false);
    if (citus_limit != nullptr && std::strcmp(citus_limit, "-1") != 0) {
        (void)set_config_option(kCitusResultLimit, "-1", PGC_SUSET, PGC_S_SESSION, GUC_ACTION_SET, true, 0,
                                false);
        lifted_citus_limit = true;
    }
}

}  // namespace

// Back to the values of the configuration, role and database (RESET), once the seal has ended
// (called when the next statement is parsed, planned or started: not while the protocol message
// that ends the seal is sent).
void restore_size_limits() {
    if (sealed || IsInParallelMode() || IsAbortedTransactionBlockState()) return;
    if (lifted_temp_file_limit) {
        (void)set_config_option("temp_file_limit", nullptr, PGC_SUSET, PGC_S_SESSION, GUC_ACTION_SET, true, 0,
                                false);
        lifted_temp_file_limit = false;
    }
    if (lifted_citus_limit) {
        (void)set_config_option(kCitusResultLimit, nullptr, PGC_SUSET, PGC_S_SESSION, GUC_ACTION_SET, true, 0,
                                false);
        lifted_citus_limit = false;
    }
}

namespace {

void unseal() {
    // Inside a transaction block the seal lasts until it ends: the block's later commands may
    // release what a cursor over hidden rows holds (temporary files closed by ROLLBACK TO
    // SAVEPOINT report their sizes; the block's size limits stay lifted).
    if (IsTransactionBlock()) return;
    sealed = false;
    own_notices = 0;
    // Taken out of the chain unless another module wrapped it since (it then passes through).
    if (wrap_in_place && PqCommMethods == &kSealedMethods) {
        PqCommMethods = wrapped_methods;
        wrap_in_place = false;
    }
}

}  // namespace

void seal_until_ready_for_query() {
    if (IsParallelWorker()) return;
    own_notices = 0;
    lift_size_limits();
    if (!wrap_in_place) {
        wrapped_methods = PqCommMethods;
        PqCommMethods = &kSealedMethods;
        wrap_in_place = true;
    }
    sealed = true;
}

bool connection_sealed() { return sealed; }

void begin_own_notice() {
    if (sealed) own_notices = 1;
}

void end_own_notice() { own_notices = 0; }

}  // namespace pgdp::pg
