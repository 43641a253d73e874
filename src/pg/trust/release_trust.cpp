#include "pg/trust/release_trust.hpp"
#include "pg/base/pg_compat.hpp"

#include <cstring>
#include "pg/trust/chargeable_session.hpp"

extern "C" {
#include "nodes/execnodes.h"
#include "utils/typcache.h"
#include "catalog/pg_aggregate.h"
#include "tcop/pquery.h"
#include "utils/portal.h"
#include "utils/fmgroids.h"
#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "parser/parsetree.h"
#include "postmaster/autovacuum.h"
#include "rewrite/prs2lock.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/catcache.h"
#include "utils/inval.h"
#include "utils/syscache.h"
}

#include "pg/calls/aggregate_call.hpp"
#include "pg/base/backend_stack.hpp"
#include "pg/trust/authors.hpp"
#include "pg/trust/running_statements.hpp"
#include "pg/channels/statement_statistics.hpp"

namespace pgdp::pg {
namespace {

// One entry per active call that went through fmgr_security_definer (our hook, SECURITY DEFINER
// or proconfig): whether the function is untrusted. FHET_START pushes, FHET_END/FHET_ABORT pop;
// fmgr_security_definer pairs them, so the stack is LIFO.
struct Frame {
    Oid function;
    bool untrusted;
};
BackendStack<Frame> frames;
int untrusted_frames = 0;  // untrusted entries of frames (CALLs of untrusted procedures included)

// Functions in C or internal are installed by superusers; built-in ones by initdb. A trigger
// function can be attached by another role to a table the session writes to, so it counts as
// the session user's own code only when an admin owns it.
bool decide_function_is_untrusted(Oid function) {
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
    if (!HeapTupleIsValid(tuple)) return false;
    const Form_pg_proc form = (Form_pg_proc)GETSTRUCT(tuple);
    const Oid language = form->prolang;
    const Oid owner = form->proowner;
    const bool trigger = form->prorettype == TRIGGEROID || form->prorettype == EVENT_TRIGGEROID;
    ReleaseSysCache(tuple);
    if (language == ClanguageId || language == INTERNALlanguageId) return false;
    return trigger ? !is_admin_or_superuser(owner) : !is_trusted_author(owner);
}

// The verdicts of function_is_untrusted, kept per backend: a frame is asked for at every call of
// a function the session does not trust (1M calls of a PL/pgSQL function: 1M lookups of its owner
// and of the owner's admin status otherwise). Dropped whenever a function, a role or a role
// membership changes (owners, privileges on pgdp.set_budget, superuser), and for another session
// user.
struct Verdict {
    Oid function;
    bool untrusted;
};
constexpr int kVerdictSlots = 256;  // direct-mapped by OID
Verdict verdicts[kVerdictSlots];
Oid verdicts_user = InvalidOid;
bool verdict_callbacks_registered = false;

void forget_verdicts(Datum, int, uint32) {
    for (Verdict& verdict : verdicts) verdict.function = InvalidOid;
}

bool function_is_untrusted(Oid function) {
    if (function < FirstNormalObjectId) return false;
    if (!verdict_callbacks_registered) {
        CacheRegisterSyscacheCallback(PROCOID, forget_verdicts, Datum(0));
        CacheRegisterSyscacheCallback(AUTHOID, forget_verdicts, Datum(0));
        CacheRegisterSyscacheCallback(AUTHMEMROLEMEM, forget_verdicts, Datum(0));
        verdict_callbacks_registered = true;
        forget_verdicts(Datum(0), 0, 0);
    }
    if (verdicts_user != GetSessionUserId()) {
        forget_verdicts(Datum(0), 0, 0);
        verdicts_user = GetSessionUserId();
    }
    Verdict& slot = verdicts[function % kVerdictSlots];
    if (slot.function == function) return slot.untrusted;
    const bool untrusted = decide_function_is_untrusted(function);  // may ereport: before the store
    slot = Verdict{function, untrusted};
    return untrusted;
}

bool is_procedure(Oid function) {
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
    if (!HeapTupleIsValid(tuple)) return false;
    const bool procedure = ((Form_pg_proc)GETSTRUCT(tuple))->prokind == PROKIND_PROCEDURE;
    ReleaseSysCache(tuple);
    return procedure;
}

void push_frame(Oid function, bool untrusted) {
    frames.push(Frame{function, untrusted});
    if (untrusted) ++untrusted_frames;
}

void pop_frame() {
    if (frames.size() > 0 && frames.pop().untrusted) --untrusted_frames;
}

// The innermost active untrusted function (for messages).
Oid innermost_untrusted() {
    for (int i = frames.size() - 1; i >= 0; --i) {
        if (frames[i].untrusted) return frames[i].function;
    }
    return InvalidOid;
}

void check_column_defaults(Oid table, bool deletes = false);

// Utilities another role's function may run in the session: none of them creates or changes an
// object (a temporary table without expressions aside). Whatever such a function creates is owned
// by the session user, so pgdp would trust it as that user's own code later (a view shadowing a
// table name that makes releases and sends them out): DDL there is refused.
// Constraints that evaluate no expression: NOT NULL, NULL, PRIMARY KEY, UNIQUE (without INCLUDE
// expressions or a WHERE).
bool plain_constraints(const List* constraints) {
    ListCell* cell;
    foreach (cell, constraints) {
        const Constraint* constraint = lfirst_node(Constraint, cell);
        switch (constraint->contype) {
            case CONSTR_NULL:
            case CONSTR_NOTNULL:
            case CONSTR_PRIMARY:
            case CONSTR_UNIQUE:
                if (constraint->where_clause != nullptr || constraint->raw_expr != nullptr) return false;
                break;
            default:
                return false;
        }
    }
    return true;
}

bool in_pgdp_schema(Oid relation) {
    const Oid schema = get_namespace_oid("pgdp", true);
    return OidIsValid(relation) && OidIsValid(schema) && get_rel_namespace(relation) == schema;
}

// GRANT or REVOKE on objects that confer no pgdp power: not on functions (EXECUTE on
// pgdp.set_budget makes a pgdp admin, whose code is trusted) and not on pgdp's schema or its
// tables (budgets, grants).
bool grants_no_pgdp_power(const GrantStmt* grant) {
    switch (grant->objtype) {
        case OBJECT_FUNCTION:
        case OBJECT_PROCEDURE:
        case OBJECT_ROUTINE:
            return false;
        default:
            break;
    }
    ListCell* cell;
    foreach (cell, grant->objects) {
        const Node* object = static_cast<const Node*>(lfirst(cell));
        if (IsA(object, String) && std::strcmp(strVal(object), "pgdp") == 0) return false;  // a schema
        if (IsA(object, RangeVar) &&
            in_pgdp_schema(RangeVarGetRelid(castNode(RangeVar, const_cast<Node*>(object)), NoLock, true)))
            return false;
    }
    return true;
}

bool allowed_in_untrusted_frame(const Node* utility) {
    switch (nodeTag(utility)) {
        // Not PREPARE, DEALLOCATE, DECLARE or CLOSE: the session's prepared statements and cursors
        // are the session user's (a replaced prepared statement would run as that user's own).
        case T_VariableShowStmt:
        case T_NotifyStmt:
        case T_ListenStmt:
        case T_UnlistenStmt:
        case T_FetchStmt:
        case T_ExecuteStmt:
        case T_CopyStmt:
        case T_CallStmt:
        case T_DoStmt:
        case T_LockStmt:
        case T_TransactionStmt:
        case T_DiscardStmt:
        case T_DropStmt:
        case T_TruncateStmt:
            return true;
        case T_VariableSetStmt:
            // SET LOCAL ends with the transaction; a session-level SET (search_path) would outlive
            // the function and steer the session user's later statements.
            return castNode(VariableSetStmt, utility)->is_local;
        case T_ExplainStmt: {
            // EXPLAIN ANALYZE CREATE TABLE AS / MATERIALIZED VIEW creates objects.
            const Node* explained = castNode(ExplainStmt, utility)->query;
            return explained != nullptr && IsA(explained, Query) &&
                   castNode(Query, explained)->commandType != CMD_UTILITY;
        }
        // Maintenance that creates no code: statistics, privileges on objects (not role
        // membership: a role that may SET ROLE to the session user creates objects it owns),
        // a materialized view's refresh (its query runs as its owner, where no release is made).
        case T_VacuumStmt:
        case T_RefreshMatViewStmt:
            return true;
        case T_GrantStmt:
            return grants_no_pgdp_power(castNode(GrantStmt, utility));
        // An index on plain columns: no expression or predicate runs user code on later writes.
        case T_IndexStmt: {
            const IndexStmt* index = castNode(IndexStmt, utility);
            if (index->whereClause != nullptr || index->excludeOpNames != NIL) return false;
            ListCell* cell;
            foreach (cell, index->indexParams) {
                if (lfirst_node(IndexElem, cell)->expr != nullptr) return false;
            }
            return true;
        }
        case T_CreateStmt: {
            // A temporary table of plain columns; NOT NULL, PRIMARY KEY and UNIQUE evaluate no
            // expression (no DEFAULT, CHECK, generated column, foreign key or exclusion).
            const CreateStmt* create = castNode(CreateStmt, utility);
            if (create->relation == nullptr || create->relation->relpersistence != RELPERSISTENCE_TEMP ||
                create->inhRelations != NIL || create->ofTypename != nullptr ||
                !plain_constraints(create->constraints)) {
                return false;
            }
            ListCell* cell;
            foreach (cell, create->tableElts) {
                const Node* element = static_cast<const Node*>(lfirst(cell));
                if (IsA(element, Constraint)) {
                    if (!plain_constraints(list_make1(const_cast<Node*>(element)))) return false;
                    continue;
                }
                if (!IsA(element, ColumnDef)) return false;
                const ColumnDef* column = castNode(ColumnDef, element);
                if (column->raw_default != nullptr || column->cooked_default != nullptr ||
                    !plain_constraints(column->constraints)) {
                    return false;
                }
            }
            return true;
        }
        default:
            return false;
    }
}

// Utility statements running for a visible PORTAL_UTIL_SELECT portal (the extended protocol's).
int stored_portal_utilities = 0;

}  // namespace

UtilityTrust enter_utility_trust(const PlannedStmt* statement, ProcessUtilityContext context) {
    if (untrusted_frames > 0 && !allowed_in_untrusted_frame(statement->utilityStmt)) {
        const Oid untrusted = innermost_untrusted();
        const char* function = get_func_name(untrusted);
        ereport(
            ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
             errmsg("function %s (owned by role \"%s\") may not create or change objects in a session of "
                    "role \"%s\"",
                    function != nullptr ? function : "?", role_name(function_owner(untrusted)),
                    role_name(GetSessionUserId())),
             errdetail("Objects it created would belong to role \"%s\", and pgdp would take them for that "
                       "role's own code.",
                       role_name(GetSessionUserId())),
             errhint("Run such DDL as the function's owner, or ask a pgdp admin to own the function.")));
    }
    Oid procedure = InvalidOid;
    if (IsA(statement->utilityStmt, CallStmt)) {
        const FuncExpr* call = castNode(CallStmt, statement->utilityStmt)->funcexpr;
        procedure = call != nullptr ? call->funcid : InvalidOid;
    } else if (IsA(statement->utilityStmt, CopyStmt) && castNode(CopyStmt, statement->utilityStmt)->is_from &&
               castNode(CopyStmt, statement->utilityStmt)->relation != nullptr) {
        // COPY FROM evaluates the target's column defaults like an INSERT.
        const Oid table =
            RangeVarGetRelid(castNode(CopyStmt, statement->utilityStmt)->relation, NoLock, true);
        if (OidIsValid(table) && session_chargeable() && !is_trusted_author(relation_owner(table)))
            check_column_defaults(table);
    }
    UtilityTrust entered{false, false};
    entered.untrusted_call =
        OidIsValid(procedure) && session_chargeable() && function_is_untrusted(procedure);
    if (entered.untrusted_call) push_frame(procedure, true);
    entered.stores = ActivePortal != nullptr && ActivePortal->visible &&
                     ActivePortal->strategy == PORTAL_UTIL_SELECT && context == PROCESS_UTILITY_TOPLEVEL;
    if (entered.stores) ++stored_portal_utilities;
    return entered;
}

