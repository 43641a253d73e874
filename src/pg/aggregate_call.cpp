#include "pg/aggregate_call.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/syscache.h"
}

#include <cmath>
#include <cstring>

#include "core/clamped_sum.hpp"
#include "core/validate.hpp"
#include "pg/cpp_boundary.hpp"

namespace pgdp::pg {
namespace {

int first_parameter(AggregateKind kind) { return kind == AggregateKind::Count ? 0 : 1; }

[[noreturn]] void refuse_varying(const char* name) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s must be a constant or a query parameter", name),
                    errdetail("pgdp evaluates privacy parameters once, before any row is read; only literals, "
                              "bind parameters and PostgreSQL's built-in immutable functions and operators are "
                              "accepted (no column, subquery, setting or user-defined function)."),
                    errhint("The privacy parameters of a pgdp aggregate must be the same for every row: "
                            "use a literal or a bind parameter such as $1, not a column.")));
}

// Privacy parameters are evaluated once per execution and process, in ExecutorStart (the charge
// in the leader; parallel workers evaluate them for their partial aggregates). Every process must
// get the same values, so an expression is accepted only if its value is a function of the plan's
// constants and the bind parameters alone: constants, bind parameters ($1) and PostgreSQL's own
// immutable functions and operators over built-in types. A user's IMMUTABLE label is no promise
// (a plpgsql function can count its calls), so no user-defined function, operator, type, domain
// or cast is evaluated; columns, aggregates, subqueries (their value depends on the data), window
// functions and other parameters are refused. docs/privacy.md "Privacy parameters".
bool is_builtin(Oid oid) { return oid < FirstNormalObjectId; }

bool builtin_function_checker(Oid function, void*) { return !is_builtin(function); }

bool not_deterministic(Node* node, void* context) {
    if (node == nullptr) return false;
    switch (nodeTag(node)) {
        case T_Const:
        case T_List:
            break;
        case T_Param:
            if (castNode(Param, node)->paramkind != PARAM_EXTERN) return true;
            break;
        case T_FuncExpr:
        case T_OpExpr:
        case T_DistinctExpr:
        case T_NullIfExpr:
        case T_ScalarArrayOpExpr:
        case T_CoerceViaIO:
        case T_RelabelType:
        case T_BoolExpr:
        case T_NullTest:
        case T_BooleanTest:
        case T_CaseExpr:
        case T_CaseWhen:
        case T_CaseTestExpr:
        case T_CoalesceExpr:
        case T_MinMaxExpr:
        case T_ArrayExpr:
            break;
        default:
            return true;  // Var, Aggref, SubLink, SubPlan, WindowFunc, CoerceToDomain, RowExpr, ...
    }
    // Built-in types only: input/output and comparison functions of user types are user code.
    if (!IsA(node, List) && !is_builtin(exprType(node))) return true;
    if (IsA(node, ScalarArrayOpExpr) && !is_builtin(castNode(ScalarArrayOpExpr, node)->opfuncid)) return true;
    // Every function the node calls (operators, casts, I/O coercions) must be built in.
    if (check_functions_in_node(node, builtin_function_checker, nullptr)) return true;
    return expression_tree_walker(node, reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(not_deterministic)),
                                  context);
}

// Evaluates the index-th argument expression of the call (before execution: bind parameters
// from context.params); refuses expressions that are not deterministic (above).
Datum constant_argument(Aggref* aggref, int index, const char* name, const ArgumentContext& context, bool* is_null) {
    if (index >= list_length(aggref->args)) refuse_varying(name);
    Expr* expression = list_nth_node(TargetEntry, aggref->args, index)->expr;
    if (IsA(expression, Const)) {
        *is_null = castNode(Const, expression)->constisnull;
        return castNode(Const, expression)->constvalue;
    }
    // contain_mutable_functions also catches built-in stable functions such as current_setting().
    if (not_deterministic((Node*)expression, nullptr) || contain_mutable_functions((Node*)expression)) {
        refuse_varying(name);
    }
    ExprState* state = ExecInitExprWithParams(expression, context.params);
    return ExecEvalExprSwitchContext(state, context.econtext, is_null);
}

