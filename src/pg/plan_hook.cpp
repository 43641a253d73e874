// The planner hook: refuses pgdp aggregates in other roles' views, rules and policies before
// anything runs (release_trust.hpp), and keeps pgdp's final functions out of parallel workers
// when force_parallel_mode puts the whole plan under a single-copy Gather.
#include "pg/plan_hook.hpp"

extern "C" {
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "nodes/plannodes.h"
#include "optimizer/planner.h"
}

#include "pg/aggregate_call.hpp"
#include "pg/release_trust.hpp"

namespace pgdp::pg {
namespace {

planner_hook_type previous_planner = nullptr;

bool has_pgdp_aggregate(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Aggref) && identify_aggregate(castNode(Aggref, node)->aggfnoid).is_pgdp) return true;
    return expression_tree_walker(node, reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(has_pgdp_aggregate)),
                                  context);
}

bool plan_has_pgdp_aggregate(const Plan* plan) {
    if (plan == nullptr) return false;
    check_stack_depth();
    if (IsA(plan, Agg) && (has_pgdp_aggregate((Node*)plan->targetlist, nullptr) ||
                           has_pgdp_aggregate((Node*)plan->qual, nullptr))) {
        return true;
    }
    ListCell* cell;
    switch (nodeTag(plan)) {
        case T_Append:
            foreach (cell, castNode(Append, plan)->appendplans) {
                if (plan_has_pgdp_aggregate(static_cast<Plan*>(lfirst(cell)))) return true;
            }
            return false;
        case T_MergeAppend:
            foreach (cell, castNode(MergeAppend, plan)->mergeplans) {
                if (plan_has_pgdp_aggregate(static_cast<Plan*>(lfirst(cell)))) return true;
            }
            return false;
        case T_SubqueryScan:
            return plan_has_pgdp_aggregate(castNode(SubqueryScan, plan)->subplan);
        default:
            return plan_has_pgdp_aggregate(plan->lefttree) || plan_has_pgdp_aggregate(plan->righttree);
    }
}

bool statement_has_pgdp_aggregate(const PlannedStmt* statement) {
    if (plan_has_pgdp_aggregate(statement->planTree)) return true;
    ListCell* cell;
    foreach (cell, statement->subplans) {
        if (plan_has_pgdp_aggregate(static_cast<Plan*>(lfirst(cell)))) return true;
    }
    return false;
}

// force_parallel_mode adds a single-copy Gather on top of a parallel-safe plan (standard_planner),
// so the whole query, final functions included, would run in a parallel worker, where pgdp never
// releases (release_charge.cpp). The Gather's child is the plan the planner had before it, so it
// is put back.
void remove_forced_gather(PlannedStmt* statement) {
    Plan* top = statement->planTree;
    if (top == nullptr || !IsA(top, Gather)) return;
    const Gather* gather = castNode(Gather, top);
    if (!gather->single_copy || top->initPlan != NIL || top->lefttree == nullptr) return;
    if (!statement_has_pgdp_aggregate(statement)) return;
    statement->planTree = top->lefttree;
}

PlannedStmt* plan_query(Query* parse, const char* query_string, int cursor_options, ParamListInfo bound_params) {
    check_query_authors(parse);
    PlannedStmt* statement = previous_planner != nullptr
                                 ? previous_planner(parse, query_string, cursor_options, bound_params)
                                 : standard_planner(parse, query_string, cursor_options, bound_params);
    remove_forced_gather(statement);
    return statement;
}

}  // namespace

void install_plan_hook() {
    previous_planner = planner_hook;
    planner_hook = plan_query;
}

}  // namespace pgdp::pg
