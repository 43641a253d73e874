-- dp_quantile, dp_quantiles and dp_median with NULL bounds (0.13, issue 24 part 5): no bounds
-- stage; a NULL bound selects the tree's data-independent log-linear leaf map over [-2^64, 2^64]
-- (256 leaves per binade, a zero zone |x| < 2^-63), values clamped to a given bound. One release,
-- one charge, the whole epsilon on the tree. At epsilon 1e9 every Laplace or truncated Laplace
-- answer lies in the leaf of PostgreSQL's percentile_disc of the clamped values: within
-- greatest(|p| / 256, 2^-63) of it (docs/privacy.md "Bounds the analyst need not guess: the
-- quantiles"). Every reference is percentile_disc over hand-written clamped (or capped) rows.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE qn_analyst;
SELECT role FROM pgdp.set_budget('qn_analyst', 1e18, 0.99);
SELECT epsilon_limit FROM pgdp.set_budget(session_user::regrole, 1e18, 0.99);
RESET client_min_messages;
SET pgdp.test_seed = 17;
SET extra_float_digits = 0;

-- Values over ten orders of magnitude, negatives, zeros, the zero zone, infinities and values
-- beyond 2^64 (clamped to +-2^64); NaN and NULL are no rows.
CREATE TABLE qn_pay (id int, x float8, team int);
INSERT INTO qn_pay
SELECT i, CASE WHEN i % 7 = 0 THEN -v WHEN i % 11 = 0 THEN 0 ELSE v END, i % 4
FROM (SELECT i, exp(((i * 7919) % 5000) / 500.0 - 3) AS v FROM generate_series(1, 5000) i) s;
INSERT INTO qn_pay VALUES (5001, 'NaN', 0), (5002, NULL, 1), (5003, 'Infinity', 2), (5004, '-Infinity', 3),
    (5005, 1e30, 0), (5006, -1e30, 1), (5007, 5e-20, 2), (5008, 1e-300, 3);
GRANT SELECT ON qn_pay TO qn_analyst;
CREATE FUNCTION pg_temp.clamp(x float8, lower float8, upper float8) RETURNS float8 LANGUAGE sql IMMUTABLE
AS $$ SELECT least(greatest(x, lower), upper) $$;
-- The stated resolution: the answer a and percentile_disc p share a leaf, so |a - p| <= the
-- leaf's width, at most |p| / 256 (2^-63 in the zero zone).
CREATE FUNCTION pg_temp.within_resolution(a float8, p float8) RETURNS boolean LANGUAGE sql IMMUTABLE
AS $$ SELECT abs(a - p) <= greatest(abs(p) / 256, 2::float8 ^ -63) $$;
CREATE TEMP TABLE qn_levels AS
SELECT level, i FROM unnest(ARRAY[0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1]::float8[]) WITH ORDINALITY AS l(level, i);

-- Epsilon 1e9, both bounds NULL, each mechanism. The discrete Gaussian's node noise never goes
-- below 8 counts: its answers are checked by rank (the share of rows at or below the answer
-- within 0.01 of q).
CREATE TEMP TABLE qn_released AS
SELECT 'laplace' AS asked, dp_quantiles(x, NULL, NULL, ARRAY[0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1], 1e9) AS q
FROM qn_pay
UNION ALL
SELECT 'tlap', dp_quantiles(x, NULL, NULL, ARRAY[0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1], 1e9, 1e-6, 'tlap')
FROM qn_pay
UNION ALL
SELECT 'gaussian', dp_quantiles(x, NULL, NULL, ARRAY[0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1], 1e9, 1e-6, 'gaussian')
FROM qn_pay;
CREATE TEMP VIEW qn_clamped AS
SELECT team, pg_temp.clamp(x, -(2::float8 ^ 64), 2::float8 ^ 64) AS x FROM qn_pay WHERE x <> 'NaN';
WITH reference AS (
    SELECT level, i, percentile_disc(level) WITHIN GROUP (ORDER BY x) AS p FROM qn_clamped, qn_levels GROUP BY level, i),
answers AS (
    SELECT f.level, f.p, r.asked, r.q[f.i] AS answer,
           (SELECT avg((c.x <= r.q[f.i])::int) FROM qn_clamped c) AS rank
    FROM reference f, qn_released r)
SELECT level, p AS percentile_disc,
       bool_and(pg_temp.within_resolution(answer, p)) FILTER (WHERE asked <> 'gaussian') AS laplace_tlap_in_its_leaf,
       bool_and(abs(rank - level) <= 0.01 OR (level = 0 AND answer <= p)) FILTER (WHERE asked = 'gaussian')
           AS gaussian_rank_within_1_percent
FROM answers GROUP BY level, p ORDER BY level;

-- One bound given: values clamped to it, answers inside it.
WITH released AS (
    SELECT dp_quantiles(x, 0, NULL, ARRAY[0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1], 1e9) AS above_0,
           dp_quantiles(x, NULL, 100, ARRAY[0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1], 1e9) AS below_100
    FROM qn_pay),
reference AS (
    SELECT level, i, percentile_disc(level) WITHIN GROUP (ORDER BY pg_temp.clamp(x, 0, 2::float8 ^ 64)) AS above_0,
           percentile_disc(level) WITHIN GROUP (ORDER BY pg_temp.clamp(x, -(2::float8 ^ 64), 100)) AS below_100
    FROM qn_pay, qn_levels WHERE x <> 'NaN' GROUP BY level, i)
SELECT level, f.above_0 AS p_above_0, f.below_100 AS p_below_100,
       pg_temp.within_resolution(r.above_0[i], f.above_0) AND r.above_0[i] >= 0 AS above_0_in_its_leaf,
       pg_temp.within_resolution(r.below_100[i], f.below_100) AND r.below_100[i] <= 100 AS below_100_in_its_leaf
FROM reference f, released r ORDER BY level;

-- dp_median and dp_quantile, grouped: each team against its own percentile_disc.
SELECT r.team, pg_temp.within_resolution(r.m, p.m) AS median_in_its_leaf,
       pg_temp.within_resolution(r.q9, p.q9) AS q90_in_its_leaf
FROM (SELECT team, dp_median(x, NULL, NULL, 1e9) AS m, dp_quantile(x, NULL, NULL, 0.9, 1e9) AS q9 FROM qn_pay GROUP BY team) r
JOIN (SELECT team, percentile_disc(0.5) WITHIN GROUP (ORDER BY x) AS m, percentile_disc(0.9) WITHIN GROUP (ORDER BY x) AS q9
      FROM qn_clamped GROUP BY team) p USING (team)
ORDER BY r.team;

-- Epsilon 0.2 over 1000 groups of 5 rows: finite, inside the bounds, non-decreasing in q. An
-- empty group releases the quantiles of a tree of noise: a number, inside the given bound.
SELECT count(*) AS groups,
       count(*) FILTER (WHERE NOT (q[1] >= -(2::float8 ^ 64) AND q[5] <= 2::float8 ^ 64)) AS outside_or_nan,
       count(*) FILTER (WHERE NOT (q[1] <= q[2] AND q[2] <= q[3] AND q[3] <= q[4] AND q[4] <= q[5])) AS not_monotone,
       count(*) FILTER (WHERE NOT (a[1] >= 5 AND a[2] >= a[1])) AS given_lower_broken
FROM (SELECT id % 1000, dp_quantiles(x, NULL, NULL, ARRAY[0.05, 0.25, 0.5, 0.75, 0.95], 0.2) AS q,
             dp_quantiles(x, 5, NULL, ARRAY[0.1, 0.9], 0.2) AS a
      FROM qn_pay GROUP BY id % 1000) g;
SELECT m IS NOT NULL AND m BETWEEN -(2::float8 ^ 64) AND 2::float8 ^ 64 AS empty_group_a_number,
       l >= 5 AS empty_group_above_given_lower, u <= -3 AS empty_group_below_given_upper
FROM (SELECT dp_median(x, NULL, NULL, 1) AS m, dp_median(x, 5, NULL, 0.1) AS l, dp_median(x, NULL, -3, 0.1) AS u
      FROM qn_pay WHERE false) r;

-- Bind parameters, generic plans: NULL as a parameter is the same call as the literal.
SET plan_cache_mode = force_generic_plan;
PREPARE qn_bounds(float8, float8) AS SELECT dp_median(x, $1, $2, 1e9) AS m FROM qn_pay;
SELECT releases AS releases_before FROM pgdp.my_budget \gset
EXECUTE qn_bounds(NULL, NULL) \gset both_null_
EXECUTE qn_bounds(0, NULL) \gset lower_0_
EXECUTE qn_bounds(NULL, 100) \gset upper_100_
EXECUTE qn_bounds(0, 100) \gset bounded_
SELECT pg_temp.within_resolution(:both_null_m, percentile_disc(0.5) WITHIN GROUP (ORDER BY x)) AS both_null_in_its_leaf
FROM qn_clamped;
SELECT pg_temp.within_resolution(:lower_0_m, percentile_disc(0.5) WITHIN GROUP (ORDER BY pg_temp.clamp(x, 0, 2::float8 ^ 64)))
           AS lower_0_in_its_leaf,
       pg_temp.within_resolution(:upper_100_m, percentile_disc(0.5) WITHIN GROUP (ORDER BY pg_temp.clamp(x, -(2::float8 ^ 64), 100)))
           AS upper_100_in_its_leaf,
       abs(:bounded_m - percentile_disc(0.5) WITHIN GROUP (ORDER BY pg_temp.clamp(x, 0, 100))) <= 100.0 / 65536
           AS bounded_within_a_linear_leaf
FROM qn_pay WHERE x <> 'NaN';
SELECT releases - :releases_before AS charged_four_calls FROM pgdp.my_budget;
DEALLOCATE qn_bounds;
RESET plan_cache_mode;

-- Bad input next to a NULL bound: a SQLSTATE naming the argument, nothing charged.
CREATE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
    RETURN state || ': ' || message;
END $$;
RESET pgdp.test_seed;
SELECT releases AS releases_before FROM pgdp.my_budget \gset
SELECT call, pg_temp.error_of('SELECT ' || call || ' FROM qn_pay') AS error
FROM (VALUES ('dp_median(x, NULL, ''Infinity'', 1)'), ('dp_median(x, ''NaN'', NULL, 1)'),
             ('dp_median(x, -1e19, NULL, 1)'), ('dp_quantiles(x, NULL, NULL, ARRAY[1.5], 1)'),
             ('dp_quantile(x, NULL, NULL, NULL, 1)'), ('dp_median(x, NULL, NULL, 0)'),
             ('dp_median(x, NULL, NULL, 1, 2, ''gaussian'')'), ('dp_median(x, NULL, x, 1)'),
             ('dp_median(x, NULL, NULL, 1) OVER ()')) AS t(call);
PREPARE qn_bad(float8) AS SELECT dp_median(x, $1, NULL, 1) FROM qn_pay;
SELECT pg_temp.error_of('EXECUTE qn_bad(''Infinity'')') AS bad_parameter;
DEALLOCATE qn_bad;
SELECT releases - :releases_before AS charged_by_bad_input FROM pgdp.my_budget;

-- One ledger charge per call, whatever the number of levels: the call's epsilon, all on the tree.
SET SESSION AUTHORIZATION qn_analyst;
SELECT array_length(dp_quantiles(x, NULL, NULL, ARRAY[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], 0.5), 1) AS levels
FROM qn_pay;
SELECT aggregate, mechanism, epsilon, delta FROM pgdp.my_ledger
WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger) ORDER BY release;
SELECT dp_median(x, 0, NULL, 0.5, 1e-6, 'gaussian') >= 0 AS released FROM qn_pay;
SELECT aggregate, mechanism, epsilon, delta FROM pgdp.my_ledger
WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger) ORDER BY release;
RESET SESSION AUTHORIZATION;

