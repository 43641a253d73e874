// SHA-256 through PostgreSQL's cryptohash API (OpenSSL in Debian's build): the release cache's
// statement fingerprints and keys. ereports on failure.
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "common/cryptohash.h"
#include "common/sha2.h"
}

namespace pgdp::pg {

pg_cryptohash_ctx* begin_sha256();
void add_bytes(pg_cryptohash_ctx* context, const void* data, size_t length);
// Writes PG_SHA256_DIGEST_LENGTH bytes and frees the context.
void end_sha256(pg_cryptohash_ctx* context, uint8* digest);

}  // namespace pgdp::pg
