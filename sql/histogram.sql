-- dp_histogram (issue 24 part 4): one release of every bin's count, as dp_histogram_bin rows a
-- chart can plot. At a huge epsilon every bin equals PostgreSQL's width_bucket count of the same
-- rows (NaN counted in the last bin, where width_bucket refuses it), for every mechanism, grouped
-- and in parallel plans; at a small epsilon counts are never negative and intervals are whole
-- numbers around them; bad input is refused with a SQLSTATE naming the argument and nothing
-- charged; one ledger charge per call; the release cache; over protected relations a FILTER is
-- refused before any charge (the person-level forms: sql/person_level_statistics.sql). Every
-- count shown is PostgreSQL's own.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE hist_analyst;
SELECT role FROM pgdp.set_budget('hist_analyst', 1e18, 0.99);
SELECT epsilon_limit FROM pgdp.set_budget(session_user::regrole, 1e18, 0.99);
RESET client_min_messages;
SET pgdp.test_seed = 11;
SET extra_float_digits = 0;

CREATE TABLE hist_people (id int, age float8, region int);
INSERT INTO hist_people SELECT i, (i * 37 % 101)::float8 - 5, i % 3 FROM generate_series(1, 3000) AS i;
INSERT INTO hist_people VALUES (3001, 'NaN', 0), (3002, NULL, 1), (3003, 'Infinity', 2),
                               (3004, '-Infinity', 0), (3005, 90, 1), (3006, 0, 2);
GRANT SELECT ON hist_people TO hist_analyst;

-- PostgreSQL's own bins: width_bucket(age, 0, 90, 9), NaN (refused by width_bucket) in bin 10.
CREATE TEMP VIEW hist_exact AS
SELECT region, CASE WHEN age = 'NaN' THEN 10 ELSE width_bucket(age, 0, 90, 9) END AS bin
FROM hist_people WHERE age IS NOT NULL;

-- Epsilon 1e9: no noise on any count. Every bin of every mechanism equals width_bucket's count.
CREATE TEMP TABLE hist_released AS
SELECT 'laplace' AS asked, (h).* FROM (SELECT unnest(dp_histogram(age, 0, 90, 9, 1e9)) AS h FROM hist_people) r
UNION ALL
SELECT 'gaussian', (h).* FROM (SELECT unnest(dp_histogram(age, 0, 90, 9, 1e9, 1e-6, 'gaussian')) AS h FROM hist_people) r
UNION ALL
SELECT 'tlap', (h).* FROM (SELECT unnest(dp_histogram(age, 0, 90, 9, 1e9, 1e-6, 'tlap')) AS h FROM hist_people) r;
SELECT bin, bin_lower, bin_upper, e.n AS width_bucket_count,
       bool_and(r.count = e.n) AS every_mechanism_equal,
       bool_and(r.interval_low <= e.n AND e.n <= r.interval_high) AS covered, string_agg(DISTINCT r.asked || '=' || r.mechanism, ',') AS mechanisms
FROM hist_released r JOIN (SELECT bin, count(*) AS n FROM hist_exact GROUP BY bin
                           UNION ALL SELECT b, 0 FROM generate_series(0, 10) b
                           WHERE b NOT IN (SELECT bin FROM hist_exact)) e USING (bin)
GROUP BY bin, bin_lower, bin_upper, e.n ORDER BY bin;

-- Grouped: one histogram per region, each equal to its own width_bucket counts.
SELECT g.region, count(*) AS bins, bool_and((g.h).count = coalesce(e.n, 0)) AS equal
FROM (SELECT region, unnest(dp_histogram(age, 0, 90, 9, 1e9)) AS h FROM hist_people GROUP BY region) g
LEFT JOIN (SELECT region, bin, count(*) AS n FROM hist_exact GROUP BY region, bin) e
       ON e.region = g.region AND e.bin = (g.h).bin
GROUP BY g.region ORDER BY g.region;

-- No rows: every bin is released (noise on zero counts), never negative.
SELECT count(*) AS bins, bool_and(count >= 0 AND interval_low <= interval_high) AS well_formed
FROM unnest((SELECT dp_histogram(age, 0, 90, 9, 1) FROM hist_people WHERE false));

-- Epsilon 0.5: noisy counts, never negative; the interval holds the count and is made of whole
-- numbers (checked over 300 groups of 10 rows).
SELECT count(*) AS bins, count(*) FILTER (WHERE (h).count < 0) AS negative,
       count(*) FILTER (WHERE (h).interval_low > (h).count OR (h).count > (h).interval_high) AS outside,
       count(*) FILTER (WHERE (h).bin_lower >= (h).bin_upper) AS empty_bins
FROM (SELECT unnest(dp_histogram(age, 0, 90, 3, 0.5)) AS h FROM hist_people GROUP BY id % 300) g;

