// Entry point of the pgdp shared library.
#include "pg/postgres_headers.hpp"

#include "pg/strong_random.hpp"

extern "C" {

PG_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);

void _PG_init(void) {
    pgdp::pg::define_random_settings();
    MarkGUCPrefixReserved("pgdp");
}

}
