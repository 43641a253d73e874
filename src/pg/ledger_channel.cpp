#include "pg/ledger_shared.hpp"

extern "C" {
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/backendid.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/wait_event.h"
}

#include <cstddef>
#include <cstring>

namespace pgdp::pg {

int charge_timeout_ms = 10000;

namespace {

LedgerShared* shared = nullptr;
shmem_request_hook_type previous_shmem_request = nullptr;
shmem_startup_hook_type previous_shmem_startup = nullptr;

Size shared_size() {
    return add_size(offsetof(LedgerShared, slots), mul_size(static_cast<Size>(MaxBackends) + 1, sizeof(RequestSlot)));
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
    }
    LWLockRelease(AddinShmemInitLock);
}

RequestSlot& my_slot() { return shared->slots[MyBackendId]; }

// Under the lock: the running or starting worker of this database, or nullptr.
WorkerEntry* worker_of(Oid database) {
    for (auto& entry : shared->workers) {
        if (entry.database == database) return &entry;
    }
    return nullptr;
}

// Starts this database's ledger worker unless one is running or was started less than a
// timeout ago (it then serves every pending request of the database when it comes up).
void ensure_worker() {
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    WorkerEntry* entry = worker_of(MyDatabaseId);
    const TimestampTz now = GetCurrentTimestamp();
    if (entry != nullptr && (entry->latch != nullptr ||
                             !TimestampDifferenceExceeds(entry->launched_at, now, charge_timeout_ms))) {
        if (entry->latch != nullptr) SetLatch(entry->latch);
        LWLockRelease(shared->lock);
        return;
    }
    if (entry == nullptr) {
        for (auto& candidate : shared->workers) {
            if (candidate.database == InvalidOid) {
                entry = &candidate;
                break;
            }
        }
    }
    if (entry == nullptr) {
        LWLockRelease(shared->lock);
        ereport(ERROR, (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
                        errmsg("too many databases with a pgdp ledger worker (at most %d)", kMaxLedgerWorkers),
                        errhint("Retry when releases in other databases have stopped for a few seconds.")));
    }
    entry->database = MyDatabaseId;
    entry->pid = 0;
    entry->latch = nullptr;
    entry->launched_at = now;
    LWLockRelease(shared->lock);

    BackgroundWorker worker{};
    worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
    worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
    worker.bgw_restart_time = BGW_NEVER_RESTART;
    snprintf(worker.bgw_library_name, BGW_MAXLEN, "pgdp");
    snprintf(worker.bgw_function_name, BGW_MAXLEN, "pgdp_ledger_main");
    snprintf(worker.bgw_name, BGW_MAXLEN, "pgdp ledger worker for database %u", MyDatabaseId);
    snprintf(worker.bgw_type, BGW_MAXLEN, "pgdp ledger worker");
    worker.bgw_main_arg = ObjectIdGetDatum(MyDatabaseId);
    worker.bgw_notify_pid = 0;
    BackgroundWorkerHandle* handle = nullptr;
    if (!RegisterDynamicBackgroundWorker(&worker, &handle)) {
        LWLockAcquire(shared->lock, LW_EXCLUSIVE);
        if (entry->database == MyDatabaseId && entry->latch == nullptr) entry->database = InvalidOid;
        LWLockRelease(shared->lock);
        ereport(ERROR, (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
                        errmsg("could not start the pgdp ledger worker"),
                        errdetail("No release is made without a committed charge."),
                        errhint("Raise max_worker_processes (each database making releases needs one slot).")));
    }
}

// Gives up on the current request (timeout, cancel, error): a request the worker has not taken is
// withdrawn (never charged); one it holds is left to it (charged or not, nothing is released).
void abandon_request() {
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    RequestSlot& slot = my_slot();
    if (slot.state == SlotState::Pending || slot.state == SlotState::Done) {
        slot.state = SlotState::Idle;
    } else if (slot.state == SlotState::InProgress) {
        slot.state = SlotState::Abandoned;
    }
    LWLockRelease(shared->lock);
}

[[noreturn]] void timed_out() {
    abandon_request();
    ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED),
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

void request_ledger_shared_memory() {
    previous_shmem_request = shmem_request_hook;
    shmem_request_hook = on_shmem_request;
    previous_shmem_startup = shmem_startup_hook;
    shmem_startup_hook = on_shmem_startup;
}

bool ledger_attached() { return shared != nullptr && MyBackendId > 0 && MyBackendId < shared->slot_count; }

ChargeOutcome charge_releases_now(Oid role, uint64 query_id, const char* query_text, const ChargeItem* items,
                                  int count) {
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
            slot.count = count;
            std::memcpy(slot.items, items, sizeof(ChargeItem) * count);
            // Truncated on a byte boundary; the worker makes it valid text in the database encoding.
            std::strncpy(slot.query_text, query_text != nullptr ? query_text : "", kQueryTextBytes);
            slot.query_text[kQueryTextBytes] = '\0';
            slot.state = SlotState::Pending;
            WorkerEntry* worker = worker_of(MyDatabaseId);
            Latch* latch = worker != nullptr ? worker->latch : nullptr;
            if (latch != nullptr) SetLatch(latch);
            LWLockRelease(shared->lock);
            break;
        }
        LWLockRelease(shared->lock);
        if (remaining_ms(deadline) == 0) timed_out();
        (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10, PG_WAIT_EXTENSION);
        ResetLatch(MyLatch);
        CHECK_FOR_INTERRUPTS();
    }

    ChargeOutcome outcome{};
    PG_TRY();
    {
        ensure_worker();  // inside: an error here withdraws the request
        for (;;) {
            if (take_outcome(&outcome)) break;
            const long wait = remaining_ms(deadline);
            if (wait == 0) timed_out();
            (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, wait < 200 ? wait : 200,
                            PG_WAIT_EXTENSION);
            ResetLatch(MyLatch);
            CHECK_FOR_INTERRUPTS();
            ensure_worker();  // restarts a worker that exited or failed to start
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

void publish_charged_sites(const ChargedSite* sites, int count) {
    LWLockAcquire(shared->lock, LW_EXCLUSIVE);
    RequestSlot& slot = my_slot();
    slot.published_count = count;
    std::memcpy(slot.published, sites, sizeof(ChargedSite) * count);
    LWLockRelease(shared->lock);
}

int leader_charged_sites(ChargedSite* out, int capacity) {
    if (shared == nullptr || ParallelLeaderBackendId <= 0 || ParallelLeaderBackendId >= shared->slot_count) return 0;
    LWLockAcquire(shared->lock, LW_SHARED);
    const RequestSlot& slot = shared->slots[ParallelLeaderBackendId];
    const int count = slot.published_count < capacity ? slot.published_count : capacity;
    std::memcpy(out, slot.published, sizeof(ChargedSite) * count);
    LWLockRelease(shared->lock);
    return count;
}

}  // namespace pgdp::pg
