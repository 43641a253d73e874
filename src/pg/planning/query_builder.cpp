#include "pg/planning/query_builder.hpp"

extern "C" {
#include "catalog/dependency.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_proc.h"
#include "commands/extension.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "parser/parse_clause.h"
#include "parser/parse_func.h"
#include "parser/parse_oper.h"
}

#include "pg/base/pg_compat.hpp"
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

bool collect_relation_permissions(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Query)) {
        auto* query = castNode(Query, node);
        *static_cast<List**>(context) =
            list_concat(*static_cast<List**>(context), compat::permissions_of(query));
        return query_tree_walker(query, walker_cast(collect_relation_permissions), context, 0);
    }
    return expression_tree_walker(node, walker_cast(collect_relation_permissions), context);
}

}  // namespace

List* relation_permissions(Node* tree) {
    List* permissions = NIL;
    (void)collect_relation_permissions(tree, &permissions);
    return permissions;
}

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

Query* new_select() {
    Query* query = makeNode(Query);
    query->commandType = CMD_SELECT;
    query->querySource = QSRC_ORIGINAL;
    query->canSetTag = true;
    return query;
}

// A subquery entry over `subquery`, its columns named after the subquery's target list.
RangeTblEntry* subquery_entry(Query* subquery, const char* alias) {
    List* names = NIL;
    ListCell* cell;
    foreach (cell, subquery->targetList) {
        const TargetEntry* entry = lfirst_node(TargetEntry, cell);
        if (!entry->resjunk) names = lappend(names, makeString(pstrdup(entry->resname)));
    }
    auto* entry = makeNode(RangeTblEntry);
    entry->rtekind = RTE_SUBQUERY;
    entry->subquery = subquery;
    entry->eref = makeAlias(alias, names);
    entry->inFromCl = true;
    return entry;
}

RangeTblRef* reference_to(int index) {
    auto* reference = makeNode(RangeTblRef);
    reference->rtindex = index;
    return reference;
}

// A Var of range table entry `varno` for output column `column` of `subquery`.
Var* column_of(const Query* subquery, int varno, int column) {
    const Expr* expression = list_nth_node(TargetEntry, subquery->targetList, column - 1)->expr;
    return makeVar(varno, column, exprType((Node*)expression), exprTypmod((Node*)expression),
                   exprCollation((Node*)expression), 0);
}

// A GROUP BY (or window PARTITION BY) clause on the target entry with sort/group reference
// `reference`, with the type's default operators (eqop InvalidOid if it has none).
SortGroupClause* group_clause(Oid type, Index reference) {
    auto* clause = makeNode(SortGroupClause);
    clause->tleSortGroupRef = reference;
    get_sort_group_operators(type, false, true, false, &clause->sortop, &clause->eqop, nullptr,
                             &clause->hashable);
    return clause;
}

Node* and_of(Node* left, Node* right) {
    if (left == nullptr) return right;
    if (right == nullptr) return left;
    return (Node*)makeBoolExpr(AND_EXPR, list_make2(left, right), -1);
}

NullTest* is_not_null(Expr* expression) {
    auto* test = makeNode(NullTest);
    test->arg = expression;
    test->nulltesttype = IS_NOT_NULL;
    test->location = kUnknownLocation;
    return test;
}

Expr* operator_clause(const char* name, Oid type, Expr* left, Expr* right) {
    const Oid operator_id =
        LookupOperName(nullptr, list_make2(makeString(pstrdup("pg_catalog")), makeString(pstrdup(name))),
                       type, type, false, -1);
    return make_opclause(operator_id, BOOLOID, false, left, right, InvalidOid, InvalidOid);
}

}  // namespace pgdp::pg