-- The release cache: the same NULL-bound call again is the stored answer, no second charge.
SELECT relation FROM pgdp.set_refresh_policy('qn_pay');
SELECT count(*) AS charged_before FROM pgdp.ledger WHERE role = 'qn_analyst'::regrole \gset
SET SESSION AUTHORIZATION qn_analyst;
SELECT dp_quantiles(x, NULL, NULL, ARRAY[0.25, 0.5, 0.75], 0.5) AS answer FROM qn_pay \gset first_
SELECT dp_quantiles(x, NULL, NULL, ARRAY[0.25, 0.5, 0.75], 0.5) AS answer FROM qn_pay \gset again_
RESET SESSION AUTHORIZATION;
SELECT :'first_answer' = :'again_answer' AS same_quantiles,
       (SELECT count(*) FROM pgdp.ledger WHERE role = 'qn_analyst'::regrole) - :charged_before AS charged;

-- Parallel plans: partial log-linear trees serialized in the workers (format version 2) and
-- merged exactly: with one seed the parallel and the serial plan release the same quantiles.
CREATE TABLE qn_wide AS SELECT i, exp((i % 1000) / 100.0) AS x FROM generate_series(1, 200000) AS i;
ANALYZE qn_wide;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT dp_quantiles(x, NULL, NULL, ARRAY[0.1, 0.5, 0.9], 1) FROM qn_wide;
SET pgdp.test_seed = 5;
CREATE TEMP TABLE qn_parallel AS SELECT dp_quantiles(x, NULL, NULL, ARRAY[0.1, 0.5, 0.9], 1) AS q FROM qn_wide;
SET max_parallel_workers_per_gather = 0;
SET pgdp.test_seed = 5;
CREATE TEMP TABLE qn_serial AS SELECT dp_quantiles(x, NULL, NULL, ARRAY[0.1, 0.5, 0.9], 1) AS q FROM qn_wide;
SELECT p.q = s.q AS identical FROM qn_parallel p, qn_serial s;
SET max_parallel_workers_per_gather = 2;
SELECT pg_temp.within_resolution(dp_median(x, NULL, NULL, 1e9), (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x) FROM qn_wide))
       AS parallel_in_its_leaf
