// SQL functions of the release pipeline that its rewrites call (pgdp.sql.in).
#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "fmgr.h"
}

#include <cstdint>

#include "pg/base/cpp_boundary.hpp"
#include "pg/base/strong_random.hpp"

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_bounding_rank);

// pgdp.bounding_rank(): 63 uniform bits from the release CSPRNG, the order in which a grouped
// person-level release keeps a unit's groups (person_level.cpp, bounded_level). Fresh per row,
// so a unit's choice depends on no other unit's rows; no setseed() reaches it (random() would).
Datum pgdp_bounding_rank(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    std::uint64_t bits = 0;
    PGDP_GUARDED(bits = random.next_u64());
    PG_RETURN_INT64(static_cast<int64>(bits >> 1));
}

}  // extern "C"
