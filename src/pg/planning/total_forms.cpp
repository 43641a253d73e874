#include "pg/planning/total_forms.hpp"

extern "C" {
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_database.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pg_list.h"
#include "nodes/value.h"
#include "parser/parse_func.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/syscache.h"
}

#include <cstring>

#include "pg/base/pg_compat.hpp"

#include "pg/calls/aggregate_call.hpp"
#include "pg/planning/query_builder.hpp"

namespace pgdp::pg {
namespace {

struct TotalForm {
    Oid builtin;       // the built-in (pg_catalog) function
    PGFunction code;   // its C code, called once with a constant unit; nullptr: no unit
    const char* name;  // the total form in schema pgdp, same argument types
    int nargs;
    Oid types[4];
    // lower, upper: substituted only under a collation whose case mapping cannot fail.
    bool case_mapping = false;
};

constexpr TotalForm total_forms[] = {
    {F_FLOAT8_NUMERIC, nullptr, "total_float8", 1, {NUMERICOID}},
    {F_FLOAT4_NUMERIC, nullptr, "total_float4", 1, {NUMERICOID}},
    {F_FLOAT4_FLOAT8, nullptr, "total_float4", 1, {FLOAT8OID}},
    {F_INT4PL, nullptr, "total_add", 2, {INT4OID, INT4OID}},
    {F_INT4MI, nullptr, "total_sub", 2, {INT4OID, INT4OID}},
    {F_INT4MUL, nullptr, "total_mul", 2, {INT4OID, INT4OID}},
    {F_INT4DIV, nullptr, "total_div", 2, {INT4OID, INT4OID}},
    {F_INT4ABS, nullptr, "total_abs", 1, {INT4OID}},
    {F_ABS_INT4, nullptr, "total_abs", 1, {INT4OID}},
    {F_INT8PL, nullptr, "total_add", 2, {INT8OID, INT8OID}},
    {F_INT8MI, nullptr, "total_sub", 2, {INT8OID, INT8OID}},
    {F_INT8MUL, nullptr, "total_mul", 2, {INT8OID, INT8OID}},
    {F_INT8DIV, nullptr, "total_div", 2, {INT8OID, INT8OID}},
    {F_INT8ABS, nullptr, "total_abs", 1, {INT8OID}},
    {F_ABS_INT8, nullptr, "total_abs", 1, {INT8OID}},
    {F_FLOAT8PL, nullptr, "total_add", 2, {FLOAT8OID, FLOAT8OID}},
    {F_FLOAT8MI, nullptr, "total_sub", 2, {FLOAT8OID, FLOAT8OID}},
    {F_FLOAT8MUL, nullptr, "total_mul", 2, {FLOAT8OID, FLOAT8OID}},
    {F_FLOAT8DIV, nullptr, "total_div", 2, {FLOAT8OID, FLOAT8OID}},
    {F_WIDTH_BUCKET_FLOAT8_FLOAT8_FLOAT8_INT4,
     nullptr,
     "total_width_bucket",
     4,
     {FLOAT8OID, FLOAT8OID, FLOAT8OID, INT4OID}},
    {F_WIDTH_BUCKET_NUMERIC_NUMERIC_NUMERIC_INT4,
     nullptr,
     "total_width_bucket",
     4,
     {NUMERICOID, NUMERICOID, NUMERICOID, INT4OID}},
    {F_TIMESTAMP_DATE, nullptr, "total_timestamp", 1, {DATEOID}},
    {F_TIMESTAMPTZ_DATE, nullptr, "total_timestamptz", 1, {DATEOID}},
    {F_DATE_PLI, nullptr, "total_date_pl", 2, {DATEOID, INT4OID}},
    {F_DATE_MII, nullptr, "total_date_mi", 2, {DATEOID, INT4OID}},
    {F_NUMERIC_ADD, nullptr, "total_add", 2, {NUMERICOID, NUMERICOID}},
    {F_NUMERIC_SUB, nullptr, "total_sub", 2, {NUMERICOID, NUMERICOID}},
    {F_NUMERIC_MUL, nullptr, "total_mul", 2, {NUMERICOID, NUMERICOID}},
    {F_NUMERIC_DIV, nullptr, "total_div", 2, {NUMERICOID, NUMERICOID}},
    {F_NUMERIC_MOD, nullptr, "total_mod", 2, {NUMERICOID, NUMERICOID}},
    {F_MOD_NUMERIC_NUMERIC, nullptr, "total_mod", 2, {NUMERICOID, NUMERICOID}},
    {F_ROUND_NUMERIC_INT4, nullptr, "total_round", 2, {NUMERICOID, INT4OID}},
    {F_ROUND_NUMERIC, nullptr, "total_round", 1, {NUMERICOID}},
    {F_TRUNC_NUMERIC, nullptr, "total_trunc", 1, {NUMERICOID}},
    {F_TIMESTAMP_PL_INTERVAL, nullptr, "total_add", 2, {TIMESTAMPOID, INTERVALOID}},
    {F_TIMESTAMP_MI_INTERVAL, nullptr, "total_sub", 2, {TIMESTAMPOID, INTERVALOID}},
    {F_TIMESTAMPTZ_PL_INTERVAL, nullptr, "total_add", 2, {TIMESTAMPTZOID, INTERVALOID}},
    {F_TIMESTAMPTZ_MI_INTERVAL, nullptr, "total_sub", 2, {TIMESTAMPTZOID, INTERVALOID}},
    {F_DATE_PL_INTERVAL, nullptr, "total_add", 2, {DATEOID, INTERVALOID}},
    {F_DATE_MI_INTERVAL, nullptr, "total_sub", 2, {DATEOID, INTERVALOID}},
    {F_LOWER_TEXT, nullptr, "total_lower", 1, {TEXTOID}, true},
    {F_UPPER_TEXT, nullptr, "total_upper", 1, {TEXTOID}, true},
    {F_DATE_TRUNC_TEXT_TIMESTAMPTZ, timestamptz_trunc, "total_date_trunc", 2, {TEXTOID, TIMESTAMPTZOID}},
    {F_DATE_TRUNC_TEXT_TIMESTAMP, timestamp_trunc, "total_date_trunc", 2, {TEXTOID, TIMESTAMPOID}},
    {F_EXTRACT_TEXT_TIMESTAMPTZ, extract_timestamptz, "total_extract", 2, {TEXTOID, TIMESTAMPTZOID}},
    {F_EXTRACT_TEXT_TIMESTAMP, extract_timestamp, "total_extract", 2, {TEXTOID, TIMESTAMPOID}},
    {F_DATE_PART_TEXT_TIMESTAMPTZ, timestamptz_part, "total_date_part", 2, {TEXTOID, TIMESTAMPTZOID}},
    {F_DATE_PART_TEXT_TIMESTAMP, timestamp_part, "total_date_part", 2, {TEXTOID, TIMESTAMPOID}},
};

// pgdp's own function `name`, or InvalidOid when the installed extension has none (an older
// version: the built-in then stays and the DP-only check refuses it, as before).
Oid pgdp_function(const char* name, int nargs, const Oid* types) {
    const Oid extension = get_extension_oid("pgdp", true);
    if (!OidIsValid(extension) || !OidIsValid(get_namespace_oid("pgdp", true))) return InvalidOid;
    const Oid function = LookupFuncName(list_make2(makeString(pstrdup("pgdp")), makeString(pstrdup(name))),
                                        nargs, types, true);
    if (!OidIsValid(function) || getExtensionOfObject(ProcedureRelationId, function) != extension)
        return InvalidOid;
    return function;
}

// Whether lower() and upper() under `collation` have no error path for valid text of bounded length
// (sql/total_text.cpp): ICU and the built-in provider always; libc when LC_CTYPE is C or POSIX
// (ASCII mapping), the database encoding is single-byte (a byte at a time), or LC_CTYPE is a
// UTF-8 locale of a UTF-8 database (mbstowcs converts all valid UTF-8; another pairing, e.g. an
// ASCII locale a user's CREATE COLLATION may name, fails on some characters).
bool case_mapping_is_total(Oid collation) {
    char provider = 0;
    char* ctype = nullptr;
    if (collation == DEFAULT_COLLATION_OID) {
        HeapTuple tuple = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));
        if (!HeapTupleIsValid(tuple)) return false;
        provider = reinterpret_cast<Form_pg_database>(GETSTRUCT(tuple))->datlocprovider;
        bool null = true;
        const Datum value = SysCacheGetAttr(DATABASEOID, tuple, Anum_pg_database_datctype, &null);
        if (!null) ctype = TextDatumGetCString(value);
        ReleaseSysCache(tuple);
    } else {
        HeapTuple tuple = SearchSysCache1(COLLOID, ObjectIdGetDatum(collation));
        if (!HeapTupleIsValid(tuple)) return false;
        provider = reinterpret_cast<Form_pg_collation>(GETSTRUCT(tuple))->collprovider;
        bool null = true;
        const Datum value = SysCacheGetAttr(COLLOID, tuple, Anum_pg_collation_collctype, &null);
        if (!null) ctype = TextDatumGetCString(value);
        ReleaseSysCache(tuple);
    }
    if (compat::case_mapping_provider_is_total(provider)) return true;
    if (provider != COLLPROVIDER_LIBC || ctype == nullptr) return false;
    if (std::strcmp(ctype, "C") == 0 || std::strcmp(ctype, "POSIX") == 0) return true;
    if (pg_database_encoding_max_length() == 1) return true;
    return GetDatabaseEncoding() == PG_UTF8 && pg_get_encoding_from_locale(ctype, false) == PG_UTF8;
}

