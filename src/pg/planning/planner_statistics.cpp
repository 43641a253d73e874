#include "pg/planning/planner_statistics.hpp"

extern "C" {
#include "access/itup.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/plancat.h"
#include "storage/bufpage.h"
#include "storage/lmgr.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
}

#include <algorithm>
#include <cmath>

#include "pg/catalog/protected_relations.hpp"

namespace pgdp::pg {
namespace {

// pgdp.planning_rows: the size assumed for a hidden relation whose protection declares none.
double planning_rows_setting = 100000.0;

// Whether a relation is hidden from the planner, decided once per relation, user and command: the
// hooks ask for every column and index the planner estimates.
struct Decision {
    Oid relation;
    Oid user;
    Oid session_user;
    TimestampTz transaction_start;
    CommandId command;
    bool hidden;
    double rows;  // the public size (hidden only)
};
constexpr int kDecisions = 16;
Decision decisions[kDecisions];
int next_decision = 0;

bool may_read(Oid relation, Oid role) {
    bool missing = false;
    const AclResult result = pg_class_aclcheck_ext(relation, role, ACL_SELECT, &missing);
    if (missing) return true;  // dropped meanwhile: no rows to hide
    if (result != ACLCHECK_OK) return false;
    // Row security that hides rows from the role: it may not read all of them (the owner of a table
    // whose security is not forced, and roles with BYPASSRLS, read them all: RLS_NONE_ENV).
    return superuser_arg(role) || check_enable_rls(relation, role, true) != RLS_ENABLED;
}

// The statement's user may read the relation, and so may the person at the prompt: the session
// user, unless it is a member of the current role (SET ROLE), whose rows it may read anyway. Inside
// another role's SECURITY DEFINER function the plan is observable by the caller.
bool readable(Oid relation) {
    const Oid user = GetUserId();
    const Oid session_user = GetSessionUserId();
    if (!may_read(relation, user)) return false;
    return session_user == user || is_member_of_role(session_user, user) || may_read(relation, session_user);
}

// The declared size spread over the relations of the protected tree that hold rows (a partition
// tree is schema, as public as the query text).
double public_rows(const Protection& protection) {
    const double declared = protection.planning_rows > 0 ? protection.planning_rows : planning_rows_setting;
    int holders = 0;
    ListCell* cell;
    foreach (cell, find_all_inheritors(protection.root, NoLock, nullptr)) {
        if (RELKIND_HAS_STORAGE(get_rel_relkind(lfirst_oid(cell)))) ++holders;
    }
    return std::max(1.0, std::ceil(declared / std::max(holders, 1)));
}

Decision decide(Oid relation) {
    if (!OidIsValid(relation)) return Decision{};  // a column of no relation (a function's result)
    const Oid user = GetUserId();
    const Oid session_user = GetSessionUserId();
    const TimestampTz transaction_start = GetCurrentTransactionStartTimestamp();
    const CommandId command = GetCurrentCommandId(false);
    for (const Decision& kept : decisions) {
        if (kept.relation == relation && kept.user == user && kept.session_user == session_user &&
            kept.transaction_start == transaction_start && kept.command == command) {
            return kept;
        }
    }
    Decision decision{relation, user, session_user, transaction_start, command, false, 0.0};
    // The privilege check first: relations the user may read cost no catalog read.
    if (!readable(relation)) {
        // As committed now: planning any statement of any user may come here (a role refused
        // SELECT), and must take no predicate lock in a SERIALIZABLE transaction.
        const ProtectionCatalog catalog = read_protection_catalog(nullptr, SnapshotSelf);
        Protection protection{};
        if (find_protection(catalog, relation, &protection) && !readable(protection.root)) {
            decision.hidden = true;
            decision.rows = public_rows(protection);
        }
    }
    decisions[next_decision] = decision;
    next_decision = (next_decision + 1) % kDecisions;
    return decision;
}

int32 type_width(Oid relation, AttrNumber column) {
    Oid type = InvalidOid;
    int32 typmod = -1;
    Oid collation = InvalidOid;
    get_atttypetypmodcoll(relation, column, &type, &typmod, &collation);
    return get_typavgwidth(type, typmod);
}

// Index access methods whose cost estimate reads nothing of the index once it is marked
// hypothetical (GIN and BRIN skip their metapages; the others use only the sizes set here).
// Another access method's estimate is code that may read the index: such indexes are left out.
bool costed_from_sizes(Oid access_method) {
    return access_method == BTREE_AM_OID || access_method == HASH_AM_OID || access_method == GIST_AM_OID ||
           access_method == GIN_AM_OID || access_method == SPGIST_AM_OID || access_method == BRIN_AM_OID;
}

// An index of `tuples` entries sized from its key types (as PostgreSQL sizes a table it has never
// seen), with a btree's height from the same fan-out.
void size_index(Oid relation, double tuples, IndexOptInfo* index) {
    int32 key_width = 0;
    const ListCell* expression = list_head(index->indexprs);
    for (int i = 0; i < index->ncolumns; ++i) {
        if (index->indexkeys[i] > 0) {
            key_width += type_width(relation, index->indexkeys[i]);
        } else if (index->indexkeys[i] == 0 && expression != nullptr) {
            const Node* key = static_cast<const Node*>(lfirst(expression));
            key_width += get_typavgwidth(exprType(key), exprTypmod(key));
            expression = lnext(index->indexprs, expression);
        } else {
            key_width += sizeof(Datum);
        }
    }
    const double width = MAXALIGN(sizeof(IndexTupleData) + key_width) + sizeof(ItemIdData);
    const double per_page = std::max(2.0, std::floor((BLCKSZ - SizeOfPageHeaderData) * 0.9 / width));
    const double leaves = std::max(1.0, std::ceil(tuples / per_page));
    double pages = leaves + 1.0;  // and the metapage
    int height = 0;
    for (double level = leaves; level > 1.0; level = std::ceil(level / per_page)) {
        ++height;
        pages += std::ceil(level / per_page);
    }
    index->tuples = tuples;
    index->pages = static_cast<BlockNumber>(std::min(pages, static_cast<double>(MaxBlockNumber)));
    index->tree_height = index->relam == BTREE_AM_OID ? height : -1;
    index->hypothetical = true;
}

}  // namespace

[[noreturn]] void refuse_hidden_foreign_table(Oid relation) {
    const char* name = get_rel_name(relation);
    ereport(
        ERROR,
        (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
         errmsg(
             "foreign table \"%s\" of a protected relation cannot be planned for a user who may not read it",
             name != nullptr ? name : "?"),
         errdetail("Its foreign-data wrapper estimates its size from the data itself (a file, a remote "
                   "server), and the plan would show it."),
         errhint("Read the protected relation as a role with SELECT on it, or make the partition a local "
                 "table.")));
}

void plan_hidden_relation_from_public_facts(PlannerInfo* root, Oid relation, bool inheritance_parent,
                                            RelOptInfo* rel) {
    const Decision decision = decide(relation);
    if (!decision.hidden) return;
    // A decision on public facts (the relation's kind), before the wrapper's estimate runs.
    if (rel->fdwroutine != nullptr) refuse_hidden_foreign_table(relation);
    // Planned again for a user who may read it (a prepared statement after SET ROLE).
    root->glob->dependsOnRole = true;
    rel->statlist = NIL;
    if (!inheritance_parent) {
        // A table PostgreSQL has never seen is sized from its column types the same way
        // (estimate_rel_size); the widths come from public_column_width.
        const int32 width = get_relation_data_width(relation, nullptr) + MAXALIGN(SizeofHeapTupleHeader) +
                            static_cast<int32>(sizeof(ItemIdData));
        const double density = std::max(1, static_cast<int>((BLCKSZ - SizeOfPageHeaderData) / width));
        rel->tuples = decision.rows;
        rel->pages = static_cast<BlockNumber>(
            std::min(std::ceil(decision.rows / density), static_cast<double>(MaxBlockNumber)));
        rel->allvisfrac = 0.0;
    }
    List* kept = NIL;
    ListCell* cell;
    foreach (cell, rel->indexlist) {
        IndexOptInfo* index = lfirst_node(IndexOptInfo, cell);
        if (!costed_from_sizes(index->relam)) continue;
        size_index(relation, inheritance_parent ? decision.rows : rel->tuples, index);
        kept = lappend(kept, index);
    }
    rel->indexlist = kept;
}

void lock_indexes_of_hidden_relations(const PlannedStmt* statement) {
    ListCell* cell;
    foreach (cell, statement->rtable) {
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        // The planner opens the indexes of every relation it scans (not of inheritance parents).
        if (entry->rtekind != RTE_RELATION || entry->inh || !decide(entry->relid).hidden) continue;
        Relation relation = RelationIdGetRelation(entry->relid);
        if (relation == nullptr) continue;
        List* indexes = relation->rd_rel->relhasindex ? RelationGetIndexList(relation) : NIL;
        RelationClose(relation);
        ListCell* index;
        foreach (index, indexes) LockRelationOid(lfirst_oid(index), entry->rellockmode);
    }
}

bool hide_column_statistics(Oid relation, VariableStatData* statistics) {
    if (!decide(relation).hidden) return false;
    statistics->statsTuple = nullptr;
    statistics->freefunc = nullptr;
    return true;
}

bool hide_index_statistics(Oid index, VariableStatData* statistics) {
    const Oid relation = IndexGetRelation(index, true);
    if (!OidIsValid(relation) || !decide(relation).hidden) return false;
    statistics->statsTuple = nullptr;
    statistics->freefunc = nullptr;
    return true;
}

int32 public_column_width(Oid relation, AttrNumber column) {
    if (column <= 0 || !decide(relation).hidden) return 0;
    return type_width(relation, column);
}

void define_planner_statistics_settings() {
    DefineCustomRealVariable(
        "pgdp.planning_rows",
        "Rows the planner assumes for a protected relation the user may not read, unless its protection "
        "declares a size (pgdp.set_planning_rows).",
        "Such a statement is planned without statistics of the relation's rows or its real size, which "
        "plans would reveal (docs/privacy.md \"Plans independent of hidden rows\"); a partitioned "
        "relation's rows are spread evenly over its partitions.",
        &planning_rows_setting, 100000.0, 1.0, 1e15, PGC_USERSET, 0, nullptr, nullptr, nullptr);
}

}  // namespace pgdp::pg
