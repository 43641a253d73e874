-- Bounds that may be omitted (issue 24 part 5, 0.14): dp_sum(value, epsilon [, delta]) and likewise
-- dp_mean, dp_variance, dp_stddev, dp_median, dp_quantile(value, q, ...) and dp_quantiles(value,
-- q[], ...) are their NULL-bound forms: the planner rewrites each call into it before anything
-- reads it (src/pg/calls/omitted_bounds.hpp). At a huge epsilon, on data whose outermost binades
-- each hold more than the 1% the bounds estimate may trim, they equal PostgreSQL's own sum, avg,
-- var_pop, stddev_pop and percentile_disc (within a log leaf); the same result types; one charge
-- per call; the existing bounded calls resolve as before; views, prepared statements (generic
-- plans), PL/pgSQL, EXPLAIN, person level; bad input refused naming the argument, nothing charged;
-- a SQL function in FROM that the planner inlines refused before any charge.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE ob_analyst;
CREATE SCHEMA ob AUTHORIZATION ob_analyst;
SELECT role FROM pgdp.set_budget('ob_analyst', 1e18, 0.99);
RESET client_min_messages;
SET extra_float_digits = 0;

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
    RETURN state || ': ' || message || E'\n  HINT: ' || coalesce(hint, '');
END $$;
CREATE FUNCTION pg_temp.charges() RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM pgdp.my_ledger
$$;

-- v in [-100, 200]: the outer binades [-128, -64) and [128, 256) hold 12% and 24% of the rows.
CREATE TABLE ob_sales (id int, g int, v int4, small int2, big int8, r float4, d float8, n numeric);
INSERT INTO ob_sales
SELECT i, i % 3, v, v, v * 1000, v + 0.25, v + 0.5, v::numeric / 4
FROM (SELECT i, i % 301 - 100 AS v FROM generate_series(1, 30000) i) s;
GRANT SELECT ON ob_sales TO ob_analyst;
SET SESSION AUTHORIZATION ob_analyst;

-- Every value type and both forms (epsilon; epsilon and delta, the 'auto' mechanism): PostgreSQL's
-- own statistics of the same rows.
SELECT abs(dp_sum(v, 1e9) - sum(v)) < 1 AS int4_sum,
       abs(dp_sum(small, 1e9, 1e-6) - sum(small)) < 1 AS int2_sum,
       abs(dp_sum(big, 1e9) - sum(big)) < 1 AS int8_sum,
       abs(dp_sum(r, 1e9) - sum(r::float8)) < 1e-3 AS float4_sum,
       abs(dp_sum(d, 1e9, 1e-6) - sum(d)) < 1e-3 AS float8_sum,
       abs(dp_sum(n, 1e9) - sum(n)) < 1e-3 AS numeric_sum,
       abs(dp_mean(v, 1e9) - avg(v)) < 1e-6 AS int4_mean,
       abs(dp_mean(n, 1e9, 1e-6) - avg(n)) < 1e-6 AS numeric_mean,
       abs(dp_variance(v, 1e9) - var_pop(v)) < 1e-3 AS int4_variance,
       abs(dp_variance(d, 1e9, 1e-6) - var_pop(d)) < 1e-3 AS float8_variance,
       abs(dp_stddev(n, 1e9) - stddev_pop(n)) < 1e-6 AS numeric_stddev,
       abs(dp_stddev(big, 1e9, 1e-6) - stddev_pop(big)) < 1 AS int8_stddev
FROM ob_sales;
-- The quantiles: within the log-linear leaf's relative resolution 2^-8 of percentile_disc.
SELECT abs(dp_median(d, 1e9) - percentile_disc(0.5) WITHIN GROUP (ORDER BY d))
           <= abs(percentile_disc(0.5) WITHIN GROUP (ORDER BY d)) / 256 AS median,
       abs(dp_quantile(d, 0.9, 1e9, 1e-6) - percentile_disc(0.9) WITHIN GROUP (ORDER BY d))
           <= abs(percentile_disc(0.9) WITHIN GROUP (ORDER BY d)) / 256 AS quantile_90,
       (SELECT bool_and(abs(q - p) <= abs(p) / 256)
        FROM unnest(dp_quantiles(v, ARRAY[0.1, 0.5, 0.75], 1e9),
                    percentile_disc(ARRAY[0.1, 0.5, 0.75]) WITHIN GROUP (ORDER BY v::float8)) AS t(q, p))
           AS quantiles
FROM ob_sales;
-- Grouped, beside a bounded call of the same value.
SELECT g, abs(dp_mean(d, 1e9) - avg(d)) < 1e-6 AS mean, abs(dp_sum(v, 0, 100, 1e9) - sum(least(greatest(v, 0), 100))) < 1 AS bounded_sum
FROM ob_sales GROUP BY g ORDER BY g;
-- The result types of the NULL-bound forms.
SELECT pg_typeof(dp_sum(v, 1)) AS int_sum, pg_typeof(dp_sum(n, 1)) AS numeric_sum, pg_typeof(dp_mean(v, 1)) AS mean,
       pg_typeof(dp_variance(n, 1)) AS numeric_variance, pg_typeof(dp_quantiles(d, ARRAY[0.5], 1)) AS quantiles
FROM ob_sales;