FROM qn_wide;
RESET max_parallel_workers_per_gather;
RESET pgdp.test_seed;

-- Person level (a protected relation, k = pgdp.rows_per_unit rows per unit): the row-capped
-- rewrite feeds the NULL-bound tree. Unit p has 1 + p % 3 rows, all of one value, and unit 1000
-- 1000 rows at 7.5, so any k of a unit's rows are min(k, its rows) copies of its value: the
-- capped rows by hand.
SET client_min_messages = warning;
CREATE TABLE qn_visits (person int, minutes float8);
INSERT INTO qn_visits SELECT p, exp(p / 40.0) - 2 FROM generate_series(1, 300) p, generate_series(1, 3) r WHERE r <= 1 + p % 3;
INSERT INTO qn_visits SELECT 1000, 7.5 FROM generate_series(1, 1000);
GRANT SELECT ON qn_visits TO qn_analyst;
SELECT relation FROM pgdp.protect('qn_visits', 'person');
RESET client_min_messages;
CREATE FUNCTION pg_temp.capped(k int) RETURNS SETOF float8 LANGUAGE sql STABLE AS $$
    SELECT minutes FROM (SELECT minutes, row_number() OVER (PARTITION BY person) AS n FROM qn_visits) s WHERE n <= k $$;
SET SESSION AUTHORIZATION qn_analyst;
SELECT releases AS releases_before FROM pgdp.my_budget \gset
SET pgdp.rows_per_unit = 3;
SELECT dp_quantiles(minutes, NULL, NULL, ARRAY[0.1, 0.5, 0.9], 1e9) AS q, dp_median(minutes, 0, NULL, 1e9) AS m
FROM qn_visits \gset k3_
SET pgdp.rows_per_unit = 1;
SELECT dp_quantiles(minutes, NULL, NULL, ARRAY[0.1, 0.5, 0.9], 1e9) AS q FROM qn_visits \gset k1_
RESET pgdp.rows_per_unit;
SELECT releases - :releases_before AS charged_three_calls FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
SELECT k, bool_and(pg_temp.within_resolution(r.q[i], e.q[i])) AS in_its_leaf
FROM (VALUES (3, :'k3_q'::float8[]), (1, :'k1_q'::float8[])) r(k, q),
     LATERAL (SELECT percentile_disc(ARRAY[0.1, 0.5, 0.9]) WITHIN GROUP (ORDER BY c) AS q FROM pg_temp.capped(r.k) c) e,
     generate_series(1, 3) i
GROUP BY k ORDER BY k;
SELECT pg_temp.within_resolution(:k3_m, percentile_disc(0.5) WITHIN GROUP (ORDER BY greatest(c, 0))) AS k3_median_above_0_in_its_leaf
FROM pg_temp.capped(3) c;
-- Unit 1000 counts 3 times at k = 3 and once at k = 1: the medians differ as the capped rows'.
SELECT (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY c) FROM pg_temp.capped(3) c) <>
       (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY c) FROM pg_temp.capped(1) c) AS k_matters;

-- Leave nothing behind for the tests after this one.
SET client_min_messages = warning;
SELECT pgdp.unprotect('qn_visits');
DROP TABLE qn_pay, qn_wide, qn_visits CASCADE;
DELETE FROM pgdp.budgets WHERE role = 'qn_analyst'::regrole;
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.release_cache;
DROP OWNED BY qn_analyst;
DROP ROLE qn_analyst;
RESET client_min_messages;
