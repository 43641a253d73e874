-- dp_quantile, dp_quantiles and dp_median (issue 24 part 1): any number of quantiles from one
-- noisy quantile tree (one release, one charge). At a huge epsilon every quantile lies within one
-- leaf of the tree, (upper - lower) / 65536, of PostgreSQL's percentile_disc of the clamped values,
-- for every mechanism, grouped and in parallel plans; results stay in [lower, upper] and are
-- non-decreasing in q at any epsilon; bad input is refused with a SQLSTATE naming the argument and
-- nothing charged; one ledger charge per call whatever the number of levels; over protected
-- relations a FILTER refused (person-level forms: sql/person_level_statistics.sql). Every
-- reference is PostgreSQL's own percentile_disc.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE quant_analyst;
SELECT role FROM pgdp.set_budget('quant_analyst', 1e18, 0.99);
SELECT epsilon_limit FROM pgdp.set_budget(session_user::regrole, 1e18, 0.99);
RESET client_min_messages;
SET pgdp.test_seed = 13;
SET extra_float_digits = 0;

CREATE TABLE quant_pay (id int, salary float8, team int);
INSERT INTO quant_pay SELECT i, ((i * 7919) % 5000)::float8 * 31.7 + 1000, i % 4 FROM generate_series(1, 5000) AS i;
INSERT INTO quant_pay VALUES (5001, 'NaN', 0), (5002, NULL, 1), (5003, 1e9, 2), (5004, -1e9, 3);
GRANT SELECT ON quant_pay TO quant_analyst;
-- The values as the quantiles read them: NULL and NaN are no rows, the others clamped to the bounds.
CREATE TEMP VIEW quant_clamped AS
SELECT team, least(greatest(salary, 0), 200000) AS salary FROM quant_pay WHERE salary <> 'NaN';

-- Epsilon 1e9: the Laplace and truncated Laplace node noise vanishes, and every quantile lies
-- within one leaf (200000 / 65536 = 3.05) of percentile_disc. The discrete Gaussian's node noise
-- never goes below 8 counts (its floor over several coordinates, docs/privacy.md "Releases over
-- m groups"): its answers are checked by rank instead (the share of rows at or below the answer
-- is within 0.01 of q).
CREATE TEMP TABLE quant_released AS
SELECT 'laplace' AS asked, dp_quantiles(salary, 0, 200000, ARRAY[0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1], 1e9) AS q
FROM quant_pay
UNION ALL
SELECT 'tlap', dp_quantiles(salary, 0, 200000, ARRAY[0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1], 1e9, 1e-6, 'tlap')
FROM quant_pay
UNION ALL
SELECT 'gaussian', dp_quantiles(salary, 0, 200000, ARRAY[0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1], 1e9, 1e-6, 'gaussian')
FROM quant_pay;
WITH reference AS (
    SELECT level, i, percentile_disc(level) WITHIN GROUP (ORDER BY salary) AS p
    FROM quant_clamped, unnest(ARRAY[0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1]::float8[]) WITH ORDINALITY AS l(level, i)
    GROUP BY level, i),
answers AS (
    SELECT f.level, f.p, r.asked, r.q[f.i] AS answer,
           (SELECT avg((c.salary <= r.q[f.i])::int) FROM quant_clamped c) AS rank
    FROM reference f, quant_released r)
SELECT level, p AS percentile_disc,
       bool_and(abs(answer - p) <= 200000.0 / 65536) FILTER (WHERE asked <> 'gaussian') AS laplace_tlap_within_a_leaf,
       bool_and(abs(rank - level) <= 0.01 OR (level = 0 AND answer <= p)) FILTER (WHERE asked = 'gaussian')
           AS gaussian_rank_within_1_percent
FROM answers GROUP BY level, p ORDER BY level;
SELECT abs(dp_median(salary, 0, 200000, 1e9) - percentile_disc(0.5) WITHIN GROUP (ORDER BY least(greatest(salary, 0), 200000)))
       <= 200000.0 / 65536 AS median_within_a_leaf,
       abs(dp_quantile(salary, 0, 200000, 0.9, 1e9) - percentile_disc(0.9) WITHIN GROUP (ORDER BY least(greatest(salary, 0), 200000)))
       <= 200000.0 / 65536 AS quantile_within_a_leaf
FROM quant_pay WHERE salary <> 'NaN';

