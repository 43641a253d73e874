#include "pg/trust/running_statements.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/parallel.h"
#include "catalog/heap.h"
#include "catalog/namespace.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "commands/trigger.h"
#include "commands/prepare.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "nodes/plannodes.h"
#include "parser/parsetree.h"
#include "tcop/pquery.h"
#include "tcop/utility.h"
#include "parser/parse_type.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/fmgrprotos.h"
#include "utils/portal.h"
#include "utils/rel.h"
#include "utils/syscache.h"
}

#include <cstring>

#include "pg/base/pg_compat.hpp"
#include "pg/base/backend_stack.hpp"
#include "pg/trust/authors.hpp"
#include "pg/trust/trigger_authors.hpp"

namespace pgdp::pg {
namespace {

// One running statement: an execution's plan, or a utility statement that runs queries (with
// the target table of a COPY FROM, the prepared statement of an EXECUTE).
struct Running {
    const PlannedStmt* statement;
    Oid copy_target;
    // TRUNCATE: its statement, whose relations (named, their inheritors, those CASCADE adds) fire
    // TRUNCATE triggers; resolved only when a release asks.
    const TruncateStmt* truncate;
    // EXECUTE: the domains among its parameter types (its parameters are evaluated, and cast, in
    // the utility); kept by value, as the prepared statement may be deallocated meanwhile.
    Oid parameter_domains[4];
    int parameter_domain_count;  // more than 4: counted as running another role's code
    bool outside_statement;      // started while no statement ran (parse, bind, plan time), or inside such
    // PostgreSQL's trigger depth when it started, and whether it fires triggers of its own (a
    // statement that writes, COPY FROM): a trigger starts in it only then (red team round 19).
    int trigger_depth;
    bool fires_triggers;
    // A statement started inside it wrote another role's table: the AFTER triggers that statement
    // queued may fire at this one's end (a cascaded foreign key action runs with its triggers
    // deferred to the enclosing statement), one level below it, on a table it does not name.
    bool foreign_writes_inside;
    // Tables with triggers that statements inside it wrote: whose triggers they are is asked only
    // when a release asks (an authorship lookup per nested write would cost every write of a
    // session that can be charged); more than kWrittenInside counts as another role's.
    static constexpr int kWrittenInside = 4;
    Oid written_inside[kWrittenInside];
    int written_inside_count;
};
BackendStack<Running> running;
int explain_analyze_depth = 0;

// The owner of a domain (InvalidOid for other types).
Oid domain_owner(Oid type) {
    HeapTuple tuple = SearchSysCache1(TYPEOID, ObjectIdGetDatum(type));
    if (!HeapTupleIsValid(tuple)) return InvalidOid;
    const Form_pg_type form = (Form_pg_type)GETSTRUCT(tuple);
    const Oid owner = form->typtype == TYPTYPE_DOMAIN ? form->typowner : InvalidOid;
    ReleaseSysCache(tuple);
    return owner;
}

bool foreign_relation(Oid relation, ForeignCode* found) {
    const Oid owner = relation_owner(relation);
    if (!OidIsValid(owner) || is_trusted_author(owner)) return false;
    const char kind = get_rel_relkind(relation);
    *found = ForeignCode{kind == RELKIND_VIEW      ? "view"
                         : kind == RELKIND_MATVIEW ? "materialized view"
                                                   : "table",
                         relation, owner};
    return true;
}

// A trigger on the relation whose author the session user does not trust (trigger_authors.hpp).
bool foreign_trigger_on(Oid relation, ForeignCode* found) {
    ForeignTrigger trigger{};
    if (!relation_has_foreign_trigger(relation, &trigger)) return false;
    *found = ForeignCode{"trigger", trigger.trigger, trigger.author, trigger.relation, trigger.name};
    return true;
}

// A relation a statement writes runs its owner's code (defaults, constraints) and its triggers'
// authors' code; writing a partitioned table also writes the partitions tuple routing picks, which
// no range table names.
bool written_relation_runs_foreign_code(Oid relation, ForeignCode* found) {
    if (foreign_relation(relation, found) || foreign_trigger_on(relation, found)) return true;
    if (get_rel_relkind(relation) != RELKIND_PARTITIONED_TABLE) return false;
    List* partitions = find_all_inheritors(relation, NoLock, nullptr);
    ListCell* cell;
    foreach (cell, partitions) {
        const Oid partition = lfirst_oid(cell);
        if (partition == relation) continue;
        if (foreign_relation(partition, found) || foreign_trigger_on(partition, found)) return true;
    }
    return false;
}

bool foreign_domain(Oid type, ForeignCode* found) {
    const Oid owner = domain_owner(type);
    if (!OidIsValid(owner) || is_trusted_author(owner)) return false;
    *found = ForeignCode{"domain", type, owner};
    return true;
}

// A value of this type can run another role's domain constraints when it is read from text or
// binary: the type is such a domain, or an array of one, or a composite with such a column
// (array_in and record_in call their elements' input functions).
bool type_runs_foreign_constraints(Oid type, ForeignCode* found, int depth = 0) {
    if (!OidIsValid(type)) return false;
    if (depth > 4) {  // nested deeper than pgdp looks: counted as another role's (fail closed)
        *found = ForeignCode{"nested type", type, InvalidOid};
        return true;
    }
    if (foreign_domain(type, found)) return true;
    const Oid element = get_element_type(type);
    if (OidIsValid(element)) return type_runs_foreign_constraints(element, found, depth + 1);
    const Oid base = getBaseType(type);
    if (base != type) return type_runs_foreign_constraints(base, found, depth + 1);
    const Oid relation = typeidTypeRelid(type);
    if (!OidIsValid(relation)) return false;
    Relation composite = RelationIdGetRelation(relation);
    if (composite == nullptr) return false;
    bool foreign = false;
    for (int i = 0; i < RelationGetNumberOfAttributes(composite) && !foreign; ++i) {
        const Form_pg_attribute attribute = TupleDescAttr(RelationGetDescr(composite), i);
        if (!attribute->attisdropped)
            foreign = type_runs_foreign_constraints(attribute->atttypid, found, depth + 1);
    }
    RelationClose(composite);
    return foreign;
}

}  // namespace

bool builds_typed_values(const Node* node) {
    return IsA(node, CoerceToDomain) || IsA(node, CoerceViaIO) || IsA(node, ArrayCoerceExpr) ||
           IsA(node, ConvertRowtypeExpr) || IsA(node, FuncExpr) || IsA(node, Const) || IsA(node, RowExpr) ||
           IsA(node, ArrayExpr) || IsA(node, RelabelType) || IsA(node, Param) ||
           IsA(node, CoerceToDomainValue);
}

const List* column_definition_types(const Node* node) {
    if (IsA(node, RangeTblFunction)) return castNode(RangeTblFunction, node)->funccoltypes;
    if (IsA(node, TableFunc)) return castNode(TableFunc, node)->coltypes;
    return NIL;
}

namespace {

bool find_foreign_domain(Node* node, void* context) {
    if (node == nullptr) return false;
    // Domain checks (CoerceToDomain) and conversions whose result type reads through another
    // role's domain at run time (a text cast to an array of it).
    if (IsA(node, CoerceToDomain) &&
        foreign_domain(castNode(CoerceToDomain, node)->resulttype, static_cast<ForeignCode*>(context))) {
        return true;
    }
    // Values built at run time in such a type (a cast from text, jsonb_populate_record into a
    // composite with such a domain, a row or array constructed of it) run its input or checks.
    const bool builds_values = builds_typed_values(node);
    if (builds_values && type_runs_foreign_constraints(exprType(node), static_cast<ForeignCode*>(context))) {
        return true;
    }
    // Column definition lists of functions in FROM and table functions' columns.
    const List* column_types = column_definition_types(node);
    ListCell* cell;
    foreach (cell, column_types) {
        if (type_runs_foreign_constraints(lfirst_oid(cell), static_cast<ForeignCode*>(context))) return true;
    }
    return expression_tree_walker(
        node, reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(find_foreign_domain)), context);
}

bool plan_has_foreign_domain(const PlannedStmt* statement, const Plan* plan, ForeignCode* found);

bool plans_have_foreign_domain(const PlannedStmt* statement, const List* plans, ForeignCode* found) {
    const ListCell* cell;
    foreach (cell, plans) {
        if (plan_has_foreign_domain(statement, static_cast<const Plan*>(lfirst(cell)), found)) return true;
    }
    return false;
}

// The expressions partition pruning evaluates (at executor start and per rescan).
bool pruning_has_foreign_domain(const PartitionPruneInfo* pruning, ForeignCode* found) {
    if (pruning == nullptr) return false;
    const ListCell* hierarchy;
    foreach (hierarchy, pruning->prune_infos) {
        const ListCell* cell;
        foreach (cell, static_cast<const List*>(lfirst(hierarchy))) {
            const PartitionedRelPruneInfo* relation = lfirst_node(PartitionedRelPruneInfo, cell);
            const List* step_lists[2] = {relation->initial_pruning_steps, relation->exec_pruning_steps};
            for (const List* steps : step_lists) {
                const ListCell* step;
                foreach (step, steps) {
                    const Node* node = static_cast<const Node*>(lfirst(step));
                    if (IsA(node, PartitionPruneStepCombine)) continue;
                    if (!IsA(node, PartitionPruneStepOp)) {
                        *found = ForeignCode{"plan node", static_cast<Oid>(nodeTag(node)), InvalidOid};
                        return true;
                    }
                    if (find_foreign_domain(
                            reinterpret_cast<Node*>(castNode(PartitionPruneStepOp, node)->exprs), found))
                        return true;
                }
            }
        }
    }
    return false;
}

// Domain coercions (their CHECK constraints) in every expression of a plan. Each plan node type of
// PostgreSQL 15 to 18 is listed with every field that holds expressions or plans; a type not listed
// counts as another role's code (fail closed: a new major's node is reviewed before it releases).
bool plan_has_foreign_domain(const PlannedStmt* statement, const Plan* plan, ForeignCode* found) {
    if (plan == nullptr) return false;
    check_stack_depth();
    auto walk = [&](const void* expressions) {
        return find_foreign_domain(static_cast<Node*>(const_cast<void*>(expressions)), found);
    };
    auto plans = [&](const List* list) { return plans_have_foreign_domain(statement, list, found); };
    if (walk(plan->targetlist) || walk(plan->qual) || walk(plan->initPlan)) return true;
    bool foreign = false;
    switch (nodeTag(plan)) {
        // Nothing but the common fields (and the input plans walked below).
        case T_SeqScan:
        case T_ProjectSet:
        case T_RecursiveUnion:
        case T_CteScan:
        case T_NamedTuplestoreScan:
        case T_WorkTableScan:
        case T_Material:
        case T_Sort:
        case T_IncrementalSort:
        case T_Group:
        case T_Unique:
        case T_Gather:
        case T_GatherMerge:
        case T_SetOp:
        case T_LockRows:
            break;
        case T_Result:
            foreign = walk(castNode(Result, plan)->resconstantqual);
            break;
        case T_ModifyTable: {
            const ModifyTable* modify = castNode(ModifyTable, plan);
            foreign = walk(modify->withCheckOptionLists) || walk(modify->returningLists) ||
                      walk(modify->onConflictSet) || walk(modify->onConflictWhere) ||
                      walk(modify->exclRelTlist) || walk(modify->mergeActionLists) ||
                      walk(compat::merge_join_conditions(modify));
            break;
        }
        case T_Append:
            foreign = plans(castNode(Append, plan)->appendplans) ||
                      pruning_has_foreign_domain(
                          compat::partition_prune_info(statement, castNode(Append, plan)), found);
            break;
        case T_MergeAppend:
            foreign = plans(castNode(MergeAppend, plan)->mergeplans) ||
                      pruning_has_foreign_domain(
                          compat::partition_prune_info(statement, castNode(MergeAppend, plan)), found);
            break;
        case T_BitmapAnd:
            foreign = plans(castNode(BitmapAnd, plan)->bitmapplans);
            break;
        case T_BitmapOr:
            foreign = plans(castNode(BitmapOr, plan)->bitmapplans);
            break;
        case T_SampleScan:
            foreign = walk(castNode(SampleScan, plan)->tablesample);
            break;
        case T_IndexScan: {
            const IndexScan* scan = castNode(IndexScan, plan);
            foreign = walk(scan->indexqual) || walk(scan->indexqualorig) || walk(scan->indexorderby) ||
                      walk(scan->indexorderbyorig);
            break;
        }
        case T_IndexOnlyScan: {
            const IndexOnlyScan* scan = castNode(IndexOnlyScan, plan);
            foreign = walk(scan->indexqual) || walk(scan->recheckqual) || walk(scan->indexorderby) ||
                      walk(scan->indextlist);
            break;
        }
        case T_BitmapIndexScan:
            foreign = walk(castNode(BitmapIndexScan, plan)->indexqual) ||
                      walk(castNode(BitmapIndexScan, plan)->indexqualorig);
            break;
        case T_BitmapHeapScan:
            foreign = walk(castNode(BitmapHeapScan, plan)->bitmapqualorig);
            break;
        case T_TidScan:
            foreign = walk(castNode(TidScan, plan)->tidquals);
            break;
        case T_TidRangeScan:
            foreign = walk(castNode(TidRangeScan, plan)->tidrangequals);
            break;
        case T_SubqueryScan:
            foreign = plan_has_foreign_domain(statement, castNode(SubqueryScan, plan)->subplan, found);
            break;
        case T_FunctionScan:
            foreign = walk(castNode(FunctionScan, plan)->functions);
            break;
        case T_ValuesScan:
            foreign = walk(castNode(ValuesScan, plan)->values_lists);
            break;
        case T_TableFuncScan:
            foreign = walk(castNode(TableFuncScan, plan)->tablefunc);
            break;
        // fdw_private and custom_private are the module's own data, not expressions PostgreSQL runs.
        case T_ForeignScan: {
            const ForeignScan* scan = castNode(ForeignScan, plan);
            foreign = walk(scan->fdw_exprs) || walk(scan->fdw_scan_tlist) || walk(scan->fdw_recheck_quals);
            break;
        }
        case T_CustomScan: {
            const CustomScan* scan = castNode(CustomScan, plan);
            foreign = plans(scan->custom_plans) || walk(scan->custom_exprs) || walk(scan->custom_scan_tlist);
            break;
        }
        case T_NestLoop: {
            foreign = walk(castNode(NestLoop, plan)->join.joinqual);
            const ListCell* cell;
            foreach (cell, castNode(NestLoop, plan)->nestParams) {
                if (!foreign) foreign = walk(lfirst_node(NestLoopParam, cell)->paramval);
            }
            break;
        }
        case T_MergeJoin:
            foreign = walk(castNode(MergeJoin, plan)->join.joinqual) ||
                      walk(castNode(MergeJoin, plan)->mergeclauses);
            break;
        case T_HashJoin: {
            const HashJoin* join = castNode(HashJoin, plan);
            foreign = walk(join->join.joinqual) || walk(join->hashclauses) || walk(join->hashkeys);
            break;
        }
        case T_Memoize:
            foreign = walk(castNode(Memoize, plan)->param_exprs);
            break;
        case T_Agg:
            foreign = plans(castNode(Agg, plan)->chain);
            break;
        case T_WindowAgg: {
            const WindowAgg* window = castNode(WindowAgg, plan);
            foreign = walk(window->startOffset) || walk(window->endOffset) || walk(window->runCondition) ||
                      walk(window->runConditionOrig);
            break;
        }
        case T_Hash:
            foreign = walk(castNode(Hash, plan)->hashkeys);
            break;
        case T_Limit:
            foreign = walk(castNode(Limit, plan)->limitOffset) || walk(castNode(Limit, plan)->limitCount);
            break;
        default:
            *found = ForeignCode{"plan node", static_cast<Oid>(nodeTag(plan)), InvalidOid};
            return true;
    }
    return foreign || plan_has_foreign_domain(statement, plan->lefttree, found) ||
           plan_has_foreign_domain(statement, plan->righttree, found);
}

bool statement_runs_foreign_code(const PlannedStmt* statement, ForeignCode* found) {
    ListCell* cell;
    // Every relation the plan reads or writes (view bodies keep the view's own entry).
    foreach (cell, statement->rtable) {
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        if ((entry->rtekind == RTE_RELATION || compat::is_view_reference(entry)) &&
            foreign_relation(entry->relid, found))
            return true;
    }
    // The relations it writes: their triggers (whoever attached them) and partitions.
    foreach (cell, statement->resultRelations) {
        const RangeTblEntry* entry = rt_fetch(lfirst_int(cell), statement->rtable);
        if (written_relation_runs_foreign_code(entry->relid, found)) return true;
    }
    if (plan_has_foreign_domain(statement, statement->planTree, found)) return true;
    if (plans_have_foreign_domain(statement, statement->subplans, found)) return true;
    return false;
}

// EXECUTE evaluates its parameters, each cast to the prepared statement's parameter type: a
// domain's constraints run there (red team round 17).
void note_parameter_domains(const ExecuteStmt* execute, Running* entry) {
    const PreparedStatement* prepared = FetchPreparedStatement(execute->name, false);
    if (prepared == nullptr) return;
    const CachedPlanSource* source = prepared->plansource;
    for (int i = 0; i < source->num_params; ++i) {
        if (get_typtype(source->param_types[i]) != TYPTYPE_DOMAIN) continue;
        if (entry->parameter_domain_count < 4)
            entry->parameter_domains[entry->parameter_domain_count] = source->param_types[i];
        ++entry->parameter_domain_count;
    }
}

bool parameters_run_foreign_code(const Running& entry, ForeignCode* found) {
    if (entry.parameter_domain_count > 4) {
        *found = ForeignCode{"domain", entry.parameter_domains[0], domain_owner(entry.parameter_domains[0])};
        return true;  // fail closed
    }
    for (int i = 0; i < entry.parameter_domain_count; ++i) {
        if (type_runs_foreign_constraints(entry.parameter_domains[i], found)) return true;
    }
    return false;
}

bool copy_target_runs_foreign_code(Oid table, ForeignCode* found) {
    if (written_relation_runs_foreign_code(table, found)) return true;
    // COPY FROM reads every column through its type's input function: domain constraints run.
    Relation relation = RelationIdGetRelation(table);
    if (relation == nullptr) return false;
    bool foreign = false;
    for (int i = 0; i < RelationGetNumberOfAttributes(relation) && !foreign; ++i) {
        const Form_pg_attribute attribute = TupleDescAttr(RelationGetDescr(relation), i);
        if (!attribute->attisdropped) foreign = type_runs_foreign_constraints(attribute->atttypid, found);
    }
    RelationClose(relation);
    return foreign;
}

// TRUNCATE fires the TRUNCATE triggers (their WHEN clauses at its own level) of the relations it
// names, their inheritors unless ONLY, and with CASCADE the tables referencing them, repeatedly.
bool truncate_runs_foreign_code(const TruncateStmt* truncate, ForeignCode* found) {
    List* relations = NIL;
    ListCell* cell;
    foreach (cell, truncate->relations) {
        const RangeVar* named = lfirst_node(RangeVar, cell);
        const Oid relation = RangeVarGetRelid(named, NoLock, true);
        if (!OidIsValid(relation)) continue;
        relations = named->inh
                        ? list_concat_unique_oid(relations, find_all_inheritors(relation, NoLock, nullptr))
                        : list_append_unique_oid(relations, relation);
    }
    while (truncate->behavior == DROP_CASCADE) {
        List* added = list_difference_oid(heap_truncate_find_FKs(relations), relations);
        if (added == NIL) break;
        foreach (cell, added) {
            relations =
                list_concat_unique_oid(relations, find_all_inheritors(lfirst_oid(cell), NoLock, nullptr));
        }
    }
    foreach (cell, relations) {
        const Oid relation = lfirst_oid(cell);
        if (foreign_relation(relation, found) || foreign_trigger_on(relation, found)) return true;
    }
    return false;
}

// An execution or utility started while no statement runs, other than the active portal's own
// statement, runs code of a statement being parsed, planned or bound (a domain constraint running
// query_to_xml); so does everything started inside it.
bool starts_outside_statement(const PlannedStmt* statement) {
    if (IsParallelWorker()) return false;  // its leader's statement runs; workers never release
    if (running.size() > 0) return running[running.size() - 1].outside_statement;
    return !started_by_active_portal(statement);
}

bool is_explain_analyze(const Node* statement) {
    if (!IsA(statement, ExplainStmt)) return false;
    ListCell* cell;
    foreach (cell, castNode(ExplainStmt, statement)->options) {
        DefElem* option = lfirst_node(DefElem, cell);
        if (std::strcmp(option->defname, "analyze") == 0) return defGetBoolean(option);
    }
    return false;
}

// True if the relation has a trigger that is not internal (its author is looked up later), or is
// partitioned (its partitions may have such triggers).
bool may_have_foreign_trigger(Oid relation) {
    Relation opened = RelationIdGetRelation(relation);
    if (opened == nullptr) return false;
    bool found = opened->rd_rel->relkind == RELKIND_PARTITIONED_TABLE;
    const TriggerDesc* triggers = opened->trigdesc;
    for (int i = 0; triggers != nullptr && i < triggers->numtriggers && !found; ++i) {
        found = !triggers->triggers[i].tgisinternal && triggers->triggers[i].tgenabled != TRIGGER_DISABLED;
    }
    RelationClose(opened);
    return found;
}

// A statement starting inside the running ones writes: their ends may fire the AFTER triggers it
// queues (a cascaded foreign key action). Another role's table marks them now; a table with
// triggers is noted, its triggers' authors asked only when a release asks.
void note_nested_writes(const PlannedStmt* statement) {
    ListCell* cell;
    foreach (cell, statement->resultRelations) {
        const Oid relation = rt_fetch(lfirst_int(cell), statement->rtable)->relid;
        ForeignCode found{};
        const bool foreign = foreign_relation(relation, &found);
        if (!foreign && !may_have_foreign_trigger(relation)) continue;
        for (int i = 0; i < running.size(); ++i) {
            Running& entry = running[i];
            if (foreign || entry.written_inside_count >= Running::kWrittenInside) {
                entry.foreign_writes_inside = true;
                continue;
            }
            bool noted = false;
            for (int j = 0; j < entry.written_inside_count && !noted; ++j)
                noted = entry.written_inside[j] == relation;
            if (!noted) entry.written_inside[entry.written_inside_count++] = relation;
        }
    }
}

bool wrote_foreign_tables_inside(const Running& entry) {
    if (entry.foreign_writes_inside) return true;
    for (int i = 0; i < entry.written_inside_count; ++i) {
        ForeignCode found{};
        if (written_relation_runs_foreign_code(entry.written_inside[i], &found)) return true;
    }
    return false;
}

// The number of triggers executing now (pg_trigger_depth(): ExecCallTriggerFunc counts them).
int current_trigger_depth() {
    LOCAL_FCINFO(call, 0);
    InitFunctionCallInfoData(*call, nullptr, 0, InvalidOid, nullptr, nullptr);
    return DatumGetInt32(pg_trigger_depth(call));
}

}  // namespace

