#include "pg/planning/fingerprint.hpp"

extern "C" {
#include "access/htup_details.h"
#include "catalog/dependency.h"
#include "catalog/pg_proc.h"
#include "commands/extension.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
}

#include <cstring>

#include "pg/base/sha256.hpp"
#include "pg/planning/person_level.hpp"

namespace pgdp::pg {
namespace {

// The query tree's text with every parse location (and the statement's position in its string,
// and a query id another module may have set) written as 0: the same statement written with other
// spacing, case or comments has the same fingerprint; other constants, tables or columns do not.
char* normalized_tree(Query* parse) {
    const char* text = nodeToString(parse);
    static const char* const kFields[] = {":location ", ":stmt_location ", ":stmt_len ", ":queryId "};
    StringInfoData out;
    initStringInfo(&out);
    for (const char* p = text; *p != '\0';) {
        bool replaced = false;
        for (const char* field : kFields) {
            const size_t length = std::strlen(field);
            if (std::strncmp(p, field, length) == 0) {
                appendStringInfoString(&out, field);
                appendStringInfoChar(&out, '0');
                p += length;
                if (*p == '-') ++p;
                while (*p >= '0' && *p <= '9') ++p;
                replaced = true;
                break;
            }
        }
        if (!replaced) appendStringInfoChar(&out, *p++);
    }
    return out.data;
}

// What a statement calls, for its fingerprint (fingerprint_statement).
struct StatementCalls {
    List* user_functions;  // OIDs of functions that are not built in
    bool volatile_call;    // a volatile function, or current_setting(): not cached at all
    bool not_shareable;    // anything but built-in immutable functions, or who is running it
};

// pgdp's own functions and aggregates count as built in (they are the extension's code).
bool is_pgdp_function(Oid function) {
    const Oid extension = get_extension_oid("pgdp", true);
    return OidIsValid(extension) && getExtensionOfObject(ProcedureRelationId, function) == extension;
}

void note_function(Oid function, StatementCalls* calls) {
    if (function >= FirstNormalObjectId && is_pgdp_function(function)) return;
    if (function == F_CURRENT_SETTING_TEXT || function == F_CURRENT_SETTING_TEXT_BOOL)
        calls->volatile_call = true;
    const char volatility = func_volatile(function);
    if (volatility == PROVOLATILE_VOLATILE) calls->volatile_call = true;
    if (volatility != PROVOLATILE_IMMUTABLE || function >= FirstNormalObjectId) calls->not_shareable = true;
    if (function >= FirstNormalObjectId)
        calls->user_functions = list_append_unique_oid(calls->user_functions, function);
}

}  // namespace

bool fingerprint_statement(Query* parse, const ReleaseQuery& analysis, StatementFingerprint* fingerprint) {
    if (parse->commandType != CMD_SELECT || analysis.empty()) return false;
    StatementCalls calls{};
    calls.not_shareable = analysis.asks_who_runs;
    ListCell* cell;
    foreach (cell, analysis.functions) note_function(lfirst_oid(cell), &calls);
    if (calls.volatile_call) return false;
    char* text = normalized_tree(parse);
    pg_cryptohash_ctx* hash = begin_sha256();
    add_bytes(hash, text, std::strlen(text));
    // A function redefined since (CREATE OR REPLACE keeps its OID) is another statement.
    foreach (cell, calls.user_functions) {
        const Oid function = lfirst_oid(cell);
        HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
        const TransactionId version = HeapTupleIsValid(tuple) ? HeapTupleHeaderGetRawXmin(tuple->t_data) : 0;
        if (HeapTupleIsValid(tuple)) ReleaseSysCache(tuple);
        add_bytes(hash, &function, sizeof(function));
        add_bytes(hash, &version, sizeof(version));
    }
    // pgdp.rows_per_unit changes what a person-level histogram or quantile release is (0, its
    // default, adds nothing: k is then the protection's, which, like m, a cached answer made
    // before the protection changed is not keyed on: docs/privacy.md "The release cache").
    const int rows_per_unit = person_level_rows_per_unit();
    if (rows_per_unit != 0) add_bytes(hash, &rows_per_unit, sizeof(rows_per_unit));
    // pgdp.max_groups_contributed likewise for grouped releases (tagged: k = 3 is not m = 3).
    const int max_groups = person_level_max_groups();
    if (max_groups != 0) {
        static const char kTag[] = "max_groups_contributed";
        add_bytes(hash, kTag, sizeof(kTag));
        add_bytes(hash, &max_groups, sizeof(max_groups));
    }
    end_sha256(hash, fingerprint->bytes);
    fingerprint->shareable = !calls.not_shareable;
    pfree(text);
    return true;
}

}  // namespace pgdp::pg
