// The version seam: the only file of pgdp that names PG_VERSION_NUM. Everything that differs
// between PostgreSQL majors is answered here, under one name per question, so that a new major is
// one edit in one file (compare Citus's include/pg_version_compat.h).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "catalog/pg_class.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_proc.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/bitmapset.h"
#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "postmaster/autovacuum.h"
#include "postmaster/bgworker_internals.h"
#include "rewrite/prs2lock.h"
#include "utils/acl.h"
#include "datatype/timestamp.h"
#if PG_VERSION_NUM >= 160000
#include "parser/parse_relation.h"
#endif
#if PG_VERSION_NUM >= 170000
#include "storage/procnumber.h"
#else
#include "storage/backendid.h"
#endif
}

// Built and tested on 15, 17 and 18; every guard below is written for 16 too (the release that
// made most of these changes), which is built from the same guards but not tested here.
static_assert(PG_VERSION_NUM >= 150000, "pgdp needs PostgreSQL 15 or later");
static_assert(PG_VERSION_NUM < 190000, "pgdp has not been ported to PostgreSQL 19: see base/pg_compat.hpp");

namespace pgdp::pg::compat {

// The view a range-table entry stands for, or InvalidOid.
//
// pgdp's release authority (another role's view is that role's code), the release cache (a
// statement over a view is not shared within a cache group) and EXPLAIN's refusal all ask this
// one question, and a wrong "no" fails open. How PostgreSQL marks a view changed in 16
// ("Get rid of the new and old entries in a view's rangetable"):
//   15:  the view's body is an RTE_SUBQUERY whose first entry is the view itself (RTE_RELATION,
//        relkind 'v', the OLD entry); the plan's flat range table keeps that entry.
//   16+: the RTE_SUBQUERY entry itself keeps relid and relkind 'v'; there is no OLD entry.
// Both shapes are recognised on every major, so that a tree of either shape is never missed.
inline Oid view_of_entry(const RangeTblEntry* entry) {
    if (entry == nullptr) return InvalidOid;
    if ((entry->rtekind == RTE_RELATION || entry->rtekind == RTE_SUBQUERY) && entry->relkind == RELKIND_VIEW)
        return entry->relid;
    if (entry->rtekind != RTE_SUBQUERY || entry->subquery == nullptr) return InvalidOid;
    const List* body = entry->subquery->rtable;
    if (list_length(body) < PRS2_OLD_VARNO) return InvalidOid;
    const RangeTblEntry* old_entry = rt_fetch(PRS2_OLD_VARNO, body);
    return old_entry->rtekind == RTE_RELATION && old_entry->relkind == RELKIND_VIEW ? old_entry->relid
                                                                                    : InvalidOid;
}

// An entry of a plan's flat range table that stands for a view (no rows of its own are read).
inline bool is_view_reference(const RangeTblEntry* entry) {
    return (entry->rtekind == RTE_RELATION || entry->rtekind == RTE_SUBQUERY) &&
           entry->relkind == RELKIND_VIEW;
}

// ---- Permissions -------------------------------------------------------------------------------
// What PostgreSQL checks for one relation a query reads: the relation, the role it is checked as
// (checkAsUser, InvalidOid: the current user), the privileges and the selected columns. 15 keeps
// them on the relation's range-table entry; 16 moved them to RTEPermissionInfo (Query.rteperminfos,
// PlannedStmt.permInfos, RangeTblEntry.perminfoindex). The fields have the same names in both.
#if PG_VERSION_NUM >= 160000
using Permission = RTEPermissionInfo;
#else
using Permission = RangeTblEntry;
#endif

#if PG_VERSION_NUM >= 160000
// The permission entry of `entry` in `permissions` (nullptr: nothing is checked for it, e.g. an
// inheritance child or a partition).
inline Permission* permission_in(List* permissions, const RangeTblEntry* entry) {
    if (entry->rtekind != RTE_RELATION && !(entry->rtekind == RTE_SUBQUERY && OidIsValid(entry->relid)))
        return nullptr;
    if (entry->perminfoindex == 0) return nullptr;
    return getRTEPermissionInfo(permissions, const_cast<RangeTblEntry*>(entry));
}
#endif

// The permission entry of relation entry `entry` of `query` / of the plan `statement`.
inline Permission* permission_of(const Query* query, const RangeTblEntry* entry) {
#if PG_VERSION_NUM >= 160000
    return permission_in(query->rteperminfos, entry);
#else
    (void)query;
    return entry->rtekind == RTE_RELATION && entry->requiredPerms != 0 ? const_cast<RangeTblEntry*>(entry)
                                                                       : nullptr;
#endif
}
inline Permission* permission_of(const PlannedStmt* statement, const RangeTblEntry* entry) {
#if PG_VERSION_NUM >= 160000
    return permission_in(statement->permInfos, entry);
#else
    (void)statement;
    return entry->rtekind == RTE_RELATION && entry->requiredPerms != 0 ? const_cast<RangeTblEntry*>(entry)
                                                                       : nullptr;
#endif
}

// Every permission entry of one query level (not of its subqueries) / of a plan.
inline List* permissions_of(const Query* query) {
#if PG_VERSION_NUM >= 160000
    return query->rteperminfos;
#else
    List* permissions = NIL;
    ListCell* cell;
    foreach (cell, query->rtable) {
        RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        if (permission_of(query, entry) != nullptr) permissions = lappend(permissions, entry);
    }
    return permissions;
#endif
}
inline List* permissions_of(const PlannedStmt* statement) {
#if PG_VERSION_NUM >= 160000
    return statement->permInfos;
#else
    List* permissions = NIL;
    ListCell* cell;
    foreach (cell, statement->rtable) {
        RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        if (permission_of(statement, entry) != nullptr) permissions = lappend(permissions, entry);
    }
    return permissions;
#endif
}

// PostgreSQL's executor permission check of a list of permission entries (from
// permissions_of), as the executor would run it: ereports on a violation.
inline void check_permissions(List* permissions) {
#if PG_VERSION_NUM >= 160000
    (void)ExecCheckPermissions(NIL, permissions, true);
#else
    (void)ExecCheckRTPerms(permissions, true);
#endif
}

// A level's range table moves into a new query (a rewrite's new subquery): its permission
// entries go with it (on 16+ the entries' perminfoindex point into them). The level then gets a
// range table of its own through replace_range_table.
inline void take_permissions(const Query* from, Query* to) {
#if PG_VERSION_NUM >= 160000
    to->rteperminfos = from->rteperminfos;
#else
    (void)from;
    (void)to;
#endif
}

// `entry` (a relation entry of `from`, already copied) becomes the only entry of `to`: its
// permission entry is copied with it.
inline void copy_permission(const Query* from, const RangeTblEntry* original, RangeTblEntry* copy,
                            Query* to) {
#if PG_VERSION_NUM >= 160000
    copy->perminfoindex = 0;
    const Permission* permission = permission_of(from, original);
    if (permission == nullptr) return;
    to->rteperminfos = lappend(to->rteperminfos, copyObjectImpl(permission));
    copy->perminfoindex = static_cast<Index>(list_length(to->rteperminfos));
#else
    (void)from;
    (void)original;
    (void)copy;
    (void)to;
#endif
}

// ---- Outer-join-aware Vars (16+) ----------------------------------------------------------------
// A Var used above the outer join with range-table index `join` that can null it.
inline void nulled_by_join(Var* var, int join) {
#if PG_VERSION_NUM >= 160000
    var->varnullingrels = bms_add_member(var->varnullingrels, join);
#else
    (void)var;
    (void)join;
#endif
}

// flatten_join_alias_vars without a planner (16 added the PlannerInfo argument).
inline Node* flatten_join_aliases(Query* query, Node* node) {
#if PG_VERSION_NUM >= 160000
    return flatten_join_alias_vars(nullptr, query, node);
#else
    return flatten_join_alias_vars(query, node);
#endif
}

// ---- date_trunc of an infinite value (18+) ----------------------------------------------------
// Up to 17, date_trunc returns an infinite timestamp before it reads the unit (any unit, even
// an unknown one); 18 checks the unit first and raises for an unknown or unsupported one, as it
// does for a finite value. pgdp's total forms return NULL exactly where the built-in raises.
constexpr bool date_trunc_checks_unit_of_infinite_value = PG_VERSION_NUM >= 180000;

// ---- The GROUP entry (18+) ----------------------------------------------------------------------
// 18 gives a level with GROUP BY an RTE_GROUP entry and has its select list and HAVING refer to
// the grouping expressions through Vars of it. pgdp's rewrites compare and replace grouping
// expressions in the parse tree: flattened here first, as PostgreSQL's planner and Citus do
// (flatten_group_exprs). Returns whether anything changed. Levels with grouping sets are left
// alone (their Vars carry the grouping sets' nulling, which a flattening without a planner would
// drop; pgdp's rewrites refuse grouping sets anyway).
inline bool flatten_group_references(Query* level) {
#if PG_VERSION_NUM >= 180000
    if (!level->hasGroupRTE || level->groupingSets != NIL) return false;
    level->targetList = (List*)flatten_group_exprs(nullptr, level, (Node*)level->targetList);
    level->havingQual = flatten_group_exprs(nullptr, level, level->havingQual);
    return true;
#else
    (void)level;
    return false;
#endif
}

// A rewritten level gets a new range table (subqueries and functions pgdp built, no relation):
// no permission entries (they went with the old one, take_permissions) and no GROUP entry.
inline void replace_range_table(Query* level, List* rtable) {
    level->rtable = rtable;
#if PG_VERSION_NUM >= 160000
    level->rteperminfos = NIL;
#endif
#if PG_VERSION_NUM >= 180000
    level->hasGroupRTE = false;
#endif
}

// ---- Queries built by pgdp ----------------------------------------------------------------------
// A level without LIMIT (15 and 16 mark it LIMIT_OPTION_DEFAULT, 17 removed that value).
inline void clear_limit_option(Query* level) {
#if PG_VERSION_NUM >= 170000
    level->limitOption = LIMIT_OPTION_COUNT;
#else
    level->limitOption = LIMIT_OPTION_DEFAULT;
#endif
}

// ---- Executor -----------------------------------------------------------------------------------
// ExecutorRun: 18 dropped the execute_once argument. pgdp's hook takes it on every major (18
// passes true) and calls the next one with it through run_previous_executor.
using ExecutorRunFunction = void (*)(QueryDesc*, ScanDirection, uint64, bool);
template <ExecutorRunFunction Run>
#if PG_VERSION_NUM >= 180000
void executor_run_hook(QueryDesc* query, ScanDirection direction, uint64 count) {
    Run(query, direction, count, true);
}
#else
void executor_run_hook(QueryDesc* query, ScanDirection direction, uint64 count, bool execute_once) {
    Run(query, direction, count, execute_once);
}
#endif

inline void run_previous_executor(ExecutorRun_hook_type previous, QueryDesc* query, ScanDirection direction,
                                  uint64 count, bool execute_once) {
#if PG_VERSION_NUM >= 180000
    (void)execute_once;
    if (previous != nullptr) {
        previous(query, direction, count);
    } else {
        standard_ExecutorRun(query, direction, count);
    }
#else
    if (previous != nullptr) {
        previous(query, direction, count, execute_once);
    } else {
        standard_ExecutorRun(query, direction, count, execute_once);
    }
#endif
}

// ExecutorRun of a query run once to completion.
inline void run_to_completion(QueryDesc* query) {
#if PG_VERSION_NUM >= 180000
    ExecutorRun(query, ForwardScanDirection, 0);
#else
    ExecutorRun(query, ForwardScanDirection, 0, true);
#endif
}

// ---- Processes and privileges -------------------------------------------------------------------
// This backend's number from 1 (0: none): 15-16 MyBackendId, 17+ MyProcNumber + 1 (0-based,
// INVALID_PROC_NUMBER -1). Regular backends and background workers get 1..MaxBackends.
inline int backend_number() {
#if PG_VERSION_NUM >= 170000
    return MyProcNumber == INVALID_PROC_NUMBER ? 0 : MyProcNumber + 1;
#else
    return MyBackendId == InvalidBackendId ? 0 : MyBackendId;
#endif
}

// Calls visit(const RegisteredBgWorker&) for every background worker registered so far (18 made
// BackgroundWorkerList a dlist).
template <typename Visit>
void for_each_registered_worker(Visit visit) {
    // (PostgreSQL's container macros do not compile as C++.)
#if PG_VERSION_NUM >= 180000
    const dlist_node* end = &BackgroundWorkerList.head;
    for (const dlist_node* node = end->next; node != nullptr && node != end; node = node->next) {
#else
    for (const slist_node* node = BackgroundWorkerList.head.next; node != nullptr; node = node->next) {
#endif
        const char* base = reinterpret_cast<const char*>(node) - offsetof(RegisteredBgWorker, rw_lnode);
        visit(*reinterpret_cast<const RegisteredBgWorker*>(base));
    }
}

inline bool in_autovacuum_worker() {
#if PG_VERSION_NUM >= 170000
    return AmAutoVacuumWorkerProcess();
#else
    return IsAutoVacuumWorkerProcess();
#endif
}

inline AclResult function_aclcheck(Oid function, Oid role, AclMode mode) {
#if PG_VERSION_NUM >= 160000
    return object_aclcheck(ProcedureRelationId, function, role, mode);
#else
    return pg_proc_aclcheck(function, role, mode);
#endif
}

// The partition pruning of an Append or MergeAppend (PostgreSQL 18 keeps it in the statement).
template <typename AppendNode>
inline const PartitionPruneInfo* partition_prune_info(const PlannedStmt* statement, const AppendNode* node) {
#if PG_VERSION_NUM >= 180000
    if (node->part_prune_index < 0) return nullptr;
    return list_nth_node(PartitionPruneInfo, statement->partPruneInfos, node->part_prune_index);
#else
    (void)statement;
    return node->part_prune_info;
#endif
}

// MERGE's join conditions per result relation (PostgreSQL 17+, WHEN NOT MATCHED BY SOURCE).
inline const List* merge_join_conditions(const ModifyTable* modify) {
#if PG_VERSION_NUM >= 170000
    return modify->mergeJoinConditions;
#else
    (void)modify;
    return NIL;
#endif
}

// ---- Interval arithmetic and case mapping (the total forms, sql/total_*.cpp) ----------------------
// 17 added infinite intervals (every field at its minimum: -infinity, at its maximum: +infinity):
// timestamp + an infinite interval is that infinity, and raises for the opposite infinity; and
// timestamp - interval negates through interval_um_internal, which raises for a finite interval with
// a field at its minimum or whose negation is every field at its maximum (17.6,
// interval_um_internal). 15 has no infinite intervals and negates each field wrapping (-fwrapv).
inline int interval_infinity(const Interval* span) {
#if PG_VERSION_NUM >= 170000
    if (INTERVAL_IS_NOBEGIN(span)) return -1;
    if (INTERVAL_IS_NOEND(span)) return 1;
#else
    (void)span;
#endif
    return 0;
}

// The interval timestamp - `span` adds; false where the built-in's negation raises.
inline bool negate_interval(const Interval* span, Interval* negated) {
#if PG_VERSION_NUM >= 170000
    if (INTERVAL_IS_NOBEGIN(span)) {
        INTERVAL_NOEND(negated);
        return true;
    }
    if (INTERVAL_IS_NOEND(span)) {
        INTERVAL_NOBEGIN(negated);
        return true;
    }
    if (span->month == PG_INT32_MIN || span->day == PG_INT32_MIN || span->time == PG_INT64_MIN) return false;
#endif
    negated->month = static_cast<int32>(0U - static_cast<uint32>(span->month));
    negated->day = static_cast<int32>(0U - static_cast<uint32>(span->day));
    negated->time = static_cast<int64>(0ULL - static_cast<uint64>(span->time));
#if PG_VERSION_NUM >= 170000
    // A finite interval whose negation reads as +infinity (every field at its maximum) raises too.
    if (INTERVAL_NOT_FINITE(negated)) return false;
#endif
    return true;
}

// Whether a collation provider's case mapping (lower, upper) has no error path for valid text of
// bounded length: ICU ('i') and, from 17, the built-in provider ('b'; simple case mapping in 17,
// full in 18). libc ('c') is decided by the caller from its LC_CTYPE.
inline bool case_mapping_provider_is_total(char provider) {
#if PG_VERSION_NUM >= 170000
    if (provider == COLLPROVIDER_BUILTIN) return true;
#endif
    return provider == COLLPROVIDER_ICU;
}

}  // namespace pgdp::pg::compat