void leave_utility_trust(const UtilityTrust& entered) {
    if (entered.untrusted_call) pop_frame();
    if (entered.stores) --stored_portal_utilities;
}

// Also decides inlining: the planner does not inline a function that needs the hook, so the
// body of an untrusted SQL function always runs under its frame. Procedures are not wrapped
// (transaction control inside fmgr_security_definer is not allowed); CALL is tracked instead.
bool function_needs_frame(Oid function) {
    if (function < FirstNormalObjectId || is_procedure(function)) return false;
    // Nothing to protect in a session that cannot be charged: called, and inlined, as without pgdp.
    if (!session_chargeable()) return false;
    return function_is_untrusted(function);
}

void track_function_frame(FmgrHookEventType event, FmgrInfo* flinfo) {
    if (event == FHET_START) {
        // A SECURITY DEFINER function has the hook in every session; it is a frame of untrusted code
        // only where there is a budget to protect. May ereport: before the push.
        const bool untrusted = session_chargeable() && function_is_untrusted(flinfo->fn_oid);
        push_frame(flinfo->fn_oid, untrusted);
    } else {
        pop_frame();
    }
}

namespace {}  // namespace

bool running_for_stored_protocol_portal() { return stored_portal_utilities > 0; }

namespace {

// Plan-time walk: who wrote the part of the query being walked.
struct Author {
    bool trusted;
    const char* kind;         // "view", "row-security policy", "column default", "rule"
    const char* relation;     // how the object relates to its relation: "", " on table", " of table"
    Oid object;               // the view or table (InvalidOid for a rule)
    Oid domain = InvalidOid;  // the domain of a domain constraint
};

void check_query_as(Query* query, Author author);

// The owner of the author's object (a relation or a domain).
Oid author_owner(const Author& author) {
    if (OidIsValid(author.domain)) {
        HeapTuple tuple = SearchSysCache1(TYPEOID, ObjectIdGetDatum(author.domain));
        if (!HeapTupleIsValid(tuple)) return InvalidOid;
        const Oid owner = ((Form_pg_type)GETSTRUCT(tuple))->typowner;
        ReleaseSysCache(tuple);
        return owner;
    }
    return OidIsValid(author.object) ? relation_owner(author.object) : InvalidOid;
}

const char* object_phrase(const Author& author) {
    if (OidIsValid(author.domain))
        return psprintf("%s of domain %s", author.kind, format_type_be(author.domain));
    const char* object = OidIsValid(author.object) ? get_rel_name(author.object) : nullptr;
    return object != nullptr ? psprintf("%s%s \"%s\"", author.kind, author.relation, object) : author.kind;
}

[[noreturn]] void refuse_author(const Author& author, const char* aggregate) {
    const Oid owner = author_owner(author);
    ereport(
        ERROR,
        (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
         errmsg("%s in a %s cannot be charged to role \"%s\"", aggregate, object_phrase(author),
                role_name(GetSessionUserId())),
         OidIsValid(owner)
             ? errdetail(
                   "Releases are charged to the session user; the %s belongs to role \"%s\", who is neither "
                   "that user nor a pgdp admin, so it may not spend that user's budget.",
                   author.kind, role_name(owner))
             : errdetail("Releases are charged to the session user; queries generated by rules are not the "
                         "session user's own code."),
         errhint("Write the pgdp aggregate in your own query, or ask a pgdp admin to provide the %s.",
                 author.kind)));
}

// A function that would run as trusted code (its frame does not count as untrusted): written in a
// procedural language by the session user, an admin or a superuser, and not part of an extension.
// Called from another role's view, policy, rule or column default, it could make releases
// charged to the session user and hand them to that role, so such calls are refused.
bool runs_as_trusted_code(Oid function, void*) {
    if (function < FirstNormalObjectId) return false;
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
    if (!HeapTupleIsValid(tuple)) return false;
    const Form_pg_proc form = (Form_pg_proc)GETSTRUCT(tuple);
    const bool procedural = form->prolang != ClanguageId && form->prolang != INTERNALlanguageId;
    const Oid owner = form->proowner;
    ReleaseSysCache(tuple);
    return procedural && is_trusted_author(owner) &&
           !OidIsValid(getExtensionOfObject(ProcedureRelationId, function));
}

Oid trusted_function_called(Node* node) {
    Oid found = InvalidOid;
    (void)check_functions_in_node(
        node,
        [](Oid function, void* context) {
            if (!runs_as_trusted_code(function, nullptr)) return false;
            *static_cast<Oid*>(context) = function;
            return true;
        },
        &found);
    return found;
}

[[noreturn]] void refuse_invocation(const Author& author, Oid function) {
    const Oid owner = author_owner(author);
    const char* name = get_func_name(function);
    ereport(ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
             errmsg("%s calls function %s, which would run with the privacy budget of role \"%s\"",
                    object_phrase(author), name != nullptr ? name : "?", role_name(GetSessionUserId())),
             errdetail(
                 "The %s belongs to role \"%s\"; a function of yours or of a pgdp admin called from it could "
                 "make releases charged to you and hand them to that role.",
                 author.kind, OidIsValid(owner) ? role_name(owner) : "another role"),
             errhint("Call the function from your own query, or ask the %s's owner not to call it.",
                     author.kind)));
}