-- Grouped: each team's median against its own percentile_disc.
SELECT r.team, abs(r.m - p.m) <= 200000.0 / 65536 AS median_within_a_leaf
FROM (SELECT team, dp_median(salary, 0, 200000, 1e9) AS m FROM quant_pay GROUP BY team) r
JOIN (SELECT team, percentile_disc(0.5) WITHIN GROUP (ORDER BY salary) AS m FROM quant_clamped GROUP BY team) p USING (team)
ORDER BY r.team;

-- Epsilon 0.2 over 500 groups of 10 rows (and an empty group): in [lower, upper], non-decreasing
-- in q, never NaN; levels asked in any order come back in that order.
SELECT count(*) AS groups,
       count(*) FILTER (WHERE q[1] < 0 OR q[5] > 200000 OR q[1] = 'NaN' OR q[5] = 'NaN') AS outside,
       count(*) FILTER (WHERE NOT (q[1] <= q[2] AND q[2] <= q[3] AND q[3] <= q[4] AND q[4] <= q[5])) AS not_monotone
FROM (SELECT id % 500, dp_quantiles(salary, 0, 200000, ARRAY[0.05, 0.25, 0.5, 0.75, 0.95], 0.2) AS q
      FROM quant_pay GROUP BY id % 500) g;
SELECT array_length(q, 1) AS levels, q[1] >= q[2] AND q[2] >= q[3] AS in_the_order_asked
FROM (SELECT dp_quantiles(salary, 0, 200000, ARRAY[0.9, 0.5, 0.1], 0.2) AS q FROM quant_pay) r;
SELECT m BETWEEN 0 AND 200000 AS empty_group_in_bounds
FROM (SELECT dp_median(salary, 0, 200000, 1) AS m FROM quant_pay WHERE false) r;

-- Parallel plans: partial trees in workers, merged exactly; with one seed a parallel and a serial
-- plan release the same quantiles.
CREATE TABLE quant_wide AS SELECT i, (i % 1000)::float8 AS x FROM generate_series(1, 200000) AS i;
ANALYZE quant_wide;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT dp_quantiles(x, 0, 1000, ARRAY[0.1, 0.5, 0.9], 1) FROM quant_wide;
SET pgdp.test_seed = 5;
CREATE TEMP TABLE quant_parallel AS SELECT dp_quantiles(x, 0, 1000, ARRAY[0.1, 0.5, 0.9], 1) AS q FROM quant_wide;
SET max_parallel_workers_per_gather = 0;
SET pgdp.test_seed = 5;
CREATE TEMP TABLE quant_serial AS SELECT dp_quantiles(x, 0, 1000, ARRAY[0.1, 0.5, 0.9], 1) AS q FROM quant_wide;
SELECT p.q = s.q AS identical FROM quant_parallel p, quant_serial s;
SET max_parallel_workers_per_gather = 2;
SELECT abs(dp_median(x, 0, 1000, 1e9) - (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x) FROM quant_wide))
       <= 1000.0 / 65536 AS parallel_within_a_leaf
FROM quant_wide;
RESET max_parallel_workers_per_gather;

-- Bad input: a SQLSTATE and a message naming the argument; nothing charged.
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
SELECT call, pg_temp.error_of('SELECT ' || call || ' FROM quant_pay') AS error
FROM (VALUES ('dp_quantile(salary, 0, 100, 1.5, 1)'), ('dp_quantile(salary, 0, 100, -0.1, 1)'),
             ('dp_quantile(salary, 0, 100, ''NaN'', 1)'), ('dp_quantile(salary, 0, 100, NULL, 1)'),
             ('dp_quantiles(salary, 0, 100, ARRAY[]::float8[], 1)'), ('dp_quantiles(salary, 0, 100, ARRAY[0.5, NULL], 1)'),
             ('dp_quantiles(salary, 0, 100, array_fill(0.5::float8, ARRAY[1001]), 1)'),
             ('dp_median(salary, 100, 0, 1)'), ('dp_median(salary, 0, ''Infinity'', 1)'), ('dp_median(salary, NULL, ''Infinity'', 1)'),
             ('dp_median(salary, 0, 100, 0)'), ('dp_median(salary, 0, 100, NULL)'), ('dp_median(salary, 0, 100, 1, 2, ''gaussian'')'),
             ('dp_median(salary, 0, 100, 1, 1e-6, ''exp'')'), ('dp_quantile(salary, 0, 100, salary / 1e6, 1)')) AS t(call);
SELECT releases - :releases_before AS charged_by_bad_input FROM pgdp.my_budget;

