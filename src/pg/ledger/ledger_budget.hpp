// One charge's transaction in the ledger worker: the budget row checked, spent and recorded
// (docs/architecture.md "Budgets and the ledger").
#pragma once

#include "pg/ledger/ledger_shared.hpp"

namespace pgdp::pg {

// The SPI plans of the budget statements, prepared once per worker (inside a transaction), and
// dropped after a failed batch (they may refer to dropped objects).
void prepare_budget_plans();
void forget_budget_plans();

// Checks and records one request in a subtransaction of the batch's transaction: its outcome is
// Charged, a refusal (nothing written) or Failed (an error undone; logged).
void charge_isolated(RequestSlot& request);

// The refusal of a release by a role without a budget (`role`: its name), as the ledger words it;
// also said before any charge when the release cannot reach the ledger (inert_executions.hpp).
struct NoBudgetTexts {
    const char* message;
    const char* detail;
    const char* hint;
};
NoBudgetTexts no_budget_texts(const char* role);

// A request that failed: nothing of it was committed. No palloc (also called on exit).
void set_failed(ChargeOutcome& outcome, const char* reason, const char* hint);

}  // namespace pgdp::pg
