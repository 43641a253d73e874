#include "pg/channels/statement_statistics.hpp"

extern "C" {
#include "access/parallel.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "miscadmin.h"
#include "parser/analyze.h"
#include "storage/proc.h"
}

#include "pg/trust/chargeable_session.hpp"
#include "pg/trust/running_statements.hpp"
#include "pg/channels/statement_seal.hpp"

namespace pgdp::pg {
namespace {

// The session user that made a release in this session (for the rest of the session; SET SESSION
// AUTHORIZATION changes the user).
Oid released_by = InvalidOid;

}  // namespace

bool session_user_may_release() {
    if (OidIsValid(released_by) && released_by == GetSessionUserId()) return true;
    return session_chargeable();
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
