#include "pg/execution/authorize.hpp"
#include "pg/base/pg_compat.hpp"

extern "C" {
#include "access/parallel.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_class.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "tcop/pquery.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/portal.h"
#include "utils/rel.h"
#include "utils/rls.h"
}

#include "pg/calls/aggregate_identity.hpp"
#include "pg/catalog/dp_access.hpp"
#include "pg/catalog/protected_relations.hpp"
#include "pg/channels/statement_seal.hpp"
#include "pg/channels/statement_statistics.hpp"
#include "pg/ledger/ledger_channel.hpp"
#include "pg/planning/distributed_release.hpp"
#include "pg/planning/plan_marks.hpp"
#include "pg/trust/release_trust.hpp"
#include "pg/trust/utility_trust.hpp"
#include "pg/trust/running_statements.hpp"

namespace pgdp::pg {
namespace {

void check_executable(const SiteList& list) {
    for (int i = 0; i < list.count; ++i) {
        const Site& site = list.sites[i];
        if (!site.final_phase) continue;
        if (site.repeated) {
            ereport(ERROR,
                    (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                     errmsg("%s cannot be computed where the query may evaluate it more than once",
                            site.identity.name),
                     errdetail("The aggregate is on the inner side of a nested loop, in a correlated or "
                               "per-row subquery, in a recursive query, or under a parallel Gather; each "
                               "evaluation would be a separate release of one charge."),
                     errhint("Compute the release once, e.g. in a MATERIALIZED CTE or a subquery in FROM "
                             "that the planner does not rescan.")));
        }
        if (site.under_gather) refuse_in_parallel_worker(site.identity.name);
    }
    if (list.releases > kMaxReleasesPerQuery) refuse_too_many();
    if (RecoveryInProgress()) {
        ereport(ERROR,
                (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                 errmsg("pgdp releases are not possible on a hot standby"),
                 errdetail(
                     "Every release must be charged to the ledger, which cannot be written during recovery."),
                 errhint("Run the query on the primary.")));
    }
    if (!ledger_attached()) refuse_not_preloaded();
}

// Portals that keep their rows beyond the statement that computed them, for anyone who can name
// the portal (SPI_cursor_find, cursor_to_xml): a WITH HOLD cursor after commit, and portals that
// run to completion into a store at the first fetch (RETURNING, data-modifying WITH).
void refuse_stored_results(const PlannedStmt* statement, const char* aggregate) {
    if (running_for_stored_protocol_portal()) {
        ereport(
            ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("%s cannot be computed by EXECUTE, FETCH or CALL in a portal of the extended protocol",
                    aggregate),
             errdetail("Such a portal stores all its rows at the first fetch, for later fetches by whoever "
                       "can name it (pg_cursors lists it), also other roles' code in this session."),
             errhint("Bind the prepared statement itself, or send EXECUTE as a simple query.")));
    }
    if (ActivePortal == nullptr || !list_member_ptr(ActivePortal->stmts, statement)) return;
    if ((ActivePortal->cursorOptions & CURSOR_OPT_HOLD) != 0) {
        ereport(ERROR,
                (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                 errmsg("%s cannot be computed in a WITH HOLD cursor", aggregate),
                 errdetail("A holdable cursor keeps its rows after the transaction, where code that did not "
                           "charge them can read them."),
                 errhint("Declare the cursor without WITH HOLD and fetch it inside the transaction.")));
    }
    if (ActivePortal->strategy == PORTAL_ONE_RETURNING || ActivePortal->strategy == PORTAL_ONE_MOD_WITH) {
        ereport(ERROR,
                (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                 errmsg("%s cannot be computed in a statement with RETURNING or a data-modifying WITH",
                        aggregate),
                 errdetail("Such a statement stores all its rows at once, for later fetches by whoever can "
                           "name its portal."),
                 errhint("Store the releases with INSERT ... SELECT, then read them with SELECT.")));
    }
}

// A plan made from a person-level rewrite reads protected relations only through the units'
// level (person_level.hpp); nor may a release run inside a running statement that reads one (a
// function given protected rows as arguments by the query that read them).
void refuse_protected_reads(QueryDesc* query, const ProtectionCatalog& protections) {
    if (!is_person_level_plan(query->plannedstmt, protections))
        refuse_releases_over_protected_relations(query->plannedstmt, protections);
    for (int i = 0; i < running_depth(); ++i) {
        const PlannedStmt* running = running_statement(i);
        if (running != nullptr && running != query->plannedstmt)
            refuse_releases_over_protected_relations(running, protections);
    }
}

// The plan reads a view whose definition makes releases (the planner may have pruned the pgdp
// outputs the outer query does not use, leaving a plan without them over the same rows).
bool reads_view_with_releases(const PlannedStmt* statement) {
    ListCell* cell;
    foreach (cell, statement->rtable) {
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        if (!compat::is_view_reference(entry)) continue;
        Relation view = RelationIdGetRelation(entry->relid);
        if (view == nullptr) continue;
        bool releases = false;
        for (int i = 0; view->rd_rules != nullptr && i < view->rd_rules->numLocks && !releases; ++i) {
            releases = contains_release((Node*)view->rd_rules->rules[i]->actions);
        }
        RelationClose(view);
        if (releases) return true;
    }
    return false;
}

// EXPLAIN shows the planner's estimates and EXPLAIN ANALYZE exact row counts of every node: both
// are refused for plans with releases (or over views that make them) reading tables the session
// user may not read itself.
void refuse_plan_details_of_hidden_tables(QueryDesc* query, bool analyze) {
    if (session_reads_every_table(query->plannedstmt)) return;
    if (!plan_makes_releases(query->plannedstmt) && !reads_view_with_releases(query->plannedstmt)) return;
    ereport(ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("%s of a query with pgdp releases over tables you may not read is not allowed",
                    analyze ? "EXPLAIN ANALYZE" : "EXPLAIN"),
             errdetail(analyze ? "EXPLAIN ANALYZE shows the exact number of rows each plan node produced."
                               : "The planner's row estimates come from statistics of the data behind the "
                                 "releases."),
             errhint("Run the query itself; its releases are the private answer.")));
}

