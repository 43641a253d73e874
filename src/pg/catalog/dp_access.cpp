#include "pg/catalog/dp_access.hpp"

extern "C" {
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
}

#include "pg/catalog/protected_relations.hpp"
#include "pg/planning/plan_marks.hpp"

namespace pgdp::pg {
namespace {

[[noreturn]] void refuse_access(const char* relation, const char* detail) {
    ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                    errmsg("permission denied for relation %s", relation != nullptr ? relation : "?"),
                    errdetail("%s", detail),
                    errhint("Ask an admin for DP-only access (pgdp.grant_access) and make person-level "
                            "releases: SELECT dp_count(...) FROM it ...; pgdp.dp_access lists who has it.")));
}

}  // namespace

bool has_access_grant(Oid root, Oid role) {
    // Columns 1-2 of pgdp.access_grants: relation regclass, role regrole.
    return catalog_has_oid("access_grants", 1, root, role, nullptr);
}

void check_dp_access(QueryDesc* query, bool explain, ProtectionsOf protections_of) {
    const PlannedStmt* statement = query->plannedstmt;
    List* relations = dp_only_relations(statement);
    if (relations == NIL) return;
    const char* first = get_rel_name(linitial_oid(relations));
    if (explain) {
        ereport(ERROR,
                (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                 errmsg("EXPLAIN of a release over %s is not available with DP-only access",
                        first != nullptr ? first : "?"),
                 errdetail("Plans show the planner's row estimates, taken from statistics of the rows."),
                 errhint("Run the query itself; its releases are the private answer.")));
    }
    const ProtectionCatalog& protections = protections_of(query);
    if (!is_person_level_plan(statement, protections)) {
        refuse_access(first,
                      "This plan was made for DP-only access under a protection that has changed since; "
                      "prepare the statement again.");
    }
    const Oid role = GetUserId();
    ListCell* cell;
    foreach (cell, relations) {
        const Oid relation = lfirst_oid(cell);
        Protection protection;
        const char* name = get_rel_name(relation);
        if (!find_protection(protections, relation, &protection)) {
            refuse_access(name, "The relation is no longer protected, so releases over it are not DP-only.");
        }
        if (pg_class_aclcheck(relation, role, ACL_SELECT) == ACLCHECK_OK) continue;
        if (!has_access_grant(protection.root, role)) {
            refuse_access(name,
                          "The role running the query has no DP-only access to the relation (it may "
                          "have been revoked, or the plan was made for another role).");
        }
    }
    list_free(relations);
}

}  // namespace pgdp::pg