// set_config(name, value, is_local) with is_local not the constant true: a session-level change,
// like SET, that outlives the statement and steers the session user's later ones.
bool sets_session_setting(const Node* node) {
    if (!IsA(node, FuncExpr) || castNode(FuncExpr, node)->funcid != F_SET_CONFIG) return false;
    const List* arguments = castNode(FuncExpr, node)->args;
    const Node* is_local =
        list_length(arguments) == 3 ? static_cast<const Node*>(lthird(arguments)) : nullptr;
    return is_local == nullptr || !IsA(is_local, Const) || castNode(Const, is_local)->constisnull ||
           !DatumGetBool(castNode(Const, is_local)->constvalue);
}

// Another role's code that would change the session's settings (as refused SET does): its
// functions' statements, planned inside their frames, and its views, policies, rules and column
// defaults in the session user's statements.
[[noreturn]] void refuse_session_setting(const Author& author) {
    const Oid untrusted = author.trusted ? innermost_untrusted() : InvalidOid;
    const char* function = OidIsValid(untrusted) ? get_func_name(untrusted) : nullptr;
    const char* code = OidIsValid(untrusted) ? psprintf("function %s (owned by role \"%s\")",
                                                        function != nullptr ? function : "?",
                                                        role_name(function_owner(untrusted)))
                                             : object_phrase(author);
    ereport(ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
             errmsg("%s may not change settings of a session of role \"%s\" with set_config(..., false)",
                    code, role_name(GetSessionUserId())),
             errdetail(
                 "A session-level setting (search_path, ...) would outlive the call and steer role \"%s\"'s "
                 "later statements, as a SET would.",
                 role_name(GetSessionUserId())),
             errhint("Use set_config(name, value, true) (SET LOCAL), which ends with the transaction.")));
}

