#include "pg/trust/utility_trust.hpp"

extern "C" {
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "nodes/nodeFuncs.h"
#include "parser/parse_type.h"
#include "access/transam.h"
#include "tcop/pquery.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/portal.h"
}

#include <cstring>

#include "pg/planning/query_builder.hpp"
#include "pg/trust/authors.hpp"
#include "pg/trust/chargeable_session.hpp"
#include "pg/trust/function_frames.hpp"
#include "pg/trust/release_trust.hpp"

namespace pgdp::pg {
namespace {

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

bool plain_index(const IndexStmt* index);
bool table_elements(const CreateStmt* create, bool simple);

// Utilities another role's function may run in the session: none of them creates or changes an
// object (a temporary table without expressions aside). Whatever such a function creates is owned
// by the session user, so pgdp would trust it as that user's own code later (a view shadowing a
// table name that makes releases and sends them out): DDL there is refused.
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
        // Maintenance that creates no code: statistics, a materialized view's refresh (its query
        // runs as its owner, where no release is made).
        case T_VacuumStmt:
        case T_RefreshMatViewStmt:
            return true;
        // REVOKE; a GRANT would hand the session user's objects, and the releases it stores in them
        // later, to another role (red team round 16); a definer function grants its owner's.
        case T_GrantStmt:
            return !castNode(GrantStmt, utility)->is_grant;
        // An index on plain columns: no expression or predicate runs user code on later writes.
        case T_IndexStmt:
            return plain_index(castNode(IndexStmt, utility));
        case T_CreateStmt: {
            // A temporary table of plain columns; NOT NULL, PRIMARY KEY and UNIQUE evaluate no
            // expression (no DEFAULT, CHECK, generated column, foreign key or exclusion).
            const CreateStmt* create = castNode(CreateStmt, utility);
            return create->relation != nullptr && create->relation->relpersistence == RELPERSISTENCE_TEMP &&
                   create->inhRelations == NIL && create->ofTypename == nullptr &&
                   table_elements(create, false);
        }
        default:
            return false;
    }
}

// Built-in functions a default or CHECK constraint commonly calls, none of which runs SQL.
constexpr const char* kSimpleFunctions[] = {
    "now",
    "clock_timestamp",
    "statement_timestamp",
    "transaction_timestamp",
    "nextval",
    "random",
    "gen_random_uuid",
    "lower",
    "upper",
    "length",
    "char_length",
    "abs",
    "date_trunc",
    "md5",
};

bool simple_function(const FuncCall* call) {
    if (call->agg_order != NIL || call->agg_filter != nullptr || call->over != nullptr || call->agg_star ||
        call->agg_distinct)
        return false;
    const int parts = list_length(call->funcname);
    if (parts > 2 || (parts == 2 && std::strcmp(strVal(linitial(call->funcname)), "pg_catalog") != 0))
        return false;
    const char* name = strVal(llast(call->funcname));
    for (const char* listed : kSimpleFunctions) {
        if (std::strcmp(name, listed) == 0) return true;
    }
    return false;
}

// A raw (not yet analyzed) expression of constants, columns, operators, casts to built-in types,
// SQL value functions (CURRENT_TIMESTAMP) and the functions above: no subquery, no other function,
// no user's type (a domain's CHECK could run SQL from text, red team round 15).
bool complex_expression(Node* node, void* context) {
    if (node == nullptr) return false;
    switch (nodeTag(node)) {
        case T_A_Const:
        case T_ColumnRef:
        case T_SQLValueFunction:
        case T_A_Expr:
        case T_BoolExpr:
        case T_NullTest:
        case T_BooleanTest:
        case T_CoalesceExpr:
        case T_MinMaxExpr:
        case T_A_ArrayExpr:
        case T_CaseExpr:
        case T_CaseWhen:
        case T_List:
            break;
        case T_TypeCast: {
            const Oid type = LookupTypeNameOid(nullptr, castNode(TypeCast, node)->typeName, true);
            if (!OidIsValid(type) || type >= FirstNormalObjectId) return true;
            break;
        }
        case T_FuncCall:
            if (!simple_function(castNode(FuncCall, node))) return true;
            break;
        case T_TypeName:
            return false;  // judged at its TypeCast
        default:
            return true;  // a subquery, anything else
    }
    return raw_expression_tree_walker(node, walker_cast(complex_expression), context);
}

bool simple_expression(const Node* raw) { return !complex_expression(const_cast<Node*>(raw), nullptr); }

