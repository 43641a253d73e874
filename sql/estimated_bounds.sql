-- Bounds the analyst need not guess (issue 24 part 5): dp_sum and dp_mean with NULL lower and/or
-- upper estimate the missing bounds privately inside the same release (a quarter of epsilon to
-- the bounds, the rest and all of delta to the statistic), one charge. At a huge epsilon, on data
-- whose outermost binades each hold more than the 1% the estimate may trim per side, the releases
-- equal PostgreSQL's own sum and avg (of the values clamped to a given side); every value type;
-- grouped; parallel plans; empty and one-row groups never fail nor return NULL; one ledger charge
-- per call; the release cache; prepared statements with NULL bind parameters; person level
-- against hand-written two-level SQL; bad input refused naming the argument, nothing charged;
-- what is not supported yet refused before any charge. The *_ci forms: sql/ci_bounds.sql.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE eb_analyst;
SELECT role FROM pgdp.set_budget('eb_analyst', 1e18, 0.99);
SELECT epsilon_limit FROM pgdp.set_budget(session_user::regrole, 1e18, 0.99);
RESET client_min_messages;
SET extra_float_digits = 0;

CREATE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
    hint text;
    detail text;
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT,
                            detail = PG_EXCEPTION_DETAIL;
    RETURN state || ': ' || message || coalesce(E'\n  DETAIL: ' || nullif(detail, ''), '') ||
           E'\n  HINT: ' || coalesce(hint, '');
END $$;
CREATE FUNCTION pg_temp.charges() RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM pgdp.my_ledger
$$;

-- v in [-100, 200]: the outer binades [-128, -64) and [128, 256) hold 12% and 24% of the rows.
CREATE TABLE eb_sales (id int, g int, v int4, small int2, big int8, r float4, d float8, n numeric);
INSERT INTO eb_sales
SELECT i, i % 5, v, v, v * 1000, v + 0.25, v + 0.5, v::numeric / 4
FROM (SELECT i, i % 301 - 100 AS v FROM generate_series(1, 30000) i) s;
INSERT INTO eb_sales VALUES (30001, 0, NULL, NULL, NULL, 'NaN', 'NaN', 'NaN');
CREATE TABLE eb_keys (g int);
INSERT INTO eb_keys VALUES (0), (1), (2), (3), (4), (5);
GRANT SELECT ON eb_sales, eb_keys TO eb_analyst;
SET SESSION AUTHORIZATION eb_analyst;

-- Every value type, both bounds estimated: the release is the sum and the mean (within a millionth
-- of the range of the data: the noise at epsilon 1e9 on bounds of at most 2^18).
SELECT abs(dp_sum(v, NULL, NULL, 1e9) - sum(v)) < 1 AS int4_sum,
       abs(dp_sum(small, NULL, NULL, 1e9) - sum(small)) < 1 AS int2_sum,
       abs(dp_sum(big, NULL, NULL, 1e9) - sum(big)) < 1 AS int8_sum,
       abs(dp_sum(r, NULL, NULL, 1e9) - sum(r::float8) FILTER (WHERE r <> 'NaN')) < 1e-3 AS float4_sum,
       abs(dp_sum(d, NULL, NULL, 1e9) - sum(d) FILTER (WHERE d <> 'NaN')) < 1e-3 AS float8_sum,
       abs(dp_sum(n, NULL, NULL, 1e9) - sum(n) FILTER (WHERE n <> 'NaN')) < 1e-3 AS numeric_sum,
       abs(dp_mean(v, NULL, NULL, 1e9) - avg(v)) < 1e-6 AS int4_mean,
       abs(dp_mean(d, NULL, NULL, 1e9) - avg(d) FILTER (WHERE d <> 'NaN')) < 1e-6 AS float8_mean,
       abs(dp_mean(n, NULL, NULL, 1e9) - avg(n) FILTER (WHERE n <> 'NaN')) < 1e-6 AS numeric_mean
