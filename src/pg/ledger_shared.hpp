// Shared memory of the ledger channel (ledger_channel.hpp): one request slot per backend and a
// registry of ledger workers, all state transitions under one LWLock. Internal to
// ledger_channel.cpp and ledger_worker.cpp.
#pragma once

#include "pg/ledger_channel.hpp"

extern "C" {
#include "storage/lwlock.h"
#include "utils/timestamp.h"
}

namespace pgdp::pg {

enum class SlotState : int32 {
    Idle,        // free for the backend's next request
    Pending,     // written by the backend, waiting for its database's worker
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
    int32 count;
    ChargeItem items[kMaxReleasesPerQuery];
    char query_text[kQueryTextBytes + 1];
    ChargeOutcome outcome;
    // The charged sites of the backend's latest parallel query, for its parallel workers.
    int32 published_count;
    ChargedSite published[kMaxReleasesPerQuery];
};

constexpr int kMaxLedgerWorkers = 32;  // databases with a running ledger worker at once

struct WorkerEntry {
    Oid database;   // InvalidOid: free entry
    int32 pid;      // 0 while starting
    Latch* latch;   // nullptr while starting
    TimestampTz launched_at;
};

struct LedgerShared {
    LWLock* lock;
    int32 slot_count;
    WorkerEntry workers[kMaxLedgerWorkers];
    RequestSlot slots[FLEXIBLE_ARRAY_MEMBER];
};

LedgerShared* ledger_shared();  // nullptr unless attached

}  // namespace pgdp::pg
