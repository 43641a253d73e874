// The channel between backends and the ledger background workers (docs/architecture.md
// "Budgets"): shared memory with one request slot per backend, a registry of one ledger worker
// per database (started on demand as a dynamic background worker), and the charge request a
// backend makes before its query runs. Requires pgdp in shared_preload_libraries.
#pragma once

#include "pg/postgres_headers.hpp"

extern "C" {
#include "storage/latch.h"
}

namespace pgdp::pg {

constexpr int kMaxReleasesPerQuery = 64;
constexpr int kQueryTextBytes = 2000;

// One release to charge (an aggregate call, once per grouping set).
struct ChargeItem {
    double epsilon;        // as passed to the aggregate (charged as its shortest decimal)
    double delta;
    double noise_scale;    // of the value release, value units
    double sensitivity;    // of the value release, value units
    double gaussian_mu2;   // sum over the call's Gaussian releases of (Delta_int/sigma_int)^2, rounded
                           // up; 0 if not Gaussian or not eligible for the Gaussian part
    int32 mechanism;       // pgdp::Mechanism, resolved
    char aggregate[16];    // "dp_sum", ...
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

// A charged aggregate call site, published by a parallel leader for its workers and kept by
// every backend for its final functions to check.
struct ChargedSite {
    int32 plan_node_id;  // of the Agg node
    int32 aggno;
    Oid aggfnoid;
    int32 mechanism;     // as requested
    double epsilon;
    double delta;
    double lower;
    double upper;
    double alpha;
};

// _PG_init while preloading: reserve shared memory and the lock.
void request_ledger_shared_memory();
// True once this process is attached to the ledger's shared memory.
bool ledger_attached();

// Sends the charge to the database's ledger worker (starting it if needed) and waits for its
// committed answer, at most pgdp.charge_timeout. ereports on timeout, cancel or a failure to
// start the worker; the caller turns a refusal into an error.
ChargeOutcome charge_releases_now(Oid role, uint64 query_id, const char* query_text, const ChargeItem* items,
                                  int count);

// Parallel queries: the leader publishes its charged sites; a worker copies its leader's.
void publish_charged_sites(const ChargedSite* sites, int count);
int leader_charged_sites(ChargedSite* out, int capacity);

extern int charge_timeout_ms;

}  // namespace pgdp::pg

extern "C" {
PGDLLEXPORT void pgdp_ledger_main(Datum main_arg);
}