void enter_running_statement(const PlannedStmt* statement) {
    const bool writes = statement->commandType != CMD_SELECT || statement->hasModifyingCTE;
    if (writes && running.size() > 0) note_nested_writes(statement);
    running.push(Running{statement,
                         InvalidOid,
                         nullptr,
                         {},
                         0,
                         starts_outside_statement(statement),
                         current_trigger_depth(),
                         writes,
                         false,
                         {},
                         0});
}

void leave_running_statement() { running.pop(); }

RunningUtility enter_running_utility(const PlannedStmt* statement) {
    Oid copy_target = InvalidOid;
    const Node* utility = statement->utilityStmt;
    if (IsA(utility, CopyStmt) && castNode(CopyStmt, utility)->is_from &&
        castNode(CopyStmt, utility)->relation != nullptr) {
        copy_target = RangeVarGetRelid(castNode(CopyStmt, utility)->relation, NoLock, true);
    }
    // Utilities that run queries (or code that does) are running statements too: a release started
    // inside one is not one made while a statement is parsed or its parameters bound.
    // SET CONSTRAINTS and TRUNCATE fire triggers of tables no running statement writes (deferred
    // constraint triggers, TRUNCATE triggers): entries of their own, so that the triggers run
    // below an entry that fires none, even inside a statement that writes (red team round 19).
    const bool runs_code = IsA(utility, DoStmt) || IsA(utility, CallStmt) || IsA(utility, ExplainStmt) ||
                           IsA(utility, CreateTableAsStmt) || IsA(utility, CopyStmt) ||
                           IsA(utility, ExecuteStmt) || IsA(utility, ConstraintsSetStmt) ||
                           IsA(utility, TruncateStmt);
    const RunningUtility entered{runs_code, is_explain_analyze(utility)};
    if (entered.runs_code) {
        Running entry{nullptr,
                      copy_target,
                      IsA(utility, TruncateStmt) ? castNode(TruncateStmt, utility) : nullptr,
                      {},
                      0,
                      starts_outside_statement(statement),
                      current_trigger_depth(),
                      OidIsValid(copy_target),
                      false,
                      {},
                      0};
        if (IsA(utility, ExecuteStmt)) note_parameter_domains(castNode(ExecuteStmt, utility), &entry);
        running.push(entry);
    }
    if (entered.explain_analyze) ++explain_analyze_depth;
    return entered;
}

