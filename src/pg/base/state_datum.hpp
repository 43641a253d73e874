// A core aggregate state's bytes (core/state_bytes.hpp) as a bytea, for the serialize functions
// of the states that have their own format (sql/histogram_aggregate.cpp, sql/quantile_aggregate.cpp).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "utils/memutils.h"
}

#include <cstring>

#include "core/state_bytes.hpp"

namespace pgdp::pg {

// In CurrentMemoryContext, or nullptr when memory ran out: called inside the exception barrier
// while the bytes are alive, so it must not ereport.
inline bytea* state_bytea_or_null(const pgdp::StateBytes& bytes) {
    auto* out = static_cast<bytea*>(
        MemoryContextAllocExtended(CurrentMemoryContext, VARHDRSZ + bytes.size(), MCXT_ALLOC_NO_OOM));
    if (out == nullptr) return nullptr;
    SET_VARSIZE(out, VARHDRSZ + bytes.size());
    std::memcpy(VARDATA(out), bytes.data(), bytes.size());
    return out;
}

}  // namespace pgdp::pg
