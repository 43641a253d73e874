#include "pg/calls/parameters.hpp"

#include "pg/base/node_kinds.hpp"

extern "C" {
#include "access/transam.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"
}

#include <vector>

#include "core/quantile_release.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/planning/plan_marks.hpp"

namespace pgdp::pg {
namespace {

// The name of the privacy parameter at argument position `index` (0-based) of a call with
// `nargs` arguments, as read_parameters names it.
const char* parameter_name(const AggregateIdentity& identity, int index, int nargs) {
    const ArgumentPositions& at = identity.at;
    if (identity.with_interval && index == nargs - 1 && nargs > at.epsilon + 1) return "alpha";
    if (index == at.lower) return "lower";
    if (index == at.upper) return "upper";
    if (index == at.shape) return identity.kind == AggregateKind::Quantiles ? "q" : "bins";
    if (index == at.epsilon) return "epsilon";
    if (index == at.epsilon + 1) return "delta";
    if (index == at.epsilon + 2) return "mechanism";
    return "min_units";  // dp_groups' last (at.min_units)
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
    // Functions are checked below; every other node is refused unless it is a constant, a bind
    // parameter, GREATEST/LEAST or an array constructor.
    if (expression_kind(node) == ExpressionKind::Other) {
        switch (nodeTag(node)) {
            case T_Const:
            case T_List:
            case T_MinMaxExpr:
            case T_ArrayExpr:
                break;
            case T_Param:
                if (castNode(Param, node)->paramkind != PARAM_EXTERN) return true;
                break;
            default:
                return true;  // Var, Aggref, SubLink, SubPlan, WindowFunc, CoerceToDomain, RowExpr, ...
        }
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

// NULL bounds are estimated in the release (core/estimated_bounds_release.hpp) by dp_sum, dp_mean,
// dp_variance, dp_stddev and their *_ci forms (0.13: the dp_release reports the bounds used), and
// the quantiles take them without an estimate (a log-linear leaf map), over local rows and (0.14)
// over Citus tables (distributes_null_bounds; the former's workers binning the rows,
// reads_partial_bins); every other call with a NULL bound is refused here, before the charge.
void refuse_estimated_bounds_unless_supported(const Aggref* aggref, const AggregateIdentity& identity,
                                              bool lower_null) {
    const char* name = lower_null ? "lower" : "upper";
    if (!pgdp::accepts_null_bounds(identity.kind)) {
        // As before 0.12 (the message unchanged), with the reason.
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("%s must not be NULL", name),
                        errdetail("Only dp_sum, dp_mean, dp_variance, dp_stddev (and their *_ci forms) and "
                                  "the quantiles accept NULL bounds; %s does not yet.",
                                  identity.name),
                        errhint("Pass a number for %s.", name)));
    }
    // A distributed dp_sum, dp_mean, dp_variance or dp_stddev whose workers bin the rows (0.14)
    // estimates as on one node; one without bins (its level groups by another state key) cannot.
    if (reads_partial_totals(aggref) && pgdp::reads_bounded_value(identity.kind) &&
        !reads_partial_bins(aggref)) {
        ereport(
            ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("%s over distributed tables cannot estimate its bounds here: %s is NULL", identity.name,
                    name),
             errdetail("Its query level groups the workers' rows by a histogram, quantile or distinct-count "
                       "key, so they do not bin the rows for the estimate."),
             errhint("Release the call with NULL bounds in its own query.")));
    }
    if (reads_partial_totals(aggref) && !reads_partial_bins(aggref) &&
        !pgdp::distributes_null_bounds(identity.kind)) {
        ereport(
            ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("%s over distributed tables cannot estimate its bounds: %s is NULL", identity.name, name),
             errdetail("The workers' partial totals are clamped to the bounds, which must be known before."),
             errhint("Pass both bounds for a distributed table.")));
    }
}

