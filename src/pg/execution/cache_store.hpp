// Storing a release in the release cache (release_cache.hpp): the rows of an execution the cache
// noted for storing are copied on their way to the destination, and a run to completion is
// written as the cache table's owner at ExecutorEnd.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "executor/execdesc.h"
}

namespace pgdp::pg {

// ExecutorRun, before and after the plan runs: for an execution to store, the rows sent are
// copied on their way to the destination.
void copy_rows_for_release_cache(QueryDesc* query, ScanDirection direction, uint64 count);
void restore_destination(QueryDesc* query);

// ExecutorEnd: stores a completed execution's rows (or warns that they were too large to keep).
void store_release_if_complete(QueryDesc* query);

}  // namespace pgdp::pg
