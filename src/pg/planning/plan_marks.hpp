// Everything pgdp writes into a plan or a parse tree for a later stage to read back: one codec
// owns every number, every writer and every reader (docs/architecture.md "Life of a query").
//
// Two carriers, both chosen because they survive copyObject (cached plans are copies), the plan
// cache and serialization, and because no user can write them:
// - invalidation items (PlannedStmt.invalItems) with a negative cache id: PostgreSQL's syscache
//   ids are >= 0, so no callback ever matches them and no planner makes them (PlanMark below);
// - parse locations below -1 on the nodes pgdp's rewrites build: the parser writes -1 or an offset
//   into the query text, the planner copies locations and stored rules read back -1.
// Readers fail closed: a mark that is missing or does not match what holds now makes the plan
// unusable (or the call an ordinary one), never more permissive.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/plannodes.h"
#include "nodes/primnodes.h"
}

namespace pgdp::pg {

struct Protection;
struct ProtectionCatalog;

// ---- invalidation items ---------------------------------------------------------------------

// The cache id of each kind of item (its hashValue holds the payload named here).
enum class PlanMark : int {
    // The person-level rewrite (person_level.cpp), one per protected entry of a rewritten level:
    // protection_hash of the protection (relation, privacy unit, m, unit kind, k) it rewrote for.
    ProtectionRewritten = -1,
    // Once per rewritten plan: the number of those entries (the plan may read protected
    // relations nowhere else, per scan, not only per protection).
    ProtectedScans = -2,
    // One per public relation whose keys a level releases (its OID): it must still be declared
    // public when the plan runs.
    PublicKeys = -3,
    // DP-only access (dp_access.hpp), one per relation the plan reads with its owner's privileges
    // (its OID).
    DpOnlyRelation = -4,
    // The statement's fingerprint for the release cache (release_cache.hpp): eight items, one
    // 32-bit word each, in order.
    FingerprintWord = -5,
    // Present when the statement may be shared within a cache group (StatementFingerprint::shareable).
    Shareable = -6,
    // Present in every plan that makes releases (statement_seal.hpp); payload 1 if it was planned
    // under pgdp's release-authority rules, 0 if in a session that could not be charged
    // (trust/chargeable_session.hpp).
    ReleasePlan = -7,
};

// The names the person-level rewrite writes its per-level marks with (make_mark).
inline constexpr PlanMark kMarkCacheId = PlanMark::ProtectionRewritten;
inline constexpr PlanMark kPublicCacheId = PlanMark::PublicKeys;

PlanInvalItem* make_mark(PlanMark mark, uint32 hash);

// True if the plan carries any of pgdp's marks (a plan without one makes no release, reads no
// protected relation through a rewrite and no relation with DP-only access).
bool carries_plan_marks(const PlannedStmt* statement);

// The payload of a ProtectionRewritten mark.
uint32 protection_hash(const Protection& protection);

// Person-level plans: adds the marks a rewrite returned (rewrite_person_level_releases) and the
// count of protected entries; the plan depends on the role that planned it (DP-only access).
void mark_person_level_plan(PlannedStmt* statement, List* marks);
// True if `statement` was made from a rewritten query (it carries the marks; no catalog read).
bool has_person_level_marks(const PlannedStmt* statement);
// True if every protected relation the plan reads was rewritten for under the protection in
// force in `catalog`, no other protected entry was read and the public relations are still public.
bool is_person_level_plan(const PlannedStmt* statement, const ProtectionCatalog& catalog);

// DP-only access: the mark of a relation read with its owner's privileges, and the OIDs of the
// relations so marked in a plan (NIL if none).
PlanInvalItem* dp_access_mark(Oid relation);
List* dp_only_relations(const PlannedStmt* statement);

// The release cache's statement fingerprint, computed before any rewrite (fingerprint.hpp
// fingerprint_statement) and kept in the plan.
struct StatementFingerprint {
    uint8 bytes[32];
    // Roles of one cache group may be answered each other's release of it: it calls only
    // built-in immutable functions and never asks who is running it (no CURRENT_USER and the like).
    bool shareable;
};
void mark_fingerprint(PlannedStmt* statement, const StatementFingerprint& fingerprint);
// False (a statement never cached) unless all eight words are there.
bool read_fingerprint(const PlannedStmt* statement, StatementFingerprint* fingerprint);
bool shareable_plan(const PlannedStmt* statement);

// The mark of a statement that makes releases (set by the plan hook): its executor phases
// check whether it reads hidden rows (execution/authorize.hpp seal_if_reading_hidden_rows).
void mark_release_plan(PlannedStmt* statement, bool under_rules);
bool is_release_plan(const PlannedStmt* statement);
// False for a release plan made without the release-authority rules, and for one without the mark.
bool planned_under_rules(const PlannedStmt* statement);

// ---- parse locations ------------------------------------------------------------------------

// PostgreSQL's "no place in the query text", for the nodes pgdp builds that carry no mark.
inline constexpr int kUnknownLocation = -1;

// The pgdp.distributed_partials(...) call the distributed rewrite writes
// (distributed_release.hpp): only that rewrite sets its location.
void mark_partials_call(FuncExpr* call);
bool has_partials_call_mark(const FuncExpr* call);

// A pgdp aggregate call a rewrite wrote (Aggref->location):
// - groups per unit m (person-level rewrite, person_level.cpp): the call calibrates every release
//   over m groups; a mark can only raise m above 1 (more noise), never lower it;
// - reads partial totals (distributed rewrite): the call's last two arguments are exact partial
//   totals (units, rows) computed by Citus workers, which its transition function adds instead
//   of reading a value.
// - rows per unit k (person-level rewrite of the row-capped statistics): each unit kept at most k
//   rows (dp_count_distinct: k distinct values) per group; like m, a mark can only raise k.
int call_location(int groups_per_unit, bool reads_partial_totals);
int groups_per_unit_location(int groups_per_unit);
// m in [1, 2^20), k in [1, kMaxMarkedRowsPerUnit].
int person_level_location(int groups_per_unit, int rows_per_unit);
inline constexpr int kMaxMarkedRowsPerUnit = 1024;
// 1 for a call without a mark.
int groups_per_unit_of(const Aggref* aggref);
// m as marked, 0 for a call without a groups-per-unit mark: the person-level rewrite marks every
// call it writes (m = 1 when ungrouped), so a call with one releases over units, not rows.
int marked_groups_per_unit(const Aggref* aggref);
int rows_per_unit_of(const Aggref* aggref);
bool reads_partial_totals(const Aggref* aggref);

}  // namespace pgdp::pg
