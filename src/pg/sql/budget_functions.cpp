// SQL helpers of the budget catalog (extension/pgdp--0.2--0.3.sql).
#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "access/xlog.h"
#include "utils/builtins.h"
#include "utils/numeric.h"
}

#include <cmath>
#include <limits>

#include "core/budget_accounting.hpp"
#include "core/errors.hpp"
#include "core/validate.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/ledger/ledger_channel.hpp"

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_ledger_ready);
PG_FUNCTION_INFO_V1(pgdp_gaussian_part_epsilon);

// pgdp.ledger_ready(): releases can be charged in this session.
Datum pgdp_ledger_ready(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    PG_RETURN_BOOL(pgdp::pg::ledger_attached() && pgdp::pg::ledger_has_workers() && !RecoveryInProgress());
}

// pgdp.gaussian_part_epsilon(mu2, delta_room): the epsilon of the composed Gaussian part at the
// delta left over, for the budget views. Callable by PUBLIC, so both arguments are validated:
// mu2 (a sum of squares) finite and >= 0, delta_room finite. The views pass any room a budget can
// have: none left (<= 0, e.g. after set_budget lowered delta_limit below delta_spent; also below
// 2e-300) gives NULL, as does a Gaussian part that no float8 epsilon covers; a room >= 1 gives 0
// (every mechanism is (0, 1)-DP).
Datum pgdp_gaussian_part_epsilon(PG_FUNCTION_ARGS) {
    const double mu2 = PG_GETARG_FLOAT8(0);
    Numeric room = PG_GETARG_NUMERIC(1);
    const bool room_finite = !numeric_is_nan(room) && !numeric_is_inf(room);
    // numeric -> float8 saturating at +-Infinity (no overflow error for a huge numeric).
    const double room_value =
        DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, NumericGetDatum(room)));
    double epsilon = 0.0;
    enum class Answer { Zero, Null, Epsilon } answer = Answer::Null;
    PGDP_GUARDED({
        if (!(std::isfinite(mu2) && mu2 >= 0.0)) {
            throw pgdp::ArgumentError(
                "mu2", "mu2 must be a finite number >= 0, got " + pgdp::shown(mu2),
                "mu2 is the sum of (sensitivity/sigma)^2 over a role's Gaussian releases "
                "(pgdp.budgets.gaussian_mu2).");
        }
        if (!room_finite) {
            throw pgdp::ArgumentError("delta_room",
                                      "delta_room must be a finite number, got " + pgdp::shown(room_value),
                                      "delta_room is the delta a role has left: delta_limit - delta_spent.");
        }
        if (mu2 == 0.0 || room_value >= 1.0) {
            answer = Answer::Zero;
        } else if (room_value >= 2 * pgdp::kMinEpsilonDelta) {
            // Rounded down: the epsilon is computed for at most the delta that is left.
            epsilon = pgdp::gaussian_part_epsilon(mu2, std::nextafter(room_value, 0.0));
            answer = std::isfinite(epsilon) ? Answer::Epsilon : Answer::Null;
        }
    });
    if (answer == Answer::Zero) PG_RETURN_FLOAT8(0.0);
    if (answer == Answer::Null) PG_RETURN_NULL();
    PG_RETURN_FLOAT8(epsilon);
}
}
