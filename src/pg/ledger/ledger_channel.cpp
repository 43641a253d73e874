#include "pg/ledger/ledger_shared.hpp"

extern "C" {
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/bgworker_internals.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/wait_event.h"
}

#include <cstddef>
#include <cstring>

#include "pg/base/pg_compat.hpp"

namespace pgdp::pg {

int charge_timeout_ms = 10000;
int ledger_workers = 2;

namespace {

LedgerShared* shared = nullptr;
shmem_request_hook_type previous_shmem_request = nullptr;
shmem_startup_hook_type previous_shmem_startup = nullptr;
int registered_pool_size = 0;  // set in the postmaster by register_ledger_pool()

Size shared_size() {
    return add_size(offsetof(LedgerShared, slots),
                    mul_size(static_cast<Size>(MaxBackends) + 1, sizeof(RequestSlot)));
}

void on_shmem_request() {
    if (previous_shmem_request != nullptr) previous_shmem_request();
    RequestAddinShmemSpace(shared_size());
    RequestNamedLWLockTranche("pgdp_ledger", 1);
}

void on_shmem_startup() {
    if (previous_shmem_startup != nullptr) previous_shmem_startup();
    LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
    bool found = false;
    shared = static_cast<LedgerShared*>(ShmemInitStruct("pgdp_ledger", shared_size(), &found));
    if (!found) {
        std::memset(static_cast<void*>(shared), 0, shared_size());
        shared->lock = &(GetNamedLWLockTranche("pgdp_ledger"))->lock;
        shared->slot_count = MaxBackends + 1;
        shared->pool_size = registered_pool_size;
    }
    LWLockRelease(AddinShmemInitLock);
}

RequestSlot& my_slot() { return shared->slots[compat::backend_number()]; }

// Under the lock: a pool entry no database is bound to, preferring one whose process is up and
// waiting (an entry whose process restarts takes its database when it comes up), or nullptr.
PoolWorker* free_worker() {
    PoolWorker* restarting = nullptr;
    for (int i = 0; i < shared->pool_size; ++i) {
        PoolWorker& entry = shared->workers[i];
        if (entry.database != InvalidOid) continue;
        if (entry.state == PoolWorkerState::Waiting) return &entry;
        if (restarting == nullptr) restarting = &entry;
    }
    return restarting;
}

// Under the lock: makes sure a pool worker serves this database, binding a free one if none does,
// and wakes it. False if every pool worker is bound to another database (the request then waits
// until one retires: after its database is idle, or after a time slice; see ledger_worker.cpp).
bool bind_worker(Oid database) {
    PoolWorker* worker = worker_bound_to(shared, database);
    if (worker == nullptr) {
        worker = free_worker();
        if (worker == nullptr) return false;
        worker->database = database;
        worker->bound_at = GetCurrentTimestamp();
    }
    if (worker->latch != nullptr) SetLatch(worker->latch);
    return true;
}

void bind_my_worker() {
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    if (my_slot().state == SlotState::Pending) (void)bind_worker(MyDatabaseId);
    LWLockRelease(shared->lock);
}

// Under the lock: gives up on the current request (timeout, cancel, error). A request no worker
// has taken is withdrawn (never charged); one a worker holds is left to it (charged or not,
// nothing is released).
void abandon_request_locked() {
    RequestSlot& slot = my_slot();
    if (slot.state == SlotState::Pending || slot.state == SlotState::Done) {
        slot.state = SlotState::Idle;
    } else if (slot.state == SlotState::InProgress) {
        slot.state = SlotState::Abandoned;
    }
}

void abandon_request() {
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    abandon_request_locked();
    LWLockRelease(shared->lock);
}

[[noreturn]] void refuse_busy_pool() {
    ereport(ERROR,
            (errcode(ERRCODE_INSUFFICIENT_RESOURCES),
             errmsg("every pgdp ledger worker is serving another database"),
             errdetail("The %d ledger workers (pgdp.ledger_workers) charge releases of at most as many "
                       "databases at a time; this query waited pgdp.charge_timeout (%d ms) for one. Nothing "
                       "was released or charged.",
                       shared->pool_size, charge_timeout_ms),
             errhint("Raise pgdp.ledger_workers (and max_worker_processes, which must leave room for them) "
                     "and restart the server, or retry when releases in other databases pause.")));
}

[[noreturn]] void timed_out() {
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    // Still pending with no worker bound to the database: the pool was busy the whole time.
    const bool pool_busy =
        my_slot().state == SlotState::Pending && worker_bound_to(shared, MyDatabaseId) == nullptr;
    abandon_request_locked();
    LWLockRelease(shared->lock);
    if (pool_busy) refuse_busy_pool();
    ereport(
        ERROR,
        (errcode(ERRCODE_QUERY_CANCELED),
         errmsg("pgdp could not charge the release within pgdp.charge_timeout (%d ms)", charge_timeout_ms),
         errdetail("Nothing was released. The charge may still be recorded in the ledger."),
         errhint("Check the server log for the pgdp ledger worker, or raise pgdp.charge_timeout.")));
}

// Waits for the worker's answer; returns false if the slot is not Done yet.
bool take_outcome(ChargeOutcome* outcome) {
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    RequestSlot& slot = my_slot();
    const bool done = slot.state == SlotState::Done;
    if (done) {
        *outcome = slot.outcome;
        slot.state = SlotState::Idle;
    }
    LWLockRelease(shared->lock);
    return done;
}

long remaining_ms(TimestampTz deadline) {
    const TimestampTz now = GetCurrentTimestamp();
    if (now >= deadline) return 0;
    return static_cast<long>((deadline - now) / 1000) + 1;
}

}  // namespace

LedgerShared* ledger_shared() { return shared; }

void sleep_on_latch(long timeout_ms) {
    (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, timeout_ms, PG_WAIT_EXTENSION);
    ResetLatch(MyLatch);
}

PoolWorker* worker_bound_to(LedgerShared* ledger, Oid database) {
    for (int i = 0; i < ledger->pool_size; ++i) {
        if (ledger->workers[i].database == database) return &ledger->workers[i];
    }
    return nullptr;
}

void define_ledger_settings() {
    DefineCustomIntVariable(
        "pgdp.charge_timeout", "How long a query waits for the ledger worker to commit its charge (ms).",
        "A query whose charge is not committed in time fails and releases nothing.", &charge_timeout_ms,
        10000, 100, 600000, PGC_USERSET, GUC_UNIT_MS, nullptr, nullptr, nullptr);
    DefineCustomIntVariable(
        "pgdp.ledger_workers", "Number of pgdp ledger workers (one database each at a time).",
        "Static background workers started with the server; each takes one of "
        "max_worker_processes, so parallel queries cannot take them.",
        &ledger_workers, 2, 1, kMaxLedgerWorkers, PGC_POSTMASTER, 0, nullptr, nullptr, nullptr);
}

void request_ledger_shared_memory() {
    previous_shmem_request = shmem_request_hook;
    shmem_request_hook = on_shmem_request;
    previous_shmem_startup = shmem_startup_hook;
    shmem_startup_hook = on_shmem_startup;
}

void register_ledger_pool() {
    for (int i = 0; i < ledger_workers; ++i) {
        BackgroundWorker worker{};
        worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
        // The ledger must be writable: a standby starts its pool only once promoted.
        worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
        // A worker done with its database exits with code 1 and is started again at once; requests
        // wait in their slots meanwhile. Only a worker bound to a database exits, so this cannot spin.
        worker.bgw_restart_time = 0;
        snprintf(worker.bgw_library_name, BGW_MAXLEN, "pgdp");
        snprintf(worker.bgw_function_name, BGW_MAXLEN, "pgdp_ledger_main");
        snprintf(worker.bgw_name, BGW_MAXLEN, "pgdp ledger worker %d", i + 1);
        snprintf(worker.bgw_type, BGW_MAXLEN, "pgdp ledger worker");
        worker.bgw_main_arg = Int32GetDatum(i);
        RegisterBackgroundWorker(&worker);
    }
    // RegisterBackgroundWorker only logs when max_worker_processes is used up: count what it kept
    // (always the first ones), so that no entry waits for a worker that will never run.
    int registered = 0;
    compat::for_each_registered_worker([&registered](const RegisteredBgWorker& entry) {
        if (std::strcmp(entry.rw_worker.bgw_library_name, "pgdp") == 0 &&
            std::strcmp(entry.rw_worker.bgw_function_name, "pgdp_ledger_main") == 0) {
            ++registered;
        }
    });
    registered_pool_size = registered < kMaxLedgerWorkers ? registered : kMaxLedgerWorkers;
    if (registered_pool_size < ledger_workers) {
        ereport(WARNING,
                (errmsg("pgdp could register only %d of its %d ledger workers", registered_pool_size,
                        ledger_workers),
                 errhint("Raise max_worker_processes: it must leave room for pgdp.ledger_workers besides "
                         "parallel workers and other extensions' workers.")));
    }
}

bool ledger_attached() {
    return shared != nullptr && compat::backend_number() > 0 && compat::backend_number() < shared->slot_count;
}

bool ledger_has_workers() { return shared != nullptr && shared->pool_size > 0; }

ChargeOutcome charge_releases_now(Oid role, uint64 query_id, const char* query_text, const ChargeItem* items,
                                  int count) {
    if (shared->pool_size == 0) {
        ereport(ERROR,
                (errcode(ERRCODE_INSUFFICIENT_RESOURCES), errmsg("pgdp has no ledger worker"),
                 errdetail("No pool worker could be registered at server start; no release is made without "
                           "a committed charge."),
                 errhint("Raise max_worker_processes to leave room for pgdp.ledger_workers and restart the "
                         "server.")));
    }
    const TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), charge_timeout_ms);
    // A request abandoned earlier may still be in the worker's hands: wait for it to finish.
    for (;;) {
        LWLockAcquire(shared->lock, LW_EXCLUSIVE);
        RequestSlot& slot = my_slot();
        if (slot.state == SlotState::Done) slot.state = SlotState::Idle;
        if (slot.state == SlotState::Idle) {
            slot.database = MyDatabaseId;
            slot.role = role;
            slot.backend_pid = MyProcPid;
            slot.query_id = query_id;
            slot.requester = &MyProc->procLatch;
            slot.requested_at = GetCurrentTimestamp();
            slot.count = count;
            std::memcpy(slot.items, items, sizeof(ChargeItem) * count);
            // Truncated on a byte boundary; the worker makes it valid text in the database encoding.
            std::strncpy(slot.query_text, query_text != nullptr ? query_text : "", kQueryTextBytes);
            slot.query_text[kQueryTextBytes] = '\0';
            slot.state = SlotState::Pending;
            (void)bind_worker(MyDatabaseId);
            LWLockRelease(shared->lock);
            break;
        }
        LWLockRelease(shared->lock);
        if (remaining_ms(deadline) == 0) timed_out();
        sleep_on_latch(10);
        CHECK_FOR_INTERRUPTS();
    }

    ChargeOutcome outcome{};
    PG_TRY();
    {
        for (;;) {
            if (take_outcome(&outcome)) break;
            const long wait = remaining_ms(deadline);
            if (wait == 0) timed_out();
            sleep_on_latch(wait < 200 ? wait : 200);
            CHECK_FOR_INTERRUPTS();
            // The worker may have exited (idle, time slice, terminated) with the request still
            // pending: bind a free one again.
            bind_my_worker();
        }
    }
    PG_CATCH();
    {
        abandon_request();
        PG_RE_THROW();
    }
    PG_END_TRY();
    return outcome;
}

}  // namespace pgdp::pg
