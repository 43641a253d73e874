// Entry point of the pgdp shared library.
#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "miscadmin.h"
#include "utils/guc.h"
}

#include "core/interrupts.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/ledger/ledger_channel.hpp"
#include "pg/hooks.hpp"
#include "pg/execution/release_cache.hpp"
#include "pg/base/strong_random.hpp"

extern "C" {

PG_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);

void _PG_init(void) {
    pgdp::pg::define_random_settings();
    DefineCustomIntVariable("pgdp.charge_timeout",
                            "How long a query waits for the ledger worker to commit its charge (ms).",
                            "A query whose charge is not committed in time fails and releases nothing.",
                            &pgdp::pg::charge_timeout_ms, 10000, 100, 600000, PGC_USERSET, GUC_UNIT_MS,
                            nullptr, nullptr, nullptr);
    DefineCustomIntVariable("pgdp.ledger_workers",
                            "Number of pgdp ledger workers (one database each at a time).",
                            "Static background workers started with the server; each takes one of "
                            "max_worker_processes, so parallel queries cannot take them.",
                            &pgdp::pg::ledger_workers, 2, 1, pgdp::pg::kMaxLedgerWorkers, PGC_POSTMASTER, 0,
                            nullptr, nullptr, nullptr);
    pgdp::pg::define_release_cache_settings();
    MarkGUCPrefixReserved("pgdp");
    // Releases are charged only when the library is preloaded (the ledger needs shared memory and
    // background workers); otherwise the hook refuses them (fail closed).
    if (process_shared_preload_libraries_in_progress) {
        pgdp::pg::request_ledger_shared_memory();
        pgdp::pg::register_ledger_pool();
    }
    pgdp::set_interrupt_check(pgdp::pg::cancel_or_die_pending);
    pgdp::pg::install_hooks();
}
}