double float8_parameter(Aggref* aggref, int index, const char* name, const ArgumentContext& context) {
    bool is_null = false;
    const Datum value = constant_argument(aggref, index, name, context, &is_null);
    if (is_null) {
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("%s must not be NULL", name),
                        errhint("Pass a number for %s.", name)));
    }
    return DatumGetFloat8(value);
}

struct IdentityEntry {
    Oid aggfnoid;  // hash key
    AggregateIdentity identity;
};
HTAB* identities = nullptr;

AggregateIdentity lookup_identity(Oid aggfnoid) {
    AggregateIdentity identity{false, AggregateKind::Count, false, ""};
    HeapTuple aggregate = SearchSysCache1(AGGFNOID, ObjectIdGetDatum(aggfnoid));
    if (!HeapTupleIsValid(aggregate)) return identity;
    const Oid final_function = ((Form_pg_aggregate)GETSTRUCT(aggregate))->aggfinalfn;
    ReleaseSysCache(aggregate);
    if (!OidIsValid(final_function)) return identity;
    HeapTuple procedure = SearchSysCache1(PROCOID, ObjectIdGetDatum(final_function));
    if (!HeapTupleIsValid(procedure)) return identity;
    bool source_null = true;
    bool binary_null = true;
    const Datum source = SysCacheGetAttr(PROCOID, procedure, Anum_pg_proc_prosrc, &source_null);
    const Datum binary = SysCacheGetAttr(PROCOID, procedure, Anum_pg_proc_probin, &binary_null);
    const bool is_c = ((Form_pg_proc)GETSTRUCT(procedure))->prolang == ClanguageId;
    if (is_c && !source_null && !binary_null) {
        char* symbol = TextDatumGetCString(source);
        char* library = TextDatumGetCString(binary);
        const char* base = std::strrchr(library, '/');
        base = base != nullptr ? base + 1 : library;
        if (std::strncmp(base, "pgdp", 4) == 0 && (base[4] == '\0' || base[4] == '.')) {
            static const struct {
                const char* symbol;
                AggregateKind kind;
                bool with_interval;
                const char* name;
            } known[] = {{"pgdp_sum_final", AggregateKind::Sum, false, "dp_sum"},
                         {"pgdp_mean_final", AggregateKind::Mean, false, "dp_mean"},
                         {"pgdp_count_final", AggregateKind::Count, false, "dp_count"},
                         {"pgdp_sum_ci_final", AggregateKind::Sum, true, "dp_sum_ci"},
                         {"pgdp_mean_ci_final", AggregateKind::Mean, true, "dp_mean_ci"},
                         {"pgdp_count_ci_final", AggregateKind::Count, true, "dp_count_ci"}};
            for (const auto& k : known) {
                if (std::strcmp(symbol, k.symbol) == 0) identity = {true, k.kind, k.with_interval, k.name};
            }
        }
        pfree(symbol);
        pfree(library);
    }
    ReleaseSysCache(procedure);
    return identity;
}

}  // namespace

void forget_identities(Datum, int, uint32) {
    if (identities != nullptr) hash_destroy(identities);
    identities = nullptr;
}

