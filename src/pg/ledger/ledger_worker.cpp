// A ledger worker of the pool (ledger_channel.hpp) while it serves one database: takes pending
// charge requests, checks and records them in a transaction of its own that commits with
// synchronous_commit = on, and only then answers the waiting backends. Requests taken together
// are checked one after the other (each sees the previous ones' charges) and committed together
// (group commit). A pool worker starts unbound, connects to the database a backend assigns it, and
// exits (code 1; the postmaster starts it again at once, unbound) after a few idle seconds, so that
// DROP DATABASE is not held up, or after a time slice when another database waits for a worker.
#include "pg/ledger/ledger_shared.hpp"

extern "C" {
#include "access/xact.h"
#include "executor/spi.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "tcop/tcopprot.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/wait_event.h"
}

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "core/budget_accounting.hpp"
#include "core/decimal_text.hpp"
#include "core/release_plan.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/ledger/ledger_budget.hpp"

namespace pgdp::pg {
namespace {

constexpr int kBatch = 32;
constexpr long kIdleExitMs = 3000;    // under DROP DATABASE's 5 s wait for other sessions to leave
constexpr long kServeSliceMs = 1000;  // a worker another database waits for moves on after this

struct Taken {
    int slot;
    RequestSlot request;  // copy
};

int pool_index = -1;           // this process's entry in LedgerShared::workers
Oid my_database = InvalidOid;  // the database it serves, once assigned

void fail_request(RequestSlot& slot, const char* reason) {
    slot.outcome = ChargeOutcome{};
    set_failed(slot.outcome, reason, "Retry; see the server log.");
    slot.state = SlotState::Done;
    if (slot.requester != nullptr) SetLatch(slot.requester);
}

// On exit (also FATAL: pg_terminate_backend, a failed connect): answers the requests taken but not
// delivered as failed (their transaction was not committed: nothing charged) and frees the pool
// entry unless it was already handed on. If connecting failed (the database was dropped or does
// not accept connections), that database's pending requests fail too, so that nobody waits for a
// worker that cannot come; otherwise they stay pending for the next worker bound to it.
void unregister_worker(int, Datum) {
    LedgerShared* shared = ledger_shared();
    if (shared == nullptr || pool_index < 0) return;
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    PoolWorker& entry = shared->workers[pool_index];
    const bool holds_entry = entry.pid == MyProcPid;
    const bool connect_failed = holds_entry && entry.state == PoolWorkerState::Connecting;
    for (int i = 1; i < shared->slot_count; ++i) {
        RequestSlot& slot = shared->slots[i];
        const bool taken_by_me = slot.taken_by == MyProcPid && slot.database == my_database;
        if (taken_by_me && slot.state == SlotState::InProgress) {
            fail_request(slot, "the ledger worker exited");
        } else if (taken_by_me && slot.state == SlotState::Abandoned) {
            slot.state = SlotState::Idle;
        } else if (connect_failed && slot.state == SlotState::Pending && slot.database == entry.database) {
            fail_request(slot, "the ledger worker could not connect to the database");
        }
    }
    if (holds_entry) {
        entry.state = PoolWorkerState::Down;
        entry.database = InvalidOid;
        entry.pid = 0;
        entry.latch = nullptr;
    }
    LWLockRelease(shared->lock);
}

// Takes this process's pool entry, unbound or already assigned a database.
void register_worker() {
    LedgerShared* shared = ledger_shared();
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    PoolWorker& entry = shared->workers[pool_index];
    entry.state = PoolWorkerState::Waiting;
    entry.pid = MyProcPid;
    entry.latch = &MyProc->procLatch;
    LWLockRelease(shared->lock);
}

// The worker's statements are the ledger's bookkeeping, five per charge: kept out of
// pg_stat_statements, where they would crowd the admins' view and show every role how many
// releases were charged (its counters are readable by all).
void keep_out_of_statement_statistics() {
    if (GetConfigOption("pg_stat_statements.track", true, false) != nullptr)
        SetConfigOption("pg_stat_statements.track", "none", PGC_SUSET, PGC_S_OVERRIDE);
}

void reload_configuration_if_asked() {
    if (!ConfigReloadPending) return;
    ConfigReloadPending = false;
    ProcessConfigFile(PGC_SIGHUP);
    SetConfigOption("synchronous_commit", "on", PGC_SUSET, PGC_S_OVERRIDE);
    keep_out_of_statement_statistics();
}

// Sleeps until a backend (or a retiring worker) assigns this worker a database; the connect
// that follows is marked Connecting so that its failure fails the database's requests.
Oid wait_for_database() {
    LedgerShared* shared = ledger_shared();
    for (;;) {
        CHECK_FOR_INTERRUPTS();
        reload_configuration_if_asked();
        LWLockAcquire(shared->lock, LW_EXCLUSIVE);
        PoolWorker& entry = shared->workers[pool_index];
        const Oid database = entry.database;
        if (database != InvalidOid) entry.state = PoolWorkerState::Connecting;
        LWLockRelease(shared->lock);
        if (database != InvalidOid) return database;
        // The latch is set on assignment; the timeout is only a safety net.
        sleep_on_latch(1000);
    }
}

void mark_serving() {
    LedgerShared* shared = ledger_shared();
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    shared->workers[pool_index].state = PoolWorkerState::Serving;
    LWLockRelease(shared->lock);
}

// Under the lock: the database of the oldest pending request no pool worker is bound to, or
// InvalidOid.
Oid oldest_unserved_database(LedgerShared* shared) {
    Oid oldest = InvalidOid;
    TimestampTz oldest_at = 0;
    for (int i = 1; i < shared->slot_count; ++i) {
        const RequestSlot& slot = shared->slots[i];
        if (slot.state != SlotState::Pending || slot.database == my_database) continue;
        if (oldest != InvalidOid && slot.requested_at >= oldest_at) continue;
        if (worker_bound_to(shared, slot.database) != nullptr) continue;
        oldest = slot.database;
        oldest_at = slot.requested_at;
    }
    return oldest;
}

// Takes up to kBatch pending requests of this database. Or retires instead (under the same lock,
// so no request is missed): when none is pending and the database has been idle for kIdleExitMs or
// another database waits for a worker, or when another database waits and this one has had the
// worker for kServeSliceMs (its pending requests then wait for the next free worker). A retiring
// worker hands its entry to the waiting database; its restarted process connects there.
int take_pending(Taken* batch, bool idle_long, bool* retired) {
    LedgerShared* shared = ledger_shared();
    int taken = 0;
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    PoolWorker& entry = shared->workers[pool_index];
    const TimestampTz now = GetCurrentTimestamp();
    const Oid waiting = oldest_unserved_database(shared);
    const bool slice_over = TimestampDifferenceExceeds(entry.bound_at, now, kServeSliceMs);
    if (waiting == InvalidOid || !slice_over) {
        for (int i = 1; i < shared->slot_count && taken < kBatch; ++i) {
            RequestSlot& slot = shared->slots[i];
            if (slot.state != SlotState::Pending || slot.database != my_database) continue;
            slot.state = SlotState::InProgress;
            slot.taken_by = MyProcPid;
            batch[taken].slot = i;
            std::memcpy(&batch[taken].request, &slot, sizeof(RequestSlot));
            ++taken;
        }
    }
    if (taken == 0 && (idle_long || waiting != InvalidOid)) {
        entry.state = PoolWorkerState::Down;
        entry.database = waiting;
        entry.bound_at = now;
        entry.pid = 0;
        entry.latch = nullptr;
        *retired = true;
    }
    LWLockRelease(shared->lock);
    return taken;
}

void deliver(const Taken* batch, int count) {
    LedgerShared* shared = ledger_shared();
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    for (int i = 0; i < count; ++i) {
        RequestSlot& slot = shared->slots[batch[i].slot];
        if (slot.state == SlotState::InProgress) {
            slot.outcome = batch[i].request.outcome;
            slot.state = SlotState::Done;
            if (slot.requester != nullptr) SetLatch(slot.requester);
        } else if (slot.state == SlotState::Abandoned) {
            slot.state = SlotState::Idle;
        }
    }
    LWLockRelease(shared->lock);
}

// One transaction for the batch; on any error every request of the batch fails (nothing of it is
// committed, so nothing is charged, and nothing is released).
void process(Taken* batch, int count) {
    MemoryContext batch_context = CurrentMemoryContext;
    SetCurrentStatementStartTimestamp();
    StartTransactionCommand();
    pgstat_report_activity(STATE_RUNNING, "pgdp: charging releases");
    PG_TRY();
    {
        if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "pgdp ledger: SPI_connect failed");
        PushActiveSnapshot(GetTransactionSnapshot());
        prepare_budget_plans();
        for (int i = 0; i < count; ++i) {
            CommandCounterIncrement();
            charge_isolated(batch[i].request);
        }
        SPI_finish();
        PopActiveSnapshot();
        CommitTransactionCommand();  // synchronous_commit = on: durable before anyone is answered
    }
    PG_CATCH();
    {
        MemoryContextSwitchTo(batch_context);
        EmitErrorReport();
        ErrorData* error = CopyErrorData();
        FlushErrorState();
        AbortCurrentTransaction();
        for (int i = 0; i < count; ++i) {
            set_failed(batch[i].request.outcome, error->message,
                       "Check that pgdp is installed in this database and up to date (ALTER EXTENSION "
                       "pgdp UPDATE) and see the server log.");
        }
        // Kept plans may refer to dropped objects; prepare them again next time.
        forget_budget_plans();
        FreeErrorData(error);
    }
    PG_END_TRY();
    pgstat_report_activity(STATE_IDLE, nullptr);
    pgstat_report_stat(true);
}

}  // namespace
}  // namespace pgdp::pg

