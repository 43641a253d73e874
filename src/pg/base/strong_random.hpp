// The randomness behind every release.
#pragma once

#include "core/random_source.hpp"

namespace pgdp::pg {

// The backend's random source: pg_strong_random (OpenSSL's CSPRNG in Debian's build), read in
// blocks; or, when pgdp.test_seed >= 0, a deterministic generator for reproducible regression
// tests. Call it OUTSIDE the exception barrier: it may ereport. The seed is honoured only while
// the current user is a superuser (ERROR otherwise, so a seed set by ALTER ROLE/DATABASE can
// never make an analyst's noise predictable), and each new seed raises a WARNING once.
RandomSource& release_random_source();

// Registers the pgdp.test_seed GUC (called from _PG_init).
void define_random_settings();

}  // namespace pgdp::pg
