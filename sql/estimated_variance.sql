-- Bounds the analyst need not guess for dp_variance and dp_stddev (issue 24 part 5): NULL lower
-- and/or upper are estimated inside the release as for dp_sum (a quarter of epsilon to the
-- bounds, the rest and all of delta to the variance), one charge. The reference is PostgreSQL's
-- own var_pop/stddev_pop of the values clamped to the bounds the estimate must return, derived
-- from its rule (docs/statistics/histograms.md "Bounds the analyst need not guess"): the outer
-- edges of the lowest and highest occupied log bins after trimming whole outer bins holding at
-- most 1% of the rows per side. Here v = -3..96 (1% of the rows each) plus 5 rows of -500000 and
-- 10 of 1000000 (0.05% and 0.1%): those two bins are trimmed, the next ones (-4, -2] and
-- [64, 128) hold 2% and 33%, so the bounds are [-4, 128] and the outliers are clamped to them.
-- The same in each of the groups 0..3 (blocks of 100 consecutive ids, 1 to 3 outliers each).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE ev_analyst;
SELECT role FROM pgdp.set_budget('ev_analyst', 1e18, 0.99);
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

CREATE TABLE ev_rows (id int, g int, v int4, d float8, n numeric);
INSERT INTO ev_rows SELECT i, i / 100 % 4, i % 100 - 3, i % 100 - 3 + 0.25, (i % 100 - 3)::numeric / 2
FROM generate_series(1, 20000) i;
INSERT INTO ev_rows SELECT 20000 + i, i % 4, -500000, -500000.5, -250000 FROM generate_series(1, 5) i;
INSERT INTO ev_rows SELECT 20010 + i, i % 4, 1000000, 1000000.5, 500000 FROM generate_series(1, 10) i;
INSERT INTO ev_rows VALUES (30001, 0, NULL, 'NaN', 'NaN');
CREATE TABLE ev_keys (g int);
INSERT INTO ev_keys VALUES (0), (1), (2), (3), (4);
GRANT SELECT ON ev_rows, ev_keys TO ev_analyst;
SET SESSION AUTHORIZATION ev_analyst;

-- Both bounds estimated, every value type (numeric: v/2, bounds [-2, 64]). The noise at epsilon
-- 1e9 on bounds of at most 2^8 moves the variance by far less than 1e-6.
SELECT abs(dp_variance(v, NULL, NULL, 1e9) - var_pop(least(greatest(v, -4), 128)) FILTER (WHERE v IS NOT NULL)) < 1e-6 AS int4_variance,
       abs(dp_stddev(v, NULL, NULL, 1e9) - stddev_pop(least(greatest(v, -4), 128)) FILTER (WHERE v IS NOT NULL)) < 1e-6 AS int4_stddev,
       abs(dp_variance(d, NULL, NULL, 1e9) - var_pop(least(greatest(d, -4), 128)) FILTER (WHERE d <> 'NaN')) < 1e-6
           AS float8_variance,
       abs(dp_variance(n, NULL, NULL, 1e9) - var_pop(least(greatest(n, -2), 64)) FILTER (WHERE n <> 'NaN')) < 1e-6
           AS numeric_variance,
       abs(dp_variance(v, NULL, NULL, 1e9) - var_pop(v)) > 1000 AS the_outliers_were_clamped
FROM ev_rows;
SELECT pg_typeof(dp_variance(v, NULL, NULL, 1)) AS int_variance_type,
       pg_typeof(dp_stddev(n, NULL, NULL, 1)) AS numeric_stddev_type
FROM ev_rows;

