// Charging before release (docs/architecture.md "Life of a query"): at ExecutorStart
// the pgdp aggregate calls of the plan get their privacy parameters, evaluated here once, and in
// a backend (not a parallel worker) the ledger worker commits the charge of every final call
// before the executor runs. The release plan of each charged call is built once, here, and kept in
// the execution's record (release_execution.hpp) for its final function.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "executor/execdesc.h"
}

namespace pgdp::pg {

// ExecutorStart, when the release cache did not answer: authorizes and charges every release of
// the plan and registers its calls. A plan without pgdp calls run inside an aggregating execution
// (or a parallel worker's nested query) may read no protected relation.
void charge_releases(QueryDesc* query);

// The ledger's charge id of this backend's latest charge (0 if none).
int64 latest_charge_id();

}  // namespace pgdp::pg