// An aggregate of a role the session does not trust whose support functions include set_config:
// the executor calls them without any function frame (built-in functions have none), with
// arguments the aggregate's owner chose.
bool aggregate_sets_settings(Oid aggregate) {
    if (aggregate < FirstNormalObjectId) return false;
    HeapTuple proc = SearchSysCache1(PROCOID, ObjectIdGetDatum(aggregate));
    if (!HeapTupleIsValid(proc)) return false;
    const Oid owner = ((Form_pg_proc)GETSTRUCT(proc))->proowner;
    ReleaseSysCache(proc);
    if (is_trusted_author(owner)) return false;
    HeapTuple tuple = SearchSysCache1(AGGFNOID, ObjectIdGetDatum(aggregate));
    if (!HeapTupleIsValid(tuple)) return false;
    const Form_pg_aggregate form = (Form_pg_aggregate)GETSTRUCT(tuple);
    const Oid support[] = {form->aggtransfn,  form->aggfinalfn,     form->aggcombinefn,
                           form->aggmtransfn, form->aggminvtransfn, form->aggmfinalfn};
    ReleaseSysCache(tuple);
    for (const Oid function : support) {
        if (function == F_SET_CONFIG) return true;
    }
    return false;
}

void walk_as(Node* node, Author author);

// The CHECK constraints of a domain of a role the session does not trust (and of the domains it
// is based on), evaluated wherever a value is coerced to it: walked as that role's code.
void check_domain_constraints(Oid type) {
    if (getBaseType(type) == type) return;  // not a domain
    HeapTuple tuple = SearchSysCache1(TYPEOID, ObjectIdGetDatum(type));
    if (!HeapTupleIsValid(tuple)) return;
    const Oid owner = ((Form_pg_type)GETSTRUCT(tuple))->typowner;
    ReleaseSysCache(tuple);
    if (is_trusted_author(owner)) return;
    auto* reference = static_cast<DomainConstraintRef*>(palloc0(sizeof(DomainConstraintRef)));
    InitDomainConstraintRef(type, reference, CurrentMemoryContext, false);
    ListCell* cell;
    foreach (cell, reference->constraints) {
        const auto* constraint = static_cast<const DomainConstraintState*>(lfirst(cell));
        if (constraint->constrainttype == DOM_CONSTRAINT_CHECK && constraint->check_expr != nullptr)
            walk_as((Node*)constraint->check_expr, Author{false, "domain constraint", "", InvalidOid, type});
    }
}

