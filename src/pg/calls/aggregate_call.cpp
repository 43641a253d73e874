#include "pg/calls/aggregate_call.hpp"

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

#include <cstring>

#include "pg/base/cpp_boundary.hpp"

namespace pgdp::pg {
namespace {

// Where each kind's privacy arguments are in the aggregate's argument list (-1: none). delta and
// mechanism, both optional, follow epsilon; the *_ci forms end with alpha.
//   dp_sum(value, lower, upper, epsilon [, delta [, mechanism]] [, alpha])   (dp_mean alike)
//   dp_count(epsilon [, delta [, mechanism]] [, alpha])
struct ArgumentPositions {
    int lower;
    int upper;
    int epsilon;
};
constexpr ArgumentPositions kArgumentPositions[] = {
    /* Sum */ {1, 2, 3},
    /* Mean */ {1, 2, 3},
    /* Count */ {-1, -1, 0},
    /* Selection */ {-1, -1, 0},
};
// dp_groups(epsilon, delta [, mechanism [, min_units]]): min_units after the mechanism.
constexpr int kMinUnitsPosition = 3;

// The name of the privacy parameter at argument position `index` (0-based) of a call with
// `nargs` arguments, as read_parameters names it.
const char* parameter_name(const AggregateIdentity& identity, int index, int nargs) {
    const ArgumentPositions& at = kArgumentPositions[static_cast<int>(identity.kind)];
    if (identity.with_interval && index == nargs - 1) return "alpha";
    if (index == at.lower) return "lower";
    if (index == at.upper) return "upper";
    if (index == at.epsilon) return "epsilon";
    if (index == at.epsilon + 1) return "delta";
    if (index == at.epsilon + 2) return "mechanism";
    return "min_units";  // dp_groups' last (kMinUnitsPosition)
}

[[noreturn]] void refuse_varying(const char* name) {
    ereport(
        ERROR,
        (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s must be a constant or a query parameter", name),
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
    return expression_tree_walker(
        node, reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(not_deterministic)), context);
}

// Evaluates the index-th argument expression of the call (before execution: bind parameters
// from context.params); refuses expressions that are not deterministic (above).
Datum constant_argument(Aggref* aggref, int index, const char* name, const ArgumentContext& context,
                        bool* is_null) {
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
            static constexpr struct {
                const char* symbol;
                const AggregateIdentity* identity;
            } known[] = {{"pgdp_sum_final", &kDpSum},        {"pgdp_mean_final", &kDpMean},
                         {"pgdp_count_final", &kDpCount},    {"pgdp_sum_ci_final", &kDpSumCi},
                         {"pgdp_mean_ci_final", &kDpMeanCi}, {"pgdp_count_ci_final", &kDpCountCi},
                         {"pgdp_groups_final", &kDpGroups}};
            for (const auto& k : known) {
                if (std::strcmp(symbol, k.symbol) == 0) identity = *k.identity;
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
                                 reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(release_walker)),
                                 context, 0);
    }
    return expression_tree_walker(
        node, reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(release_walker)), context);
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
        expression =
            list_nth_node(TargetEntry, plan->targetlist, castNode(Var, expression)->varattno - 1)->expr;
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

void refuse_parameters_over_rows(const Aggref* aggref) {
    const AggregateIdentity identity = identify_aggregate(aggref->aggfnoid);
    const int first =
        kArgumentPositions[static_cast<int>(identity.kind)].lower >= 0 ? 1 : 0;  // after the value
    const int nargs = written_argument_count(aggref);
    for (int index = first; index < nargs; ++index) {
        const Node* argument = (Node*)list_nth_node(TargetEntry, aggref->args, index)->expr;
        if (contain_vars_of_level(const_cast<Node*>(argument), static_cast<int>(aggref->agglevelsup)))
            refuse_varying(parameter_name(identity, index, nargs));
    }
}

bool is_integer_type(Oid type) { return type == INT2OID || type == INT4OID || type == INT8OID; }

bool is_value_type(Oid type) {
    return is_integer_type(type) || type == FLOAT4OID || type == FLOAT8OID || type == NUMERICOID;
}

Parameters read_parameters(Aggref* aggref, const AggregateIdentity& identity,
                           const ArgumentContext& context) {
    const ArgumentPositions& at = kArgumentPositions[static_cast<int>(identity.kind)];
    const int nargs = written_argument_count(aggref) - (identity.with_interval ? 1 : 0);  // without alpha
    Parameters parameters{};
    pgdp::AggregateParameters& given = parameters.privacy;
    if (identity.with_interval) given.alpha = float8_parameter(aggref, nargs, "alpha", context);
    parameters.value_type =
        at.lower < 0 ? INT8OID : exprType((Node*)linitial_node(TargetEntry, aggref->args)->expr);
    if (at.lower >= 0 && !is_value_type(parameters.value_type)) {
        // pgdp's own aggregates coerce their values to these; another aggregate built on pgdp's
        // "any" transition functions must too (the value is read as one of them).
        ereport(ERROR,
                (errcode(ERRCODE_DATATYPE_MISMATCH),
                 errmsg("%s cannot aggregate values of type %s", identity.name,
                        format_type_be(parameters.value_type)),
                 errhint("Pass a smallint, integer, bigint, real, double precision or numeric value.")));
    }
    given.integer_values = at.lower >= 0 && is_integer_type(parameters.value_type);
    if (at.lower >= 0) {
        given.lower = float8_parameter(aggref, at.lower, "lower", context);
        given.upper = float8_parameter(aggref, at.upper, "upper", context);
    }
    given.epsilon = float8_parameter(aggref, at.epsilon, "epsilon", context);
    const int delta_at = at.epsilon + 1;
    const int mechanism_at = at.epsilon + 2;
    given.delta = nargs > delta_at ? float8_parameter(aggref, delta_at, "delta", context) : 0.0;
    const char* mechanism_name = nargs > delta_at ? "auto" : "laplace";
    given.groups_per_unit = static_cast<std::uint32_t>(groups_per_unit_of(aggref));
    if (identity.kind == AggregateKind::Selection && nargs > kMinUnitsPosition) {
        bool is_null = false;
        const Datum units = constant_argument(aggref, kMinUnitsPosition, "min_units", context, &is_null);
        if (is_null) {
            ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("min_units must not be NULL"),
                            errhint("Pass 1 to keep groups of any size to the selection.")));
        }
        given.min_units = DatumGetInt64(units);
    }
    if (nargs > mechanism_at) {
        bool is_null = false;
        const Datum name_datum = constant_argument(aggref, mechanism_at, "mechanism", context, &is_null);
        if (is_null) {
            ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("mechanism must not be NULL"),
                            errhint(identity.kind == AggregateKind::Selection
                                        ? "Pass 'truncated_geometric', 'laplace', 'gaussian' or 'auto'."
                                        : "Pass 'gaussian', 'tlap', 'laplace' or 'auto'.")));
        }
        mechanism_name = TextDatumGetCString(name_datum);
    }
    PGDP_GUARDED(given = pgdp::validate_aggregate_parameters(identity.kind, identity.with_interval, given,
                                                             mechanism_name));
    return parameters;
}

}  // namespace pgdp::pg