// q of dp_quantile (float8), dp_quantiles (float8[]) or dp_median (0.5, no argument), validated
// (core require_quantile_levels: 1 to 1000 levels, each in [0, 1]).
void read_quantile_levels(Aggref* aggref, int position, const ArgumentContext& context,
                          Parameters* parameters) {
    int count = 1;
    double* levels = nullptr;
    if (position < 0) {
        levels = static_cast<double*>(palloc(sizeof(double)));
        levels[0] = 0.5;
    } else {
        bool is_null = false;
        const Datum q = constant_argument(aggref, position, "q", context, &is_null);
        if (is_null) {
            ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("q must not be NULL"),
                            errhint("Pass a level in [0, 1] (0.5 for the median).")));
        }
        const Node* argument = (Node*)list_nth_node(TargetEntry, aggref->args, position)->expr;
        if (exprType(argument) == FLOAT8ARRAYOID) {
            ArrayType* array = DatumGetArrayTypeP(q);
            Datum* elements = nullptr;
            bool* nulls = nullptr;
            deconstruct_array(array, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &elements,
                              &nulls, &count);
            levels = static_cast<double*>(palloc(sizeof(double) * Max(count, 1)));
            for (int i = 0; i < count; ++i) {
                if (nulls[i]) {
                    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                                    errmsg("q must not contain NULL"), errhint("Pass levels in [0, 1].")));
                }
                levels[i] = DatumGetFloat8(elements[i]);
            }
        } else {
            levels = static_cast<double*>(palloc(sizeof(double)));
            levels[0] = DatumGetFloat8(q);
        }
    }
    PGDP_GUARDED(pgdp::require_quantile_levels(std::vector<double>(levels, levels + count)));
    parameters->quantile_levels = levels;
    parameters->quantile_count = count;
}

// dp_histogram and the quantiles take float8: over a numeric column the parser's implicit
// float8(numeric) raises per row for a value beyond float8 (after the charge). The planner hook
// replaces that cast by one that cannot fail (planning/float_values.hpp); one it did not see (a
// call inlined from an SQL function; before 0.16's pgdp.total_float8, a volatile value) is refused
// here, before the charge.
void refuse_raising_float_value(const Aggref* aggref, const AggregateIdentity& identity) {
    if (identity.kind != AggregateKind::Histogram && identity.kind != AggregateKind::Quantiles) return;
    const Expr* value = linitial_node(TargetEntry, aggref->args)->expr;
    if (!IsA(value, FuncExpr)) return;
    const auto* cast = castNode(FuncExpr, value);
    if (cast->funcid != F_FLOAT8_NUMERIC || cast->funcformat != COERCE_IMPLICIT_CAST) return;
    ereport(
        ERROR,
        (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("%s cannot read this numeric value", identity.name),
         errdetail("Converting it to double precision would raise on values beyond that type's range, "
                   "after the charge; pgdp converts numeric values safely only in calls written in the "
                   "statement (not inlined from an SQL function) over values without volatile functions."),
         errhint("Write the call in the statement itself, or convert the value yourself.")));
}

// The form PostgreSQL chose for a call, by its argument names: dp_sum(value, epsilon, delta) for
// dp_sum(amount, 0, 2000), whose 0 is then read as epsilon. Overloads that differ in arity turn
// a forgotten argument into a valid call of another form; naming the form in every error about
// the call's parameters makes the slip visible. A form without bounds is shown as written (its
// NULL bounds, inserted by the planner, have no location in the statement).
char* form_read(const Aggref* aggref) {
    HeapTuple procedure = SearchSysCache1(PROCOID, ObjectIdGetDatum(aggref->aggfnoid));
    if (!HeapTupleIsValid(procedure)) return nullptr;
    Oid* types = nullptr;
    char** names = nullptr;
    char* modes = nullptr;
    const int count = get_func_arg_info(procedure, &types, &names, &modes);
    const char* function = NameStr(((Form_pg_proc)GETSTRUCT(procedure))->proname);
    StringInfoData form;
    initStringInfo(&form);
    appendStringInfo(&form, "%s(", function);
    const auto inserted = [aggref](int index) {
        if (index >= list_length(aggref->args)) return false;
        const Expr* argument = list_nth_node(TargetEntry, aggref->args, index)->expr;
        return IsA(argument, Const) && castNode(Const, argument)->constisnull &&
               castNode(Const, argument)->location < 0;
    };
    const bool bounds_inserted =
        identify_aggregate(aggref->aggfnoid).at.lower == 1 && inserted(1) && inserted(2);
    bool first = true;
    for (int i = 0; i < count; ++i) {
        if (bounds_inserted && (i == 1 || i == 2)) continue;
        appendStringInfo(&form, "%s%s", first ? "" : ", ",
                         names != nullptr && names[i][0] != '\0' ? names[i] : format_type_be(types[i]));
        first = false;
    }
    appendStringInfoChar(&form, ')');
    ReleaseSysCache(procedure);
    return form.data;
}