bool walk_for_releases(Node* node, void* context) {
    if (node == nullptr) return false;
    const Author& author = *static_cast<Author*>(context);
    // 0.9's checks of other roles' code that changes settings or runs in constraints: only in a
    // session whose user could be charged (a budget or DP-only access), which is what they protect;
    // other sessions keep PostgreSQL's behaviour (issue 22 scopes the older rules the same way).
    if ((!author.trusted || untrusted_frames > 0) && sets_session_setting(node) && session_user_may_release())
        refuse_session_setting(author);
    if (IsA(node, CoerceToDomain) && session_user_may_release())
        check_domain_constraints(castNode(CoerceToDomain, node)->resulttype);
    if (((IsA(node, Aggref) && aggregate_sets_settings(castNode(Aggref, node)->aggfnoid)) ||
         (IsA(node, WindowFunc) && aggregate_sets_settings(castNode(WindowFunc, node)->winfnoid))) &&
        session_user_may_release()) {
        refuse_session_setting(Author{false, "aggregate", "", InvalidOid});
    }
    if (IsA(node, Aggref)) {
        if (!author.trusted) {
            const AggregateIdentity identity = identify_aggregate(castNode(Aggref, node)->aggfnoid);
            if (identity.is_pgdp) refuse_author(author, identity.name);
        }
    } else if (IsA(node, Query)) {
        check_query_as(castNode(Query, node), author);
        return false;
    }
    if (!author.trusted) {
        const Oid function = trusted_function_called(node);
        if (OidIsValid(function)) refuse_invocation(author, function);
    }
    return expression_tree_walker(
        node, reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(walk_for_releases)), context);
}

