// The channel between backends and the ledger background workers (docs/architecture.md
// "Budgets"): shared memory with one request slot per backend, a pool of static ledger workers
// registered at postmaster start (each serves one database at a time), and the charge request a
// backend makes before its query runs. Requires pgdp in shared_preload_libraries.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "storage/latch.h"
}

namespace pgdp::pg {

constexpr int kMaxReleasesPerQuery = 64;
constexpr int kQueryTextBytes = 2000;
constexpr int kMaxLedgerWorkers = 32;  // upper bound of pgdp.ledger_workers

// One release to charge (an aggregate call, once per grouping set).
struct ChargeItem {
    double epsilon;  // as passed to the aggregate (charged as its shortest decimal)
    double delta;
    double noise_scale;   // of the value release, value units
    double sensitivity;   // of the value release, value units
    double gaussian_mu2;  // sum over the call's Gaussian releases of (Delta_int/sigma_int)^2, rounded
                          // up; 0 if not Gaussian or not eligible for the Gaussian part
    char mechanism[24];   // resolved mechanism's name, as recorded ("laplace", ...)
    char aggregate[32];   // "dp_sum", ... (every name of kAggregates fits: execution/charge.cpp)
};

struct ChargeOutcome {
    // EpsilonBelowFloor: a release's epsilon is below the role's min_epsilon (22023).
    enum Code : int32 { Charged = 0, Exhausted = 1, NoBudget = 2, Failed = 3, EpsilonBelowFloor = 4 };
    Code code;
    int64 charge_id;
    char message[256];
    char detail[768];
    char hint[256];
};

// _PG_init while preloading: reserve shared memory and the lock, and register the pool of
// pgdp.ledger_workers static ledger workers (their max_worker_processes slots are taken at
// postmaster start, so parallel queries cannot take them).
// pgdp.charge_timeout and pgdp.ledger_workers.
void define_ledger_settings();
void request_ledger_shared_memory();
void register_ledger_pool();
// True if at least one pool worker was registered at server start.
bool ledger_has_workers();
// True once this process is attached to the ledger's shared memory.
bool ledger_attached();

// Sends the charge to the pool worker serving the database (assigning a free one if none does)
// and waits for its committed answer, at most pgdp.charge_timeout. ereports on timeout (57014),
// cancel, or when no pool worker became free in time (53000); the caller turns a refusal into an
// error.
ChargeOutcome charge_releases_now(Oid role, uint64 query_id, const char* query_text, const ChargeItem* items,
                                  int count);

extern int charge_timeout_ms;
extern int ledger_workers;  // pgdp.ledger_workers (PGC_POSTMASTER)

}  // namespace pgdp::pg

extern "C" {
PGDLLEXPORT void pgdp_ledger_main(Datum main_arg);
}
