// SQL entry points of the standalone samplers (VOLATILE). Each returns an exact multiple of a
// power-of-two grid drawn with exact discrete samplers from the backend's CSPRNG.
#include "pg/base/postgres_headers.hpp"

#include "core/noise.hpp"
#include "core/validate.hpp"
#include "pg/base/cpp_boundary.hpp"
#include "pg/base/strong_random.hpp"

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_gaussian_noise);
PG_FUNCTION_INFO_V1(pgdp_laplace_noise);
PG_FUNCTION_INFO_V1(pgdp_tlap_noise);

// gaussian_noise(sigma) -> float8
Datum pgdp_gaussian_noise(PG_FUNCTION_ARGS) {
    const double sigma = PG_GETARG_FLOAT8(0);
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    double noise = 0.0;
    PGDP_GUARDED(pgdp::require_sampler_scale("sigma", sigma);
                 noise = pgdp::sample_gaussian_noise(sigma, random));
    PG_RETURN_FLOAT8(noise);
}

// laplace_noise(scale) -> float8
Datum pgdp_laplace_noise(PG_FUNCTION_ARGS) {
    const double scale = PG_GETARG_FLOAT8(0);
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    double noise = 0.0;
    PGDP_GUARDED(pgdp::require_sampler_scale("scale", scale);
                 noise = pgdp::sample_laplace_noise(scale, random));
    PG_RETURN_FLOAT8(noise);
}

// tlap_noise(epsilon, delta, sensitivity) -> float8
Datum pgdp_tlap_noise(PG_FUNCTION_ARGS) {
    const double epsilon = PG_GETARG_FLOAT8(0);
    const double delta = PG_GETARG_FLOAT8(1);
    const double sensitivity = PG_GETARG_FLOAT8(2);
    pgdp::RandomSource& random = pgdp::pg::release_random_source();
    double noise = 0.0;
    PGDP_GUARDED(noise = pgdp::sample_truncated_laplace_noise(epsilon, delta, sensitivity, random));
    PG_RETURN_FLOAT8(noise);
}

}  // extern "C"