// ---- the list ---------------------------------------------------------------------------------

// What a row of the list is asked about.
struct Request {
    QueryDesc* query;
    ReleaseExecution* execution;  // nullptr for the rows of every execution start
    int eflags;
    // The name refusals give: "a pgdp release" for an answer, else the aggregate of the plan's
    // first final call (nullptr: the plan has none, and the rows about releases do not apply).
    const char* release;
    const char* call;  // the release's name, or the plan's first call when it has none
};

bool explain_only(const Request& request) { return (request.eflags & EXEC_FLAG_EXPLAIN_ONLY) != 0; }

bool explain_analyze(const Request& request) {
    return request.query->instrument_options != 0 && explain_analyze_running();
}

// The execution's one read of the protection catalog (its record made here for such plans).
const ProtectionCatalog& protections_of_execution(QueryDesc* query) {
    return execution_protections(begin_release_execution(query), query->snapshot);
}

void refuse_lost_dp_access(const Request& request) {
    check_dp_access(request.query, explain_only(request) || explain_analyze(request),
                    protections_of_execution);
}

// Plain EXPLAIN runs no aggregate (EXPLAIN ANALYZE does, and is charged like the query); its row
// estimates come from the data, though.
void refuse_explain_of_hidden_tables(const Request& request) {
    if (explain_only(request)) {
        refuse_plan_details_of_hidden_tables(request.query, false);
    } else if (explain_analyze(request)) {
        refuse_plan_details_of_hidden_tables(request.query, true);
    }
}

// Under SERIALIZABLE every scan records what it read as SIRead predicate locks, which pg_locks
// shows to every role: for a plan over rows the session user may not read (DP-only access,
// person-level plans), exactly which rows matched (red team round 21). Decided on the isolation
// level and the plan, before anything runs or is charged.
void refuse_predicate_locks_on_hidden_rows(const Request& request) {
    if (!IsolationIsSerializable() || explain_only(request)) return;
    const PlannedStmt* statement = request.query->plannedstmt;
    if (!has_person_level_marks(statement) && !is_release_plan(statement)) return;
    if (session_reads_every_table(statement)) return;
    ereport(ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("pgdp releases over rows you may not read cannot run in a SERIALIZABLE transaction"),
             errdetail("A serializable transaction records every row and index page its scans read as a "
                       "predicate lock, which pg_locks shows: which rows matched the query."),
             errhint("Run the release in a READ COMMITTED or REPEATABLE READ transaction.")));
}

void refuse_release_in_worker(const Request& request) {
    if (IsParallelWorker() && request.release != nullptr) refuse_in_parallel_worker(request.release);
}

void refuse_in_citus_connection(const Request& request) {
    if (request.release != nullptr) refuse_in_citus_backend(request.release);
}

void require_context(const Request& request) {
    require_release_context(request.call, request.query->plannedstmt);
}

void refuse_unexecutable(const Request& request) { check_executable(request.execution->sites); }

void refuse_stored(const Request& request) {
    if (request.release != nullptr) refuse_stored_results(request.query->plannedstmt, request.release);
}

void refuse_protected(const Request& request) {
    if (request.release == nullptr) return;
    refuse_protected_reads(request.query, execution_protections(*request.execution, request.query->snapshot));
}

constexpr unsigned kStart = static_cast<unsigned>(Purpose::Execution);
constexpr unsigned kAnswer = static_cast<unsigned>(Purpose::CachedAnswer);
constexpr unsigned kRelease = static_cast<unsigned>(Purpose::Release);

struct Refusal {
    unsigned purposes;
    bool in_workers;  // a parallel worker runs it too (it computes partial aggregates only)
    void (*check)(const Request&);
};

