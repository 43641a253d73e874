#include "pg/calls/call_site.hpp"

extern "C" {
#include "nodes/execnodes.h"
#include "nodes/plannodes.h"
#include "catalog/pg_type.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/typcache.h"
}

#include "pg/base/cpp_boundary.hpp"
#include "pg/execution/release_execution.hpp"
#include "pg/planning/plan_marks.hpp"

namespace pgdp::pg {

// The call site of fcinfo, created on the first call from the parameters registered when the
// execution started and, for a final function, the release plan it was charged with
// (release_execution.hpp charged_call).
CallSite& call_site(FunctionCallInfo fcinfo, bool final_call) {
    if (fcinfo->flinfo->fn_extra != nullptr) return *static_cast<CallSite*>(fcinfo->flinfo->fn_extra);
    const Aggref* aggref = AggGetAggref(fcinfo);
    if (aggref == nullptr || !IsA(fcinfo->context, AggState)) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("pgdp aggregates cannot be used as window functions"),
                        errhint("Use the aggregate with GROUP BY instead of OVER (...).")));
    }
    // The call's arguments are read by position: only as the support function of a pgdp
    // aggregate, never through another aggregate that calls it (Citus's worker_partial_agg).
    const AggregateIdentity identity = identify_aggregate(aggref->aggfnoid);
    if (!identity.is_pgdp) {
        ereport(ERROR,
                (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                 errmsg("pgdp aggregate support functions run only as part of a pgdp aggregate"),
                 errdetail("They were called by the aggregate %s.", format_procedure(aggref->aggfnoid)),
                 errhint("Call dp_sum, dp_mean or dp_count itself.")));
    }
    const pgdp::pg::ChargedCall& call = charged_call(fcinfo, final_call);
    auto* site = static_cast<CallSite*>(MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(CallSite)));
    site->parameters = call.parameters;
    if (final_call) {
        site->plan = *call.plan;  // charged_call returns final calls only with their charged plan
        site->planned = true;
    }
    site->kind = identity.kind;
    site->partial_totals = reads_partial_totals(aggref);
    site->squares = pgdp::reads_squares(identity.kind);
    if (site->squares && !pgdp::estimates_bounds(site->parameters.privacy)) {
        // (With estimated bounds the units follow from the bounds the release finds.)
        const pgdp::AggregateParameters& p = site->parameters.privacy;
        pgdp::CentredSquareUnits units{};
        PGDP_GUARDED(units = pgdp::centred_square_units(p.lower, p.upper, p.unit_exponent));
        site->square_units = units;
    }
    if (identity.kind == AggregateKind::CountDistinct) {
        const TypeCacheEntry* type =
            lookup_type_cache(site->parameters.value_type, TYPECACHE_HASH_EXTENDED_PROC);
        fmgr_info_cxt(type->hash_extended_proc, &site->value_hash, fcinfo->flinfo->fn_mcxt);
        site->collation = aggref->inputcollid;
    }
    fcinfo->flinfo->fn_extra = site;
    return *site;
}

PartialCount partial_count(FunctionCallInfo fcinfo, Oid key_type) {
    const int key = PG_NARGS() - 2;
    const int count = PG_NARGS() - 1;
    if (key < 2 || get_fn_expr_argtype(fcinfo->flinfo, key) != key_type ||
        get_fn_expr_argtype(fcinfo->flinfo, count) != INT8OID || PG_ARGISNULL(count)) {
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("invalid partial counts from the distributed tables: not a key and a count"),
                        errhint("Check that every Citus node runs the same pgdp version.")));
    }
    const int64 rows = PG_GETARG_INT64(count);
    if (PG_ARGISNULL(key)) {
        if (rows != 0) {
            ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                            errmsg("invalid partial counts from the distributed tables: rows without a key"),
                            errhint("Check that every Citus node runs the same pgdp version.")));
        }
        return PartialCount{false, 0, 0};
    }
    const int64 value = key_type == INT4OID ? PG_GETARG_INT32(key) : PG_GETARG_INT64(key);
    return PartialCount{true, value, rows};
}

MemoryContext aggregate_context(FunctionCallInfo fcinfo) {
    MemoryContext context = nullptr;
    const int how = AggCheckCallContext(fcinfo, &context);
    if (how == AGG_CONTEXT_WINDOW) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("pgdp aggregates cannot be used as window functions"),
                        errhint("Each window frame would be a separate release; use GROUP BY.")));
    }
    if (how == 0) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("pgdp aggregate support function called outside an aggregate")));
    }
    return context;
}

const CallSite& final_call_site(FunctionCallInfo fcinfo, const AggregateIdentity& identity) {
    (void)aggregate_context(fcinfo);
    // Released only for a call charged by this execution (release_execution.hpp), and only while no
    // other role's code has become active since the charge (a cursor fetched from such code).
    CallSite& site = call_site(fcinfo, true);
    require_release_still_allowed(fcinfo);
    // A plain aggregate has one group: a second final call means the executor computed it again
    // (a rescan), which would be a second release of one charge.
    const AggState* aggstate = castNode(AggState, fcinfo->context);
    if (castNode(Agg, aggstate->ss.ps.plan)->aggstrategy == AGG_PLAIN &&
        ++site.plain_final_calls > aggstate->maxsets) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("a pgdp aggregate was evaluated twice for one charge"),
                        errhint("Compute the release once, e.g. in a MATERIALIZED CTE.")));
    }
    // Only with the plan charged for this call, never another: fail closed.
    if (!site.planned || site.plan.kind != identity.kind) {
        ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("pgdp aggregate call was not charged"),
                        errdetail("Its final function found no release plan charged for it."),
                        errhint("Report the query.")));
    }
    return site;
}

}  // namespace pgdp::pg
