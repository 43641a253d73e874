-- The *_ci forms report the bounds used (issue 24 part 5, 0.13): dp_release's lower_bound and
-- upper_bound are the clamping bounds of the release - the given ones, or those estimated for
-- NULL bounds (dp_sum_ci and dp_mean_ci accept NULL bounds like dp_sum and dp_mean) - and NULL
-- for dp_count_ci. At epsilon 1e9 the estimated bounds are the outer edges of the data's outermost
-- binades (each holds more than the 1% the estimate may trim per side), derived here from min and
-- max; the value is then PostgreSQL's sum/avg of the values clamped to them. One charge per call;
-- empty groups; one bound given; bind parameters in generic plans; the release cache answers the
-- identical row, bounds included; person level against hand-written two-level SQL; refusals
-- charge nothing.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE cb_analyst;
SELECT role FROM pgdp.set_budget('cb_analyst', 1e18, 0.99);
RESET client_min_messages;
SET extra_float_digits = 0;

CREATE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
    detail text;
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
    RETURN state || ': ' || message || coalesce(E'\n  DETAIL: ' || nullif(detail, ''), '');
END $$;
CREATE FUNCTION pg_temp.charges() RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM pgdp.my_ledger
$$;
-- The bin edges the estimate returns around a value (docs/statistics/histograms.md: bins
-- (-2^(k+1), -2^k] below zero, [2^k, 2^(k+1)) above): the lower edge of a negative value's bin and
-- the upper edge of a positive value's bin.
CREATE FUNCTION pg_temp.edge_below(x float8) RETURNS float8 LANGUAGE sql AS $$
    SELECT -(2 ^ ceil(log(2, -x::numeric)))::float8
$$;
CREATE FUNCTION pg_temp.edge_above(x float8) RETURNS float8 LANGUAGE sql AS $$
    SELECT (2 ^ (floor(log(2, x::numeric)) + 1))::float8
$$;

-- v in [-100, 200]: the outer binades (-128, -64] and [128, 256) hold 12% and 24% of the rows.
CREATE TABLE cb_sales (id int, g int, v int4, d float8);
INSERT INTO cb_sales SELECT i, i % 3, i % 301 - 100, i % 301 - 100 + 0.5 FROM generate_series(1, 30000) i;
INSERT INTO cb_sales VALUES (30001, 0, NULL, 'NaN');
GRANT SELECT ON cb_sales TO cb_analyst;
-- The bounds the estimate must return, and the clamped statistics at them.
CREATE TABLE cb_expected AS
SELECT pg_temp.edge_below(min(v)) AS lower_bound, pg_temp.edge_above(max(v)) AS upper_bound FROM cb_sales;
SELECT * FROM cb_expected;
GRANT SELECT ON cb_expected TO cb_analyst;
SET SESSION AUTHORIZATION cb_analyst;

-- (greatest and least ignore NULL, hence the filters.)
-- Given bounds are reported as given, by every *_ci form that clamps; dp_count_ci reads no value
-- and reports none.
SELECT (s).lower_bound AS sum_lower, (s).upper_bound AS sum_upper,
       abs((s).value - (SELECT sum(least(greatest(v, -10), 50)) FILTER (WHERE v IS NOT NULL) FROM cb_sales)) < 1e-3 AS sum_clamped,
       (m).lower_bound AS mean_lower, (m).upper_bound AS mean_upper,
       (va).lower_bound AS variance_lower, (va).upper_bound AS variance_upper,
       (sd).lower_bound AS stddev_lower, (sd).upper_bound AS stddev_upper,
       (c).lower_bound IS NULL AND (c).upper_bound IS NULL AS count_reports_no_bounds
FROM (SELECT dp_sum_ci(v, -10, 50, 1e9, 0.05) AS s, dp_mean_ci(d, -0.5, 99.5, 1e9, 0.05) AS m,
             dp_variance_ci(v, 0, 100, 1e9, 0.05) AS va, dp_stddev_ci(d, -1, 1, 1e9, 1e-9, 'gaussian', 0.05) AS sd,
             dp_count_ci(1e9, 0.05) AS c
      FROM cb_sales) x;

