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
#include "pg/planning/person_level.hpp"
#include "pg/planning/planner_statistics.hpp"
#include "pg/base/strong_random.hpp"

extern "C" {

PG_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);

void _PG_init(void) {
    pgdp::pg::define_random_settings();
    pgdp::pg::define_ledger_settings();
    pgdp::pg::define_release_cache_settings();
    pgdp::pg::define_person_level_settings();
    pgdp::pg::define_planner_statistics_settings();
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
