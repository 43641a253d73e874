#include "pg/calls/omitted_bounds.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/pg_list.h"
#include "parser/parse_func.h"
#include "utils/lsyscache.h"
}

#include "pg/calls/aggregate_identity.hpp"

namespace pgdp::pg {

void insert_null_bounds(Aggref* call) {
    const AggregateIdentity omitted = identify_aggregate(call->aggfnoid);
    // The aggregated arguments; an ORDER BY inside the call appends its keys to args as resjunk
    // entries after them (red team round 20: such a call raised XX000 here).
    const int nargs = list_length(call->aggargtypes);
    if (!omitted.omits_bounds || nargs < 2 || list_length(call->args) < nargs || call->aggdirectargs != NIL) {
        ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("pgdp: not a call without bounds")));
    }
    // The argument types with lower and upper after the value.
    Oid types[FUNC_MAX_ARGS];
    int count = 0;
    ListCell* cell;
    foreach (cell, call->aggargtypes) {
        types[count++] = lfirst_oid(cell);
        if (count == 1) {
            types[count++] = FLOAT8OID;
            types[count++] = FLOAT8OID;
        }
    }
    char* schema = get_namespace_name(get_func_namespace(call->aggfnoid));
    char* name = get_func_name(call->aggfnoid);
    List* qualified = list_make2(makeString(schema), makeString(name));
    const Oid target = LookupFuncName(qualified, count, types, true);
    const AggregateIdentity form = OidIsValid(target) ? identify_aggregate(target) : AggregateIdentity{};
    if (!OidIsValid(target) || !form.is_pgdp || form.omits_bounds || form.kind != omitted.kind ||
        form.with_interval || get_func_rettype(target) != call->aggtype) {
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_FUNCTION),
                        errmsg("%s.%s has no form with NULL bounds for these arguments", schema, name),
                        errdetail("A call without bounds is its form with NULL lower and upper."),
                        errhint("Pass the bounds, or NULL for both: %s(value, NULL, NULL, ...).", name)));
    }
    List* arguments = NIL;
    List* argument_types = NIL;
    for (int i = 0; i < count; ++i) argument_types = lappend_oid(argument_types, types[i]);
    AttrNumber number = 0;
    foreach (cell, call->args) {
        auto* entry = lfirst_node(TargetEntry, cell);
        entry->resno = ++number;
        arguments = lappend(arguments, entry);
        if (number == 1) {
            for (int bound = 0; bound < 2; ++bound) {
                Expr* null_bound = (Expr*)makeNullConst(FLOAT8OID, -1, InvalidOid);
                arguments = lappend(arguments, makeTargetEntry(null_bound, ++number, nullptr, false));
            }
        }
    }
    call->aggfnoid = target;
    call->args = arguments;
    call->aggargtypes = argument_types;
}

}  // namespace pgdp::pg