// The order is the order of the refusals users see: the first that applies is reported.
constexpr Refusal kRefusals[] = {
    {kStart, true, refuse_lost_dp_access},                    // DP-only access revoked or changed
    {kStart, true, refuse_explain_of_hidden_tables},          // EXPLAIN over tables one may not read
    {kStart, false, refuse_predicate_locks_on_hidden_rows},   // SERIALIZABLE: pg_locks shows rows read
    {kRelease, true, refuse_release_in_worker},               // final calls in a parallel worker
    {kAnswer | kRelease, false, refuse_in_citus_connection},  // a Citus-internal connection
    {kAnswer | kRelease, false, require_context},             // another role's code, maintenance
    {kRelease, false, refuse_unexecutable},                   // repeated, too many, standby, no ledger
    {kAnswer | kRelease, false, refuse_stored},               // WITH HOLD, RETURNING, protocol portals
    {kAnswer | kRelease, false, refuse_protected},            // protected rows outside a person-level plan
};
static_assert(sizeof(kRefusals) / sizeof(kRefusals[0]) <= sizeof(unsigned) * 8, "one bit per row");

void run_refusals(const Request& request, unsigned purposes) {
    unsigned row = 0;
    for (const Refusal& refusal : kRefusals) {
        const unsigned bit = 1u << row++;
        if ((refusal.purposes & purposes) == 0 || (!refusal.in_workers && IsParallelWorker())) continue;
        if (request.execution != nullptr && (request.execution->authorized & bit) != 0) continue;
        refusal.check(request);
        if (request.execution != nullptr) request.execution->authorized |= bit;
    }
}

}  // namespace

bool authorize_execution(QueryDesc* query, int eflags) {
    const Request request{query, nullptr, eflags, nullptr, nullptr};
    run_refusals(request, kStart);
    return !explain_only(request);
}

void authorize(QueryDesc* query, ReleaseExecution& execution, Purpose purpose) {
    Request request{query, &execution, 0, nullptr, nullptr};
    if ((static_cast<unsigned>(purpose) & kRelease) != 0) {
        const SiteList& sites = execution.sites;
        request.release = first_release(sites);
        request.call = request.release != nullptr ? request.release : sites.sites[0].identity.name;
    } else {
        request.release = request.call = "a pgdp release";
    }
    run_refusals(request, static_cast<unsigned>(purpose) & (kAnswer | kRelease));
}

// Without the ledger worker no release can be charged, so none is made.
void refuse_not_preloaded() {
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("pgdp releases need pgdp in shared_preload_libraries"),
             errdetail("Without the ledger worker no release can be charged, so none is made."),
             errhint("Add pgdp to shared_preload_libraries in postgresql.conf and restart the server.")));
}

void refuse_too_many() {
    ereport(ERROR,
            (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
             errmsg("a query can make at most %d pgdp releases", kMaxReleasesPerQuery),
             errhint("Split the query; each pgdp aggregate call (and each grouping set) is one release.")));
}

// EXPLAIN ANALYZE shows exact row counts of every plan node: news only to a session user who may
// not read the tables itself (say through an admin's view or function).
bool session_reads_every_table(const PlannedStmt* statement) {
    const Oid user = GetSessionUserId();
    ListCell* cell;
    foreach (cell, statement->rtable) {
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        // Partitions and inheritance children carry no permission check of their own (no
        // permission entry): reading the parent is what the user may or may not do.
        if (entry->rtekind != RTE_RELATION || entry->relkind == RELKIND_VIEW ||
            compat::permission_of(statement, entry) == nullptr)
            continue;
        if (pg_class_aclcheck(entry->relid, user, ACL_SELECT) != ACLCHECK_OK) return false;
        // Row security may hide rows from the user that a view owner's plan reads.
        if (get_rel_relkind(entry->relid) != RELKIND_VIEW && !superuser_arg(user) &&
            check_enable_rls(entry->relid, user, true) != RLS_NONE) {
            return false;
        }
    }
    return true;
}

void refuse_in_parallel_worker(const char* aggregate) {
    ereport(ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("%s cannot be computed in a parallel worker", aggregate),
             errdetail("Only the backend that charged a query releases its results; parallel workers compute "
                       "partial aggregates only."),
             errhint("Do not call pgdp aggregates from PARALLEL SAFE functions run by parallel workers.")));
}

void seal_if_reading_hidden_rows(const PlannedStmt* statement, bool planning) {
    if (has_person_level_marks(statement)) {
        seal_until_ready_for_query();
        return;
    }
    const bool releases = is_release_plan(statement);
    // A plain plan matters at planning only, and only in a session that could be charged (an
    // answer kept per backend: trust/chargeable_session.hpp); then the privilege checks.
    if (!releases && (!planning || !session_user_may_release())) return;
    if (!session_reads_every_table(statement)) seal_until_ready_for_query();
}

}  // namespace pgdp::pg