void walk_as(Node* node, Author author) { (void)walk_for_releases(node, &author); }

// A view without security_barrier lets the planner push the outer query's conditions (any
// function of the caller's, leaky or not) below its aggregates, where they see the rows.
[[noreturn]] void refuse_leaky_view(Oid view) {
    const char* name = get_rel_name(view);
    ereport(ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
             errmsg("view \"%s\" makes pgdp releases but is not a security_barrier view",
                    name != nullptr ? name : "?"),
             errdetail(
                 "Conditions of a query over such a view can be evaluated on the rows below its aggregates, "
                 "before any noise is added."),
             errhint("Its owner can run ALTER VIEW %s SET (security_barrier = true).",
                     name != nullptr ? quote_identifier(name) : "...")));
}

// The column defaults of a table another role owns: an INSERT (or UPDATE ... DEFAULT, COPY FROM)
// evaluates them in the session.
// Also its CHECK constraints and the WHEN conditions of its triggers, which the write evaluates too
// (deletes: the triggers only).
void check_column_defaults(Oid table, bool deletes) {
    Relation relation = RelationIdGetRelation(table);
    if (relation == nullptr) return;
    const TupleConstr* constraints = relation->rd_att->constr;
    for (int i = 0; !deletes && constraints != nullptr && i < constraints->num_defval; ++i) {
        walk_as(static_cast<Node*>(stringToNode(constraints->defval[i].adbin)),
                Author{false, "column default", " of table", table});
    }
    // Since 0.9, and only where the session user could be charged (see walk_for_releases).
    const bool chargeable = session_user_may_release();
    for (int i = 0; chargeable && !deletes && constraints != nullptr && i < constraints->num_check; ++i) {
        walk_as(static_cast<Node*>(stringToNode(constraints->check[i].ccbin)),
                Author{false, "check constraint", " of table", table});
    }
    const TriggerDesc* triggers = relation->trigdesc;
    for (int i = 0; chargeable && triggers != nullptr && i < triggers->numtriggers; ++i) {
        if (triggers->triggers[i].tgqual != nullptr) {
            walk_as(static_cast<Node*>(stringToNode(triggers->triggers[i].tgqual)),
                    Author{false, "trigger condition", " on table", table});
        }
    }
    RelationClose(relation);
}

