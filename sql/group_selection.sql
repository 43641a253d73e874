-- Specifies: private group selection and public keys of grouped person-level releases (stage: planning).
-- Attacks on grouped person-level releases (private group selection and public keys; red-team
-- round 7, docs/red-team/round7.md). Table gra_visits, protected with m = 2: units 1..20 have 5
-- rows each in one region (u % 4: 5 units in each of regions 0..3), unit 100 ("heavy") has 10 rows
-- in each of regions 0..99, unit 200 (the "victim") one row alone in region 500. gra_regions
-- (regions 0..11) and gra_hundred (0..99) are declared public. Accepted releases are checked
-- exactly at epsilon 1e6 with Laplace noise (far below 0.5 on a count), or their calibration
-- through the noise_sd of dp_count_ci (Laplace: sqrt(2) m / epsilon); refusals by SQLSTATE.
-- Group selection at epsilon 1e6 with the Laplace threshold and delta 1e-9 keeps every group of
-- 2 or more units and drops a single-unit group except with probability below 1e-9 per group.
SET client_min_messages = warning;
CREATE ROLE gra_analyst;
SELECT role FROM pgdp.set_budget('gra_analyst', 1e12, 0.5);
CREATE SCHEMA gra AUTHORIZATION gra_analyst;
CREATE TABLE gra_visits (person int, region int, minutes int);
INSERT INTO gra_visits SELECT u, u % 4, 1 FROM generate_series(1, 20) u, generate_series(1, 5);
INSERT INTO gra_visits SELECT 100, r, 1 FROM generate_series(0, 99) r, generate_series(1, 10);
INSERT INTO gra_visits VALUES (200, 500, 1);
CREATE TABLE gra_regions (region int, name text);
INSERT INTO gra_regions SELECT r, 'r' || r FROM generate_series(0, 11) r;
CREATE TABLE gra_hundred (region int);
INSERT INTO gra_hundred SELECT generate_series(0, 99);
-- Keys with several spellings of one value: 40 units spell them one way, unit 0 another.
CREATE TABLE gra_spelling (person int, amount numeric, score float8, label text, code bpchar,
                           span interval, tags int[]);
INSERT INTO gra_spelling SELECT u, 5.0, 0.0, 'bob', 'x', '1 day', '{1}' FROM generate_series(1, 40) u;
INSERT INTO gra_spelling VALUES (0, 5.000, '-0', 'BOB', 'x  ', '24 hours', '{1}');
CREATE TABLE gra_public_amounts (amount numeric);
INSERT INTO gra_public_amounts VALUES (5.0), (7);
-- 229 groups of 2 units (unit 10 g + j in group g) and, when present, one single-unit group.
CREATE TABLE gra_order (person int, g int) WITH (autovacuum_enabled = false);
CREATE TABLE gra_part (person int, region int) PARTITION BY LIST (region);
CREATE TABLE gra_part_a PARTITION OF gra_part FOR VALUES IN (0, 1);
CREATE TABLE gra_part_b PARTITION OF gra_part DEFAULT;
INSERT INTO gra_part SELECT person, region FROM gra_visits;
GRANT SELECT ON gra_visits, gra_regions, gra_hundred, gra_spelling, gra_public_amounts, gra_order,
    gra_part TO gra_analyst;
GRANT INSERT, DELETE, TRUNCATE ON gra_order TO gra_analyst;
SELECT relation FROM pgdp.protect('gra_visits', 'person', 2);
SELECT relation FROM pgdp.protect('gra_spelling', 'person', 1);
SELECT relation FROM pgdp.protect('gra_order', 'person', 1);
SELECT relation FROM pgdp.protect('gra_part', 'person', 2);
SELECT relation FROM pgdp.declare_public('gra_regions');
SELECT relation FROM pgdp.declare_public('gra_hundred');
SELECT relation FROM pgdp.declare_public('gra_public_amounts');
RESET client_min_messages;
SET SESSION AUTHORIZATION gra_analyst;
SET search_path = gra, public;
\set SHOW_CONTEXT never

