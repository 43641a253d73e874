// The randomness behind every release.
#pragma once

#include "core/random_source.hpp"

namespace pgdp::pg {

// The backend's random source: pg_strong_random (OpenSSL's CSPRNG in Debian's build), read in
// blocks; or, only when a superuser has set pgdp.test_seed >= 0, a deterministic generator for
// reproducible regression tests. Throws std::runtime_error if pg_strong_random fails.
RandomSource& release_random_source();

// Registers the pgdp.test_seed GUC (called from _PG_init).
void define_random_settings();

}  // namespace pgdp::pg
