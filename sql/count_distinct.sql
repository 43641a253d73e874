-- dp_count_distinct (issue 24 part 3): the number of distinct non-NULL values (not units), one
-- release of sensitivity 1. At a huge epsilon it equals PostgreSQL's count(DISTINCT) for text,
-- integers and numerics that differ only in scale, grouped and in parallel plans; bad input is refused with a SQLSTATE naming the argument and nothing charged;
-- one ledger charge per call; over protected relations a FILTER
-- refused (person-level forms: sql/person_level_statistics.sql). Every expected
-- number is PostgreSQL's own count(DISTINCT).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE distinct_analyst;
SELECT role FROM pgdp.set_budget('distinct_analyst', 1e18, 0.99);
SELECT epsilon_limit FROM pgdp.set_budget(session_user::regrole, 1e18, 0.99);
RESET client_min_messages;
SET pgdp.test_seed = 17;

CREATE TABLE distinct_orders (id int, product text, store int, amount numeric, region int);
INSERT INTO distinct_orders
SELECT i, 'p' || (i * 7 % 613), i % 37, (i % 50)::numeric / 4, i % 3 FROM generate_series(1, 20000) AS i;
INSERT INTO distinct_orders VALUES (20001, NULL, NULL, NULL, 0), (20002, 'P1', 1, 1.50, 1), (20003, 'p1', 1, 1.5, 2);
GRANT SELECT ON distinct_orders TO distinct_analyst;

-- Epsilon 1e9: no noise. numeric 1.50 and 1.5 are one value (as for count(DISTINCT)); NULL is none.
SELECT count(DISTINCT product) AS products, dp_count_distinct(product, 1e9) AS dp_products,
       count(DISTINCT store) AS stores, dp_count_distinct(store, 1e9, 1e-6, 'tlap') AS dp_stores,
       count(DISTINCT amount) AS amounts, dp_count_distinct(amount, 1e9, 1e-6, 'gaussian') - count(DISTINCT amount)
           BETWEEN -100 AND 100 AS dp_amounts_gaussian_near
FROM distinct_orders;
-- Grouped: each region's own count(DISTINCT).
SELECT region, count(DISTINCT product) AS products, dp_count_distinct(product, 1e9) = count(DISTINCT product) AS equal
FROM distinct_orders GROUP BY region ORDER BY region;

-- Epsilon 0.5 over 200 groups: integers, near the exact count (Laplace scale 2: within 40 with
-- probability 1 - 2e-9 each).
SELECT count(*) AS groups, count(*) FILTER (WHERE abs(d - n) > 40) AS far
FROM (SELECT id % 200, dp_count_distinct(product, 0.5) AS d, count(DISTINCT product) AS n FROM distinct_orders GROUP BY id % 200) g;

-- Parallel plans: partial sets in workers, united exactly; with one seed a parallel and a serial
-- plan release the same count.
CREATE TABLE distinct_wide AS SELECT i, 'v' || (i % 5000) AS v FROM generate_series(1, 200000) AS i;
ANALYZE distinct_wide;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT dp_count_distinct(v, 1) FROM distinct_wide;
SET pgdp.test_seed = 5;
CREATE TEMP TABLE distinct_parallel AS SELECT dp_count_distinct(v, 1) AS d FROM distinct_wide;
SET max_parallel_workers_per_gather = 0;
SET pgdp.test_seed = 5;
CREATE TEMP TABLE distinct_serial AS SELECT dp_count_distinct(v, 1) AS d FROM distinct_wide;
SELECT p.d = s.d AS identical FROM distinct_parallel p, distinct_serial s;
SET max_parallel_workers_per_gather = 2;
SELECT dp_count_distinct(v, 1e9) AS dp_distinct, (SELECT count(DISTINCT v) FROM distinct_wide) AS count_distinct
FROM distinct_wide;
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
SELECT call, pg_temp.error_of('SELECT ' || call || ' FROM distinct_orders') AS error
FROM (VALUES ('dp_count_distinct(product, 0)'), ('dp_count_distinct(product, NULL)'), ('dp_count_distinct(product, ''NaN'')'),
             ('dp_count_distinct(product, 1, 2, ''gaussian'')'), ('dp_count_distinct(product, 1, 1e-6, ''exp'')'),
             ('dp_count_distinct(product, store)'), ('dp_count_distinct(point(store, 1), 1)')) AS t(call);
SELECT releases - :releases_before AS charged_by_bad_input FROM pgdp.my_budget;

-- One ledger charge per call (sensitivity 1).
SET SESSION AUTHORIZATION distinct_analyst;
SELECT dp_count_distinct(product, 0.5) > 0 AS released FROM distinct_orders;
SELECT aggregate, mechanism, epsilon, delta, sensitivity FROM pgdp.my_ledger
WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger) ORDER BY release;
RESET SESSION AUTHORIZATION;

-- Over a protected relation: refused before any charge (the person-level form, each unit's
-- values bounded per group, is not built yet).
SET client_min_messages = warning;
CREATE TABLE distinct_visits (person int, page text);
INSERT INTO distinct_visits SELECT g % 40, 'page' || g % 90 FROM generate_series(1, 2000) g;
GRANT SELECT ON distinct_visits TO distinct_analyst;
SELECT relation FROM pgdp.protect('distinct_visits', 'person');
RESET client_min_messages;
SET SESSION AUTHORIZATION distinct_analyst;
SELECT releases AS releases_before FROM pgdp.my_budget \gset
-- Person-level forms: sql/person_level_statistics.sql. A form it has not (FILTER) is refused.
SELECT pg_temp.error_of('SELECT dp_count_distinct(page, 1) FILTER (WHERE page > ''a'') FROM distinct_visits') AS protected;
SELECT releases - :releases_before AS charged FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

-- Leave nothing behind for the tests after this one.
SET client_min_messages = warning;
SELECT pgdp.unprotect('distinct_visits');
DROP TABLE distinct_orders, distinct_wide, distinct_visits CASCADE;
DELETE FROM pgdp.budgets WHERE role = 'distinct_analyst'::regrole;
DROP OWNED BY distinct_analyst;
DROP ROLE distinct_analyst;
RESET client_min_messages;
