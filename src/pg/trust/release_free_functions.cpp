#include "pg/trust/release_free_functions.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/pg_language.h"
#include "access/genam.h"
#include "access/table.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_range.h"
#include "catalog/pg_type.h"
#include "executor/functions.h"
#include "nodes/nodeFuncs.h"
#include "parser/parse_type.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/syscache.h"
}

#include <cstring>

#include "pg/planning/query_builder.hpp"
#include "pg/trust/running_statements.hpp"

namespace pgdp::pg {
namespace {

// Built-in functions that run SQL given as text (so a release could hide in a string) or change a
// setting for the session user's later statements, by their C symbol (prosrc).
constexpr const char* kRunsSqlOrSets[] = {
    "query_to_xml",
    "query_to_xmlschema",
    "query_to_xml_and_xmlschema",
    "cursor_to_xml",
    "cursor_to_xmlschema",
    "table_to_xml",
    "table_to_xmlschema",
    "table_to_xml_and_xmlschema",
    "schema_to_xml",
    "schema_to_xmlschema",
    "schema_to_xml_and_xmlschema",
    "database_to_xml",
    "database_to_xmlschema",
    "database_to_xml_and_xmlschema",
    "ts_stat1",
    "ts_stat2",
    "tsquery_rewrite_query",
    "set_config_by_name",
};

bool unsafe_function(Oid function, void*) {
    if (function >= FirstNormalObjectId) return true;
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
    if (!HeapTupleIsValid(tuple)) return true;
    bool is_null = true;
    const Datum source = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_prosrc, &is_null);
    bool unsafe = is_null;
    if (!is_null) {
        const char* symbol = TextDatumGetCString(source);
        for (const char* listed : kRunsSqlOrSets) unsafe = unsafe || std::strcmp(symbol, listed) == 0;
    }
    ReleaseSysCache(tuple);
    return unsafe;
}

bool user_type_in(const List* types) {
    ListCell* cell;
    foreach (cell, types) {
        if (lfirst_oid(cell) >= FirstNormalObjectId) return true;
    }
    return false;
}

// A range type's subtype_diff is kept in the type cache, looked up once (maybe while a statement
// is planned, by selectivity estimation) and called later without another lookup, even after its
// body was replaced: such a function never goes without a frame.
bool is_subtype_diff(Oid function) {
    Relation ranges = table_open(RangeRelationId, AccessShareLock);
    SysScanDesc scan = systable_beginscan(ranges, InvalidOid, false, nullptr, 0, nullptr);
    bool found = false;
    HeapTuple tuple;
    while (!found && HeapTupleIsValid(tuple = systable_getnext(scan))) {
        found = ((Form_pg_range)GETSTRUCT(tuple))->rngsubdiff == function;
    }
    systable_endscan(scan);
    table_close(ranges, AccessShareLock);
    return found;
}

bool unsafe_node(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Query)) {
        Query* query = castNode(Query, node);
        if (query->commandType != CMD_SELECT || query->utilityStmt != nullptr || query->hasModifyingCTE)
            return true;
        ListCell* cell;
        foreach (cell, query->rtable) {
            if (unsafe_node(reinterpret_cast<Node*>(lfirst_node(RangeTblEntry, cell)->securityQuals),
                            context))
                return true;
        }
        return query_tree_walker(query, walker_cast(unsafe_node), context, 0);
    }
    // Values built in a user's type run its input function or its domain's checks: casts,
    // constants, rows, arrays, function results, and the column definition lists of functions in
    // FROM and table functions (jsonb_to_record(...) AS t(a d), XMLTABLE ... COLUMNS a d).
    if (builds_typed_values(node) && exprType(node) >= FirstNormalObjectId) return true;
    if (user_type_in(column_definition_types(node))) return true;
    if (check_functions_in_node(node, unsafe_function, context)) return true;
    return expression_tree_walker(node, walker_cast(unsafe_node), context);
}

}  // namespace

bool release_free_sql_function(Oid function) {
    HeapTuple cached = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
    if (!HeapTupleIsValid(cached)) return false;
    HeapTuple tuple = heap_copytuple(cached);  // parsing the body may raise
    ReleaseSysCache(cached);
    const Form_pg_proc form = (Form_pg_proc)GETSTRUCT(tuple);
    bool plain = form->prolang == SQLlanguageId && form->prokind == PROKIND_FUNCTION && !form->prosecdef &&
                 heap_attisnull(tuple, Anum_pg_proc_proconfig, nullptr) &&
                 heap_attisnull(tuple, Anum_pg_proc_prosqlbody, nullptr);
    for (int i = 0; plain && i < form->pronargs; ++i) plain = !IsPolymorphicType(form->proargtypes.values[i]);
    if (!plain || is_subtype_diff(function)) return false;
    bool is_null = true;
    const char* source = TextDatumGetCString(SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_prosrc, &is_null));
    List* statements = pg_parse_query(source);
    bool free = list_length(statements) == 1;
    if (free) {
        SQLFunctionParseInfoPtr info = prepare_sql_fn_parse_info(tuple, nullptr, InvalidOid);
        List* queries = pg_analyze_and_rewrite_withcb(linitial_node(RawStmt, statements), source,
                                                      reinterpret_cast<ParserSetupHook>(sql_fn_parser_setup),
                                                      info, nullptr);
        ListCell* cell;
        foreach (cell, queries) free = free && !unsafe_node(static_cast<Node*>(lfirst(cell)), nullptr);
    }
    return free;
}

}  // namespace pgdp::pg
