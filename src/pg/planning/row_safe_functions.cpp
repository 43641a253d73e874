// The allow-list of functions that may run on protected rows read with DP-only access (see
// row_safe_functions.hpp and docs/privacy.md "No data-dependent errors").
//
// How an entry was chosen: its C code (PostgreSQL 15) has no ereport on any path for any value
// of its argument types except out-of-memory; comparisons of text, character and name raise only
// when no collation is determined, which the rewrite refuses at plan time (person_level.cpp), and
// sql/error_oracles.sql calls every entry over adversarial values and every collation of the
// test cluster. Left out on purpose: built-in arithmetic (overflow, division by zero; pgdp's
// total forms stand in for it, total_forms.hpp), narrowing casts, casts from text, numeric/float
// functions that raise on NaN or Infinity (ln, sqrt, ...), LIKE and regular expressions
// (nondeterministic collations, bad patterns), length limits.
#include "pg/planning/row_safe_functions.hpp"

extern "C" {
#include "catalog/pg_language.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "nodes/pg_list.h"
#include "nodes/value.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
}

#include <cstring>

#include "pg/planning/query_builder.hpp"

namespace pgdp::pg {
namespace {

struct Entry {
    const char* name;  // in pg_catalog
    int nargs;
    Oid types[4];
};

// Six comparisons of one pair of argument types.
#define PGDP_COMPARISONS(eq, ne, lt, le, gt, ge, left, right)                                       \
    {eq, 2, {left, right}}, {ne, 2, {left, right}}, {lt, 2, {left, right}}, {le, 2, {left, right}}, \
        {gt, 2, {left, right}}, {                                                                   \
        ge, 2, { left, right }                                                                      \
    }

constexpr Entry builtin_entries[] = {
    PGDP_COMPARISONS("booleq", "boolne", "boollt", "boolle", "boolgt", "boolge", BOOLOID, BOOLOID),
    PGDP_COMPARISONS("int2eq", "int2ne", "int2lt", "int2le", "int2gt", "int2ge", INT2OID, INT2OID),
    PGDP_COMPARISONS("int4eq", "int4ne", "int4lt", "int4le", "int4gt", "int4ge", INT4OID, INT4OID),
    PGDP_COMPARISONS("int8eq", "int8ne", "int8lt", "int8le", "int8gt", "int8ge", INT8OID, INT8OID),
    PGDP_COMPARISONS("int24eq", "int24ne", "int24lt", "int24le", "int24gt", "int24ge", INT2OID, INT4OID),
    PGDP_COMPARISONS("int42eq", "int42ne", "int42lt", "int42le", "int42gt", "int42ge", INT4OID, INT2OID),
    PGDP_COMPARISONS("int28eq", "int28ne", "int28lt", "int28le", "int28gt", "int28ge", INT2OID, INT8OID),
    PGDP_COMPARISONS("int82eq", "int82ne", "int82lt", "int82le", "int82gt", "int82ge", INT8OID, INT2OID),
    PGDP_COMPARISONS("int48eq", "int48ne", "int48lt", "int48le", "int48gt", "int48ge", INT4OID, INT8OID),
    PGDP_COMPARISONS("int84eq", "int84ne", "int84lt", "int84le", "int84gt", "int84ge", INT8OID, INT4OID),
    PGDP_COMPARISONS("float4eq", "float4ne", "float4lt", "float4le", "float4gt", "float4ge", FLOAT4OID,
                     FLOAT4OID),
    PGDP_COMPARISONS("float8eq", "float8ne", "float8lt", "float8le", "float8gt", "float8ge", FLOAT8OID,
                     FLOAT8OID),
    PGDP_COMPARISONS("float48eq", "float48ne", "float48lt", "float48le", "float48gt", "float48ge", FLOAT4OID,
                     FLOAT8OID),
    PGDP_COMPARISONS("float84eq", "float84ne", "float84lt", "float84le", "float84gt", "float84ge", FLOAT8OID,
                     FLOAT4OID),
    PGDP_COMPARISONS("numeric_eq", "numeric_ne", "numeric_lt", "numeric_le", "numeric_gt", "numeric_ge",
                     NUMERICOID, NUMERICOID),
    PGDP_COMPARISONS("texteq", "textne", "text_lt", "text_le", "text_gt", "text_ge", TEXTOID, TEXTOID),
    PGDP_COMPARISONS("bpchareq", "bpcharne", "bpcharlt", "bpcharle", "bpchargt", "bpcharge", BPCHAROID,
                     BPCHAROID),
    PGDP_COMPARISONS("nameeq", "namene", "namelt", "namele", "namegt", "namege", NAMEOID, NAMEOID),
    PGDP_COMPARISONS("date_eq", "date_ne", "date_lt", "date_le", "date_gt", "date_ge", DATEOID, DATEOID),
    PGDP_COMPARISONS("timestamp_eq", "timestamp_ne", "timestamp_lt", "timestamp_le", "timestamp_gt",
                     "timestamp_ge", TIMESTAMPOID, TIMESTAMPOID),
    PGDP_COMPARISONS("timestamptz_eq", "timestamptz_ne", "timestamptz_lt", "timestamptz_le", "timestamptz_gt",
                     "timestamptz_ge", TIMESTAMPTZOID, TIMESTAMPTZOID),
    // Across date, timestamp and timestamptz: PostgreSQL 15 converts with the *_opt_overflow forms
    // and orders a value beyond the other type's range before or after all of its finite values
    // (date_cmp_timestamp[tz]_internal, timestamp_cmp_timestamptz_internal): no error path.
    PGDP_COMPARISONS("date_eq_timestamp", "date_ne_timestamp", "date_lt_timestamp", "date_le_timestamp",
                     "date_gt_timestamp", "date_ge_timestamp", DATEOID, TIMESTAMPOID),
    PGDP_COMPARISONS("timestamp_eq_date", "timestamp_ne_date", "timestamp_lt_date", "timestamp_le_date",
                     "timestamp_gt_date", "timestamp_ge_date", TIMESTAMPOID, DATEOID),
    PGDP_COMPARISONS("date_eq_timestamptz", "date_ne_timestamptz", "date_lt_timestamptz",
                     "date_le_timestamptz", "date_gt_timestamptz", "date_ge_timestamptz", DATEOID,
                     TIMESTAMPTZOID),
    PGDP_COMPARISONS("timestamptz_eq_date", "timestamptz_ne_date", "timestamptz_lt_date",
                     "timestamptz_le_date", "timestamptz_gt_date", "timestamptz_ge_date", TIMESTAMPTZOID,
                     DATEOID),
    PGDP_COMPARISONS("timestamp_eq_timestamptz", "timestamp_ne_timestamptz", "timestamp_lt_timestamptz",
                     "timestamp_le_timestamptz", "timestamp_gt_timestamptz", "timestamp_ge_timestamptz",
                     TIMESTAMPOID, TIMESTAMPTZOID),
    PGDP_COMPARISONS("timestamptz_eq_timestamp", "timestamptz_ne_timestamp", "timestamptz_lt_timestamp",
                     "timestamptz_le_timestamp", "timestamptz_gt_timestamp", "timestamptz_ge_timestamp",
                     TIMESTAMPTZOID, TIMESTAMPOID),
    // Widening casts (exact or rounding, never out of range; float to numeric keeps NaN and
    // +-Infinity since PostgreSQL 14).
    {"int4", 1, {INT2OID}},
    {"int8", 1, {INT2OID}},
    {"int8", 1, {INT4OID}},
    {"float4", 1, {INT2OID}},
    {"float4", 1, {INT4OID}},
    {"float4", 1, {INT8OID}},
    {"float8", 1, {INT2OID}},
    {"float8", 1, {INT4OID}},
    {"float8", 1, {INT8OID}},
    {"float8", 1, {FLOAT4OID}},
    {"numeric", 1, {INT2OID}},
    {"numeric", 1, {INT4OID}},
    {"numeric", 1, {INT8OID}},
    {"numeric", 1, {FLOAT4OID}},
    {"numeric", 1, {FLOAT8OID}},
    // Text lengths and prefixes: textlen, textoctetlen and text_left count or clip characters of
    // valid text (text_substring saturates S + L) and use no collation.
    {"length", 1, {TEXTOID}},
    {"char_length", 1, {TEXTOID}},
    {"octet_length", 1, {TEXTOID}},
    {"left", 2, {TEXTOID, INT4OID}},
    // The transaction's start time (now(), also behind current_date and current_timestamp, which
    // the DP-only check accepts as nodes): one value per statement, whatever the rows.
    {"now", 0, {}},
    // Absolute value, rounding and truncation of floats and numerics: fabs, rint, trunc and the
    // numeric sign flip never raise (numeric NaN and +-Infinity included).
    {"abs", 1, {FLOAT8OID}},
    {"abs", 1, {FLOAT4OID}},
    {"abs", 1, {NUMERICOID}},
    {"round", 1, {FLOAT8OID}},
    {"trunc", 1, {FLOAT8OID}},
    // Numeric sign flip and truncation: numeric_uminus copies the value with the other sign;
    // numeric_trunc clamps the scale, drops digits (the weight never grows) and keeps the display
    // scale within its field: no error path (round can carry beyond the format: a total form).
    {"numeric_uminus", 1, {NUMERICOID}},
    {"trunc", 2, {NUMERICOID, INT4OID}},
};

#undef PGDP_COMPARISONS

constexpr Entry pgdp_entries[] = {
    {"bucket", 2, {FLOAT8OID, FLOAT8OID}},
    {"bucket", 2, {INT8OID, INT8OID}},
    {"clamp", 3, {FLOAT8OID, FLOAT8OID, FLOAT8OID}},
    // Total forms of built-ins (total_forms.hpp) and canonical group keys.
    {"total_float8", 1, {NUMERICOID}},
    {"total_float4", 1, {NUMERICOID}},
    {"total_float4", 1, {FLOAT8OID}},
    {"total_add", 2, {INT4OID, INT4OID}},
    {"total_sub", 2, {INT4OID, INT4OID}},
    {"total_mul", 2, {INT4OID, INT4OID}},
    {"total_div", 2, {INT4OID, INT4OID}},
    {"total_abs", 1, {INT4OID}},
    {"total_add", 2, {INT8OID, INT8OID}},
    {"total_sub", 2, {INT8OID, INT8OID}},
    {"total_mul", 2, {INT8OID, INT8OID}},
    {"total_div", 2, {INT8OID, INT8OID}},
    {"total_abs", 1, {INT8OID}},
    {"total_add", 2, {FLOAT8OID, FLOAT8OID}},
    {"total_sub", 2, {FLOAT8OID, FLOAT8OID}},
    {"total_mul", 2, {FLOAT8OID, FLOAT8OID}},
    {"total_div", 2, {FLOAT8OID, FLOAT8OID}},
    {"total_add", 2, {NUMERICOID, NUMERICOID}},
    {"total_sub", 2, {NUMERICOID, NUMERICOID}},
    {"total_mul", 2, {NUMERICOID, NUMERICOID}},
    {"total_div", 2, {NUMERICOID, NUMERICOID}},
    {"total_mod", 2, {NUMERICOID, NUMERICOID}},
    {"total_round", 2, {NUMERICOID, INT4OID}},
    {"total_round", 1, {NUMERICOID}},
    {"total_trunc", 1, {NUMERICOID}},
    {"total_lower", 1, {TEXTOID}},
    {"total_upper", 1, {TEXTOID}},
    {"total_add", 2, {TIMESTAMPOID, INTERVALOID}},
    {"total_sub", 2, {TIMESTAMPOID, INTERVALOID}},
    {"total_add", 2, {TIMESTAMPTZOID, INTERVALOID}},
    {"total_sub", 2, {TIMESTAMPTZOID, INTERVALOID}},
    {"total_add", 2, {DATEOID, INTERVALOID}},
    {"total_sub", 2, {DATEOID, INTERVALOID}},
    {"total_width_bucket", 4, {FLOAT8OID, FLOAT8OID, FLOAT8OID, INT4OID}},
    {"total_width_bucket", 4, {NUMERICOID, NUMERICOID, NUMERICOID, INT4OID}},
    {"total_timestamp", 1, {DATEOID}},
    {"total_timestamptz", 1, {DATEOID}},
    {"total_date_pl", 2, {DATEOID, INT4OID}},
    {"total_date_mi", 2, {DATEOID, INT4OID}},
    {"total_date_trunc", 2, {TEXTOID, TIMESTAMPTZOID}},
    {"total_date_trunc", 2, {TEXTOID, TIMESTAMPOID}},
    {"total_extract", 2, {TEXTOID, TIMESTAMPTZOID}},
    {"total_extract", 2, {TEXTOID, TIMESTAMPOID}},
    {"total_date_part", 2, {TEXTOID, TIMESTAMPTZOID}},
    {"total_date_part", 2, {TEXTOID, TIMESTAMPOID}},
    {"canonical_key", 1, {NUMERICOID}},
    {"canonical_key", 1, {FLOAT8OID}},
    {"canonical_key", 1, {FLOAT4OID}},
};

constexpr int builtin_count = sizeof(builtin_entries) / sizeof(builtin_entries[0]);
constexpr int pgdp_count = sizeof(pgdp_entries) / sizeof(pgdp_entries[0]);

// The built-in entries resolved once per backend (pg_catalog's functions change only with the
// server). InvalidOid for an entry that does not resolve to a built-in internal function: then it
// allows nothing (fail closed).
Oid builtin_oids[builtin_count];
bool builtins_resolved = false;

Oid resolve_builtin(const Entry& entry) {
    const Oid function =
        LookupFuncName(list_make2(makeString(pstrdup("pg_catalog")), makeString(pstrdup(entry.name))),
                       entry.nargs, entry.types, true);
    if (!OidIsValid(function)) return InvalidOid;
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
    if (!HeapTupleIsValid(tuple)) return InvalidOid;
    const auto* proc = reinterpret_cast<Form_pg_proc>(GETSTRUCT(tuple));
    const bool builtin = proc->prolang == INTERNALlanguageId && proc->pronamespace == PG_CATALOG_NAMESPACE &&
                         !proc->proretset && proc->prokind == PROKIND_FUNCTION;
    ReleaseSysCache(tuple);
    return builtin ? function : InvalidOid;
}

void resolve_builtins() {
    if (builtins_resolved) return;
    for (int i = 0; i < builtin_count; ++i) builtin_oids[i] = resolve_builtin(builtin_entries[i]);
    builtins_resolved = true;
}

// Whether `function` is a built-in entry, read from its own catalog row: no name lookups (every
// lookup of a new name adds a list to the catalog cache, whose growth PostgreSQL 16+ reports at
// DEBUG1 while the statement is planned).
bool is_builtin_entry(Oid function) {
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
    if (!HeapTupleIsValid(tuple)) return false;
    const auto* proc = reinterpret_cast<Form_pg_proc>(GETSTRUCT(tuple));
    bool found = false;
    if (proc->prolang == INTERNALlanguageId && proc->pronamespace == PG_CATALOG_NAMESPACE &&
        !proc->proretset && proc->prokind == PROKIND_FUNCTION) {
        for (int i = 0; i < builtin_count && !found; ++i) {
            const Entry& entry = builtin_entries[i];
            found = proc->pronargs == entry.nargs && std::strcmp(NameStr(proc->proname), entry.name) == 0 &&
                    std::memcmp(proc->proargtypes.values, entry.types, sizeof(Oid) * entry.nargs) == 0;
        }
    }
    ReleaseSysCache(tuple);
    return found;
}

// pgdp's own entry i, or InvalidOid when the extension is not there (or too old).
Oid pgdp_entry(int i) {
    const Oid schema = get_namespace_oid("pgdp", true);
    if (!OidIsValid(schema)) return InvalidOid;
    const Entry& entry = pgdp_entries[i];
    const Oid function =
        LookupFuncName(list_make2(makeString(pstrdup("pgdp")), makeString(pstrdup(entry.name))), entry.nargs,
                       entry.types, true);
    if (!OidIsValid(function)) return InvalidOid;
    // Only the extension's own function (its C code), not one a user put in that schema.
    return pgdp_extension_function(entry.name, entry.nargs, entry.types, "0.7");
}

}  // namespace

bool row_safe_function(Oid function) {
    if (!OidIsValid(function)) return false;
    if (is_builtin_entry(function)) return true;
    for (int i = 0; i < pgdp_count; ++i) {
        if (pgdp_entry(i) == function) return true;
    }
    return false;
}

List* row_safe_functions() {
    resolve_builtins();
    List* functions = NIL;
    for (int i = 0; i < builtin_count; ++i) {
        if (OidIsValid(builtin_oids[i])) functions = lappend_oid(functions, builtin_oids[i]);
    }
    for (int i = 0; i < pgdp_count; ++i) {
        const Oid function = pgdp_entry(i);
        if (OidIsValid(function)) functions = lappend_oid(functions, function);
    }
    return functions;
}

}  // namespace pgdp::pg
