// Shared memory of the ledger channel (ledger_channel.hpp): one request slot per backend and the
// pool of ledger workers, all state transitions under one LWLock. Internal to ledger_channel.cpp
// and ledger_worker.cpp.
#pragma once

#include "pg/ledger/ledger_channel.hpp"

extern "C" {
#include "storage/lwlock.h"
#include "utils/timestamp.h"
}

namespace pgdp::pg {

enum class SlotState : int32 {
    Idle,        // free for the backend's next request
    Pending,     // written by the backend, waiting for a worker serving its database
    InProgress,  // taken by the worker
    Done,        // committed (or refused or failed); outcome valid
    Abandoned,   // the backend stopped waiting while the worker had it; the worker frees it
};

struct RequestSlot {
    SlotState state;
    int32 taken_by;  // pid of the worker holding it (InProgress/Abandoned)
    Oid database;
    Oid role;
    int32 backend_pid;
    uint64 query_id;
    Latch* requester;
    TimestampTz requested_at;  // when it became Pending (the oldest waiting database is served first)
    int32 count;
    ChargeItem items[kMaxReleasesPerQuery];
    char query_text[kQueryTextBytes + 1];
    ChargeOutcome outcome;
};

// One pool worker: a static background worker (bgw_main_arg = its index) that serves one
// database at a time. A process connects to one database for life, so a worker that is done with
// its database exits with code 1 and the postmaster starts it again, unbound.
enum class PoolWorkerState : int32 {
    Down,        // no process serves the entry (not started yet, restarting, or exiting)
    Waiting,     // process up, not connected; connects to `database` as soon as it is set
    Connecting,  // process connecting to `database`
    Serving,     // connected to `database`, taking its requests
};

struct PoolWorker {
    PoolWorkerState state;
    Oid database;          // InvalidOid: free, any backend may assign it its database
    int32 pid;             // of the process in state Waiting/Connecting/Serving, else 0
    Latch* latch;          // its latch, else nullptr
    TimestampTz bound_at;  // when `database` was assigned (time slices when databases wait)
};

struct LedgerShared {
    LWLock* lock;
    int32 slot_count;
    int32 pool_size;  // pool workers registered at postmaster start (entries 0..pool_size-1)
    PoolWorker workers[kMaxLedgerWorkers];
    RequestSlot slots[FLEXIBLE_ARRAY_MEMBER];
};

LedgerShared* ledger_shared();  // nullptr unless attached

// Under the lock: the pool entry bound to this database, or nullptr.
PoolWorker* worker_bound_to(LedgerShared* shared, Oid database);

// Sleeps until this process's latch is set (a request, an answer, an assignment) or timeout_ms
// passes, then resets the latch; exits if the postmaster died.
void sleep_on_latch(long timeout_ms);

}  // namespace pgdp::pg