extern "C" void pgdp_ledger_main(Datum main_arg) {
    using namespace pgdp::pg;
    pqsignal(SIGHUP, SignalHandlerForConfigReload);
    pqsignal(SIGTERM, die);
    BackgroundWorkerUnblockSignals();
    LedgerShared* shared = ledger_shared();
    const int index = DatumGetInt32(main_arg);
    // Not reached when preloaded; exit code 0 unregisters the worker for good.
    if (shared == nullptr || index < 0 || index >= shared->pool_size) proc_exit(0);
    pool_index = index;
    register_worker();
    before_shmem_exit(unregister_worker, 0);

    my_database = wait_for_database();
    BackgroundWorkerInitializeConnectionByOid(my_database, InvalidOid, 0);  // FATAL if it cannot
    mark_serving();
    // The server's durability, not any session's: the charge must be on disk before a release.
    SetConfigOption("synchronous_commit", "on", PGC_SUSET, PGC_S_OVERRIDE);
    SetConfigOption("statement_timeout", "0", PGC_SUSET, PGC_S_OVERRIDE);
    // A budget row locked by an open admin transaction fails that role's charge after 1 s instead
    // of stalling every charge of the database.
    SetConfigOption("lock_timeout", "1000", PGC_SUSET, PGC_S_OVERRIDE);
    SetConfigOption("default_transaction_read_only", "off", PGC_SUSET, PGC_S_OVERRIDE);
    SetConfigOption("search_path", "pg_catalog", PGC_SUSET, PGC_S_OVERRIDE);
    keep_out_of_statement_statistics();
    pgstat_report_appname("pgdp ledger");

    MemoryContext loop_context =
        AllocSetContextCreate(TopMemoryContext, "pgdp ledger", ALLOCSET_DEFAULT_SIZES);
    Taken* batch = static_cast<Taken*>(MemoryContextAlloc(TopMemoryContext, sizeof(Taken) * kBatch));
    TimestampTz idle_since = GetCurrentTimestamp();
    for (;;) {
        CHECK_FOR_INTERRUPTS();
        reload_configuration_if_asked();
        const bool idle_long = TimestampDifferenceExceeds(idle_since, GetCurrentTimestamp(), kIdleExitMs);
        bool retired = false;
        MemoryContextSwitchTo(loop_context);
        const int count = take_pending(batch, idle_long, &retired);
        // Exit code 1: the postmaster starts this pool worker again (bgw_restart_time 0), unbound
        // or bound to the database it was handed.
        if (retired) proc_exit(1);
        if (count == 0) {
            sleep_on_latch(250);
            continue;
        }
        process(batch, count);
        deliver(batch, count);
        MemoryContextReset(loop_context);
        idle_since = GetCurrentTimestamp();
    }
}
