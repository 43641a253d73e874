#include "pg/trust/authors.hpp"

extern "C" {
#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_proc.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/catcache.h"
#include "utils/syscache.h"
}

#include "pg/base/pg_compat.hpp"

namespace pgdp::pg {

// pgdp.designate_admin grants EXECUTE on pgdp.set_budget (revoked from PUBLIC); no built-in role
// such as pg_read_all_data carries that privilege.
bool is_admin(Oid role) {
    const Oid schema = get_namespace_oid("pgdp", true);
    if (!OidIsValid(schema)) return false;
    bool admin = false;
    CatCList* candidates = SearchSysCacheList1(PROCNAMEARGSNSP, CStringGetDatum("set_budget"));
    for (int i = 0; i < candidates->n_members && !admin; ++i) {
        const Form_pg_proc form = (Form_pg_proc)GETSTRUCT(&candidates->members[i]->tuple);
        admin = form->pronamespace == schema &&
                compat::function_aclcheck(form->oid, role, ACL_EXECUTE) == ACLCHECK_OK;
    }
    ReleaseSysCacheList(candidates);
    return admin;
}

bool is_admin_or_superuser(Oid role) { return superuser_arg(role) || is_admin(role); }

bool is_trusted_author(Oid role) { return role == GetSessionUserId() || is_admin_or_superuser(role); }

const char* role_name(Oid role) {
    const char* name = GetUserNameFromId(role, true);
    return name != nullptr ? name : psprintf("%u", role);
}

namespace {

// The owner column `owner` of the catalog row `object` in syscache `cache`; InvalidOid if none.
// (clang-format 14 and 19+ disagree on the spacing of a pointer to member.)
// clang-format off
template <typename Row>
Oid owner_in_catalog(int cache, Oid object, Oid Row::*owner) {
    // clang-format on
    HeapTuple tuple = SearchSysCache1(cache, ObjectIdGetDatum(object));
    if (!HeapTupleIsValid(tuple)) return InvalidOid;
    const Oid result = reinterpret_cast<const Row*>(GETSTRUCT(tuple))->*owner;
    ReleaseSysCache(tuple);
    return result;
}

}  // namespace

Oid function_owner(Oid function) { return owner_in_catalog(PROCOID, function, &FormData_pg_proc::proowner); }

Oid relation_owner(Oid relation) { return owner_in_catalog(RELOID, relation, &FormData_pg_class::relowner); }

}  // namespace pgdp::pg
