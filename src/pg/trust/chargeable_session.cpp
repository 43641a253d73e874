#include "pg/trust/chargeable_session.hpp"

extern "C" {
#include "access/xact.h"
#include "catalog/namespace.h"
#include "miscadmin.h"
#include "commands/trigger.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
}

#include "pg/catalog/protected_relations.hpp"

namespace pgdp::pg {
namespace {

struct Decision {
    bool valid;
    Oid user;
    bool chargeable;
};
Decision decision{false, InvalidOid, true};
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

// Whether `table` has a row whose column `column` is `role`. Read with a fresh catalog snapshot,
// never the transaction's: asking must not start the transaction's snapshot (SET TRANSACTION
// ISOLATION LEVEL after BEGIN would fail).
bool names_role(const char* table, int column, Oid role) {
    InvalidateCatalogSnapshot();
    const Snapshot snapshot = RegisterSnapshot(GetCatalogSnapshot(InvalidOid));
    CatalogScan scan;
    bool found = false;
    if (begin_catalog_lookup(table, nullptr, 0, nullptr, nullptr, snapshot, &scan)) {
        HeapTuple row;
        while (!found && HeapTupleIsValid(row = next_catalog_row(&scan))) {
            bool is_null = true;
            const Datum value = catalog_column(scan, row, column, &is_null);
            found = !is_null && DatumGetObjectId(value) == role;
        }
        end_catalog_scan(&scan);
    }
    UnregisterSnapshot(snapshot);
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
    const bool chargeable = decide_from_catalog();
    decision = Decision{true, user, chargeable};
    return chargeable;
}

bool session_chargeable() {
    if (!decision.valid || decision.user != GetSessionUserId()) return true;
    return decision.chargeable;
}

void require_rules_since_planning() {
    if (session_chargeable() || !decide_from_catalog()) return;  // no budget: the ledger refuses
    decision.valid = false;                                      // the next statement decides afresh
    ereport(
        ERROR,
        (errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
         errmsg("pgdp cannot release in this statement: role \"%s\" got a privacy budget or DP-only access "
                "after it was planned",
                GetUserNameFromId(GetSessionUserId(), false)),
         errdetail("Its statistics and server messages were handled as for a role that cannot be charged. "
                   "Nothing was released or charged."),
         errhint("Run the statement again.")));
}

void announce_chargeable_roles_changed(Oid table) { CacheInvalidateRelcacheByRelid(table); }

}  // namespace pgdp::pg
