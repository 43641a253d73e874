#include "pg/execution/inert_executions.hpp"

extern "C" {
#include "access/parallel.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "utils/memutils.h"
}

#include "pg/channels/statement_statistics.hpp"
#include "pg/ledger/ledger_budget.hpp"
#include "pg/planning/plan_marks.hpp"
#include "pg/trust/chargeable_session.hpp"

namespace pgdp::pg {
namespace {

// The open inert executions. Nested statements rarely go deep; one that finds the list full runs
// pgdp's stages instead (always allowed: an inert start followed by pgdp's Run, Finish and End
// only adds bookkeeping).
constexpr int kMostOpen = 32;
const QueryDesc* open_executions[kMostOpen];
int open_count = 0;
// Inert executions inside their ExecutorStart now: open, not yet in the list.
int starting_count = 0;

void forget(const QueryDesc* query) {
    for (int i = 0; i < open_count; ++i) {
        if (open_executions[i] == query) {
            open_executions[i] = open_executions[--open_count];
            return;
        }
    }
}

void forget_when_freed(void* query) { forget(static_cast<const QueryDesc*>(query)); }

}  // namespace

bool may_run_inert(const QueryDesc* query, int eflags) {
    // A QueryDesc is started once; a stale entry for its address (it cannot outlive its executor
    // state, but fail closed) is dropped before deciding.
    forget(query);
    return (eflags & EXEC_FLAG_EXPLAIN_ONLY) == 0 && query->instrument_options == 0 && !IsParallelWorker() &&
           !carries_plan_marks(query->plannedstmt) && !session_user_may_release();
}

void note_inert_execution(QueryDesc* query) {
    if (open_count == kMostOpen || query->estate == nullptr) return;
    auto* callback = static_cast<MemoryContextCallback*>(
        MemoryContextAlloc(query->estate->es_query_cxt, sizeof(MemoryContextCallback)));
    callback->func = forget_when_freed;
    callback->arg = query;
    MemoryContextRegisterResetCallback(query->estate->es_query_cxt, callback);
    open_executions[open_count++] = query;
}

bool inert_execution(const QueryDesc* query) {
    for (int i = 0; i < open_count; ++i) {
        if (open_executions[i] == query) return true;
    }
    return false;
}

void begin_inert_start() { ++starting_count; }

void end_inert_start() { --starting_count; }

void refuse_release_during_inert_execution(bool reading) {
    if (open_count == 0 && starting_count == 0) return;
    const char* user = GetUserNameFromId(GetSessionUserId(), false);
    if (reading) {
        ereport(
            ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
             errmsg("a pgdp release cannot be read inside a statement that pgdp did not follow"),
             errdetail("The statement began while role \"%s\" could not be charged, so pgdp does not know "
                       "whose code it runs.",
                       user),
             errhint("Fetch the rows of a cursor with pgdp aggregates from your own statements.")));
    }
    if (!session_chargeable()) {
        // Refused by the ledger in any case; said here because pgdp did not follow the statement.
        const NoBudgetTexts texts = no_budget_texts(user);
        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("%s", texts.message),
                        errdetail("%s", texts.detail), errhint("%s", texts.hint)));
    }
    ereport(ERROR,
            (errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
             errmsg("pgdp cannot release inside a statement or cursor that began before role \"%s\" could be "
                    "charged",
                    user),
             errdetail("pgdp did not follow that statement: the session had no privacy budget and no DP-only "
                       "access when it started. Nothing was released or charged."),
             errhint("Close the cursor, or run the statement again.")));
}

}  // namespace pgdp::pg