FROM eb_sales;
SELECT pg_typeof(dp_sum(v, NULL, NULL, 1)) AS int_sum_type, pg_typeof(dp_sum(n, NULL, NULL, 1)) AS numeric_sum_type
FROM eb_sales;

-- One bound given: the rows are clamped to it, the other is estimated (least and greatest ignore
-- NULL, hence the filters).
SELECT abs(dp_sum(v, NULL, 150, 1e9) - sum(least(v, 150)) FILTER (WHERE v IS NOT NULL)) < 1 AS upper_given,
       abs(dp_sum(v, -50, NULL, 1e9) - sum(greatest(v, -50)) FILTER (WHERE v IS NOT NULL)) < 1 AS lower_given,
       abs(dp_mean(d, NULL, 100.5, 1e9) - avg(least(d, 100.5)) FILTER (WHERE d <> 'NaN')) < 1e-6 AS mean_upper_given,
       abs(dp_sum(v, 1000, NULL, 1e9) - 1000 * count(v)) < 1 AS all_below_the_given_lower,
       abs(dp_sum(v, NULL, -1000, 1e9) + 1000 * count(v)) < 1 AS all_above_the_given_upper
FROM eb_sales;

-- Grouped, with public keys: group 5 has no rows and still gets a finite release (never NULL).
SELECT k.g, count(s.v) AS rows,
       CASE WHEN count(s.v) = 0 THEN dp_sum(s.v, NULL, NULL, 1e9) IS NOT NULL
            ELSE abs(dp_sum(s.v, NULL, NULL, 1e9) - sum(s.v)) < 1 END AS sum_released,
       CASE WHEN count(s.v) = 0 THEN dp_mean(s.d, NULL, NULL, 1e9) BETWEEN -1 AND 1
            ELSE abs(dp_mean(s.d, NULL, NULL, 1e9) - avg(s.d) FILTER (WHERE s.d <> 'NaN')) < 1e-6 END AS mean_released
FROM eb_keys k LEFT JOIN eb_sales s ON s.g = k.g GROUP BY k.g ORDER BY k.g;

-- Empty and one-row groups at small and large epsilon: finite, never NULL, never an error; a mean
-- inside the bounds it used (the default [-1, 1] when nothing rises above the noise).
SELECT dp_sum(v, NULL, NULL, 0.1) IS NOT NULL AS empty_sum,
       dp_mean(v, NULL, NULL, 0.1) BETWEEN -1 AND 1 AS empty_mean,
       dp_sum(v, NULL, NULL, 1e9) IS NOT NULL AS empty_sum_huge_epsilon,
       dp_mean(v, NULL, 7, 1) BETWEEN -1 AND 7 AS empty_mean_upper_given
FROM eb_sales WHERE false;
SELECT dp_sum(v, NULL, NULL, 0.1) IS NOT NULL AS one_row_sum,
       dp_mean(d, NULL, NULL, 0.1) BETWEEN -1 AND 1 AS one_row_mean,
       abs(dp_mean(d, NULL, NULL, 1e9) - 2.5) < 1e-6 AS one_row_mean_huge_epsilon
FROM eb_sales WHERE id = 102;

