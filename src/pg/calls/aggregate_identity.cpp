#include "pg/calls/aggregate_identity.hpp"

extern "C" {
#include "access/htup_details.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
}

#include <cstring>

namespace pgdp::pg {
namespace {

struct IdentityEntry {
    Oid aggfnoid;  // hash key
    AggregateIdentity identity;
};
HTAB* identities = nullptr;

// True if `library` (a path or file name) is the pgdp library.
bool is_pgdp_library(const char* library) {
    const char* base = std::strrchr(library, '/');
    base = base != nullptr ? base + 1 : library;
    return std::strncmp(base, "pgdp", 4) == 0 && (base[4] == '\0' || base[4] == '.');
}

// The row whose final function is `symbol` of the pgdp library `library`.
AggregateIdentity identity_of_final(const char* symbol, const char* library) {
    if (!is_pgdp_library(library)) return identity_table::kNotPgdp;
    for (const AggregateDefinition& row : kAggregates) {
        if (std::strcmp(symbol, row.final_symbol) == 0) return identity_table::identity_of(row);
    }
    return identity_table::kNotPgdp;
}

AggregateIdentity lookup_identity(Oid aggfnoid) {
    AggregateIdentity identity = identity_table::kNotPgdp;
    HeapTuple aggregate = SearchSysCache1(AGGFNOID, ObjectIdGetDatum(aggfnoid));
    if (!HeapTupleIsValid(aggregate)) return identity;
    const Oid final_function = ((Form_pg_aggregate)GETSTRUCT(aggregate))->aggfinalfn;
    ReleaseSysCache(aggregate);
    if (!OidIsValid(final_function)) return identity;
    HeapTuple procedure = SearchSysCache1(PROCOID, ObjectIdGetDatum(final_function));
    if (!HeapTupleIsValid(procedure)) return identity;
    bool source_null = true;
    bool binary_null = true;
    const Datum source = SysCacheGetAttr(PROCOID, procedure, Anum_pg_proc_prosrc, &source_null);
    const Datum binary = SysCacheGetAttr(PROCOID, procedure, Anum_pg_proc_probin, &binary_null);
    const bool is_c = ((Form_pg_proc)GETSTRUCT(procedure))->prolang == ClanguageId;
    if (is_c && !source_null && !binary_null) {
        char* symbol = TextDatumGetCString(source);
        char* library = TextDatumGetCString(binary);
        identity = identity_of_final(symbol, library);
        if (std::strcmp(symbol, kOmittedBoundsFinalSymbol) == 0 && is_pgdp_library(library)) {
            // A form without the bounds stands for the NULL-bound aggregate of the same name.
            char* name = get_func_name(aggfnoid);
            if (name != nullptr) {
                identity = identity_table::named(name);
                identity.omits_bounds = identity.is_pgdp;
                pfree(name);
            }
        }
        pfree(symbol);
        pfree(library);
    }
    ReleaseSysCache(procedure);
    return identity;
}

void forget_identities(Datum, int, uint32) {
    if (identities != nullptr) hash_destroy(identities);
    identities = nullptr;
}

bool release_walker(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Aggref) && identify_aggregate(castNode(Aggref, node)->aggfnoid).is_pgdp) return true;
    if (IsA(node, Query)) {
        return query_tree_walker(castNode(Query, node),
                                 reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(release_walker)),
                                 context, 0);
    }
    return expression_tree_walker(
        node, reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(release_walker)), context);
}

}  // namespace

AggregateIdentity identify_aggregate(Oid aggfnoid) {
    static bool callbacks_registered = false;
    if (!callbacks_registered) {
        // CREATE OR REPLACE AGGREGATE / FUNCTION may change what an OID is.
        CacheRegisterSyscacheCallback(AGGFNOID, forget_identities, 0);
        CacheRegisterSyscacheCallback(PROCOID, forget_identities, 0);
        callbacks_registered = true;
    }
    bool found = false;
    if (identities != nullptr) {
        auto* entry = static_cast<IdentityEntry*>(hash_search(identities, &aggfnoid, HASH_FIND, &found));
        if (found) return entry->identity;
    }
    // Catalog lookups may process invalidations, which drop the table: create it afterwards.
    const AggregateIdentity identity = lookup_identity(aggfnoid);
    if (identities == nullptr) {
        HASHCTL control{};
        control.keysize = sizeof(Oid);
        control.entrysize = sizeof(IdentityEntry);
        identities = hash_create("pgdp aggregate identities", 64, &control, HASH_ELEM | HASH_BLOBS);
    }
    auto* entry = static_cast<IdentityEntry*>(hash_search(identities, &aggfnoid, HASH_ENTER, &found));
    entry->identity = identity;
    return identity;
}

bool contains_release(Node* node) { return release_walker(node, nullptr); }

}  // namespace pgdp::pg