void check_query_as(Query* query, Author author) {
    check_stack_depth();
    if (author.trusted &&
        (query->querySource == QSRC_INSTEAD_RULE || query->querySource == QSRC_QUAL_INSTEAD_RULE ||
         query->querySource == QSRC_NON_INSTEAD_RULE)) {
        author = Author{false, "rule", "", InvalidOid};
    }
    const bool writes = query->commandType == CMD_INSERT || query->commandType == CMD_UPDATE ||
                        query->commandType == CMD_MERGE || query->commandType == CMD_DELETE;
    const Oid target = writes && query->resultRelation > 0
                           ? rt_fetch(query->resultRelation, query->rtable)->relid
                           : InvalidOid;
    if (author.trusted && OidIsValid(target) && !is_trusted_author(relation_owner(target))) {
        // Row-security WITH CHECK expressions and column defaults of the target are its owner's
        // code (the walk below sees the WITH CHECK expressions again, as the query's: harmless).
        walk_as((Node*)query->withCheckOptions, Author{false, "row-security policy", " on table", target});
        check_column_defaults(target, query->commandType == CMD_DELETE);
    }
    (void)query_tree_walker(query,
                            reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(walk_for_releases)),
                            &author, QTW_IGNORE_RANGE_TABLE);
    ListCell* cell;
    foreach (cell, query->rtable) {
        RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        if (entry->securityQuals != NIL) {
            // Row-security policies are written by the table's owner.
            Author policy = author;
            if (entry->rtekind == RTE_RELATION && author.trusted &&
                !is_trusted_author(relation_owner(entry->relid))) {
                policy = Author{false, "row-security policy", " on table", entry->relid};
            }
            walk_as((Node*)entry->securityQuals, policy);
        }
        switch (entry->rtekind) {
            case RTE_SUBQUERY: {
                Author body = author;
                const Oid view = compat::view_of_entry(entry);
                if (OidIsValid(view) && author.trusted && !is_trusted_author(relation_owner(view))) {
                    body = Author{false, "view", "", view};
                }
                check_query_as(entry->subquery, body);
                if (OidIsValid(view) && !entry->security_barrier &&
                    relation_owner(view) != GetSessionUserId() && contains_release((Node*)entry->subquery)) {
                    refuse_leaky_view(view);
                }
                break;
            }
            case RTE_RELATION:
                walk_as((Node*)entry->tablesample, author);
                break;
            case RTE_FUNCTION:
                walk_as((Node*)entry->functions, author);
                break;
            case RTE_TABLEFUNC:
                walk_as((Node*)entry->tablefunc, author);
                break;
            case RTE_VALUES:
                walk_as((Node*)entry->values_lists, author);
                break;
            default:
                break;
        }
    }
}

}  // namespace

void require_no_foreign_code(const char* aggregate_name, int from_depth, const PlannedStmt* except);