Parameters read_validated_parameters(Aggref* aggref, const AggregateIdentity& identity,
                                     const ArgumentContext& context);

void report_form_read(void* form) { errcontext("the call read as %s", static_cast<const char*>(form)); }

}  // namespace

int partial_argument_count(AggregateKind kind) {
    // The units' total and the rows (a state key and its rows); dp_sum, dp_mean: then the log bin
    // and its units' total (0.14); dp_variance, dp_stddev: the centred squares' total after the
    // rows, and the bin's squares last.
    if (!pgdp::reads_bounded_value(kind)) return 2;
    return pgdp::reads_squares(kind) ? 6 : 4;
}

int written_argument_count(const Aggref* aggref) {
    // An ORDER BY inside the call appends its keys to args as resjunk entries after the arguments:
    // they are no arguments (red team round 20: dp_sum(v, 0, 10, 1 ORDER BY 0.5) was charged and
    // released with delta 0.5, a key read as the delta; ORDER BY a column refused as a varying delta).
    int written = 0;
    ListCell* cell;
    foreach (cell, aggref->args) {
        if (!lfirst_node(TargetEntry, cell)->resjunk) ++written;
    }
    if (!reads_partial_totals(aggref)) return written;
    return written - partial_argument_count(identify_aggregate(aggref->aggfnoid).kind);
}

bool reads_partial_bins(const Aggref* aggref) {
    const AggregateKind kind = identify_aggregate(aggref->aggfnoid).kind;
    if (!reads_partial_totals(aggref) || !pgdp::reads_bounded_value(kind)) return false;
    // The bin key's argument: a partials column, or a NULL constant in a call without bins.
    const int key = list_length(aggref->args) - (pgdp::reads_squares(kind) ? 3 : 2);
    const Node* argument = (Node*)list_nth_node(TargetEntry, aggref->args, key)->expr;
    return !IsA(argument, Const);
}

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
    const int first = identity.at.lower >= 0 ? 1 : identity.at.epsilon;  // after the value
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
    char* form = form_read(aggref);
    ErrorContextCallback form_context{error_context_stack, report_form_read, form};
    if (form != nullptr) error_context_stack = &form_context;
    Parameters parameters = read_validated_parameters(aggref, identity, context);
    if (form != nullptr) error_context_stack = form_context.previous;
    if (form != nullptr) pfree(form);
    return parameters;
}

