// The version seam: the only file of pgdp that names PG_VERSION_NUM. Everything that differs
// between PostgreSQL majors is answered here, under one name per question, so that a new major is
// one edit in one file (compare Citus's include/pg_version_compat.h).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "catalog/pg_class.h"
#include "nodes/parsenodes.h"
#include "parser/parsetree.h"
#include "rewrite/prs2lock.h"
}

static_assert(PG_VERSION_NUM >= 150000, "pgdp needs PostgreSQL 15 or later");

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

}  // namespace pgdp::pg::compat