-- One bound given: the rows are clamped to it, the other is estimated (-4 below, 128 above; above
-- a given lower of 1000 every row but the trimmed outliers is 1000, in the bin [512, 1024), so the
-- upper bound is 1024). least and greatest ignore NULL, hence the filters.
SELECT abs(dp_variance(v, NULL, 50, 1e9) - var_pop(greatest(least(v, 50), -4)) FILTER (WHERE v IS NOT NULL)) < 1e-6 AS upper_given,
       abs(dp_variance(d, 0, NULL, 1e9) - var_pop(least(greatest(d, 0), 128)) FILTER (WHERE d <> 'NaN')) < 1e-6
           AS lower_given,
       abs(dp_stddev(v, 10.5, NULL, 1e9) - stddev_pop(least(greatest(v, 10.5), 128)) FILTER (WHERE v IS NOT NULL)) < 1e-6 AS stddev_lower_given,
       abs(dp_variance(v, 1000, NULL, 1e9) - var_pop(least(greatest(v, 1000), 1024)) FILTER (WHERE v IS NOT NULL)) < 1e-6
           AS nearly_all_below_the_given_lower
FROM ev_rows;

-- Grouped with public keys: group 4 has no rows and still gets a release in [0, 1] (the default
-- bounds [-1, 1]); never NULL, never an error.
SELECT k.g, count(r.v) AS rows,
       CASE WHEN count(r.v) = 0 THEN dp_variance(r.v, NULL, NULL, 1e9) BETWEEN 0 AND 1
            ELSE abs(dp_variance(r.v, NULL, NULL, 1e9) - var_pop(least(greatest(r.v, -4), 128)) FILTER (WHERE r.v IS NOT NULL)) < 1e-6 END
           AS variance_released
FROM ev_keys k LEFT JOIN ev_rows r ON r.g = k.g GROUP BY k.g ORDER BY k.g;

-- Empty and one-row groups at small and huge epsilon: never NULL nor an error, never negative,
-- never above (upper - lower)^2/4 of the bounds used (the default [-1, 1]: 1; one row of 2.25 at
-- a huge epsilon: its bin [2, 4), variance 0).
SELECT dp_variance(v, NULL, NULL, 0.1) BETWEEN 0 AND 1 AS empty_variance,
       dp_stddev(v, NULL, NULL, 0.1) BETWEEN 0 AND 1 AS empty_stddev,
       dp_variance(v, NULL, NULL, 1e9) BETWEEN 0 AND 1 AS empty_variance_huge_epsilon,
       dp_variance(v, NULL, 7, 1) BETWEEN 0 AND 16 AS empty_variance_upper_given
FROM ev_rows WHERE false;
SELECT dp_variance(d, NULL, NULL, 0.1) >= 0 AS one_row_variance,
       dp_stddev(d, NULL, NULL, 0.1) >= 0 AS one_row_stddev,
       dp_variance(d, NULL, NULL, 1e9) BETWEEN 0 AND 1e-6 AS one_row_variance_huge_epsilon
FROM ev_rows WHERE id = 105;

-- Small epsilon: never negative (the post-processing clamps the variance to [0, (upper - lower)^2/4]).
SELECT bool_and(x >= 0) AS never_negative FROM (
    SELECT dp_variance(v, NULL, NULL, 0.01) AS x FROM ev_rows GROUP BY g
    UNION ALL SELECT dp_stddev(v, NULL, 50, 0.01) FROM ev_rows GROUP BY g) s;

-- One charge per call, of its whole epsilon; the charged plan is the variance's share, 3/4, at the
-- widest bounds (+-2^64), charged to the basic part (gaussian_mu2 0).
SELECT pg_temp.charges() AS before \gset
SELECT dp_variance(v, NULL, NULL, 0.5) IS NOT NULL AS released FROM ev_rows;
SELECT dp_stddev(v, NULL, 100, 0.5, 1e-6, 'gaussian') IS NOT NULL AS released FROM ev_rows;
SELECT pg_temp.charges() - :before AS charges;
RESET SESSION AUTHORIZATION;
SELECT aggregate, epsilon, delta, mechanism, sensitivity >= 2 ^ 126 AS at_widest_bounds, gaussian_mu2
FROM pgdp.ledger WHERE role = 'ev_analyst'::regrole ORDER BY charge_id DESC LIMIT 2;