AggregateIdentity identify_aggregate(Oid aggfnoid) {
    static bool callbacks_registered = false;
    if (!callbacks_registered) {
        // CREATE OR REPLACE AGGREGATE / FUNCTION may change what an OID is.
        CacheRegisterSyscacheCallback(AGGFNOID, forget_identities, 0);
        CacheRegisterSyscacheCallback(PROCOID, forget_identities, 0);
        callbacks_registered = true;
    }
    bool found = false;
    if (identities != nullptr) {
        auto* entry = static_cast<IdentityEntry*>(hash_search(identities, &aggfnoid, HASH_FIND, &found));
        if (found) return entry->identity;
    }
    // Catalog lookups may process invalidations, which drop the table: create it afterwards.
    const AggregateIdentity identity = lookup_identity(aggfnoid);
    if (identities == nullptr) {
        HASHCTL control{};
        control.keysize = sizeof(Oid);
        control.entrysize = sizeof(IdentityEntry);
        identities = hash_create("pgdp aggregate identities", 64, &control, HASH_ELEM | HASH_BLOBS);
    }
    auto* entry = static_cast<IdentityEntry*>(hash_search(identities, &aggfnoid, HASH_ENTER, &found));
    entry->identity = identity;
    return identity;
}

namespace {

bool release_walker(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Aggref) && identify_aggregate(castNode(Aggref, node)->aggfnoid).is_pgdp) return true;
    if (IsA(node, Query)) {
        return query_tree_walker(castNode(Query, node),
                                 reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(release_walker)), context, 0);
    }
    return expression_tree_walker(node, reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(release_walker)),
                                  context);
}

}  // namespace

bool contains_release(Node* node) { return release_walker(node, nullptr); }

Aggref* partial_origin(const Plan* agg_plan, Aggref* aggref) {
    if (aggref == nullptr || !DO_AGGSPLIT_COMBINE(aggref->aggsplit)) return aggref;
    const Plan* plan = agg_plan != nullptr ? outerPlan(agg_plan) : nullptr;
    Expr* expression = linitial_node(TargetEntry, aggref->args)->expr;
    for (int depth = 0; depth < 64 && plan != nullptr; ++depth) {
        if (!IsA(expression, Var) || castNode(Var, expression)->varattno < 1 ||
            castNode(Var, expression)->varattno > list_length(plan->targetlist)) {
            break;
        }
        expression = list_nth_node(TargetEntry, plan->targetlist, castNode(Var, expression)->varattno - 1)->expr;
        if (IsA(expression, Aggref)) {
            // The partial aggregate must compute the same function (CREATE AGGREGATE cannot make a
            // combining call read another aggregate's state, but check rather than assume).
            if (castNode(Aggref, expression)->aggfnoid != aggref->aggfnoid || !IsA(plan, Agg)) break;
            return castNode(Aggref, expression);
        }
        // Append and MergeAppend (partitionwise aggregation) pass columns through positionally;
        // every child computes the same partial aggregate, so the first one has the arguments.
        if (IsA(plan, Append)) {
            plan = castNode(Append, plan)->appendplans != NIL
                       ? static_cast<const Plan*>(linitial(castNode(Append, plan)->appendplans))
                       : nullptr;
        } else if (IsA(plan, MergeAppend)) {
            plan = castNode(MergeAppend, plan)->mergeplans != NIL
                       ? static_cast<const Plan*>(linitial(castNode(MergeAppend, plan)->mergeplans))
                       : nullptr;
        } else {
            plan = outerPlan(plan);
        }
    }
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("pgdp could not find the arguments of a parallel aggregate"),
                    errhint("SET max_parallel_workers_per_gather = 0 and report this plan.")));
}

bool is_integer_type(Oid type) { return type == INT2OID || type == INT4OID || type == INT8OID; }

