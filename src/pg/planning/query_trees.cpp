#include "pg/planning/query_trees.hpp"

extern "C" {
#include "catalog/dependency.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_proc.h"
#include "commands/extension.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "parser/parse_func.h"
}

#include "pg/planning/plan_marks.hpp"

namespace pgdp::pg {
namespace {

bool collect_relation_entries(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, RangeTblEntry)) {
        auto* entry = castNode(RangeTblEntry, node);
        if (entry->rtekind == RTE_RELATION)
            *static_cast<List**>(context) = lappend(*static_cast<List**>(context), entry);
        return false;
    }
    if (IsA(node, Query)) {
        return query_tree_walker(castNode(Query, node), walker_cast(collect_relation_entries), context,
                                 QTW_EXAMINE_RTES_BEFORE);
    }
    return expression_tree_walker(node, walker_cast(collect_relation_entries), context);
}

}  // namespace

List* relation_entries(Node* tree) {
    List* entries = NIL;
    (void)collect_relation_entries(tree, &entries);
    return entries;
}

Aggref* builtin_aggregate(Oid function, Oid result, Expr* argument, Expr* filter) {
    auto* aggref = makeNode(Aggref);
    aggref->aggfnoid = function;
    aggref->aggtype = result;
    aggref->aggcollid = InvalidOid;
    aggref->inputcollid = argument != nullptr ? exprCollation((Node*)argument) : InvalidOid;
    aggref->aggtranstype = InvalidOid;
    if (argument != nullptr) {
        aggref->aggargtypes = list_make1_oid(exprType((Node*)argument));
        aggref->args = list_make1(makeTargetEntry(argument, 1, nullptr, false));
    } else {
        aggref->aggstar = true;
    }
    aggref->aggfilter = filter;
    aggref->aggkind = AGGKIND_NORMAL;
    aggref->agglevelsup = 0;
    aggref->aggsplit = AGGSPLIT_SIMPLE;
    aggref->aggno = -1;
    aggref->aggtransno = -1;
    aggref->location = kUnknownLocation;
    return aggref;
}

Oid pgdp_extension_function(const char* name, int nargs, const Oid* types, const char* since) {
    const Oid function = LookupFuncName(list_make2(makeString(pstrdup("pgdp")), makeString(pstrdup(name))),
                                        nargs, types, true);
    if (!OidIsValid(function) ||
        getExtensionOfObject(ProcedureRelationId, function) != get_extension_oid("pgdp", true)) {
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("pgdp.%s of the pgdp extension is missing", name),
                        errhint("ALTER EXTENSION pgdp UPDATE to %s or later (on every Citus node).", since)));
    }
    return function;
}

}  // namespace pgdp::pg