void require_release_context(const char* aggregate_name, const PlannedStmt* statement) {
    if (InSecurityRestrictedOperation() || IsAutoVacuumWorkerProcess()) {
        ereport(
            ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
             errmsg("%s cannot be computed in a maintenance operation", aggregate_name),
             errdetail(
                 "ANALYZE, VACUUM, CREATE INDEX, REINDEX, CLUSTER, REFRESH MATERIALIZED VIEW and autovacuum "
                 "evaluate index and view expressions with the table owner's rights; a release there "
                 "would be charged to a role that did not ask for it."),
             errhint("Do not make pgdp releases in index expressions, materialized views or other objects "
                     "that maintenance commands evaluate.")));
    }
    if ((running_depth() == 0 && !started_by_active_portal(statement)) || running_outside_statement()) {
        ereport(
            ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
             errmsg("%s cannot be computed while a statement is parsed, planned or its parameters bound",
                    aggregate_name),
             errdetail("Only statements that run make releases. Code that runs earlier (a domain constraint "
                       "checking a literal or parameter, a function folded into a constant) may belong to "
                       "another role, and a release there would be charged to role \"%s\".",
                       role_name(GetSessionUserId())),
             errhint("Make the release in a statement of its own.")));
    }
    if (untrusted_frames > 0) {
        const Oid untrusted = innermost_untrusted();
        const Oid owner = function_owner(untrusted);
        const char* function = get_func_name(untrusted);
        ereport(
            ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
             errmsg("%s inside function %s (owned by role \"%s\") cannot be charged to role \"%s\"",
                    aggregate_name, function != nullptr ? function : "?", role_name(owner),
                    role_name(GetSessionUserId())),
             errdetail(
                 "Releases are charged to the session user, so only code written by that user or owned by "
                 "a pgdp admin may make them; trigger functions count only when a pgdp admin owns them."),
             errhint("Make the release in your own query or function, or ask a pgdp admin to provide the "
                     "function.")));
    }
    require_no_foreign_code(aggregate_name, 0, nullptr);
}

void require_no_foreign_code(const char* aggregate_name, int from_depth, const PlannedStmt* except) {
    ForeignCode foreign{};
    if (!running_foreign_code(&foreign, from_depth, except)) return;
    const char* name = foreign.kind[0] == 'd' ? format_type_be(foreign.object) : get_rel_name(foreign.object);
    ereport(
        ERROR,
        (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
         errmsg("%s cannot be computed inside a statement that runs code of role \"%s\"", aggregate_name,
                role_name(foreign.owner)),
         errdetail("The query runs inside a statement that uses %s %s of role \"%s\", whose triggers, "
                   "constraints, defaults, policies or view body may run queries; a release there would be "
                   "charged to role \"%s\" for code it did not write.",
                   foreign.kind, name != nullptr ? name : "?", role_name(foreign.owner),
                   role_name(GetSessionUserId())),
         errhint("Make the release in a statement of its own.")));
}

void require_release_context_since(int charged_depth, const PlannedStmt* statement) {
    if (untrusted_frames > 0) {
        const Oid untrusted = innermost_untrusted();
        const char* function = get_func_name(untrusted);
        ereport(ERROR,
                (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                 errmsg("a pgdp release cannot be computed inside function %s (owned by role \"%s\")",
                        function != nullptr ? function : "?", role_name(function_owner(untrusted))),
                 errdetail("The release was charged to role \"%s\" when its query started; fetching its rows "
                           "from code that role did not write would hand the release to that code.",
                           role_name(GetSessionUserId())),
                 errhint("Fetch the rows of a cursor with pgdp aggregates from your own statements.")));
    }
    if (running_outside_statement()) {
        ereport(ERROR,
                (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                 errmsg("a pgdp release cannot be read while another statement is parsed, planned or bound"),
                 errhint("Fetch the rows of a cursor with pgdp aggregates from your own statements.")));
    }
    require_no_foreign_code("a pgdp release", charged_depth, statement);
}

void check_query_authors(Query* query) {
    if (!session_chargeable()) return;  // no budget to spend, no hidden rows to read
    check_query_as(query, Author{true, "", "", InvalidOid});
}

}  // namespace pgdp::pg
