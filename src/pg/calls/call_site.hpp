// What every support function of one pgdp aggregate call (transition, combine, final) keeps: the
// parameters the call was charged with and, for a final function, the release plan charged for
// it (execution/release_execution.hpp charged_call). Shared by the aggregates' support functions
// (sql/aggregates.cpp, sql/histogram_aggregate.cpp).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "fmgr.h"
}

#include <type_traits>

#include "core/aggregate_release.hpp"
#include "core/centred_squares.hpp"
#include "pg/calls/aggregate_identity.hpp"
#include "pg/calls/parameters.hpp"

namespace pgdp::pg {

// Kept in the support function's fn_extra, allocated in fn_mcxt on its first call. Plain data,
// freed with fn_mcxt.
struct CallSite {
    Parameters parameters;  // as charged (release_execution.hpp): never evaluated again
    AggregateKind kind;
    bool partial_totals;  // a distributed call: adds workers' totals (plan_marks.hpp reads_partial_totals)
    bool squares;         // dp_variance, dp_stddev: also totals the centred squares, in these units
    pgdp::CentredSquareUnits square_units;
    bool planned;  // final functions: `plan` is the release plan charged for the call
    pgdp::AggregatePlan plan;
    int plain_final_calls;  // final calls of a plain (ungrouped) aggregate
    // dp_count_distinct: the value type's extended hash function and the call's collation.
    FmgrInfo value_hash;
    Oid collation;
};
static_assert(std::is_trivially_copyable_v<CallSite> && alignof(CallSite) <= MAXIMUM_ALIGNOF,
              "call sites are plain data in palloc'd memory");

// The call site of fcinfo, created on the first call from the parameters registered when the
// execution started and, for a final function, the release plan it was charged with. ereports
// outside a pgdp aggregate (a window, another aggregate calling pgdp's support functions).
CallSite& call_site(FunctionCallInfo fcinfo, bool final_call);

// A distributed call's last two arguments, for the statistics whose workers count rows per state key
// (core/aggregate_release.hpp DistributedForm): the key (of type key_type: int4 bin or leaf,
// int8 hash) and the rows a worker counted with it. keyed is false for a NULL key (rows of NULL
// or NaN values: the count must be 0). ereports XX001 for a NULL count, a count without a key or
// arguments of other types; the key's range and the count's sign are the core's to check.
struct PartialCount {
    bool keyed;
    int64 key;
    int64 count;
};
PartialCount partial_count(FunctionCallInfo fcinfo, Oid key_type);

// The aggregate's memory context; ereports for a window or outside an aggregate.
MemoryContext aggregate_context(FunctionCallInfo fcinfo);

// A final function's call site, once it may release: charged by this execution for `identity`'s
// kind (fail closed otherwise), no other role's code active since the charge, and, for a plain
// aggregate, its first final call of the charge (a rescan would release twice).
const CallSite& final_call_site(FunctionCallInfo fcinfo, const AggregateIdentity& identity);

}  // namespace pgdp::pg
