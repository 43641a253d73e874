#include "pg/channels/statement_statistics.hpp"

extern "C" {
#include "access/parallel.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "miscadmin.h"
#include "parser/analyze.h"
#include "storage/proc.h"
}

#include "pg/catalog/protected_relations.hpp"
#include "pg/trust/running_statements.hpp"
#include "pg/channels/statement_seal.hpp"

namespace pgdp::pg {
namespace {

// Whether the session user may make releases here, decided once per transaction (a budget or a
// grant given since applies from the next one).
LocalTransactionId decided_in = InvalidLocalTransactionId;
bool session_may_release = false;
// The session user that made a release in this session (for the rest of the session; SET SESSION
// AUTHORIZATION changes the user).
Oid released_by = InvalidOid;

}  // namespace

bool session_user_may_release() {
    if (OidIsValid(released_by) && released_by == GetSessionUserId()) return true;
    if (MyProc == nullptr) return false;
    if (decided_in == MyProc->lxid) return session_may_release;
    decided_in = MyProc->lxid;
    session_may_release = false;
    // A database without pgdp's schema has neither budgets nor grants (and pays one cache lookup).
    if (!OidIsValid(get_namespace_oid("pgdp", true))) return false;
    const Oid user = GetSessionUserId();
    // Columns: pgdp.budgets 1 role; pgdp.access_grants 1 relation, 2 role.
    session_may_release = catalog_has_oid("budgets", 1, user, InvalidOid, nullptr) ||
                          catalog_has_oid("access_grants", 2, user, InvalidOid, nullptr);
    return session_may_release;
}

void clear_statistics_of_execution(PlannedStmt* statement, bool makes_releases) {
    if (makes_releases && released_by != GetSessionUserId() && !IsParallelWorker()) {
        released_by = GetSessionUserId();
        for (int i = 0; i < running_depth(); ++i) {
            auto* running = const_cast<PlannedStmt*>(running_statement(i));
            if (running != nullptr) running->queryId = UINT64CONST(0);
        }
    }
    if (statement->queryId != UINT64CONST(0) && (makes_releases || session_user_may_release()))
        statement->queryId = UINT64CONST(0);
}

void clear_query_id_of_chargeable_session(Query* query) {
    if (query->queryId == UINT64CONST(0) || IsAbortedTransactionBlockState()) return;
    if (session_user_may_release()) query->queryId = UINT64CONST(0);
}

}  // namespace pgdp::pg
