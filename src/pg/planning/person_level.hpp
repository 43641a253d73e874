// Person-level releases over protected relations (docs/privacy.md "Person-level releases"). The
// planner hook rewrites a query level whose pgdp aggregates read a protected relation into three
// levels: (1) the rows of each privacy unit are combined per group (its sum, its mean, one row),
// (2) grouped releases keep at most m groups per unit, (3) the unchanged aggregates release over
// the units, calibrated for m groups. The forms it accepts are person_level_shape.hpp's, the
// expression rules of DP-only access leakproof.hpp's. Levels it cannot rewrite are refused before
// planning; plans made from a rewritten query are marked (plan_marks.hpp), and the ExecutorStart
// guard (protected_relations.hpp) lets only those read protected relations for releases.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"
}

#include "pg/catalog/protected_relations.hpp"
#include "pg/planning/plan_marks.hpp"
#include "pg/planning/release_query.hpp"

namespace pgdp::pg {

// Rewrites every level of the analysed statement whose pgdp aggregates read a protected relation;
// ereports (0A000) for such levels that have no person-level form yet. Returns the marks of the
// protections rewritten for (NIL if none), for mark_person_level_plan (plan_marks.hpp, which also
// reads them back: is_person_level_plan, has_person_level_marks).
List* rewrite_person_level_releases(const ReleaseQuery& analysis);

// pgdp.rows_per_unit (k of the row-capped statistics) and pgdp.max_groups_contributed (m of
// grouped releases; module start).
void define_person_level_settings();
// Its value now (the statement fingerprint's: fingerprint.hpp).
int person_level_rows_per_unit();
int person_level_max_groups();

}  // namespace pgdp::pg
