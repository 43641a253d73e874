-- Every SQL entry point validates its arguments: SQLSTATE 22023, a message naming the argument,
-- and a hint. NULL arguments give NULL (STRICT).
CREATE EXTENSION IF NOT EXISTS pgdp;

CREATE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
    hint text;
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    RETURN state || ': ' || message || E'\n       HINT: ' || hint;
END $$;

SELECT query, pg_temp.error_of('SELECT ' || query) AS error
FROM (VALUES
    -- epsilon
    ('gaussian_sigma(0, 1e-5)'), ('gaussian_sigma(-1, 1e-5)'), ('gaussian_sigma(''NaN'', 1e-5)'),
    ('gaussian_sigma(''Infinity'', 1e-5)'), ('tlap_params(0, 1e-5)'), ('tlap_noise(-0.5, 1e-5)'),
    ('gaussian_delta(1, -1)'), ('gaussian_accuracy(''-Infinity'', 1e-5)'),
    -- delta
    ('gaussian_sigma(1, 0)'), ('gaussian_sigma(1, 1)'), ('gaussian_sigma(1, -1e-9)'),
    ('gaussian_sigma(1, ''NaN'')'), ('gaussian_sigma(1, 0.5, 1, ''zhao2'')'),
    ('tlap_params(1, 0.5)'), ('tlap_accuracy(1, 0.7)'), ('tlap_noise(1, 0)'),
    ('gaussian_epsilon(1, 1)'),
    -- sensitivity, sigma, scale
    ('gaussian_sigma(1, 1e-5, 0)'), ('gaussian_sigma(1, 1e-5, -2)'),
    ('gaussian_sigma(1, 1e-5, ''Infinity'')'), ('tlap_params(1, 1e-5, ''NaN'')'),
    ('gaussian_delta(0, 1)'), ('gaussian_delta(''NaN'', 1)'), ('gaussian_epsilon(-1, 1e-5)'),
    ('gaussian_noise(0)'), ('gaussian_noise(''Infinity'')'), ('laplace_noise(-1)'),
    ('laplace_noise(''NaN'')'), ('tlap_noise(1, 1e-5, 0)'),
    -- alpha
    ('gaussian_accuracy(1, 1e-5, 1, 0)'), ('gaussian_accuracy(1, 1e-5, 1, 1)'),
    ('tlap_accuracy(1, 1e-5, 1, ''NaN'')'),
    -- method
    ('gaussian_sigma(1, 1e-5, 1, ''optimal'')'), ('gaussian_sigma(1, 1e-5, 1, ''ANALYTIC'')'),
    ('gaussian_accuracy(1, 1e-5, 1, 0.05, '''')'),
    -- proven range: classic and dwork2006 only for epsilon <= 1 (002 Theorem 1)
    ('gaussian_sigma(1.5, 1e-5, 1, ''classic'')'), ('gaussian_sigma(10, 1e-5, 1, ''dwork2006'')'),
    ('gaussian_accuracy(2, 1e-5, 1, 0.05, ''classic'')'),
    -- results that a float8 cannot hold are refused rather than returned as Infinity
    ('gaussian_sigma(1e-300, 1e-5, 1e300, ''classic'')'), ('gaussian_sigma(1e-300, 1e-300, 1e300, ''zcdp'')'),
    ('tlap_params(1e-3, 0.1, 1e300)'), ('tlap_accuracy(1e-300, 0.1, 1e300)'),
    -- extreme epsilon for the truncated Laplace sampler returns promptly (no unbounded search)
    ('tlap_noise(1e-30, 0.1, 1) * 0')
) AS t(query);

-- The boundaries themselves are accepted.
SELECT gaussian_sigma(1, 1e-5, 1, 'classic') > 0 AS classic_at_one,
       gaussian_sigma(1, 0.4999999, 1, 'zhao2') > 0 AS zhao2_below_half,
       (tlap_params(1, 0.4999999)).bound > 0 AS tlap_below_half,
       gaussian_delta(1, 0) > 0 AS delta_at_epsilon_zero;

-- STRICT: NULL in, NULL out.
SELECT gaussian_sigma(NULL, 1e-5) IS NULL AS a, gaussian_sigma(1, NULL) IS NULL AS b,
       gaussian_sigma(1, 1e-5, NULL) IS NULL AS c, gaussian_sigma(1, 1e-5, 1, NULL) IS NULL AS d,
       gaussian_noise(NULL) IS NULL AS e, (tlap_params(NULL, 1e-5)).bound IS NULL AS f;

-- The test seed is superuser-only: an analyst can neither set it nor draw noise under a seed
-- that a superuser left set (fail closed rather than release predictable noise).
CREATE ROLE pgdp_errors_analyst;
SET ROLE pgdp_errors_analyst;
SELECT pg_temp.error_of('SET pgdp.test_seed = 1') AS error;
RESET ROLE;
SET pgdp.test_seed = 5;
SET ROLE pgdp_errors_analyst;
SELECT pg_temp.error_of('SELECT gaussian_noise(1)') AS error;
RESET ROLE;
RESET pgdp.test_seed;
DROP ROLE pgdp_errors_analyst;
