// Charging before release (docs/architecture.md "Budgets"): an ExecutorStart hook finds the pgdp
// aggregate calls in the plan, evaluates their constant parameters, builds their release plans
// and has the ledger worker commit the charge before the executor runs; the final functions then
// release only for call sites charged in a query that is still running.
#pragma once

#include "pg/postgres_headers.hpp"

extern "C" {
#include "nodes/execnodes.h"
#include "nodes/primnodes.h"
}

#include "pg/aggregate_call.hpp"

namespace pgdp::pg {

void install_charge_hook();

// Fails with an error unless final_aggref (AggGetAggref in a final function) belongs to a call
// site charged with exactly these parameters for the execution `estate` (the AggState's) of this
// backend (or, in a parallel worker, adopted from its leader).
void require_charge(const EState* estate, Aggref* final_aggref, const Parameters& parameters);

}  // namespace pgdp::pg