// Constraints code may create where it cannot be told from the session user's own code (below):
// the plain ones; defaults, CHECK constraints and generated columns of simple expressions
// (DEFAULT now(), CHECK (amount > 0)); identities; foreign keys (PostgreSQL's own triggers).
bool simple_constraints(const List* constraints) {
    ListCell* cell;
    foreach (cell, constraints) {
        const Constraint* constraint = lfirst_node(Constraint, cell);
        switch (constraint->contype) {
            case CONSTR_DEFAULT:
            case CONSTR_CHECK:
            case CONSTR_GENERATED:
                if (!simple_expression(constraint->raw_expr)) return false;
                break;
            case CONSTR_IDENTITY:
            case CONSTR_FOREIGN:
                break;
            default:
                if (!plain_constraints(list_make1(const_cast<Constraint*>(constraint)))) return false;
        }
    }
    return true;
}

bool simple_column(const ColumnDef* column) {
    return simple_expression(column->raw_default) && column->cooked_default == nullptr &&
           simple_constraints(column->constraints);
}

// The columns and constraints of a new table: plain ones only (plain_constraints, no default), or
// simple ones too (simple_constraints, simple defaults). A LIKE clause copies defaults and
// constraints: refused.
bool table_elements(const CreateStmt* create, bool simple) {
    auto constraints_pass = [simple](const List* constraints) {
        return simple ? simple_constraints(constraints) : plain_constraints(constraints);
    };
    if (!constraints_pass(create->constraints)) return false;
    ListCell* cell;
    foreach (cell, create->tableElts) {
        const Node* element = static_cast<const Node*>(lfirst(cell));
        if (IsA(element, Constraint)) {
            if (!constraints_pass(list_make1(const_cast<Node*>(element)))) return false;
            continue;
        }
        if (!IsA(element, ColumnDef)) return false;
        const ColumnDef* column = castNode(ColumnDef, element);
        if (simple ? !simple_column(column)
                   : (column->raw_default != nullptr || column->cooked_default != nullptr ||
                      !plain_constraints(column->constraints)))
            return false;
    }
    return true;
}

// A table of simple columns and constraints (table_elements) without a partition-key expression.
bool plain_table(const CreateStmt* create) {
    if (create->partspec != nullptr) {
        ListCell* cell;
        foreach (cell, create->partspec->partParams) {
            if (lfirst_node(PartitionElem, cell)->expr != nullptr) return false;
        }
    }
    return table_elements(create, true);
}

bool plain_index(const IndexStmt* index) {
    if (index->whereClause != nullptr || index->excludeOpNames != NIL) return false;
    ListCell* cell;
    foreach (cell, index->indexParams) {
        if (lfirst_node(IndexElem, cell)->expr != nullptr) return false;
    }
    return true;
}

// ALTER TABLE subcommands that add no trigger, rule or policy, no expression but simple ones, and
// change no owner.
bool plain_table_changes(const AlterTableStmt* alter) {
    ListCell* cell;
    foreach (cell, alter->cmds) {
        const AlterTableCmd* command = lfirst_node(AlterTableCmd, cell);
        switch (command->subtype) {
            case AT_DropColumn:
            case AT_SetNotNull:
            case AT_DropNotNull:
            case AT_DropConstraint:
            case AT_SetStatistics:
            case AT_SetStorage:
            case AT_AttachPartition:
            case AT_DetachPartition:
                break;
            case AT_AddColumn:
                if (!simple_column(castNode(ColumnDef, command->def))) return false;
                break;
            case AT_ColumnDefault:
                if (!simple_expression(command->def)) return false;
                break;
            case AT_AddConstraint:
                if (!IsA(command->def, Constraint) || !simple_constraints(list_make1(command->def)))
                    return false;
                break;
            case AT_AddIndex:
                if (!IsA(command->def, IndexStmt) || !plain_index(castNode(IndexStmt, command->def)))
                    return false;
                break;
            default:
                return false;
        }
    }
    return true;
}

// Utilities that code may run in a backend where other roles' code ran without frames: those
// allowed under a frame, and those that leave no code behind that would later run as the current
// user's own: settings, prepared statements and cursors (they end with the backend, which makes no
// release any more once that code ran there), temporary objects, tables, indexes and ALTER TABLE
// changes without expressions, sequences, schemas without elements, comments. Refused: functions,
// procedures, aggregates, operators, casts, types and domains, views, materialized views, rules,
// triggers, policies, defaults, CHECK constraints and generated columns, index expressions,
// owners, role memberships and settings (ALTER ROLE ... SET), default privileges, extensions, and
// whatever else PostgreSQL adds.
bool leaves_no_code(const Node* utility) {
    if (allowed_in_untrusted_frame(utility)) return true;
    switch (nodeTag(utility)) {
        case T_VariableSetStmt:
        case T_PrepareStmt:
        case T_DeallocateStmt:
        case T_DeclareCursorStmt:
        case T_ClosePortalStmt:
        case T_CommentStmt:
        case T_CreateSeqStmt:
        case T_AlterSeqStmt:
            return true;
        case T_CreateSchemaStmt:
            return castNode(CreateSchemaStmt, utility)->schemaElts == NIL;
        case T_ViewStmt:
            return castNode(ViewStmt, utility)->view->relpersistence == RELPERSISTENCE_TEMP;
        case T_CreateTableAsStmt:
            return castNode(CreateTableAsStmt, utility)->objtype == OBJECT_TABLE;
        case T_CreateStmt: {
            const CreateStmt* create = castNode(CreateStmt, utility);
            return (create->relation != nullptr && create->relation->relpersistence == RELPERSISTENCE_TEMP) ||
                   plain_table(create);
        }
        case T_IndexStmt:
            return plain_index(castNode(IndexStmt, utility));
        case T_AlterTableStmt:
            return plain_table_changes(castNode(AlterTableStmt, utility));
        default:
            return false;
    }
}

