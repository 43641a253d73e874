// A read PostgreSQL refuses of a relation the role has DP-only access to (count(*), SELECT *, a
// window use of a dp_ aggregate, ...): the same 42501 and message as PostgreSQL's own, with a hint
// saying what works instead. The hint depends only on the grant and the privileges, never on rows;
// reads of every other relation, and reads PostgreSQL allows, are left to PostgreSQL unchanged.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/plannodes.h"
}

namespace pgdp::pg {

// Before PostgreSQL's executor permission check (the previous ExecutorStart): if the first
// relation that check would refuse is one whose checked role has DP-only access to it (or to its
// protected root), ereports that refusal with the hint; otherwise returns and PostgreSQL refuses
// (or allows) as it would without pgdp. Only for sessions that can be charged (a role with DP-only
// access always can); costs one privilege check per relation the plan reads.
void refuse_reads_under_dp_only_access(const PlannedStmt* statement);

}  // namespace pgdp::pg
