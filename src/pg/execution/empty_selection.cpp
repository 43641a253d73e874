#include "pg/execution/empty_selection.hpp"

extern "C" {
#include "nodes/execnodes.h"
}

#include "pg/channels/statement_seal.hpp"
#include "pg/execution/release_execution.hpp"

namespace pgdp::pg {

void note_group_selection(FunctionCallInfo fcinfo, bool kept) {
    if (!kept || fcinfo->context == nullptr || !IsA(fcinfo->context, AggState)) return;
    ReleaseExecution* execution = release_execution_of(castNode(AggState, fcinfo->context)->ss.ps.state);
    if (execution != nullptr) ++execution->selection.groups_kept;
}

void note_run(QueryDesc* query, ScanDirection direction, uint64 count) {
    ReleaseExecution* execution = release_execution_of(query->estate);
    if (execution != nullptr && count == 0 && ScanDirectionIsForward(direction))
        execution->selection.run_to_completion = true;
}

void report_empty_selection(QueryDesc* query) {
    const ReleaseExecution* execution = release_execution_of(query->estate);
    if (execution == nullptr) return;
    const GroupSelection& selection = execution->selection;
    if (!selection.selects || selection.releases_charged == 0 || !selection.run_to_completion ||
        selection.groups_kept > 0) {
        return;
    }
    // Whether any group was kept is a function of dp_groups' own (charged) outputs.
    begin_own_notice();
    ereport(NOTICE, (errmsg("no group passed the private selection; %d release%s %s charged",
                            selection.releases_charged, selection.releases_charged == 1 ? "" : "s",
                            selection.releases_charged == 1 ? "was" : "were"),
                     errdetail("dp_groups kept no group, so the query returns no group's row; its releases "
                               "were charged all the same."),
                     errhint("Group by fewer or coarser keys, or by the keys of a public table "
                             "(pgdp.declare_public), which need no selection.")));
    end_own_notice();
}

}  // namespace pgdp::pg