namespace {
Parameters read_validated_parameters(Aggref* aggref, const AggregateIdentity& identity,
                                     const ArgumentContext& context) {
    const ArgumentPositions& at = identity.at;
    // The *_ci forms end with alpha, except the one that stops at epsilon: the 95 % interval.
    const int written = written_argument_count(aggref);
    const bool alpha_written = identity.with_interval && written > at.epsilon + 1;
    const int nargs = written - (alpha_written ? 1 : 0);  // without alpha
    Parameters parameters{};
    pgdp::AggregateParameters& given = parameters.privacy;
    if (identity.with_interval)
        given.alpha = alpha_written ? float8_parameter(aggref, nargs, "alpha", context) : 0.05;
    const bool has_value = at.lower >= 0 || identity.kind == AggregateKind::CountDistinct;
    parameters.value_type =
        has_value ? exprType((Node*)linitial_node(TargetEntry, aggref->args)->expr) : INT8OID;
    if (identity.kind == AggregateKind::CountDistinct &&
        !OidIsValid(
            lookup_type_cache(parameters.value_type, TYPECACHE_HASH_EXTENDED_PROC)->hash_extended_proc)) {
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_FUNCTION),
                        errmsg("dp_count_distinct cannot count values of type %s",
                               format_type_be(parameters.value_type)),
                        errdetail("The type has no extended hash function."),
                        errhint("Cast the value to a type that can be hashed, such as text.")));
    }
    // A collatable value hashed without a collation (implicit collations in conflict, as in
    // CASE WHEN .. THEN a_c ELSE b_posix END) makes hashtextextended raise at the first non-NULL
    // row: an error that shows whether any row reached the call, after the charge (red team
    // round 18). Refused here, before any row is read and before the charge.
    if (identity.kind == AggregateKind::CountDistinct && type_is_collatable(parameters.value_type) &&
        !OidIsValid(aggref->inputcollid)) {
        ereport(ERROR,
                (errcode(ERRCODE_INDETERMINATE_COLLATION),
                 errmsg("could not determine which collation dp_count_distinct should use for its value"),
                 errdetail("The value's implicit collations are in conflict."),
                 errhint("Use the COLLATE clause on the value to set the collation explicitly.")));
    }
    if (at.lower >= 0 && !is_value_type(parameters.value_type)) {
        // pgdp's own aggregates coerce their values to these; another aggregate built on pgdp's
        // "any" transition functions must too (the value is read as one of them).
        ereport(ERROR,
                (errcode(ERRCODE_DATATYPE_MISMATCH),
                 errmsg("%s cannot aggregate values of type %s", identity.name,
                        format_type_be(parameters.value_type)),
                 errhint("Pass a smallint, integer, bigint, real, double precision or numeric value.")));
    }
    refuse_raising_float_value(aggref, identity);
    given.integer_values = at.lower >= 0 && is_integer_type(parameters.value_type);
    if (at.lower >= 0) {
        bool lower_null = false;
        bool upper_null = false;
        const Datum lower = constant_argument(aggref, at.lower, "lower", context, &lower_null);
        const Datum upper = constant_argument(aggref, at.upper, "upper", context, &upper_null);
        if (lower_null || upper_null) refuse_estimated_bounds_unless_supported(aggref, identity, lower_null);
        given.estimate_lower = lower_null;
        given.estimate_upper = upper_null;
        given.lower = lower_null ? 0.0 : DatumGetFloat8(lower);
        given.upper = upper_null ? 0.0 : DatumGetFloat8(upper);
    }
    if (identity.kind == AggregateKind::Quantiles) {
        read_quantile_levels(aggref, at.shape, context, &parameters);
    } else if (at.shape >= 0) {
        bool is_null = false;
        const Datum bins = constant_argument(aggref, at.shape, "bins", context, &is_null);
        if (is_null) {
            ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("bins must not be NULL"),
                            errhint("Pass the number of equal-width bins between lower and upper.")));
        }
        given.bins = DatumGetInt32(bins);
    }
    given.epsilon = float8_parameter(aggref, at.epsilon, "epsilon", context);
    const int delta_at = at.epsilon + 1;
    const int mechanism_at = at.epsilon + 2;
    given.delta = nargs > delta_at ? float8_parameter(aggref, delta_at, "delta", context) : 0.0;
    const char* mechanism_name = nargs > delta_at ? "auto" : "laplace";
    given.groups_per_unit = static_cast<std::uint32_t>(groups_per_unit_of(aggref));
    parameters.person_level = marked_groups_per_unit(aggref) > 0;
    given.rows_per_unit = static_cast<std::uint32_t>(rows_per_unit_of(aggref));
    if (at.min_units >= 0 && nargs > at.min_units) {
        bool is_null = false;
        const Datum units = constant_argument(aggref, at.min_units, "min_units", context, &is_null);
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
}  // namespace

}  // namespace pgdp::pg
