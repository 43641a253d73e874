#include "pg/base/sha256.hpp"

namespace pgdp::pg {

pg_cryptohash_ctx* begin_sha256() {
    pg_cryptohash_ctx* context = pg_cryptohash_create(PG_SHA256);
    if (context == nullptr || pg_cryptohash_init(context) < 0) elog(ERROR, "pgdp: SHA-256 unavailable");
    return context;
}

void add_bytes(pg_cryptohash_ctx* context, const void* data, size_t length) {
    if (pg_cryptohash_update(context, static_cast<const uint8*>(data), length) < 0) {
        elog(ERROR, "pgdp: SHA-256 failed");
    }
}

void end_sha256(pg_cryptohash_ctx* context, uint8* digest) {
    if (pg_cryptohash_final(context, digest, PG_SHA256_DIGEST_LENGTH) < 0)
        elog(ERROR, "pgdp: SHA-256 failed");
    pg_cryptohash_free(context);
}

}  // namespace pgdp::pg
