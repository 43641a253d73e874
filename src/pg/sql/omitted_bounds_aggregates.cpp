// The transition and final functions of the forms without bounds (calls/omitted_bounds.hpp). A
// planner with pgdp's hook rewrites every call into its NULL-bound form before the plan is made,
// so these run only for a call planned without it (pgdp not loaded then): refused, whatever the
// rows (the transition raises at the first row, the final function for a group of none).
#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "utils/lsyscache.h"
}

namespace {

[[noreturn]] void refuse_unrewritten(FunctionCallInfo fcinfo) {
    Aggref* call = AggGetAggref(fcinfo);
    const char* name = call != nullptr ? get_func_name(call->aggfnoid) : nullptr;
    ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                    errmsg("%s without bounds runs only in queries that pgdp planned",
                           name != nullptr ? name : "a pgdp aggregate"),
                    errdetail("pgdp's planner rewrites the call into its form with NULL bounds."),
                    errhint("Add pgdp to shared_preload_libraries, or pass NULL bounds: "
                            "dp_sum(value, NULL, NULL, epsilon).")));
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_omitted_bounds_transfn);
PG_FUNCTION_INFO_V1(pgdp_omitted_bounds_final);

Datum pgdp_omitted_bounds_transfn(PG_FUNCTION_ARGS) { refuse_unrewritten(fcinfo); }
Datum pgdp_omitted_bounds_final(PG_FUNCTION_ARGS) { refuse_unrewritten(fcinfo); }
}