-- One charge per call, of the call's whole epsilon; the charged plan is the release's share, 3/4,
-- at the widest bounds the estimate can return (+-2^64: its sensitivity and noise scale bound the
-- release's), charged to the basic part (gaussian_mu2 0).
SELECT pg_temp.charges() AS before \gset
SELECT dp_sum(v, NULL, NULL, 0.5) IS NOT NULL AS released FROM eb_sales;
SELECT dp_mean(v, NULL, 100, 0.5, 1e-6, 'gaussian') IS NOT NULL AS released FROM eb_sales;
SELECT pg_temp.charges() - :before AS charges;
RESET SESSION AUTHORIZATION;
SELECT aggregate, epsilon, delta, mechanism, sensitivity >= 2 ^ 63 AS at_widest_bounds,
       CASE WHEN mechanism = 'laplace' THEN round((noise_scale * epsilon * 0.75 / sensitivity)::numeric, 3) END
           AS laplace_scale_at_three_quarters, gaussian_mu2
FROM pgdp.ledger WHERE role = 'eb_analyst'::regrole ORDER BY charge_id DESC LIMIT 2;

-- Parallel plans: the workers' binned sums merge exactly (the same release as serial at a huge
-- epsilon, both equal to sum).
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT g, dp_sum(d, NULL, NULL, 1e9) FROM eb_sales GROUP BY g;
SET SESSION AUTHORIZATION eb_analyst;
SELECT g, abs(dp_sum(d, NULL, NULL, 1e9) - sum(d) FILTER (WHERE d <> 'NaN')) < 1e-3 AS parallel_sum,
       abs(dp_mean(v, NULL, 150, 1e9) - avg(least(v, 150)) FILTER (WHERE v IS NOT NULL)) < 1e-6 AS parallel_mean
FROM eb_sales GROUP BY g ORDER BY g;
RESET SESSION AUTHORIZATION;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET parallel_leader_participation;
SET SESSION AUTHORIZATION eb_analyst;

-- Prepared statements: NULL bounds as bind parameters, and numbers through the same statement.
PREPARE eb_prepared(float8, float8) AS SELECT dp_sum(v, $1, $2, 1e9) AS s FROM eb_sales;
EXECUTE eb_prepared(NULL, NULL) \gset both_
EXECUTE eb_prepared(NULL, 150) \gset upper_
EXECUTE eb_prepared(-100, 200) \gset explicit_
SELECT abs(:both_s - sum(v)) < 1 AS both_null, abs(:upper_s - sum(least(v, 150)) FILTER (WHERE v IS NOT NULL)) < 1 AS upper_bound,
       abs(:explicit_s - sum(v)) < 1 AS explicit_bounds
FROM eb_sales;
DEALLOCATE eb_prepared;

-- Bad input: refused naming the argument, before any charge.
SELECT pg_temp.charges() AS before \gset
SELECT pg_temp.error_of($$SELECT dp_sum(v, NULL, 'NaN', 1) FROM eb_sales$$);
SELECT pg_temp.error_of($$SELECT dp_sum(v, '-Infinity', NULL, 1) FROM eb_sales$$);
SELECT pg_temp.error_of($$SELECT dp_mean(v, NULL, 1e19, 1) FROM eb_sales$$);
SELECT pg_temp.error_of($$SELECT dp_sum(v, NULL, NULL, 0) FROM eb_sales$$);
SELECT pg_temp.error_of($$SELECT dp_sum(v, NULL, NULL, 1, 2) FROM eb_sales$$);
-- Not supported yet, refused before any charge: dp_histogram (22004, as before 0.12). dp_sum_ci
-- and dp_mean_ci estimate NULL bounds since 0.13 and report them (sql/ci_bounds.sql), dp_variance
-- and dp_stddev too (sql/estimated_variance.sql); the quantiles take NULL bounds since 0.13
-- (sql/quantile_null_bounds.sql). A given bound next to a NULL one is checked as dp_sum's.
SELECT pg_temp.error_of($$SELECT dp_median(v, NULL, 'Infinity', 1) FROM eb_sales$$);
SELECT pg_temp.error_of($$SELECT dp_quantiles(v, NULL, 1e19, ARRAY[0.5], 1) FROM eb_sales$$);
SELECT pg_temp.error_of($$SELECT dp_histogram(v, NULL, 10, 5, 1) FROM eb_sales$$);
SELECT pg_temp.charges() - :before AS charged_for_refusals;
RESET SESSION AUTHORIZATION;