-- NULL bounds: the reported bounds are the estimate's, the value the clamped statistic at them,
-- inside the release's interval; epsilon and delta are the call's, charged once.
SELECT pg_temp.charges() AS before \gset
SELECT (s).lower_bound = e.lower_bound AS sum_lower_estimated, (s).upper_bound = e.upper_bound AS sum_upper_estimated,
       abs((s).value - (SELECT sum(least(greatest(v, e.lower_bound), e.upper_bound)) FILTER (WHERE v IS NOT NULL)
                        FROM cb_sales)) < 1 AS sum_at_them,
       (s).value BETWEEN (s).ci_lower AND (s).ci_upper AS sum_in_interval,
       (s).epsilon AS sum_epsilon, (s).delta AS sum_delta, (s).mechanism AS sum_mechanism, (s).alpha AS sum_alpha,
       (m).lower_bound = e.lower_bound AS mean_lower_estimated, (m).upper_bound = e.upper_bound AS mean_upper_estimated,
       abs((m).value - (SELECT avg(least(greatest(d, e.lower_bound), e.upper_bound)) FILTER (WHERE d <> 'NaN')
                        FROM cb_sales)) < 1e-6 AS mean_at_them,
       (m).value BETWEEN (m).ci_lower AND (m).ci_upper AS mean_in_interval,
       (m).epsilon AS mean_epsilon, (m).delta AS mean_delta, (m).mechanism AS mean_mechanism,
       (s).from_cache OR (m).from_cache AS from_cache
FROM (SELECT dp_sum_ci(v, NULL, NULL, 1e9, 0.05) AS s, dp_mean_ci(d, NULL, NULL, 1e9, 1e-6, 'gaussian', 0.1) AS m
      FROM cb_sales) x, cb_expected e;
SELECT pg_temp.charges() - :before AS charges;

-- One bound given: it is reported, the other estimated; an estimate on the wrong side of the
-- given bound becomes the nearest bin edge strictly beyond it (1000 -> 1024, -1000 -> -1024).
SELECT (a).lower_bound = e.lower_bound AS lower_estimated, (a).upper_bound AS upper_given,
       abs((a).value - (SELECT sum(least(greatest(v, e.lower_bound), 150)) FILTER (WHERE v IS NOT NULL)
                        FROM cb_sales)) < 1 AS sum_at_them,
       (b).lower_bound AS lower_given, (b).upper_bound = e.upper_bound AS upper_estimated,
       abs((b).value - (SELECT avg(greatest(v, -50)) FILTER (WHERE v IS NOT NULL) FROM cb_sales)) < 1e-6 AS mean_at_them,
       (c).lower_bound AS given_lower, (c).upper_bound = pg_temp.edge_above(1000) AS upper_beyond,
       abs((c).value - 1000 * (SELECT count(v) FROM cb_sales)) < 1 AS all_clamped_up,
       (n).lower_bound = pg_temp.edge_below(-1000) AS lower_beyond, (n).upper_bound AS given_upper
FROM (SELECT dp_sum_ci(v, NULL, 150, 1e9, 0.05) AS a, dp_mean_ci(v, -50, NULL, 1e9, 0.05) AS b,
             dp_sum_ci(v, 1000, NULL, 1e9, 0.05) AS c, dp_sum_ci(v, NULL, -1000, 1e9, 0.05) AS n
      FROM cb_sales) x, cb_expected e;

-- An empty group and a group whose rows are all NULL: no bin rises above the noise, the
-- estimate's default [-1, 1] is reported, and a finite release (never NULL, never an error).
SELECT (s).lower_bound, (s).upper_bound, (s).value IS NOT NULL AS released, (m).lower_bound AS mean_lower,
       (m).upper_bound AS mean_upper, (m).value BETWEEN -1 AND 1 AS mean_in_default
FROM (SELECT dp_sum_ci(v, NULL, NULL, 1e9, 0.05) AS s, dp_mean_ci(v, NULL, NULL, 1e9, 0.05) AS m
      FROM cb_sales WHERE false) x;
SELECT (dp_sum_ci(v, NULL, NULL, 1e9, 0.05)).lower_bound AS null_rows_lower,
       (dp_sum_ci(v, NULL, NULL, 1e9, 0.05)).upper_bound AS null_rows_upper
FROM cb_sales WHERE v IS NULL;

-- Grouped: each group's own estimate (the groups hold the same values up to a row or two).
SELECT g, (s).lower_bound = e.lower_bound AND (s).upper_bound = e.upper_bound AS bounds_estimated,
       abs((s).value - sums.total) < 1 AS sum_at_them