const TotalForm* total_form_of(Oid function) {
    for (const TotalForm& form : total_forms) {
        if (form.builtin == function) return &form;
    }
    return nullptr;
}

bool substitute_in_node(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Query)) {
        return query_tree_walker(castNode(Query, node), walker_cast(substitute_in_node), context, 0);
    }
    if (IsA(node, Aggref)) {
        // A pgdp call: only its value and FILTER run on the rows; its privacy parameters are
        // evaluated once before the charge (calls/parameters), in the forms that step expects.
        auto* call = castNode(Aggref, node);
        const AggregateIdentity identity = identify_aggregate(call->aggfnoid);
        if (identity.is_pgdp) {
            if ((pgdp::reads_bounded_value(identity.kind) ||
                 pgdp::has_row_capped_person_form(identity.kind)) &&
                call->args != NIL) {
                (void)substitute_in_node((Node*)linitial_node(TargetEntry, call->args)->expr, context);
            }
            return substitute_in_node((Node*)call->aggfilter, context);
        }
    }
    if (IsA(node, FuncExpr)) {
        auto* call = castNode(FuncExpr, node);
        const TotalForm* form = total_form_of(call->funcid);
        if (form != nullptr && list_length(call->args) == form->nargs) {
            bool substitute = true;
            if (form->code != nullptr) {
                // The unit: a constant, tried once now on 2000-01-01 (a unit the built-in rejects
                // raises its error here, before any row is read).
                Node* unit = static_cast<Node*>(linitial(call->args));
                substitute = IsA(unit, Const) && !castNode(Const, unit)->constisnull;
                if (substitute)
                    (void)DirectFunctionCall2(form->code, castNode(Const, unit)->constvalue,
                                              Int64GetDatum(0));
            }
            // Without a collation the total form goes in all the same: the check then refuses it
            // for the missing collation, with the hint to name one.
            if (form->case_mapping && OidIsValid(call->inputcollid) &&
                !case_mapping_is_total(call->inputcollid))
                substitute = false;
            const Oid total = substitute ? pgdp_function(form->name, form->nargs, form->types) : InvalidOid;
            if (OidIsValid(total)) call->funcid = total;
        }
    } else if (IsA(node, OpExpr)) {
        // An arithmetic operator (date - integer): its function is replaced, the operator kept
        // (the executor calls opfuncid; none of the forms is a comparison the planner would
        // commute or negate through its operator).
        auto* operation = castNode(OpExpr, node);
        set_opfuncid(operation);
        const TotalForm* form = total_form_of(operation->opfuncid);
        if (form != nullptr && form->code == nullptr && list_length(operation->args) == form->nargs) {
            const Oid total = pgdp_function(form->name, form->nargs, form->types);
            if (OidIsValid(total)) operation->opfuncid = total;
        }
    }
    return expression_tree_walker(node, walker_cast(substitute_in_node), context);
}

}  // namespace

void substitute_total_forms(Query* level) { (void)substitute_in_node((Node*)level, nullptr); }

Oid total_cast_of(Oid function) {
    const TotalForm* form = total_form_of(function);
    if (form == nullptr || form->code != nullptr) return InvalidOid;
    return pgdp_function(form->name, form->nargs, form->types);
}

Oid canonical_key_function(Oid type) {
    if (type != NUMERICOID && type != FLOAT8OID && type != FLOAT4OID) return InvalidOid;
    return pgdp_function("canonical_key", 1, &type);
}

}  // namespace pgdp::pg