Parameters read_parameters(Aggref* aggref, AggregateKind kind, bool with_interval, const ArgumentContext& context) {
    // The *_ci forms take alpha as their last argument.
    const int nargs = list_length(aggref->args) - (with_interval ? 1 : 0);
    const int first = first_parameter(kind);
    Parameters parameters{};
    if (with_interval) parameters.alpha = float8_parameter(aggref, nargs, "alpha", context);
    parameters.value_type =
        kind == AggregateKind::Count ? INT8OID : exprType((Node*)linitial_node(TargetEntry, aggref->args)->expr);
    if (kind != AggregateKind::Count) {
        parameters.lower = float8_parameter(aggref, 1, "lower", context);
        parameters.upper = float8_parameter(aggref, 2, "upper", context);
    }
    parameters.epsilon = float8_parameter(aggref, first + (kind == AggregateKind::Count ? 0 : 2), "epsilon", context);
    const int delta_index = first + (kind == AggregateKind::Count ? 1 : 3);
    const int mechanism_index = delta_index + 1;
    parameters.delta = nargs > delta_index ? float8_parameter(aggref, delta_index, "delta", context) : 0.0;
    const char* mechanism_name = nargs > delta_index ? "auto" : "laplace";
    if (nargs > mechanism_index) {
        bool is_null = false;
        const Datum name_datum = constant_argument(aggref, mechanism_index, "mechanism", context, &is_null);
        if (is_null) {
            ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("mechanism must not be NULL"),
                            errhint("Pass 'gaussian', 'tlap', 'laplace' or 'auto'.")));
        }
        mechanism_name = TextDatumGetCString(name_datum);
    }
    PGDP_GUARDED(if (kind != AggregateKind::Count) pgdp::require_usable_bounds(parameters.lower, parameters.upper);
                 parameters.mechanism = pgdp::parse_mechanism(mechanism_name);
                 pgdp::check_release_parameters(parameters.epsilon, parameters.delta, parameters.mechanism);
                 if (with_interval) pgdp::require_alpha(parameters.alpha);
                 if (kind != AggregateKind::Count) {
                     parameters.unit_exponent = pgdp::sum_unit_exponent(parameters.lower, parameters.upper);
                 });
    return parameters;
}

void build_plans(const Parameters& p, AggregateKind kind, pgdp::ReleasePlan& value_plan,
                 pgdp::ReleasePlan& count_plan) {
    const bool integer_values = is_integer_type(p.value_type) && std::floor(p.lower) == p.lower &&
                                std::floor(p.upper) == p.upper;
    switch (kind) {
        case AggregateKind::Sum:
            // Add/remove one row moves the sum by at most max(|lower|, |upper|) (docs/privacy.md).
            // The grid is never finer than the accumulation unit, so rounding the total to it is a
            // right shift that cannot overflow, whatever epsilon.
            value_plan = pgdp::plan_release(p.epsilon, p.delta, p.mechanism,
                                            pgdp::clamped_sum_sensitivity(p.lower, p.upper, p.unit_exponent),
                                            std::fmax(integer_values ? 1.0 : 0.0, std::ldexp(1.0, p.unit_exponent)),
                                            integer_values);
            break;
        case AggregateKind::Mean: {
            // Half the budget each for the sum of (value - midpoint), sensitivity (upper-lower)/2,
            // and the count, sensitivity 1 (basic composition; docs/privacy.md for the split).
            const double half_range = (p.upper - p.lower) / 2.0;
            const double centred_sensitivity =
                half_range > 0.0 ? half_range + std::ldexp(1.0, p.unit_exponent) : std::ldexp(1.0, p.unit_exponent);
            value_plan = pgdp::plan_release(p.epsilon / 2, p.delta / 2, p.mechanism, centred_sensitivity,
                                            std::ldexp(1.0, p.unit_exponent - 1), false);
            // One mechanism for both halves ('auto' is resolved once, on the sum), so that the
            // call is charged the delta it spends.
            const pgdp::Mechanism mechanism = value_plan.mechanism;
            count_plan = pgdp::plan_release(p.epsilon / 2, mechanism == pgdp::Mechanism::Laplace ? 0.0 : p.delta / 2,
                                            mechanism, 1.0, 1.0, true);
            break;
        }
        case AggregateKind::Count:
            count_plan = pgdp::plan_release(p.epsilon, p.delta, p.mechanism, 1.0, 1.0, true);
            break;
    }
}

}  // namespace pgdp::pg