-- The release cache: the same call again is the stored answer, no second charge.
SELECT relation FROM pgdp.set_refresh_policy('eb_sales');
SET SESSION AUTHORIZATION eb_analyst;
SELECT pg_temp.charges() AS before \gset
SELECT dp_sum(v, NULL, NULL, 0.5) AS answer FROM eb_sales \gset first_
SELECT dp_sum(v, NULL, NULL, 0.5) AS answer FROM eb_sales \gset again_
SELECT :first_answer = :again_answer AS same_answer, pg_temp.charges() - :before AS charges;
RESET SESSION AUTHORIZATION;

-- The cache keys bind parameters by value, NULL included: three different calls, three charges;
-- each asked again is its stored answer.
SET SESSION AUTHORIZATION eb_analyst;
SELECT pg_temp.charges() AS before \gset
PREPARE eb_cached(float8, float8) AS SELECT dp_sum(v, $1, $2, 1e9) AS s FROM eb_sales;
EXECUTE eb_cached(NULL, NULL) \gset c1_
EXECUTE eb_cached(NULL, 150) \gset c2_
EXECUTE eb_cached(-100, 200) \gset c3_
EXECUTE eb_cached(NULL, NULL) \gset c4_
EXECUTE eb_cached(NULL, 150) \gset c5_
SELECT :c1_s = :c4_s AS both_null_again, :c2_s = :c5_s AS upper_150_again,
       abs(:c2_s - sum(least(v, 150)) FILTER (WHERE v IS NOT NULL)) < 1 AS upper_150_its_own_answer,
       pg_temp.charges() - :before AS charges
FROM eb_sales;
DEALLOCATE eb_cached;
RESET SESSION AUTHORIZATION;

-- Person level over a protected relation: each person's total (level 1), then the estimated bounds
-- and the sum over the persons (level 2), against the two levels written by hand. Persons 0..56,
-- ~350 rows each; their totals lie in [512, 16384), whose outer binades hold 3.5% and 46% of them.
SET client_min_messages = warning;
CREATE TABLE eb_visits (id int, person int, region int, minutes float8);
INSERT INTO eb_visits
SELECT g, CASE WHEN g % 101 = 0 THEN NULL ELSE g % 57 END, g % 57 % 3, (g % 57) * 0.7 + g % 5
FROM generate_series(1, 20000) g;
CREATE TABLE eb_regions (region int);
INSERT INTO eb_regions VALUES (0), (1), (2), (3);
GRANT SELECT ON eb_visits, eb_regions TO eb_analyst;
SELECT relation FROM pgdp.protect('eb_visits', 'person');
SELECT relation FROM pgdp.declare_public('eb_regions');
CREATE ROLE eb_dp_only;
SELECT role FROM pgdp.set_budget('eb_dp_only', 1e18, 0.99);
SELECT relation, role FROM pgdp.grant_access('eb_visits', 'eb_dp_only');
RESET client_min_messages;
CREATE VIEW eb_units AS
SELECT region, person, sum(minutes) AS total, avg(minutes) AS mean FROM eb_visits WHERE person IS NOT NULL
GROUP BY region, person;
SET SESSION AUTHORIZATION eb_analyst;
SELECT pg_temp.charges() AS before \gset
SELECT dp_sum(minutes, NULL, NULL, 1e9) AS s, dp_mean(minutes, NULL, NULL, 1e9) AS m FROM eb_visits \gset person_
SELECT pg_temp.charges() - :before AS charges;
CREATE TEMP TABLE eb_by_region AS
SELECT r.region, dp_sum(v.minutes, NULL, NULL, 1e9) AS s
FROM eb_regions r LEFT JOIN eb_visits v ON v.region = r.region GROUP BY r.region;
RESET SESSION AUTHORIZATION;
SELECT abs(:person_s - sum(total)) < 1e-3 AS person_sum, abs(:person_m - avg(mean)) < 1e-6 AS person_mean
FROM eb_units;
SELECT b.region, count(u.total) AS persons,
       CASE WHEN count(u.total) = 0 THEN b.s IS NOT NULL ELSE abs(b.s - sum(u.total)) < 1e-3 END AS released