-- One charge per call, of the epsilon and delta given.
SELECT pg_temp.charges() AS before \gset
SELECT dp_sum(v, 0.5) IS NOT NULL AS sum, dp_median(d, 0.25, 1e-7) IS NOT NULL AS median FROM ob_sales;
SELECT pg_temp.charges() - :before AS charges;
SELECT aggregate, epsilon, delta FROM pgdp.my_ledger ORDER BY charge_id DESC, aggregate LIMIT 2;

-- The bounded forms resolve as before: four and five arguments are the bounds' forms.
SELECT abs(dp_sum(v, 0, 10, 1e9) - sum(least(greatest(v, 0), 10))) < 1 AS sum_4_arguments,
       abs(dp_sum(v, 0, 10, 1e9, 1e-6) - sum(least(greatest(v, 0), 10))) < 1 AS sum_5_arguments,
       abs(dp_median(v, 0, 10, 1e9) - percentile_disc(0.5) WITHIN GROUP (ORDER BY least(greatest(v, 0), 10)))
           <= 1 AS median_4_arguments
FROM ob_sales;

-- A view keeps the call as written; it runs as the NULL-bound form.
CREATE VIEW ob.ob_view AS SELECT g, dp_sum(v, 1e9) AS s FROM ob_sales GROUP BY g;
-- (PostgreSQL 16 and later leave out the table name of a one-table view's columns.)
SELECT pg_get_viewdef('ob.ob_view') LIKE '%dp_sum(%v, (''1000000000''::numeric)::double precision) AS s%' AS stored_as_written;
SELECT v.g, abs(v.s - t.s) < 1 AS view_sum
FROM ob.ob_view v JOIN (SELECT g, sum(v) AS s FROM ob_sales GROUP BY g) t USING (g) ORDER BY g;
-- EXPLAIN shows the rewritten call.
EXPLAIN (VERBOSE, COSTS OFF) SELECT dp_sum(v, 1) FROM ob_sales;
-- A prepared statement, its generic plan with the epsilon as a parameter.
SET plan_cache_mode = force_generic_plan;
PREPARE ob_prepared(float8) AS SELECT abs(dp_mean(d, $1) - avg(d)) < 1e-6 AS mean FROM ob_sales;
EXECUTE ob_prepared(1e9);
EXECUTE ob_prepared(1e9);
DEALLOCATE ob_prepared;
RESET plan_cache_mode;
-- PL/pgSQL.
CREATE FUNCTION ob.ob_stddev(epsilon float8) RETURNS float8 LANGUAGE plpgsql AS $$
BEGIN
    RETURN (SELECT dp_stddev(d, epsilon) FROM ob_sales);
END $$;
SELECT abs(ob.ob_stddev(1e9) - stddev_pop(d)) < 1e-6 AS plpgsql_stddev FROM ob_sales;

-- Bad input: the NULL-bound form's errors, naming the argument; nothing charged.
SELECT pg_temp.charges() AS before \gset
SELECT pg_temp.error_of('SELECT dp_sum(v, NULL) FROM ob_sales') AS null_epsilon;
SELECT pg_temp.error_of('SELECT dp_mean(v, -1) FROM ob_sales') AS negative_epsilon;
SELECT pg_temp.error_of('SELECT dp_variance(v, 1, 1.5) FROM ob_sales') AS delta_too_large;
-- A quarter of epsilon estimates the bounds: the error names the epsilon given, not its parts.
SELECT pg_temp.error_of('SELECT dp_sum(v, 1e-300) FROM ob_sales') AS epsilon_in_parts_too_small;
SELECT pg_temp.error_of('SELECT dp_quantile(d, 1.5, 1) FROM ob_sales') AS q_above_1;
SELECT pg_temp.error_of('SELECT dp_quantiles(d, ''{}''::float8[], 1) FROM ob_sales') AS empty_q;
-- A SQL function in FROM that the planner inlines (after pgdp's rewrite): refused while planning.
CREATE FUNCTION ob.ob_inlined() RETURNS TABLE (s bigint) LANGUAGE sql STABLE AS
    'SELECT dp_sum(v, 1e9) FROM ob_sales';
SELECT pg_temp.error_of('SELECT * FROM ob.ob_inlined()') AS inlined_function;
SELECT pg_temp.charges() - :before AS charges_for_refusals;

-- Person level over a protected relation: the NULL-bound form's release.
RESET SESSION AUTHORIZATION;
CREATE TABLE ob_visits (person int, minutes float8);
INSERT INTO ob_visits SELECT i % 400, 10 + i % 90 FROM generate_series(1, 4000) i;
GRANT SELECT ON ob_visits TO ob_analyst;
SELECT relation FROM pgdp.protect('ob_visits', 'person');
SET SESSION AUTHORIZATION ob_analyst;
SELECT dp_sum(minutes, 1e9) AS omitted, dp_sum(minutes, NULL, NULL, 1e9) AS null_bounds FROM ob_visits \gset
RESET SESSION AUTHORIZATION;
SELECT abs(:omitted - :null_bounds) < 1e-3 AS same_release,
       abs(:omitted - (SELECT sum(t) FROM (SELECT sum(minutes) AS t FROM ob_visits GROUP BY person) p)) < 1e-3
           AS person_totals;

-- Leave nothing behind.
SET client_min_messages = warning;
SELECT pgdp.unprotect('ob_visits');
DROP TABLE ob_visits, ob_sales CASCADE;
DROP SCHEMA ob CASCADE;
DELETE FROM pgdp.budgets WHERE role = 'ob_analyst'::regrole;
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.release_cache;
DROP OWNED BY ob_analyst;
DROP ROLE ob_analyst;
