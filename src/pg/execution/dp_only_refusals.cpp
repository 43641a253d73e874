#include "pg/execution/dp_only_refusals.hpp"

extern "C" {
#include "access/sysattr.h"
#include "miscadmin.h"
#include "nodes/bitmapset.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
}

#include "pg/base/pg_compat.hpp"
#include "pg/catalog/dp_access.hpp"
#include "pg/catalog/protected_relations.hpp"

namespace pgdp::pg {
namespace {

// PostgreSQL's SELECT check of one relation (ExecCheckRTEPerms / ExecCheckOneRelPerms): the
// table privilege, or else a column privilege for every column read (any column when none is
// named, as for count(*); all of them for a whole-row reference).
bool select_refused(const compat::Permission* permission, Oid user) {
    if ((permission->requiredPerms & ACL_SELECT) == 0) return false;
    if (pg_class_aclcheck(permission->relid, user, ACL_SELECT) == ACLCHECK_OK) return false;
    if (bms_is_empty(permission->selectedCols)) {
        return pg_attribute_aclcheck_all(permission->relid, user, ACL_SELECT, ACLMASK_ANY) != ACLCHECK_OK;
    }
    int member = -1;
    while ((member = bms_next_member(permission->selectedCols, member)) >= 0) {
        const AttrNumber column = static_cast<AttrNumber>(member + FirstLowInvalidHeapAttributeNumber);
        const bool allowed =
            column == InvalidAttrNumber
                ? pg_attribute_aclcheck_all(permission->relid, user, ACL_SELECT, ACLMASK_ALL) == ACLCHECK_OK
                : pg_attribute_aclcheck(permission->relid, column, user, ACL_SELECT) == ACLCHECK_OK;
        if (!allowed) return true;
    }
    return false;
}

// The other privileges at the table level only: a column privilege PostgreSQL would accept reads
// as refused here, so this check stops early and leaves the refusal to PostgreSQL (no hint), never
// the other way round.
bool others_refused(const compat::Permission* permission, Oid user) {
    const AclMode others = permission->requiredPerms & ~ACL_SELECT;
    return others != 0 && pg_class_aclmask(permission->relid, user, others, ACLMASK_ALL) != others;
}

// The protected root whose DP-only grant covers `relation` for `user` (itself, or the root of a
// partition or inheritance child), or InvalidOid.
Oid dp_only_root(Oid relation, Oid user) {
    const ProtectionCatalog catalog = read_protection_catalog(nullptr);
    Protection protection;
    if (!find_protection(catalog, relation, &protection) || !has_access_grant(protection.root, user))
        return InvalidOid;
    return protection.root;
}

}  // namespace

void refuse_reads_under_dp_only_access(const PlannedStmt* statement) {
    List* permissions = compat::permissions_of(statement);
    ListCell* cell;
    foreach (cell, permissions) {
        const auto* permission = static_cast<const compat::Permission*>(lfirst(cell));
        const Oid user = OidIsValid(permission->checkAsUser) ? permission->checkAsUser : GetUserId();
        const bool select = select_refused(permission, user);
        if (!select && !others_refused(permission, user)) continue;
        // The first relation PostgreSQL refuses: ours to explain only if it is a SELECT refused
        // under DP-only access.
        if (!select) return;
        const Oid root = dp_only_root(permission->relid, user);
        if (!OidIsValid(root)) return;
        const char* name = get_rel_name(permission->relid);
        const char* granted = get_rel_name(root);
        if (name == nullptr) name = "?";
        if (granted == nullptr) granted = "?";
        // A partition or inheritance child: the grant is on its protected root.
        const char* part = root == permission->relid ? "" : psprintf(" (%s is part of it)", name);
        ereport(
            ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied for table %s", name),
             errhint("You have DP-only access to %s%s: it answers pgdp's aggregates only (count(*): "
                     "dp_count; sum, avg: dp_sum, dp_mean; min, max: dp_quantile, dp_median), never rows or "
                     "window functions. pgdp.my_relations and pgdp.my_columns describe it.",
                     granted, part)));
    }
}

}  // namespace pgdp::pg
