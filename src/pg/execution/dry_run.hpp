// A dry run (pgdp.cost, docs/dry-run.md): a statement planned and started as if it were run, its
// releases charged to nothing. The charge (charge.cpp) builds the same charge items as for the
// ledger and hands them here instead; the release cache (release_cache.cpp) only looks its answer
// up. No row is read: the plan never runs.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "executor/execdesc.h"
}

#include "core/aggregate_release.hpp"
#include "pg/ledger/ledger_channel.hpp"

namespace pgdp::pg {

// One release the statement would be charged, in the ledger's order.
struct DryRunRelease {
    ChargeItem item;
    double value_half_width_95;  // NaN: not known before the rows (core value_half_width)
};

struct DryRunResult {
    DryRunRelease* releases;  // palloc'd, `count` of them
    int count;
    bool cached;  // the release cache holds this statement's answer: running it charges nothing
};

// Parses, analyses, plans and starts `statement_text` (one SELECT) with PostgreSQL's and pgdp's
// checks at ExecutorStart, then ends it without running it. Raises what starting the statement
// would raise (permissions, DP-only access, refused shapes, parameters no release can honour);
// never the ledger's refusals (budgets are reported by pgdp.cost, not checked here).
DryRunResult dry_run(const char* statement_text);

// True if `query` is the statement of the dry run in progress (charge.cpp, release_cache.cpp).
bool is_dry_run(const QueryDesc* query);

// The charge of one release site (charge.cpp charge_final_calls), `multiplicity` releases of it.
void note_dry_run_release(const ChargeItem& item, const pgdp::AggregateParameters& parameters,
                          const pgdp::AggregatePlan& plan, int multiplicity);

// The release cache would answer the dry run's statement (nothing charged).
void note_dry_run_cached();

// A charge of any other statement while a dry run is in progress (a function run while the
// statement is parsed, planned or started): refused, so that a dry run charges nothing; while it
// is parsed or planned, with the query's own refusal (42501).
void refuse_charge_during_dry_run(const QueryDesc* query, const char* aggregate_name);

}  // namespace pgdp::pg