[[noreturn]] void refuse_planting(const Node* utility) {
    ereport(
        ERROR,
        (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
         errmsg("%s inside a function, procedure or DO block is not allowed in this session",
                CreateCommandName(const_cast<Node*>(utility))),
         errdetail("This session ran functions of roles that are not members of role \"%s\" without pgdp's "
                   "release-authority rules, so pgdp cannot tell whose code runs now. What this statement "
                   "creates or changes would count as that role's own code once it has a privacy budget.",
                   role_name(GetUserId())),
         errhint(
             "Run the statement directly, or in a new session that has not run other roles' functions.")));
}

// Utility statements running for a visible PORTAL_UTIL_SELECT portal (the extended protocol's).
int stored_portal_utilities = 0;

// The innermost untrusted frame is a SECURITY DEFINER function running as its owner, a role the
// session does not trust: what it creates is that role's, written by that role (a schema owner's
// maintenance function creating a table), never taken for the session user's own code.
// Not session state (settings, prepared statements, cursors), which steers the session user's later
// statements whoever sets it.
bool definer_creates_for_itself(const Node* utility) {
    switch (nodeTag(utility)) {
        case T_VariableSetStmt:
        case T_PrepareStmt:
        case T_DeallocateStmt:
        case T_DeclareCursorStmt:
        case T_ClosePortalStmt:
            return false;
        default:
            break;
    }
    const Oid owner = function_owner(innermost_untrusted_function());
    return OidIsValid(owner) && owner == GetUserId() && !is_trusted_author(owner);
}

}  // namespace

UtilityTrust enter_utility_trust(const PlannedStmt* statement, ProcessUtilityContext context, bool nested) {
    if (untrusted_frame_count() > 0 && !allowed_in_untrusted_frame(statement->utilityStmt) &&
        !definer_creates_for_itself(statement->utilityStmt)) {
        const Oid untrusted = innermost_untrusted_function();
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
    // Code by members of the role or by an admin may; so may any code run as a superuser, which
    // could make its author a superuser anyway, and a SECURITY DEFINER function of the current user
    // that has run no newly recorded code (PostgreSQL's own model for both).
    if (nested && unframed_code_foreign_to(GetUserId()) && !superuser() &&
        !leaves_no_code(statement->utilityStmt) && !innermost_frame_is_definer_of(GetUserId()))
        refuse_planting(statement->utilityStmt);
    const bool chargeable = session_chargeable();
    Oid procedure = InvalidOid;
    if (IsA(statement->utilityStmt, CallStmt)) {
        const FuncExpr* call = castNode(CallStmt, statement->utilityStmt)->funcexpr;
        procedure = call != nullptr ? call->funcid : InvalidOid;
    } else if (IsA(statement->utilityStmt, CopyStmt) && castNode(CopyStmt, statement->utilityStmt)->is_from &&
               castNode(CopyStmt, statement->utilityStmt)->relation != nullptr) {
        // COPY FROM evaluates the target's column defaults like an INSERT.
        const Oid table =
            RangeVarGetRelid(castNode(CopyStmt, statement->utilityStmt)->relation, NoLock, true);
        if (chargeable && OidIsValid(table) && !is_trusted_author(relation_owner(table)))
            check_column_defaults(table);
    }
    UtilityTrust entered{false, false};
    entered.untrusted_call = chargeable && OidIsValid(procedure) && function_is_untrusted(procedure);
    if (entered.untrusted_call) {
        push_frame(procedure, true);
    } else if (OidIsValid(procedure)) {
        note_unframed_function(procedure);
    }
    entered.stores = ActivePortal != nullptr && ActivePortal->visible &&
                     ActivePortal->strategy == PORTAL_UTIL_SELECT && context == PROCESS_UTILITY_TOPLEVEL;
    if (entered.stores) ++stored_portal_utilities;
    return entered;
}

void leave_utility_trust(const UtilityTrust& entered) {
    if (entered.untrusted_call) pop_frame();
    if (entered.stores) --stored_portal_utilities;
}

bool running_for_stored_protocol_portal() { return stored_portal_utilities > 0; }

}  // namespace pgdp::pg
