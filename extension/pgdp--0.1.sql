-- pgdp 0.1: the calibration library and the secure samplers.
\echo Use "CREATE EXTENSION pgdp" to load this file. \quit

-- ---------------------------------------------------------------------------------------------
-- Gaussian calibration

CREATE FUNCTION gaussian_sigma(epsilon float8, delta float8, sensitivity float8 DEFAULT 1,
                               method text DEFAULT 'analytic')
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_gaussian_sigma'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gaussian_sigma(float8, float8, float8, text) IS
'Standard deviation of Gaussian noise giving (epsilon, delta)-DP for L2 sensitivity `sensitivity`. '
'Methods: analytic (optimal, default), classic, dwork2006, vinterbo, vinterbo_closed, zhao1, zhao2, '
'pdp, zhao3, zhao4, zcdp. See docs/mechanisms.md.';

CREATE FUNCTION gaussian_delta(sigma float8, epsilon float8, sensitivity float8 DEFAULT 1)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_gaussian_delta'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gaussian_delta(float8, float8, float8) IS
'Exact delta of Gaussian noise sigma at epsilon (Balle-Wang privacy profile).';

CREATE FUNCTION gaussian_epsilon(sigma float8, delta float8, sensitivity float8 DEFAULT 1)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_gaussian_epsilon'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gaussian_epsilon(float8, float8, float8) IS
'Smallest epsilon for which Gaussian noise sigma is (epsilon, delta)-DP (exact profile, rounded up).';

CREATE FUNCTION gaussian_accuracy(epsilon float8, delta float8, sensitivity float8 DEFAULT 1,
                                  alpha float8 DEFAULT 0.05, method text DEFAULT 'analytic')
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_gaussian_accuracy'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gaussian_accuracy(float8, float8, float8, float8, text) IS
'Half-width a with P(|noise| > a) = alpha for the Gaussian noise gaussian_sigma(epsilon, delta, sensitivity, method).';

-- ---------------------------------------------------------------------------------------------
-- Truncated Laplace (Geng et al.)

CREATE FUNCTION tlap_params(epsilon float8, delta float8, sensitivity float8 DEFAULT 1,
                            OUT lambda float8, OUT bound float8, OUT amplitude float8,
                            OUT power float8)
RETURNS record
AS 'MODULE_PATHNAME', 'pgdp_tlap_params'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION tlap_params(float8, float8, float8) IS
'Truncated Laplace mechanism for (epsilon, delta)-DP, 0 < delta < 1/2: scale lambda, bound A, '
'noise amplitude E|X| and power E X^2.';

CREATE FUNCTION tlap_accuracy(epsilon float8, delta float8, sensitivity float8 DEFAULT 1,
                              alpha float8 DEFAULT 0.05)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_tlap_accuracy'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION tlap_accuracy(float8, float8, float8, float8) IS
'Half-width a with P(|noise| > a) = alpha for the truncated Laplace mechanism.';

-- ---------------------------------------------------------------------------------------------
-- Samplers: exact discrete noise on a power-of-two grid from pg_strong_random. PARALLEL
-- RESTRICTED because the superuser-only pgdp.test_seed generator is per process.

CREATE FUNCTION gaussian_noise(sigma float8)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_gaussian_noise'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION gaussian_noise(float8) IS
'One draw of discrete Gaussian noise with standard deviation sigma on a power-of-two grid.';

CREATE FUNCTION laplace_noise(scale float8)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_laplace_noise'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION laplace_noise(float8) IS
'One draw of discrete Laplace noise with scale `scale` on a power-of-two grid.';

CREATE FUNCTION tlap_noise(epsilon float8, delta float8, sensitivity float8 DEFAULT 1)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_tlap_noise'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION tlap_noise(float8, float8, float8) IS
'One draw of truncated discrete Laplace noise for (epsilon, delta) and sensitivity.';