FROM eb_by_region b LEFT JOIN eb_units u ON u.region = b.region GROUP BY b.region, b.s ORDER BY b.region;
-- Private group selection: the three regions of 19 persons each are kept at this epsilon.
SET SESSION AUTHORIZATION eb_analyst;
CREATE TEMP TABLE eb_selected AS
SELECT region, dp_sum(minutes, NULL, NULL, 1e9) AS s FROM eb_visits GROUP BY region HAVING dp_groups(1e9, 1e-6);
RESET SESSION AUTHORIZATION;
SELECT b.region, count(u.total) AS persons, abs(b.s - sum(u.total)) < 1e-3 AS released
FROM eb_selected b JOIN eb_units u ON u.region = b.region GROUP BY b.region, b.s ORDER BY b.region;
-- DP-only access: the release, not the rows.
SET SESSION AUTHORIZATION eb_dp_only;
SELECT dp_sum(minutes, NULL, NULL, 1e9) AS s FROM eb_visits \gset dp_only_
SELECT pg_temp.error_of('SELECT minutes FROM eb_visits LIMIT 1') AS reading_rows;
RESET SESSION AUTHORIZATION;
SELECT abs(:dp_only_s - sum(total)) < 1e-3 AS dp_only_sum FROM eb_units;

-- Leave nothing behind for the tests after this one.
SET client_min_messages = warning;
SELECT pgdp.revoke_access('eb_visits', 'eb_dp_only');
SELECT pgdp.unprotect('eb_visits');
SELECT pgdp.undeclare_public('eb_regions');
DROP VIEW eb_units;
DROP TABLE eb_visits, eb_regions, eb_sales, eb_keys CASCADE;
DELETE FROM pgdp.budgets WHERE role IN ('eb_analyst'::regrole, 'eb_dp_only'::regrole);
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.release_cache;
DROP OWNED BY eb_analyst, eb_dp_only;
DROP ROLE eb_analyst, eb_dp_only;

-- 0.14: the Citus workers' per-row map for NULL bounds (pgdp.log_bin, pgdp.binned_units: core
-- binned_units, the transition's own), values read as the transition reads them. Expected from the
-- definitions (binned_sums.hpp): bin 97 + (k + 32) for x in [2^k, 2^(k+1)), its mirror 95 - (k + 32)
-- below zero, 96 for |x| < 2^-32 (units of 2^-84); units x / 2^(k - 52); clamped to a given bound
-- and to 2^64 first. bigint 2^53 + 1 rounds to 2^53 as float8; numeric 1e400 is +Infinity, then
-- 2^64; real 0.1 is 13421773 * 2^-27.
SELECT pgdp.log_bin(9007199254740993::bigint, NULL, NULL), pgdp.binned_units(9007199254740993::bigint, NULL, NULL);
SELECT pgdp.log_bin(1e400::numeric, NULL, NULL), pgdp.binned_units(1e400::numeric, NULL, NULL);
SELECT pgdp.log_bin(0.1::real, NULL, NULL), pgdp.binned_units(0.1::real, NULL, NULL);
SELECT pgdp.log_bin(-3.5, NULL, NULL), pgdp.binned_units(-3.5, NULL, NULL);
SELECT pgdp.log_bin(1e-12, NULL, NULL), pgdp.binned_units(1e-12, NULL, NULL), pgdp.binned_units(0, NULL, NULL);
SELECT pgdp.log_bin(5, 10, NULL), pgdp.binned_units(5, 10, NULL);
SELECT pgdp.log_bin(-1e-9, NULL, -power(2, -20)), pgdp.binned_units(-1e-9, NULL, -power(2, -20)), pgdp.log_bin(-7, NULL, -power(2, -20));
SELECT pgdp.log_bin('NaN'::float8, NULL, NULL) IS NULL AS nan_no_row, pgdp.binned_units('NaN'::numeric, NULL, NULL) IS NULL AS nan_numeric,
       pgdp.log_bin(NULL::float8, 0, NULL) IS NULL AS null_no_row;