void leave_running_utility(const RunningUtility& entered) {
    if (entered.runs_code) running.pop();
    if (entered.explain_analyze) --explain_analyze_depth;
}

bool running_foreign_code(ForeignCode* found, int from_depth, const PlannedStmt* except) {
    for (int i = running.size() - 1; i >= from_depth && i >= 0; --i) {
        const Running& entry = running[i];
        if (except != nullptr && entry.statement == except) continue;
        const bool foreign = entry.statement != nullptr ? statement_runs_foreign_code(entry.statement, found)
                             : OidIsValid(entry.copy_target)
                                 ? copy_target_runs_foreign_code(entry.copy_target, found)
                             : entry.truncate != nullptr ? truncate_runs_foreign_code(entry.truncate, found)
                                                         : parameters_run_foreign_code(entry, found);
        if (foreign) return true;
    }
    return false;
}

bool trigger_fired_outside_its_statement() {
    for (int i = 0; i < running.size(); ++i) {
        const Running& entry = running[i];
        const int inner = i + 1 < running.size() ? running[i + 1].trigger_depth : current_trigger_depth();
        // One level below a statement that fires its own triggers is its own trigger, unless a
        // statement inside it queued AFTER triggers of a table it does not name.
        const int fired = inner - entry.trigger_depth;
        if (fired <= 0) continue;
        if (fired > 1 || !entry.fires_triggers || wrote_foreign_tables_inside(entry)) return true;
    }
    return running.size() == 0 && current_trigger_depth() > 0;
}

int running_depth() { return running.size(); }

const PlannedStmt* running_statement(int i) {
    return i >= 0 && i < running.size() ? running[i].statement : nullptr;
}

bool statement_running(const PlannedStmt* statement) {
    for (int i = 0; i < running.size(); ++i) {
        if (running[i].statement == statement) return true;
    }
    return false;
}

bool running_outside_statement() {
    return running.size() > 0 && running[running.size() - 1].outside_statement;
}

bool started_by_active_portal(const PlannedStmt* statement) {
    return ActivePortal != nullptr && list_member_ptr(ActivePortal->stmts, statement);
}

bool explain_analyze_running() { return explain_analyze_depth > 0; }

}  // namespace pgdp::pg