FROM (SELECT g, dp_sum_ci(v, NULL, NULL, 1e9, 0.05) AS s FROM cb_sales GROUP BY g) x
     JOIN (SELECT g, sum(v) AS total FROM cb_sales GROUP BY g) sums USING (g), cb_expected e
ORDER BY g;

-- Parallel plans: the workers' binned sums merge exactly, the same bounds and value as serial.
RESET SESSION AUTHORIZATION;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT g, dp_sum_ci(d, NULL, NULL, 1e9, 0.05) FROM cb_sales GROUP BY g;
SET SESSION AUTHORIZATION cb_analyst;
SELECT g, (s).lower_bound = e.lower_bound AND (s).upper_bound = e.upper_bound AS bounds_estimated,
       abs((s).value - sums.total) < 1e-3 AS sum_at_them
FROM (SELECT g, dp_sum_ci(d, NULL, NULL, 1e9, 0.05) AS s FROM cb_sales GROUP BY g) x
     JOIN (SELECT g, sum(d) FILTER (WHERE d <> 'NaN') AS total FROM cb_sales GROUP BY g) sums USING (g), cb_expected e
ORDER BY g;
RESET SESSION AUTHORIZATION;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET parallel_leader_participation;
SET SESSION AUTHORIZATION cb_analyst;

-- Bind parameters in generic plans: NULL, one NULL and numbers through the same statement, each
-- reporting its own bounds.
SET plan_cache_mode = force_generic_plan;
PREPARE cb_prepared(float8, float8) AS
SELECT (r).lower_bound, (r).upper_bound, (r).value AS value FROM (SELECT dp_sum_ci(v, $1, $2, 1e9, 0.05) AS r FROM cb_sales) x;
EXECUTE cb_prepared(NULL, NULL) \gset both_
EXECUTE cb_prepared(NULL, 150) \gset upper_
EXECUTE cb_prepared(-100, 200) \gset explicit_
SELECT :both_lower_bound = e.lower_bound AND :both_upper_bound = e.upper_bound AS both_null_estimated,
       :upper_lower_bound = e.lower_bound AND :upper_upper_bound = 150 AS upper_given,
       :explicit_lower_bound = -100 AND :explicit_upper_bound = 200 AS both_given,
       abs(:both_value - (SELECT sum(v) FROM cb_sales)) < 1 AND abs(:explicit_value - (SELECT sum(v) FROM cb_sales)) < 1
           AS values_exact
FROM cb_expected e;
DEALLOCATE cb_prepared;
RESET plan_cache_mode;

-- Refused before any charge: a given bound next to a NULL one that is not finite (22023), an
-- alpha outside (0, 1). (dp_variance_ci and dp_stddev_ci with NULL bounds: sql/estimated_variance.sql.)
SELECT pg_temp.charges() AS before \gset
SELECT pg_temp.error_of($$SELECT dp_sum_ci(v, NULL, 'NaN', 1, 0.05) FROM cb_sales$$);
SELECT pg_temp.error_of($$SELECT dp_mean_ci(v, NULL, 1e19, 1, 0.05) FROM cb_sales$$);
SELECT pg_temp.error_of($$SELECT dp_sum_ci(v, NULL, NULL, 1, 1.5) FROM cb_sales$$);
SELECT pg_temp.error_of($$SELECT dp_sum_ci(v, NULL, NULL, 0, 0.05) FROM cb_sales$$);
SELECT pg_temp.charges() - :before AS charged_for_refusals;
RESET SESSION AUTHORIZATION;

-- The release cache: the same statement again is the stored row (value, interval, noise and
-- bounds identical, from_cache true) and no second charge.
SELECT relation FROM pgdp.set_refresh_policy('cb_sales');
SET SESSION AUTHORIZATION cb_analyst;
SELECT pg_temp.charges() AS before \gset
SELECT dp_mean_ci(v, NULL, NULL, 0.5, 0.05) AS r FROM cb_sales \gset first_
SELECT dp_mean_ci(v, NULL, NULL, 0.5, 0.05) AS r FROM cb_sales \gset again_
SELECT a.value = b.value AND a.ci_lower = b.ci_lower AND a.ci_upper = b.ci_upper AND a.noise_sd = b.noise_sd
           AND a.alpha = b.alpha AND a.mechanism = b.mechanism AND a.epsilon = b.epsilon AND a.delta = b.delta
           AS same_release,
       a.lower_bound = b.lower_bound AND a.upper_bound = b.upper_bound AS same_bounds,
       a.lower_bound < a.upper_bound AS ordered_bounds, a.from_cache AS first_from_cache, b.from_cache AS again_from_cache,
       pg_temp.charges() - :before AS charges