-- Parallel plans: partial counts in workers, combined exactly; with one seed a parallel and a
-- serial plan release the same histogram.
CREATE TABLE hist_wide AS SELECT i, (i % 1000)::float8 AS x FROM generate_series(1, 200000) AS i;
ANALYZE hist_wide;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT dp_histogram(x, 0, 1000, 10, 1) FROM hist_wide;
SET pgdp.test_seed = 5;
CREATE TEMP TABLE hist_parallel AS SELECT dp_histogram(x, 0, 1000, 10, 1) AS h FROM hist_wide;
SET max_parallel_workers_per_gather = 0;
SET pgdp.test_seed = 5;
CREATE TEMP TABLE hist_serial AS SELECT dp_histogram(x, 0, 1000, 10, 1) AS h FROM hist_wide;
SELECT p.h = s.h AS identical FROM hist_parallel p, hist_serial s;
SET max_parallel_workers_per_gather = 2;
SELECT bool_and((h).count = CASE WHEN (h).bin BETWEEN 1 AND 10 THEN 20000 ELSE 0 END) AS parallel_exact
FROM (SELECT unnest(dp_histogram(x, 0, 1000, 10, 1e9)) AS h FROM hist_wide) r;
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
SELECT call, pg_temp.error_of('SELECT dp_histogram(' || call || ') FROM hist_people') AS error
FROM (VALUES ('age, 0, 90, 0, 1'), ('age, 0, 90, -3, 1'), ('age, 0, 90, 10001, 1'), ('age, 0, 90, NULL, 1'),
             ('age, 90, 0, 9, 1'), ('age, 0, 0, 9, 1'), ('age, ''NaN'', 90, 9, 1'), ('age, 0, ''Infinity'', 9, 1'),
             ('age, NULL, 90, 9, 1'), ('age, 0, 90, 9, 0'), ('age, 0, 90, 9, NULL'), ('age, 0, 90, 9, ''NaN'''),
             ('age, 0, 90, 9, 1, 1.5, ''gaussian'''), ('age, 0, 90, 9, 1, 1e-6, ''gauss'''),
             ('age, 0, 90, region, 1'), ('age, 0, 90, 9, 1, 0, ''gaussian''')) AS t(call);
SELECT releases - :releases_before AS charged_by_bad_input FROM pgdp.my_budget;

-- One ledger charge per call: every bin is one release (sensitivity 1: a row is in one bin),
-- a grouped call one release over its groups.
SET SESSION AUTHORIZATION hist_analyst;
SELECT array_length(dp_histogram(age, 0, 90, 9, 0.5), 1) AS bins FROM hist_people;
SELECT aggregate, mechanism, epsilon, delta, sensitivity FROM pgdp.my_ledger
WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger) ORDER BY release;
SELECT count(h) AS regions FROM (SELECT region, dp_histogram(age, 0, 90, 9, 0.5, 1e-6, 'gaussian') AS h FROM hist_people GROUP BY region) r;
SELECT aggregate, mechanism, epsilon, delta, sensitivity FROM pgdp.my_ledger
WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger) ORDER BY release;
RESET SESSION AUTHORIZATION;

-- The release cache: with a data epoch on the relation, the same histogram asked again is the
-- stored answer (the same bins) and charges nothing more.
SELECT relation FROM pgdp.set_refresh_policy('hist_people');
SELECT count(*) AS charged_before FROM pgdp.ledger WHERE role = 'hist_analyst'::regrole \gset
SET SESSION AUTHORIZATION hist_analyst;
SELECT dp_histogram(age, 0, 90, 9, 0.5) AS answer FROM hist_people \gset first_
SELECT dp_histogram(age, 0, 90, 9, 0.5) AS answer FROM hist_people \gset again_
RESET SESSION AUTHORIZATION;
SELECT :'first_answer' = :'again_answer' AS same_bins,
       (SELECT count(*) FROM pgdp.ledger WHERE role = 'hist_analyst'::regrole) - :charged_before AS charged;

-- Over a protected relation: refused before any charge (its person-level form, each unit's rows
-- bounded per group, is not built yet).
SET client_min_messages = warning;
CREATE TABLE hist_visits (person int, minutes float8);
INSERT INTO hist_visits SELECT g % 40, g % 90 FROM generate_series(1, 2000) g;
GRANT SELECT ON hist_visits TO hist_analyst;
SELECT relation FROM pgdp.protect('hist_visits', 'person');
RESET client_min_messages;
SET SESSION AUTHORIZATION hist_analyst;
SELECT releases AS releases_before FROM pgdp.my_budget \gset
-- Person-level forms: sql/person_level_statistics.sql. A form it has not (FILTER) is refused.
SELECT pg_temp.error_of('SELECT dp_histogram(minutes, 0, 90, 9, 1) FILTER (WHERE minutes > 0) FROM hist_visits') AS protected;
SELECT releases - :releases_before AS charged FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

-- Leave nothing behind for the tests after this one.
SET client_min_messages = warning;
SELECT pgdp.unprotect('hist_visits');
DROP TABLE hist_people, hist_wide, hist_visits CASCADE;
DELETE FROM pgdp.budgets WHERE role = 'hist_analyst'::regrole;
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.release_cache;
DROP OWNED BY hist_analyst;
DROP ROLE hist_analyst;
RESET client_min_messages;