-- One ledger charge per call, whatever the number of levels.
SET SESSION AUTHORIZATION quant_analyst;
SELECT array_length(dp_quantiles(salary, 0, 200000, ARRAY[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], 0.5), 1) AS levels
FROM quant_pay;
SELECT aggregate, mechanism, epsilon, delta FROM pgdp.my_ledger
WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger) ORDER BY release;
SELECT dp_median(salary, 0, 200000, 0.5, 1e-6, 'gaussian') BETWEEN 0 AND 200000 AS released FROM quant_pay;
SELECT aggregate, mechanism, epsilon, delta FROM pgdp.my_ledger
WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger) ORDER BY release;
RESET SESSION AUTHORIZATION;

-- The release cache: with a data epoch on the relation, the same quantiles asked again are the
-- stored answer (the same values) and charge nothing more.
SELECT relation FROM pgdp.set_refresh_policy('quant_pay');
SELECT count(*) AS charged_before FROM pgdp.ledger WHERE role = 'quant_analyst'::regrole \gset
SET SESSION AUTHORIZATION quant_analyst;
SELECT dp_quantiles(salary, 0, 200000, ARRAY[0.25, 0.5, 0.75], 0.5) AS answer FROM quant_pay \gset first_
SELECT dp_quantiles(salary, 0, 200000, ARRAY[0.25, 0.5, 0.75], 0.5) AS answer FROM quant_pay \gset again_
RESET SESSION AUTHORIZATION;
SELECT :'first_answer' = :'again_answer' AS same_quantiles,
       (SELECT count(*) FROM pgdp.ledger WHERE role = 'quant_analyst'::regrole) - :charged_before AS charged;

-- Attacks: levels given as a bind parameter are part of the cache's key (another q is a new
-- release, the same q the stored answer); a window use is refused; a scroll cursor read back and
-- forth releases once.
SELECT count(*) AS charged_before FROM pgdp.ledger WHERE role = 'quant_analyst'::regrole \gset
SET SESSION AUTHORIZATION quant_analyst;
PREPARE levels(float8[]) AS SELECT dp_quantiles(salary, 0, 200000, $1, 0.5) AS q FROM quant_pay;
EXECUTE levels('{0.1}') \gset low_
EXECUTE levels('{0.9}') \gset high_
EXECUTE levels('{0.1}') \gset low_again_
SELECT :'low_q' = :'low_again_q' AS same_answer_again, :'low_q' <> :'high_q' AS other_levels_answered_apart;
DEALLOCATE levels;
SELECT dp_median(salary, 0, 200000, 1) OVER () FROM quant_pay LIMIT 1;
BEGIN;
DECLARE back_and_forth SCROLL CURSOR FOR SELECT dp_median(salary, 0, 200000, 1) BETWEEN 0 AND 200000 AS m FROM quant_pay;
FETCH back_and_forth;
FETCH PRIOR back_and_forth;
FETCH NEXT back_and_forth;
COMMIT;
RESET SESSION AUTHORIZATION;
SELECT (SELECT count(*) FROM pgdp.ledger WHERE role = 'quant_analyst'::regrole) - :charged_before AS charged;

-- Over a protected relation: refused before any charge (the person-level form, each unit's rows
-- bounded per group, is not built yet).
SET client_min_messages = warning;
CREATE TABLE quant_visits (person int, minutes float8);
INSERT INTO quant_visits SELECT g % 40, g % 90 FROM generate_series(1, 2000) g;
GRANT SELECT ON quant_visits TO quant_analyst;
SELECT relation FROM pgdp.protect('quant_visits', 'person');
RESET client_min_messages;
SET SESSION AUTHORIZATION quant_analyst;
SELECT releases AS releases_before FROM pgdp.my_budget \gset
-- Person-level forms: sql/person_level_statistics.sql. A form it has not (FILTER) is refused.
SELECT pg_temp.error_of('SELECT dp_median(minutes, 0, 90, 1) FILTER (WHERE minutes > 0) FROM quant_visits') AS protected;
SELECT releases - :releases_before AS charged FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

-- Leave nothing behind for the tests after this one.
SET client_min_messages = warning;
SELECT pgdp.unprotect('quant_visits');
DROP TABLE quant_pay, quant_wide, quant_visits CASCADE;
DELETE FROM pgdp.budgets WHERE role = 'quant_analyst'::regrole;
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.release_cache;
DROP OWNED BY quant_analyst;
DROP ROLE quant_analyst;
RESET client_min_messages;