-- Break 1 (fixed): the released key of a selected group is the spelling of one of its rows. With
-- numeric 5.0 (40 units) and 5.000 (unit 0), the group showed "5.000" exactly when unit 0 was in
-- it (level 3 meets unit 0's row first): presence shown with certainty. Also float 0 / -0, text
-- under a nondeterministic collation, bpchar trailing spaces, interval '1 day' / '24 hours',
-- arrays. Now numeric and float keys are released in a canonical form (pgdp.canonical_key: 5, 0),
-- whoever's row is met first; the other types are refused (0A000) unless equal keys are identical
-- values; the cast to text works.
CREATE COLLATION gra.case_blind (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT amount, dp_count(1e6) FROM gra_spelling GROUP BY amount HAVING dp_groups(1e6, 1e-9, 'laplace');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT score, dp_count(1e6) FROM gra_spelling GROUP BY score HAVING dp_groups(1e6, 1e-9, 'laplace');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT label COLLATE gra.case_blind, dp_count(1e6) FROM gra_spelling GROUP BY 1
HAVING dp_groups(1e6, 1e-9, 'laplace');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT octet_length(code), dp_count(1e6) FROM gra_spelling GROUP BY code HAVING dp_groups(1e6, 1e-9, 'laplace');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT span, dp_count(1e6) FROM gra_spelling GROUP BY span HAVING dp_groups(1e6, 1e-9, 'laplace');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT tags, dp_count(1e6) FROM gra_spelling GROUP BY tags HAVING dp_groups(1e6, 1e-9, 'laplace');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- A cast to text makes the spellings separate groups: unit 0's is a single-unit group, dropped.
SELECT amount::text AS amount, dp_count(1e6) FROM gra_spelling GROUP BY 1 HAVING dp_groups(1e6, 1e-9, 'laplace');
SELECT label, dp_count(1e6) FROM gra_spelling GROUP BY label HAVING dp_groups(1e6, 1e-9, 'laplace');
-- Public keys of such a type are fine: the keys shown are the public relation's own rows.
SELECT a.amount, dp_count(1e6) FROM gra_public_amounts a LEFT JOIN gra_spelling s USING (amount)
GROUP BY a.amount ORDER BY a.amount;

-- Break 2 (fixed): level 3's hash table holds every group, dropped ones included; with 229 kept
-- groups, one unit's dropped group made the table grow and the 229 released groups came out in
-- another order (and a LIMIT without ORDER BY kept other groups). Now the rows come ordered by
-- the keys after any ORDER BY: the order is the same with and without that unit, for every
-- number of groups tried (before the fix: 229 and 459 differed). The count is the function's
-- result: no notice leaves a command that made a person-level release (docs/privacy.md "Server
-- messages and statistics").
CREATE FUNCTION pg_temp.order_differences() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    without_unit text;
    with_unit text;
    differing int := 0;
BEGIN
    FOR n IN 200..480 LOOP
        TRUNCATE gra_order;
        INSERT INTO gra_order SELECT g * 10 + j, g FROM generate_series(1, n) g, generate_series(1, 2) j;
        SELECT string_agg(g::text, ',') INTO without_unit
        FROM (SELECT g, dp_count(1e6) FROM gra_order GROUP BY g HAVING dp_groups(1e6, 1e-9, 'laplace')) s;
        INSERT INTO gra_order VALUES (0, 1000000);
        SELECT string_agg(g::text, ',') INTO with_unit
        FROM (SELECT g, dp_count(1e6) FROM gra_order GROUP BY g HAVING dp_groups(1e6, 1e-9, 'laplace')) s;
        IF with_unit IS DISTINCT FROM without_unit THEN differing := differing + 1; END IF;
    END LOOP;
    RETURN differing;
END $$;
SELECT pg_temp.order_differences() AS group_counts_whose_order_showed_the_dropped_group;
DROP FUNCTION pg_temp.order_differences();
SELECT string_agg(g::text, ',') AS first_five
FROM (SELECT g, dp_count(1e6) c FROM gra_order GROUP BY g HAVING dp_groups(1e6, 1e-9, 'laplace')
      ORDER BY c DESC LIMIT 5) s;
SELECT g, dp_count(1e6) c FROM gra_order GROUP BY g HAVING dp_groups(1e6, 1e-9, 'laplace') LIMIT 2;
-- DISTINCT ON keeps the first row of each value: the one with the smallest key.
SELECT DISTINCT ON (c) g, dp_count(1e6) c FROM gra_order GROUP BY g HAVING dp_groups(1e6, 1e-9, 'laplace');
-- Refused: DISTINCT hiding a key, WITH TIES (their rows would depend on the order of equal values).
SELECT DISTINCT dp_count(1e6) FROM gra_order GROUP BY g HAVING dp_groups(1e6, 1e-9, 'laplace');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT g, dp_count(1e6) c FROM gra_order GROUP BY g HAVING dp_groups(1e6, 1e-9, 'laplace')
ORDER BY c FETCH FIRST 1 ROWS WITH TIES;
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- Held: a unit influences at most m = 2 groups, once each. Public keys: the 20 light units count
-- once in their region (5 in each of 0..3); the heavy unit, in all 12 public regions with 10 rows
-- each, adds 1 to exactly 2 of them; the victim's region is not public.
SELECT sum(c) AS units_counted, sum(c) FILTER (WHERE region < 4) BETWEEN 20 AND 22 AS light_regions,
       count(*) FILTER (WHERE region < 4 AND c NOT IN (5, 6) OR region >= 4 AND c NOT IN (0, 1)) AS off_counts,
       count(*) AS keys
FROM (SELECT r.region, dp_count(1e6) c FROM gra_regions r LEFT JOIN gra_visits v USING (region)
      GROUP BY r.region) s;
-- 100 public groups: the heavy unit appears in at most 2.
SELECT sum(c) AS units_counted, count(*) FILTER (WHERE region >= 4 AND c > 0) <= 2 AS heavy_at_most_m
FROM (SELECT h.region, dp_count(1e6) c FROM gra_hundred h LEFT JOIN gra_visits v USING (region)
      GROUP BY h.region) s;
-- Joins that repeat rows (a set-returning function, LATERAL, the public relation joined twice)
-- count each unit once per group: still 22.
SELECT sum(c) AS units_counted FROM (SELECT r.region, dp_count(1e6) c
    FROM gra_regions r LEFT JOIN (gra_visits v CROSS JOIN generate_series(1, 10) g) USING (region)
    GROUP BY r.region) s;
SELECT sum(c) AS units_counted FROM (SELECT r.region, dp_count(1e6) c
    FROM gra_regions r LEFT JOIN gra_visits v USING (region)
    LEFT JOIN LATERAL generate_series(1, v.minutes * 7) g ON true
    LEFT JOIN gra_regions r2 ON r2.region = v.region
    GROUP BY r.region) s;
-- dp_sum: a unit's sum in a group (10 rows of 1 for the heavy unit) clamped to [0, 3].
SELECT sum(s) AS clamped_total FROM (SELECT r.region, dp_sum(v.minutes, 0, 3, 1e6) s
    FROM gra_regions r LEFT JOIN gra_visits v USING (region) GROUP BY r.region) t;
-- Selection: regions 0..3 (5 light units, maybe the heavy one) kept; the heavy unit's other
-- groups and the victim's have one unit: dropped.
SELECT count(*) AS kept, sum(c) BETWEEN 20 AND 22 AS counted, bool_and(c IN (5, 6)) AS per_group
FROM (SELECT region, dp_count(1e6) c FROM gra_visits GROUP BY region HAVING dp_groups(1e6, 1e-9, 'laplace')) s;
-- Grouped on the unit: every group has one unit, none kept.
SELECT count(*) AS kept FROM (SELECT person, dp_count(1e6) FROM gra_visits GROUP BY person
    HAVING dp_groups(1e6, 1e-9, 'laplace')) s;
-- A volatile key spreads a unit's rows over both keys: each group counts units (at most 21), not
-- rows (about 60).
SELECT bool_and(c BETWEEN 0 AND 21) AS counts_units
FROM (SELECT random() < 0.5 AS coin, dp_count(1e6) c FROM gra_visits WHERE region < 4 GROUP BY 1
      HAVING dp_groups(1e6, 1e-9, 'laplace')) s;
-- Partitioned protected table, partitionwise aggregation allowed: 22.
SET enable_partitionwise_aggregate = on;
SELECT sum(c) AS units_counted FROM (SELECT r.region, dp_count(1e6) c
    FROM gra_regions r LEFT JOIN gra_part p USING (region) GROUP BY r.region) s;
RESET enable_partitionwise_aggregate;

-- Held: every call of a grouped level is calibrated over m = 2 groups (noise_sd 2 sqrt(2) at
-- epsilon 1), whatever carries the plan: a view, a prepared statement's generic plan, a cursor,
-- SQL and PL/pgSQL functions, a MATERIALIZED CTE, UNION ALL, forced parallel plans. The public
-- keys form too, and dp_sum_ci over [0, 3] (6 sqrt(2)).
CREATE VIEW gra.by_region AS
SELECT region, (dp_count_ci(1.0, 0.05)).noise_sd AS sd FROM gra_visits GROUP BY region
HAVING dp_groups(1e6, 1e-9, 'laplace');
SELECT DISTINCT sd FROM gra.by_region;
PREPARE gra_prepared AS SELECT region, (dp_count_ci(1.0, 0.05)).noise_sd AS sd FROM gra_visits
GROUP BY region HAVING dp_groups(1e6, 1e-9, 'laplace');
SET plan_cache_mode = force_generic_plan;
EXECUTE gra_prepared;
EXECUTE gra_prepared;
RESET plan_cache_mode;
DEALLOCATE gra_prepared;
BEGIN;
DECLARE gra_cursor CURSOR FOR SELECT region, (dp_count_ci(1.0, 0.05)).noise_sd AS sd FROM gra_visits
GROUP BY region HAVING dp_groups(1e6, 1e-9, 'laplace');
FETCH 1 FROM gra_cursor;
COMMIT;
CREATE FUNCTION gra.sql_sds() RETURNS SETOF float8 LANGUAGE sql AS $$
    SELECT (dp_count_ci(1.0, 0.05)).noise_sd FROM gra_visits GROUP BY region HAVING dp_groups(1e6, 1e-9, 'laplace') $$;
CREATE FUNCTION gra.plpgsql_sds() RETURNS SETOF float8 LANGUAGE plpgsql AS $$ BEGIN
    RETURN QUERY SELECT (dp_count_ci(1.0, 0.05)).noise_sd FROM gra_visits GROUP BY region
    HAVING dp_groups(1e6, 1e-9, 'laplace'); END $$;
SELECT DISTINCT s AS sql_function FROM gra.sql_sds() s;
SELECT DISTINCT s AS plpgsql_function FROM gra.plpgsql_sds() s;
WITH c AS MATERIALIZED (SELECT region, (dp_count_ci(1.0, 0.05)).noise_sd AS sd FROM gra_visits
    GROUP BY region HAVING dp_groups(1e6, 1e-9, 'laplace'))
SELECT DISTINCT sd AS cte FROM c;
SELECT DISTINCT sd AS union_all FROM (
    SELECT region, (dp_count_ci(1.0, 0.05)).noise_sd AS sd FROM gra_visits GROUP BY region
    HAVING dp_groups(1e6, 1e-9, 'laplace')
    UNION ALL
    SELECT r.region, (dp_count_ci(1.0, 0.05)).noise_sd FROM gra_regions r LEFT JOIN gra_visits v USING (region)
    GROUP BY r.region) u;
SELECT DISTINCT sum_sd FROM (SELECT r.region, (dp_sum_ci(v.minutes, 0, 3, 1.0, 0.05)).noise_sd AS sum_sd
    FROM gra_regions r LEFT JOIN gra_visits v USING (region) GROUP BY r.region) s;
-- force_parallel_mode was renamed debug_parallel_query in PostgreSQL 16
SELECT CASE WHEN current_setting('server_version_num')::int < 160000 THEN 'force_parallel_mode' ELSE 'debug_parallel_query' END AS force_parallel \gset
SET :force_parallel = on;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT DISTINCT sd AS parallel FROM gra.by_region;
SELECT sum(c) AS parallel_units_counted FROM (SELECT r.region, dp_count(1e6) c
    FROM gra_regions r LEFT JOIN gra_visits v USING (region) GROUP BY r.region) s;
RESET :force_parallel;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- Held: dp_groups decides which groups appear; anywhere but as a condition of HAVING on its own
-- it is refused (0A000), and without GROUP BY (42803).
SELECT region, dp_count(1e6) FROM gra_visits GROUP BY region HAVING dp_groups(1e6, 1e-9) OR true;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_count(1e6) FROM gra_visits GROUP BY region HAVING NOT dp_groups(1e6, 1e-9);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_count(1e6) FROM gra_visits GROUP BY region
HAVING CASE WHEN dp_groups(1e6, 1e-9) THEN true ELSE true END;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_groups(1e6, 1e-9) FROM gra_visits GROUP BY region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_count(1e6) FROM gra_visits GROUP BY region HAVING dp_groups(1e6, 1e-9)
ORDER BY dp_groups(1e6, 1e-9);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_count(1e6) FROM gra_visits GROUP BY region HAVING dp_groups(1e6, 1e-9) = true;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_count(1e6) FROM gra_visits GROUP BY region
HAVING dp_groups(1e6, 1e-9) AND (SELECT dp_groups(1e6, 1e-9));
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_groups(1e6, 1e-9) OVER () FROM gra_visits;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM gra_visits HAVING dp_groups(1e6, 1e-9);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_count(1e6) FROM gra_visits GROUP BY ROLLUP (region) HAVING dp_groups(1e6, 1e-9);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Held: a condition on the releases in HAVING runs after dp_groups, whatever the order written
-- (the planner orders HAVING by cost and an aggregate costs nothing): the dropped single-unit
-- groups' count 1 would divide by zero.
SELECT count(*) AS kept FROM (SELECT region, dp_count(1e6) c FROM gra_visits GROUP BY region
    HAVING 1 / (dp_count(1e6) - 1) > 0 AND dp_groups(1e6, 1e-9, 'laplace')) s;
-- Held (closed after this round): a HAVING condition without aggregates beside dp_groups is
-- evaluated only for kept groups (the rewrite writes it as CASE WHEN dp_groups(...) THEN ... ELSE
-- false END), so PostgreSQL cannot move it to WHERE: the victim's dropped group 500 never divides
-- by zero. The same condition written in WHERE runs on every row (errors of the analyst's own
-- expressions over the rows: docs/privacy.md, What remains outside).
SELECT region FROM gra_visits GROUP BY region
HAVING dp_groups(1e6, 1e-9, 'laplace') AND 1 / (region - 500) = 0;

-- Held: other refused forms of a grouped level (0A000, nothing charged).
-- A self-join on the region only mixes people in one row (joined on the unit it would be fine).
SELECT region, dp_count(1e6) FROM gra_visits v1 JOIN gra_visits v2 USING (region) GROUP BY region
HAVING dp_groups(1e6, 1e-9);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Joined on the unit too: each row is one person's; the same regions are kept as above.
SELECT region FROM gra_visits v1 JOIN gra_visits v2 USING (person, region) GROUP BY region
HAVING dp_groups(1e6, 1e-9);
SELECT (SELECT 1), dp_count(1e6) FROM gra_visits GROUP BY 1 HAVING dp_groups(1e6, 1e-9);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_count(1e6), sum(minutes) FROM gra_visits GROUP BY region HAVING dp_groups(1e6, 1e-9);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_count(1e6), row_number() OVER () FROM gra_visits GROUP BY region HAVING dp_groups(1e6, 1e-9);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT r.region, (SELECT dp_count(1e6) FROM gra_visits v WHERE v.region = r.region GROUP BY v.region
                  HAVING dp_groups(1e6, 1e-9)) FROM gra_regions r;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM gra_regions r, LATERAL (SELECT v.region, dp_count(1e6) FROM gra_visits v
    WHERE v.region = r.region GROUP BY v.region HAVING dp_groups(1e6, 1e-9)) s;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_count(1e6) FROM gra_visits WHERE region IN (
    SELECT region FROM gra_visits GROUP BY region HAVING dp_groups(1e6, 1e-9))
GROUP BY region HAVING dp_groups(1e6, 1e-9);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- A SQL function in FROM that the planner would inline: refused at plan time.
CREATE FUNCTION gra.inlined_rows() RETURNS SETOF gra_visits LANGUAGE sql STABLE AS 'SELECT * FROM gra_visits';
SELECT s.region, dp_count(1e6) FROM gra_visits v JOIN gra.inlined_rows() s USING (person)
GROUP BY s.region HAVING dp_groups(1e6, 1e-9);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CREATE FUNCTION gra.inlined_release() RETURNS TABLE (region int, c bigint) LANGUAGE sql STABLE AS $$
    SELECT region, dp_count(1e6) FROM gra_visits GROUP BY region HAVING dp_groups(1e6, 1e-9) $$;
SELECT * FROM gra.inlined_release();
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- Public keys. Held: a relation is public only if declared and named directly as the leftmost
-- relation of LEFT JOINs; each key must be its column. Otherwise a grouped release needs
-- dp_groups (0A000).
SELECT r.region, dp_count(1e6) FROM gra_visits v RIGHT JOIN gra_regions r USING (region) GROUP BY r.region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT r.region, dp_count(1e6) FROM gra_regions r FULL JOIN gra_visits v USING (region) GROUP BY r.region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT r.region, dp_count(1e6) FROM gra_regions r JOIN gra_visits v USING (region) GROUP BY r.region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT v.region, dp_count(1e6) FROM gra_regions r LEFT JOIN gra_visits v USING (region) GROUP BY v.region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT r.region + 1, dp_count(1e6) FROM gra_regions r LEFT JOIN gra_visits v USING (region) GROUP BY 1;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT r.region, v.minutes, dp_count(1e6) FROM gra_regions r LEFT JOIN gra_visits v USING (region)
GROUP BY r.region, v.minutes;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT r.region, dp_count(1e6) FROM gra_regions r LEFT JOIN gra_visits v USING (region), gra_hundred h
WHERE h.region = r.region GROUP BY r.region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CREATE VIEW gra.regions_view AS SELECT * FROM gra_regions;
SELECT r.region, dp_count(1e6) FROM gra.regions_view r LEFT JOIN gra_visits v USING (region) GROUP BY r.region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CREATE TEMP TABLE gra_regions (region int);
INSERT INTO pg_temp.gra_regions VALUES (500);
SET search_path = pg_temp, gra, public;
SELECT r.region, dp_count(1e6) FROM gra_regions r LEFT JOIN gra_visits v USING (region) GROUP BY r.region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET search_path = gra, public;
DROP TABLE pg_temp.gra_regions;
-- Held: WHERE on the public side alone chooses the keys; anything else filters units only.
SELECT count(*) AS keys FROM (SELECT r.region, dp_count(1e6) FROM gra_regions r LEFT JOIN gra_visits v
    USING (region) WHERE r.region < 2 GROUP BY r.region) s;
SELECT count(*) AS keys, sum(c) AS units_counted FROM (SELECT r.region, dp_count(1e6) c FROM gra_regions r
    LEFT JOIN gra_visits v USING (region) WHERE v.person < 5 GROUP BY r.region) s;
SELECT count(*) AS keys FROM (SELECT r.region, dp_count(1e6) FROM gra_regions r LEFT JOIN gra_visits v
    USING (region) WHERE r.region < 2 OR v.minutes > 100 GROUP BY r.region) s;
-- A "public-side" condition that reads the protected table (a PL/pgSQL function falsely IMMUTABLE):
-- its query is refused when it starts inside the release.
CREATE FUNCTION gra.region_has_rows(r int) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
    BEGIN RETURN EXISTS (SELECT 1 FROM gra_visits WHERE region = r AND person = 100); END $$;
SELECT r.region, dp_count(1e6) FROM gra_regions r LEFT JOIN gra_visits v USING (region)
WHERE gra.region_has_rows(r.region) GROUP BY r.region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Held: a plan made while the relation was public releases nothing once it is not (prepared
-- statement, custom and generic plans); declared again, the statement works.
PREPARE gra_public AS SELECT count(*) AS keys, sum(c) AS units_counted FROM (SELECT r.region, dp_count(1e6) c
    FROM gra_regions r LEFT JOIN gra_visits v USING (region) GROUP BY r.region) s;
EXECUTE gra_public;
RESET SESSION AUTHORIZATION;
SELECT pgdp.undeclare_public('gra_regions');
SET SESSION AUTHORIZATION gra_analyst;
EXECUTE gra_public;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET plan_cache_mode = force_generic_plan;
EXECUTE gra_public;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET plan_cache_mode;
RESET SESSION AUTHORIZATION;
SELECT relation FROM pgdp.declare_public('gra_regions');
SET SESSION AUTHORIZATION gra_analyst;
SET plan_cache_mode = force_generic_plan;
EXECUTE gra_public;
RESET plan_cache_mode;
DEALLOCATE gra_public;

-- Held: the bounding ranks are pgdp's own function from the release CSPRNG. An analyst's
-- bounding_rank earlier in the search_path is not used; pgdp's schema takes no new function;
-- setseed() does not make the heavy unit's 2 groups (those above the light counts) repeat.
CREATE FUNCTION gra.bounding_rank() RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint';
SET search_path = gra, public, pgdp;
CREATE FUNCTION pgdp.bounding_rank(int) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint';
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pgdp.bounding_rank() >= 0 AS callable;
CREATE TEMP TABLE gra_picks (pick text);
DO $$
BEGIN
    FOR i IN 1..6 LOOP
        PERFORM setseed(0.5);
        INSERT INTO gra_picks
        SELECT string_agg(region::text, ',' ORDER BY region)
        FROM (SELECT r.region, dp_count(1e6) c FROM gra_regions r LEFT JOIN gra_visits v USING (region)
              GROUP BY r.region) s
        WHERE c = CASE WHEN region < 4 THEN 6 ELSE 1 END;
    END LOOP;
END $$;
-- Each time 2 regions; the same pair 6 times has probability (1/66)^5, below 1e-9.
SELECT bool_and(array_length(string_to_array(pick, ','), 1) = 2) AS two_each, count(DISTINCT pick) > 1 AS vary
FROM gra_picks;
SET search_path = gra, public;

-- Held: charges. Refused queries cost nothing; a selection with two releases is three releases
-- (epsilon 3e6); dp_groups is charged with public keys too (2e6). (Calls whose values an outer
-- query never uses are removed by the planner, neither computed nor charged: hence the IS NOT NULL.)
CREATE TEMP TABLE gra_before AS SELECT releases, epsilon_spent FROM pgdp.my_budget;
SELECT region, dp_count(1e6) FROM gra_visits GROUP BY region HAVING NOT dp_groups(1e6, 1e-9);
SELECT span, dp_count(1e6) FROM gra_spelling GROUP BY span HAVING dp_groups(1e6, 1e-9, 'laplace');
SELECT r.region + 1, dp_count(1e6) FROM gra_regions r LEFT JOIN gra_visits v USING (region) GROUP BY 1;
SELECT DISTINCT dp_count(1e6) FROM gra_order GROUP BY g HAVING dp_groups(1e6, 1e-9, 'laplace');
SELECT b.releases - a.releases AS refused_charged FROM pgdp.my_budget b, gra_before a;
SELECT count(*) AS kept FROM (SELECT region, dp_count(1e6) c, dp_sum(minutes, 0, 3, 1e6) t FROM gra_visits
    GROUP BY region HAVING dp_groups(1e6, 1e-9, 'laplace')) s WHERE c IS NOT NULL AND t IS NOT NULL;
SELECT b.releases - a.releases AS releases, b.epsilon_spent - a.epsilon_spent AS epsilon
FROM pgdp.my_budget b, gra_before a;
DELETE FROM gra_before;
INSERT INTO gra_before SELECT releases, epsilon_spent FROM pgdp.my_budget;
SELECT count(*) AS kept FROM (SELECT r.region, dp_count(1e6) c FROM gra_regions r LEFT JOIN gra_visits v
    USING (region) GROUP BY r.region HAVING dp_groups(1e6, 1e-9, 'laplace')) s WHERE c IS NOT NULL;
SELECT b.releases - a.releases AS releases, b.epsilon_spent - a.epsilon_spent AS epsilon
FROM pgdp.my_budget b, gra_before a;

RESET SESSION AUTHORIZATION;
SET client_min_messages = warning;
DROP SCHEMA gra CASCADE;
DROP TABLE gra_visits, gra_regions, gra_hundred, gra_spelling, gra_public_amounts, gra_order, gra_part;
DROP TABLE gra_before, gra_picks;
DELETE FROM pgdp.budgets WHERE role = 'gra_analyst'::regrole;
DROP ROLE gra_analyst;
