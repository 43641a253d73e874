#include "pg/trust/chargeable_session.hpp"

extern "C" {
#include "access/xact.h"
#include "catalog/namespace.h"
#include "miscadmin.h"
#include "commands/trigger.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/plancache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
}

#include "pg/catalog/protected_relations.hpp"
#include "pg/planning/plan_marks.hpp"
#include "pg/trust/function_frames.hpp"

namespace pgdp::pg {
namespace {

struct Decision {
    bool valid;
    Oid user;
    bool chargeable;
};
Decision decision{false, InvalidOid, true};
// The last answer decided in this backend: a turn from false to true drops the cached plans.
bool last_answer = true;
bool deciding = false;  // reading the catalog now (no recursive decision)
Oid budgets_table = InvalidOid;
Oid grants_table = InvalidOid;
bool callbacks_registered = false;

// InvalidOid: every relation (a reset of the caches). pgdp's tables: a trigger of 0.10 sends this
// invalidation when a role's budget or grant is added or removed.
void forget_on_relation_change(Datum, Oid relation) {
    if (!OidIsValid(relation) ||
        (OidIsValid(budgets_table) && (relation == budgets_table || relation == grants_table)))
        decision.valid = false;
}

// CREATE or DROP EXTENSION pgdp creates or drops the schema.
void forget_on_schema_change(Datum, int, uint32) { decision.valid = false; }

// Whether `table` has a row whose column `column` is `role`, as committed now (SnapshotSelf), never
// with the transaction's snapshot: asking must not start the transaction's snapshot (SET
// TRANSACTION ISOLATION LEVEL after BEGIN would fail), and a non-MVCC snapshot takes no predicate
// lock in a SERIALIZABLE transaction (PostgreSQL's tidscan test lists them).
bool names_role(const char* table, int column, Oid role) {
    CatalogScan scan;
    bool found = false;
    if (begin_catalog_lookup(table, nullptr, 0, nullptr, nullptr, SnapshotSelf, &scan)) {
        HeapTuple row;
        while (!found && HeapTupleIsValid(row = next_catalog_row(&scan))) {
            bool is_null = true;
            const Datum value = catalog_column(scan, row, column, &is_null);
            found = !is_null && DatumGetObjectId(value) == role;
        }
        end_catalog_scan(&scan);
    }
    return found;
}

bool decide_from_catalog() {
    const Oid schema = get_namespace_oid("pgdp", true);
    if (!OidIsValid(schema)) {
        budgets_table = grants_table = InvalidOid;
        return false;
    }
    budgets_table = get_relname_relid("budgets", schema);
    grants_table = get_relname_relid("access_grants", schema);
    const Oid user = GetSessionUserId();
    // Columns: pgdp.budgets 1 role; pgdp.access_grants 1 relation, 2 role.
    return names_role("budgets", 1, user) || names_role("access_grants", 2, user);
}

}  // namespace

bool refresh_chargeable_session() {
    if (!IsTransactionState()) return session_chargeable();
    if (!callbacks_registered) {
        CacheRegisterRelcacheCallback(forget_on_relation_change, Datum(0));
        CacheRegisterSyscacheCallback(NAMESPACEOID, forget_on_schema_change, Datum(0));
        callbacks_registered = true;
    }
    const Oid user = GetSessionUserId();
    if (decision.valid && decision.user == user) return decision.chargeable;
    deciding = true;  // left set by an error: session_chargeable fails closed until the next refresh
    const bool chargeable = decide_from_catalog();
    deciding = false;
    decision = Decision{true, user, chargeable};
    // Plans made without the rules (no author walk, other roles' SQL functions inlined) are
    // planned again under them; one already running is refused at its release.
    if (chargeable && !last_answer) ResetPlanCache();
    last_answer = chargeable;
    return chargeable;
}

bool session_chargeable() {
    if (decision.valid && decision.user == GetSessionUserId()) return decision.chargeable;
    // Forgotten since the statement began (an invalidation, a reset of the caches while it runs):
    // decided again now inside a transaction, so that a session that cannot be charged does not
    // turn to the rules halfway through a statement; the rules apply otherwise (fail closed).
    if (callbacks_registered && !deciding && IsTransactionState()) return refresh_chargeable_session();
    return true;
}

void require_rules_for_release(const PlannedStmt* statement) {
    if (!session_chargeable()) {
        if (!decide_from_catalog()) return;  // no budget and no DP-only access: the ledger refuses
        decision.valid = false;              // a missed grant: the next statement decides afresh
    }
    const char* user = GetUserNameFromId(GetSessionUserId(), false);
    if (!planned_under_rules(statement)) {
        ereport(
            ERROR,
            (errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
             errmsg("pgdp cannot release in this statement: it was planned before role \"%s\" got a privacy "
                    "budget or DP-only access",
                    user),
             errdetail(
                 "It was planned as for a role that cannot be charged, without pgdp's release-authority "
                 "rules. Nothing was released or charged."),
             errhint("Run the statement again.")));
    }
    if (unframed_code_untrusted()) {
        ereport(
            ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("pgdp cannot release in this session: it ran functions of roles whose code may not spend "
                    "role \"%s\"'s budget, without pgdp's release-authority rules",
                    user),
             errdetail(
                 "They ran while the session could not be charged (or as another session user) and may run "
                 "again in it (a cursor, a cached function), where pgdp cannot tell them from the role's own "
                 "code. Nothing was released or charged."),
             errhint("Open a new session to release.")));
    }
}

void announce_chargeable_roles_changed(Oid table) { CacheInvalidateRelcacheByRelid(table); }

}  // namespace pgdp::pg