FROM (SELECT (:'first_r'::dp_release).*) a, (SELECT (:'again_r'::dp_release).*) b;
-- Given bounds through the cache likewise (one charge for both runs).
SELECT pg_temp.charges() AS before \gset
SELECT (r).lower_bound, (r).upper_bound FROM (SELECT dp_sum_ci(v, -10, 50, 0.5, 0.05) AS r FROM cb_sales) x;
SELECT (r).lower_bound, (r).upper_bound FROM (SELECT dp_sum_ci(v, -10, 50, 0.5, 0.05) AS r FROM cb_sales) x;
SELECT pg_temp.charges() - :before AS charges;
RESET SESSION AUTHORIZATION;

-- Person level over a protected relation: each person's total (level 1), then the estimated bounds
-- and the release over the persons (level 2), against the two levels written by hand. The sum's
-- interval is at alpha 1e-9, so that the exact total lies outside it with probability at most 1e-9
-- (at 0.05 it lay outside in one CI run: the noise is small at epsilon 1e9, but so is the
-- interval). Persons
-- 0..56, ~350 rows each; their totals lie in [512, 16384), whose outer binades hold 3.5% and
-- 46% of them; their means in [2, 64) (5% and 25%).
SET client_min_messages = warning;
CREATE TABLE cb_visits (id int, person int, region int, minutes float8);
INSERT INTO cb_visits
SELECT g, CASE WHEN g % 101 = 0 THEN NULL ELSE g % 57 END, g % 57 % 3, (g % 57) * 0.7 + g % 5
FROM generate_series(1, 20000) g;
GRANT SELECT ON cb_visits TO cb_analyst;
SELECT relation FROM pgdp.protect('cb_visits', 'person');
RESET client_min_messages;
CREATE VIEW cb_units AS
SELECT region, person, sum(minutes) AS total, avg(minutes) AS mean FROM cb_visits WHERE person IS NOT NULL
GROUP BY region, person;
SET SESSION AUTHORIZATION cb_analyst;
SELECT pg_temp.charges() AS before \gset
SELECT (s).value AS s_value, (s).lower_bound AS s_lower, (s).upper_bound AS s_upper, (s).ci_lower AS s_ci_lower,
       (s).ci_upper AS s_ci_upper, (m).value AS m_value, (m).lower_bound AS m_lower, (m).upper_bound AS m_upper,
       (g).lower_bound AS g_lower, (g).upper_bound AS g_upper
FROM (SELECT dp_sum_ci(minutes, NULL, NULL, 1e9, 1e-9) AS s, dp_mean_ci(minutes, NULL, NULL, 1e9, 0.05) AS m,
             dp_sum_ci(minutes, 0, 1000, 1e9, 0.05) AS g
      FROM cb_visits) x \gset person_
SELECT pg_temp.charges() - :before AS charges;
RESET SESSION AUTHORIZATION;
SELECT :person_s_lower = pg_temp.edge_above(min(total)) / 2 AS sum_lower_estimated,
       :person_s_upper = pg_temp.edge_above(max(total)) AS sum_upper_estimated,
       abs(:person_s_value - sum(total)) < 1e-3 AS person_sum,
       sum(total) BETWEEN :person_s_ci_lower AND :person_s_ci_upper AS sum_in_interval,
       :person_m_lower = pg_temp.edge_above(min(mean)) / 2 AS mean_lower_estimated,
       :person_m_upper = pg_temp.edge_above(max(mean)) AS mean_upper_estimated,
       abs(:person_m_value - avg(mean)) < 1e-6 AS person_mean,
       :person_g_lower AS given_lower, :person_g_upper AS given_upper
FROM cb_units;

-- Leave nothing behind for the tests after this one.
SET client_min_messages = warning;
SELECT pgdp.unprotect('cb_visits');
DROP VIEW cb_units;
DROP TABLE cb_visits, cb_sales, cb_expected CASCADE;
DELETE FROM pgdp.budgets WHERE role = 'cb_analyst'::regrole;
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.release_cache;
DROP OWNED BY cb_analyst;
DROP ROLE cb_analyst;
