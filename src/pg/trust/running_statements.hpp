// The statements running in this backend (executions inside ExecutorRun or ExecutorFinish, and
// COPY FROM), and whether any of them runs code of a role the session does not trust: a table,
// view or domain of such a role brings its triggers, CHECK constraints, defaults, policies,
// index and partition expressions, view bodies and domain constraints, any of which may run SQL
// (query_to_xml, a trusted function, ...) inside the statement. A query started inside such a
// statement makes no release (release_trust.cpp): it would be charged to the session user for
// code it did not write, and its result could be handed to that role.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/plannodes.h"
}

namespace pgdp::pg {

// Every execution (ExecutorRun, ExecutorFinish) is a running statement while it runs (hooks.cpp
// pairs enter and leave, also on error).
void enter_running_statement(const PlannedStmt* statement);
void leave_running_statement();

// Utilities that run code (DO, CALL, EXPLAIN, CREATE TABLE AS, COPY, EXECUTE; SET CONSTRAINTS and
// TRUNCATE, which fire triggers) are running statements too; EXPLAIN ANALYZE is noted
// (explain_analyze_running).
struct RunningUtility {
    bool runs_code;
    bool explain_analyze;
};
RunningUtility enter_running_utility(const PlannedStmt* statement);
void leave_running_utility(const RunningUtility& entered);

// Another role's object whose code a running statement may execute.
struct ForeignCode {
    const char* kind;               // "table", "view", "domain", "trigger", "plan node", "nested type"
    Oid object;                     // the relation, domain or trigger (a plan node: its NodeTag)
    Oid owner;                      // its owner; a trigger's author (InvalidOid: unknown)
    Oid relation = InvalidOid;      // a trigger's table
    const char* trigger = nullptr;  // a trigger's name
};

// True (and *found set) if a running statement touches an object of a role that is not trusted
// (is_trusted_author). Checked lazily: only when a nested query wants to release. from_depth and
// except: only the statements that started after the first from_depth, other than `except`
// (a final function checks what began running since its own query was charged: a cursor
// fetched later, from another statement).
bool running_foreign_code(ForeignCode* found, int from_depth = 0, const PlannedStmt* except = nullptr);

// Expressions that build a value of their type at run time (a cast, a constant, a row, an array, a
// function result, a domain check), so run that type's input function or its domain's checks.
bool builds_typed_values(const Node* node);
// The column types a function in FROM (its column definition list) or a table function (XMLTABLE's
// columns) builds its values in; NIL for other nodes.
const List* column_definition_types(const Node* node);

// True if a trigger executes now that no running statement fired: a statement fires its own
// triggers (one level deeper than where it started), but a deferred constraint trigger fired by
// SET CONSTRAINTS or by COMMIT inside a procedure, or a TRUNCATE trigger, runs directly under a DO
// block, a CALL or a query that only reads, so the table whose trigger it is (maybe another
// role's, with the trigger's arguments chosen by that role) is on no stack (red team round 19).
// Likewise an AFTER trigger fired at a statement's end for a table of another role that a
// statement inside it wrote (a cascaded foreign key action queues its triggers there).
bool trigger_fired_outside_its_statement();

// The number of running statements now.
int running_depth();

// True if `statement` is being executed (inside ExecutorRun or ExecutorFinish) now.
bool statement_running(const PlannedStmt* statement);

// The plan of the i-th running statement (0 = outermost, < running_depth()); nullptr for a
// utility statement (COPY FROM).
const PlannedStmt* running_statement(int i);

// True if `statement` is a statement of the active portal (a top-level statement, a cursor, an
// EXECUTE'd prepared statement, started by PortalStart). With no running statement, any other
// execution is code run while a statement is parsed, planned or its parameters bound (a domain
// constraint calling query_to_xml(), a constant folded at plan time).
bool started_by_active_portal(const PlannedStmt* statement);

// True if the innermost running statement was started (directly or not) while no statement ran.
bool running_outside_statement();

// True while the statement being executed is EXPLAIN ANALYZE (its output shows exact row counts).
bool explain_analyze_running();

}  // namespace pgdp::pg
