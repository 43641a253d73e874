// The release cache's statement fingerprint, taken at planning (docs/architecture.md "Release
// cache").
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/parsenodes.h"
}

#include "pg/planning/plan_marks.hpp"
#include "pg/planning/release_query.hpp"

namespace pgdp::pg {

// The fingerprint of a statement with pgdp releases, computed before any rewrite
// (from its analysis: the functions it calls) and kept in the plan (plan_marks.hpp
// mark_fingerprint): the query tree without parse locations and the version (pg_proc xmin) of
// every user-defined function it calls. Returns false (nothing to mark: never cached) when the
// query makes no release, or calls a volatile function or current_setting() (its answer would not
// be the same statement's).
bool fingerprint_statement(Query* parse, const ReleaseQuery& analysis, StatementFingerprint* fingerprint);

}  // namespace pgdp::pg
