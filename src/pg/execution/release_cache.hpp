// The release cache (issue 13; docs/architecture.md "Release cache", docs/privacy.md "The release
// cache"): a SELECT with pgdp releases whose every relation has a data epoch
// (pgdp.data_epochs), run to completion, stores the rows it returned under its scope (the
// session user, or the cache group an admin set) and a key: the SHA-256 of the normalized
// statement (its query tree without parse locations, fingerprinted at planning), its bind
// parameters and its relations' epochs. The same statement with the same parameters over the same
// epochs in the same scope is then answered with the stored rows, charging nothing; a new epoch
// is a new key, hence a new release with new noise. Concurrent first requests of one key are
// serialised by a transaction advisory lock: one charge, the others read the stored answer.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "executor/execdesc.h"
#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"
}

#include "pg/planning/plan_marks.hpp"

namespace pgdp::pg {

// GUCs pgdp.release_cache (on), pgdp.release_cache_max_age (7 days), and the admins' bounds
// pgdp.release_cache_max_entry_bytes, _max_role_bytes and _lock_timeout.
void define_release_cache_settings();
struct ReleaseCacheSettings {
    bool enabled;
    int max_age_seconds;
    // Bounds of what one entry and one role's entries may store (bytes of the statement's text,
    // its epochs and the cells' binary forms); set by admins only (PGC_SUSET): an analyst cannot
    // fill the table it cannot delete from.
    int max_entry_bytes;
    int max_role_bytes;
    // How long a first request waits for a concurrent identical one before it releases uncached.
    int lock_timeout_ms;
};
extern ReleaseCacheSettings release_cache_settings;

// ExecutorStart, before the charge: true if the cache answers this execution (nothing is charged;
// the run returns the stored rows). Otherwise, if the execution may be stored, it is noted so.
bool answer_from_release_cache(QueryDesc* query);

// ExecutorRun: true if the run was answered from the cache (the plan is not run; an execution to
// store is copied by cache_store.hpp).
bool run_from_release_cache(QueryDesc* query, ScanDirection direction, uint64 count);

// True if the latest statement of this session with pgdp releases was answered from the release
// cache (nothing charged), false if it was released and charged (or none ran yet).
bool latest_release_answered_from_cache();

}  // namespace pgdp::pg
