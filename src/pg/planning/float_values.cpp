#include "pg/planning/float_values.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
}

#include "pg/calls/aggregate_call.hpp"
#include "pg/calls/aggregate_identity.hpp"
#include "pg/planning/query_builder.hpp"
#include "pg/planning/total_forms.hpp"

namespace pgdp::pg {
namespace {

Const* numeric_constant(const char* text) {
    const Datum value = DirectFunctionCall3(numeric_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid),
                                            Int32GetDatum(-1));
    return makeConst(NUMERICOID, -1, InvalidOid, -1, value, false, false);
}

Const* float8_constant(double value) {
    return makeConst(FLOAT8OID, -1, InvalidOid, sizeof(float8), Float8GetDatum(value), false,
                     FLOAT8PASSBYVAL);
}

Expr* compare(const char* name, Expr* value, const char* constant) {
    return operator_clause(name, NUMERICOID, (Expr*)copyObjectImpl(value), (Expr*)numeric_constant(constant));
}

CaseWhen* when(Expr* condition, double result) {
    auto* clause = makeNode(CaseWhen);
    clause->expr = condition;
    clause->result = (Expr*)float8_constant(result);
    clause->location = -1;
    return clause;
}

Expr* safe_float8(FuncExpr* cast) {
    Expr* value = linitial_node(Expr, cast->args);
    auto* safe = makeNode(CaseExpr);
    safe->casetype = FLOAT8OID;
    safe->casecollid = InvalidOid;
    Expr* tiny = (Expr*)makeBoolExpr(
        AND_EXPR, list_make2(compare(">", value, "-2.5e-324"), compare("<", value, "2.5e-324")), -1);
    safe->args = list_make4(when(compare("=", value, "NaN"), get_float8_nan()),
                            when(compare(">", value, "1.7976931348623157e308"), get_float8_infinity()),
                            when(compare("<", value, "-1.7976931348623157e308"), -get_float8_infinity()),
                            when(tiny, 0.0));
    safe->defresult = (Expr*)cast;
    safe->location = -1;
    return (Expr*)safe;
}

bool reads_float8_value(AggregateKind kind) {
    return kind == AggregateKind::Histogram || kind == AggregateKind::Quantiles;
}

}  // namespace

void make_float_values_safe(const ReleaseQuery& analysis) {
    ListCell* level_cell;
    foreach (level_cell, analysis.levels) {
        const auto* level = static_cast<const ReleaseLevel*>(lfirst(level_cell));
        ListCell* call_cell;
        foreach (call_cell, level->calls) {
            Aggref* call = static_cast<Aggref*>(lfirst(call_cell));
            const AggregateKind kind = identify_aggregate(call->aggfnoid).kind;
            // Only a value argument (dp_count's first argument is its epsilon).
            if (call->args == NIL ||
                !(pgdp::reads_bounded_value(kind) || pgdp::has_row_capped_person_form(kind))) {
                continue;
            }
            TargetEntry* entry = linitial_node(TargetEntry, call->args);
            if (!IsA(entry->expr, FuncExpr)) continue;
            auto* cast = castNode(FuncExpr, entry->expr);
            if (cast->funcid != F_FLOAT8_NUMERIC || cast->funcformat != COERCE_IMPLICIT_CAST ||
                list_length(cast->args) != 1) {
                continue;
            }
            // pgdp.total_float8 where the extension has it, for every call; else the CASE form,
            // for the statistics that read float8 values only.
            const Oid total = total_cast_of(F_FLOAT8_NUMERIC);
            if (OidIsValid(total)) {
                cast->funcid = total;
            } else if (reads_float8_value(kind) && !contain_volatile_functions((Node*)cast->args)) {
                entry->expr = safe_float8(cast);
            }
        }
    }
}

}  // namespace pgdp::pg