-- Parallel plans: the workers' binned sums and squares are serialized and merged exactly.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT g, dp_variance(d, NULL, NULL, 1e9) FROM ev_rows GROUP BY g;
EXPLAIN (COSTS OFF) SELECT dp_variance(d, NULL, NULL, 1e9) FROM ev_rows;
SET SESSION AUTHORIZATION ev_analyst;
SELECT g, abs(dp_variance(d, NULL, NULL, 1e9) - var_pop(least(greatest(d, -4), 128)) FILTER (WHERE d <> 'NaN')) < 1e-6
           AS parallel_variance,
       abs(dp_stddev(v, NULL, 50, 1e9) - stddev_pop(greatest(least(v, 50), -4)) FILTER (WHERE v IS NOT NULL)) < 1e-6 AS parallel_stddev
FROM ev_rows GROUP BY g ORDER BY g;
SELECT abs(dp_variance(d, NULL, NULL, 1e9) - var_pop(least(greatest(d, -4), 128)) FILTER (WHERE d <> 'NaN')) < 1e-6
           AS parallel_variance_ungrouped
FROM ev_rows;
RESET SESSION AUTHORIZATION;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET parallel_leader_participation;
SET SESSION AUTHORIZATION ev_analyst;

-- Prepared statements, custom and generic plans: NULL bounds as bind parameters, and numbers
-- through the same statement.
PREPARE ev_prepared(float8, float8) AS SELECT dp_variance(v, $1, $2, 1e9) AS x FROM ev_rows;
EXECUTE ev_prepared(NULL, NULL) \gset both_
SET plan_cache_mode = force_generic_plan;
EXECUTE ev_prepared(NULL, 50) \gset upper_
EXECUTE ev_prepared(-4, 128) \gset explicit_
EXECUTE ev_prepared(NULL, NULL) \gset generic_
RESET plan_cache_mode;
SELECT abs(:both_x - var_pop(least(greatest(v, -4), 128)) FILTER (WHERE v IS NOT NULL)) < 1e-6 AS both_null,
       abs(:upper_x - var_pop(greatest(least(v, 50), -4)) FILTER (WHERE v IS NOT NULL)) < 1e-6 AS upper_bound,
       abs(:explicit_x - var_pop(least(greatest(v, -4), 128)) FILTER (WHERE v IS NOT NULL)) < 1e-6 AS explicit_bounds,
       abs(:generic_x - var_pop(least(greatest(v, -4), 128)) FILTER (WHERE v IS NOT NULL)) < 1e-6 AS generic_plan
FROM ev_rows;
DEALLOCATE ev_prepared;

-- The *_ci forms: the variance release's interval for the bounds it used (reported: lower_bound,
-- upper_bound, the bounds the estimate must return, [-4, 128] and [-4, 50]), one charge of the
-- whole epsilon. At a huge epsilon the interval holds the clamped data's variance
-- and is as wide as a bounded call's on those bounds with 3/4 of the epsilon (0.09 here: half a
-- step of the count's grid dominates); at a small one it holds the released value, in [0, R^2/4].
SELECT pg_temp.charges() AS before \gset
SELECT abs((c).value - ref) < 1e-6 AS ci_value, (c).ci_lower <= ref + 1e-9 AND ref - 1e-9 <= (c).ci_upper AS ci_holds,
       abs(((c).ci_upper - (c).ci_lower) - ((b).ci_upper - (b).ci_lower)) < 1e-6 AS ci_as_wide_as_bounded,
       (c).alpha, (c).mechanism, (c).epsilon, (c).from_cache, (c).lower_bound, (c).upper_bound
FROM (SELECT dp_variance_ci(v, NULL, NULL, 1e9, 0.05) AS c, dp_variance_ci(v, -4, 128, 0.75e9, 0.05) AS b,
             var_pop(least(greatest(v, -4), 128)) FILTER (WHERE v IS NOT NULL) AS ref FROM ev_rows) s;
SELECT abs((c).value - ref) < 1e-6 AS ci_value, (c).ci_lower <= ref + 1e-9 AND ref - 1e-9 <= (c).ci_upper AS ci_holds,
       (c).mechanism, (c).epsilon, (c).delta, (c).lower_bound, (c).upper_bound
