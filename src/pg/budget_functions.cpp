// SQL helpers of the budget catalog (extension/pgdp--0.2--0.3.sql).
#include "pg/postgres_headers.hpp"

extern "C" {
#include "access/xlog.h"
#include "utils/numeric.h"
}

#include <cmath>
#include <limits>

#include "core/budget_accounting.hpp"
#include "pg/cpp_boundary.hpp"
#include "pg/ledger_channel.hpp"

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_ledger_ready);
PG_FUNCTION_INFO_V1(pgdp_gaussian_part_epsilon);

// pgdp.ledger_ready(): releases can be charged in this session.
Datum pgdp_ledger_ready(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    PG_RETURN_BOOL(pgdp::pg::ledger_attached() && !RecoveryInProgress());
}

// pgdp.gaussian_part_epsilon(mu2, delta_room): the epsilon of the composed Gaussian part at the
// delta left over (NULL when no delta is left), for the budget views.
Datum pgdp_gaussian_part_epsilon(PG_FUNCTION_ARGS) {
    const double mu2 = PG_GETARG_FLOAT8(0);
    const double delta_room = std::nextafter(
        DatumGetFloat8(DirectFunctionCall1(numeric_float8, PG_GETARG_DATUM(1))), -std::numeric_limits<double>::infinity());
    double epsilon = 0.0;
    PGDP_GUARDED(epsilon = pgdp::gaussian_part_epsilon(mu2, delta_room));
    if (!std::isfinite(epsilon)) PG_RETURN_NULL();
    PG_RETURN_FLOAT8(epsilon);
}

}
