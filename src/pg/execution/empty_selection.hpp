// A grouped release whose private group selection (dp_groups) keeps no group is charged all the
// same, and its result has no row: a NOTICE says so at the end of the execution instead of an
// empty result in silence (docs/privacy.md "Saying that no group passed the selection").
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "executor/execdesc.h"
#include "fmgr.h"
}

namespace pgdp::pg {

// dp_groups' final function, in the execution that charged it: whether it kept its group.
void note_group_selection(FunctionCallInfo fcinfo, bool kept);

// ExecutorRun: a run in one call to completion (count 0, forward).
void note_run(QueryDesc* query, ScanDirection direction, uint64 count);

// ExecutorEnd: the NOTICE if the execution was charged a selection, ran to completion and kept
// no group.
void report_empty_selection(QueryDesc* query);

}  // namespace pgdp::pg
