// pgdp.cost's releases (pgdp.sql.in pgdp.cost_releases): the dry run of one statement
// (execution/dry_run.hpp), one row per release the ledger would be charged, in its order.
#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
}

#include <cmath>
#include <cstring>
#include <string>

#include "core/budget_accounting.hpp"
#include "core/decimal_text.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/execution/dry_run.hpp"

namespace {

// The decimal the ledger charges for x (budget_accounting.hpp shortest_decimal), as numeric.
Datum charged_numeric(double x) {
    char text[pgdp::kMaxDecimalTextLength + 1] = {};
    PGDP_GUARDED(const std::string shortest = pgdp::shortest_decimal(x);
                 std::strncpy(text, shortest.c_str(), sizeof text - 1));
    return DirectFunctionCall3(numeric_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid),
                               Int32GetDatum(-1));
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_cost_releases);

// pgdp.cost_releases(statement text): release, aggregate, mechanism, epsilon, delta, noise_scale,
// sensitivity, gaussian_mu2, error_95, cached.
Datum pgdp_cost_releases(PG_FUNCTION_ARGS) {
    if (PG_ARGISNULL(0)) {
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("statement must not be NULL"),
                        errhint("Pass the query as text: pgdp.cost('SELECT ...').")));
    }
    const char* statement_text = text_to_cstring(PG_GETARG_TEXT_PP(0));
    auto* result = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
    InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC | MAT_SRF_BLESS);
    const pgdp::pg::DryRunResult run = pgdp::pg::dry_run(statement_text);
    for (int i = 0; i < run.count; ++i) {
        const pgdp::pg::ChargeItem& item = run.releases[i].item;
        const double half_width = run.releases[i].value_half_width_95;
        Datum values[10] = {Int32GetDatum(i + 1),
                            CStringGetTextDatum(pnstrdup(item.aggregate, sizeof item.aggregate)),
                            CStringGetTextDatum(pnstrdup(item.mechanism, sizeof item.mechanism)),
                            charged_numeric(item.epsilon),
                            charged_numeric(item.delta),
                            Float8GetDatum(item.noise_scale),
                            Float8GetDatum(item.sensitivity),
                            Float8GetDatum(item.gaussian_mu2),
                            Float8GetDatum(half_width),
                            BoolGetDatum(run.cached)};
        bool nulls[10] = {};
        nulls[8] = std::isnan(half_width);
        tuplestore_putvalues(result->setResult, result->setDesc, values, nulls);
    }
    return static_cast<Datum>(0);
}

}  // extern "C"