FROM (SELECT dp_stddev_ci(v, NULL, 50, 1e9, 1e-6, 'gaussian', 0.1) AS c,
             stddev_pop(greatest(least(v, 50), -4)) FILTER (WHERE v IS NOT NULL) AS ref FROM ev_rows) s;
SELECT bool_and((c).ci_lower <= (c).value AND (c).value <= (c).ci_upper AND (c).ci_lower >= 0) AS ci_ordered
FROM (SELECT g, dp_variance_ci(d, NULL, NULL, 0.5, 0.05) AS c FROM ev_rows GROUP BY g
      UNION ALL SELECT 9, dp_stddev_ci(d, NULL, NULL, 0.5, 0.05) FROM ev_rows WHERE false) s;
SELECT pg_temp.charges() - :before AS charges;  -- 4 calls and the bounded reference

-- Refused before any charge: a given bound not a multiple of 2^-84 next to an estimated one
-- (22023), bad epsilon or alpha.
SELECT pg_temp.charges() AS before \gset
SELECT pg_temp.error_of($$SELECT dp_variance(v, 1e-30, NULL, 1) FROM ev_rows$$);
SELECT pg_temp.error_of($$SELECT dp_stddev(v, NULL, 'Infinity', 1) FROM ev_rows$$);
SELECT pg_temp.error_of($$SELECT dp_variance(v, NULL, -1e19, 1) FROM ev_rows$$);
SELECT pg_temp.error_of($$SELECT dp_variance(v, NULL, NULL, 0) FROM ev_rows$$);
SELECT pg_temp.error_of($$SELECT dp_variance_ci(v, NULL, NULL, 1, 1.5) FROM ev_rows$$);
SELECT pg_temp.error_of($$SELECT dp_stddev_ci(v, 1e-30, NULL, 1, 0.05) FROM ev_rows$$);
SELECT pg_temp.charges() - :before AS charged_for_refusals;
RESET SESSION AUTHORIZATION;

-- Person level over a protected relation: each person's mean (level 1), then the estimated bounds
-- and the variance of the persons' means (level 2), against the two levels written by hand.
-- Persons 0..56; their means 0.7 p + 2 lie in [2, 41.2]: the outer bins [2, 4) and [32, 64) hold
-- 3 and 14 of the 57 persons (over 1% each), so the bounds are [2, 64] and nothing is clamped.
SET client_min_messages = warning;
CREATE TABLE ev_visits (id int, person int, region int, minutes float8);
INSERT INTO ev_visits
SELECT g, g % 57, g % 57 % 3, (g % 57) * 0.7 + g % 5 FROM generate_series(1, 20000) g;
GRANT SELECT ON ev_visits TO ev_analyst;
SELECT relation FROM pgdp.protect('ev_visits', 'person');
RESET client_min_messages;
CREATE VIEW ev_units AS SELECT person, avg(minutes) AS mean FROM ev_visits GROUP BY person;
SET SESSION AUTHORIZATION ev_analyst;
SELECT pg_temp.charges() AS before \gset
SELECT dp_variance(minutes, NULL, NULL, 1e9) AS v, dp_stddev(minutes, NULL, NULL, 1e9) AS s FROM ev_visits \gset person_
SELECT pg_temp.charges() - :before AS charges;
RESET SESSION AUTHORIZATION;
SELECT min(mean) >= 2 AND max(mean) < 64 AS inside_the_bounds, abs(:person_v - var_pop(mean)) < 1e-6 AS person_variance,
       abs(:person_s - stddev_pop(mean)) < 1e-6 AS person_stddev
FROM ev_units;

-- Leave nothing behind for the tests after this one.
SET client_min_messages = warning;
SELECT pgdp.unprotect('ev_visits');
DROP VIEW ev_units;
DROP TABLE ev_visits, ev_rows, ev_keys CASCADE;
DELETE FROM pgdp.budgets WHERE role = 'ev_analyst'::regrole;
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.release_cache;
DROP OWNED BY ev_analyst;
DROP ROLE ev_analyst;
