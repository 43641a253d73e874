-- Grouped person-level releases (issue 10): private group selection (HAVING dp_groups) and public
-- keys (a declared public relation LEFT JOINed to the protected one). Each unit's rows in a group
-- are combined first, each unit keeps at most m = max_groups_contributed groups (chosen at random,
-- independently of other units), and every call is calibrated over m groups. Exact at epsilon 1e6
-- with Laplace noise (scale m * sensitivity / 1e6 on an integer grid: a nonzero draw has
-- probability below 1e-5 per release) against bounded values computed here in plain SQL.
SET client_min_messages = warning;
CREATE ROLE gr_analyst;
SELECT role FROM pgdp.set_budget('gr_analyst', 1e9, 0.5);
CREATE TABLE gr_visits (person int, region text, amount int);
-- Persons 1..200, each in two regions of r1..r4, with 1..7 rows per region.
INSERT INTO gr_visits
SELECT p, 'r' || (1 + (p + s) % 4), (p * 7 + r) % 30
FROM generate_series(1, 200) p, generate_series(0, 1) s, generate_series(1, 7) r
WHERE r <= 1 + (p + s) % 7;
-- Person 7 has 10000 more rows in one region: it counts once there, its sum is clamped.
INSERT INTO gr_visits SELECT 7, 'r1', 1000 FROM generate_series(1, 10000);
-- Rows without a privacy unit are dropped.
INSERT INTO gr_visits SELECT NULL, 'r1', 10 FROM generate_series(1, 50);
-- Person 999 is in 100 groups of its own (x1..x100); with m = 3 it may change only 3 of them.
INSERT INTO gr_visits SELECT 999, 'x' || g, 20 FROM generate_series(1, 100) g;
CREATE TABLE gr_regions (region text);
INSERT INTO gr_regions SELECT 'r' || g FROM generate_series(1, 5) g;  -- r5: no visits
INSERT INTO gr_regions SELECT 'x' || g FROM generate_series(1, 100) g;
CREATE TABLE gr_private_regions (region text);  -- not declared public
INSERT INTO gr_private_regions SELECT region FROM gr_regions;
CREATE TABLE gr_tags (tag int);
INSERT INTO gr_tags VALUES (1), (2), (3);
GRANT SELECT ON gr_visits, gr_regions, gr_private_regions, gr_tags TO gr_analyst;
SELECT relation, max_groups_contributed FROM pgdp.protect('gr_visits', 'person', max_groups_contributed => 3);
SELECT relation, kind FROM pgdp.declare_public('gr_regions');
RESET client_min_messages;
SET SESSION AUTHORIZATION gr_analyst;

-- The exact bounded values per region (no unit is in more than 3 of r1..r4), in plain SQL.
CREATE TEMP TABLE gr_exact AS
SELECT k.region, count(u.person) AS units, coalesce(sum(least(greatest(u.s, 0), 400)), 0) AS bounded_sum,
       avg(least(greatest(u.m, 0), 25)) FILTER (WHERE u.person IS NOT NULL) AS bounded_mean,
       coalesce(sum(least(greatest(3 * u.s, 0), 400)), 0) AS tripled_sum
FROM gr_regions k
LEFT JOIN (SELECT region, person, sum(amount) s, avg(amount) m FROM gr_visits
           WHERE person IS NOT NULL AND region LIKE 'r%' GROUP BY region, person) u USING (region)
WHERE k.region LIKE 'r%'
GROUP BY k.region;
SELECT * FROM gr_exact ORDER BY region;

-- The plan: units per (group, unit), at most m groups per unit, then the releases.
EXPLAIN (COSTS OFF)
SELECT region, dp_count(1e6) FROM gr_visits GROUP BY region HAVING dp_groups(1, 1e-6);
EXPLAIN (COSTS OFF)
SELECT k.region, dp_count(1e6) FROM gr_regions k LEFT JOIN gr_visits v USING (region) GROUP BY k.region;

-- Public keys: every key of gr_regions in order, r5 (no visits) with noise on 0; a unit with 10000
-- rows counts once and its sum is clamped; rows without a unit are dropped.
WITH released AS (
    SELECT k.region, dp_count(1e6) AS units, dp_sum(amount, 0, 400, 1e6) AS bounded_sum,
           dp_mean(amount, 0, 25, 1e6) AS bounded_mean
    FROM gr_regions k LEFT JOIN gr_visits v USING (region) WHERE k.region LIKE 'r%' GROUP BY k.region)
SELECT r.region, r.units = e.units AS units_exact, r.bounded_sum = e.bounded_sum AS sum_exact,
       e.bounded_mean IS NULL OR abs(r.bounded_mean - e.bounded_mean) < 1e-3 AS mean_exact
FROM released r JOIN gr_exact e USING (region) ORDER BY region;
-- The same keys however the join names them (USING column, qualified, ON).
SELECT count(*) AS groups FROM (
    SELECT region, dp_count(1e6) FROM gr_regions LEFT JOIN gr_visits USING (region) GROUP BY region) s;
SELECT count(*) AS groups FROM (
    SELECT k.region, dp_count(1e6) FROM gr_regions k LEFT JOIN gr_visits v ON v.region = k.region
    GROUP BY k.region) s;
-- A join that repeats every row three times: each unit still counts once per group (its sum triples).
WITH released AS (
    SELECT k.region, dp_count(1e6) AS units, dp_sum(amount, 0, 400, 1e6) AS tripled_sum
    FROM gr_regions k LEFT JOIN (gr_visits v CROSS JOIN gr_tags) USING (region)
    WHERE k.region LIKE 'r%' GROUP BY k.region)
SELECT bool_and(r.units = e.units) AS units_exact, bool_and(r.tripled_sum = e.tripled_sum) AS sum_exact
FROM released r JOIN gr_exact e USING (region);

-- A unit in 100 groups changes at most m = 3 of them; which 3 is drawn afresh per release.
CREATE TEMP TABLE gr_spread (release int, region text, units bigint);
INSERT INTO gr_spread
SELECT 1, k.region, dp_count(1e6) FROM gr_regions k LEFT JOIN gr_visits v USING (region)
WHERE k.region LIKE 'x%' GROUP BY k.region;
INSERT INTO gr_spread
SELECT 2, k.region, dp_count(1e6) FROM gr_regions k LEFT JOIN gr_visits v USING (region)
WHERE k.region LIKE 'x%' GROUP BY k.region;
SELECT release, count(*) AS groups, sum(units) AS units_counted FROM gr_spread GROUP BY release ORDER BY release;
-- The same three groups twice has probability 1/161700.
SELECT count(*) < 3 AS different_groups
FROM (SELECT region FROM gr_spread WHERE release = 1 AND units > 0
      INTERSECT SELECT region FROM gr_spread WHERE release = 2 AND units > 0) s;

-- Private group selection at (epsilon 5, delta 1e-6): pi(n) = 1 from n = 3 on for the truncated
-- geometric, so r1..r4 (about 100 units each) are always kept; x1..x100 (one unit each) are kept
-- with probability at most delta each (a failure of this test has probability below 1e-4).
WITH released AS (
    SELECT region, dp_count(1e6) AS units FROM gr_visits GROUP BY region
    HAVING dp_groups(5, 1e-6, 'truncated_geometric'))
SELECT region, r.units = e.units AS units_exact FROM released r JOIN gr_exact e USING (region) ORDER BY region;
SELECT count(*) AS groups FROM (SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(5, 1e-6)) s;
-- With a minimum of 150 units per group nothing is kept (no group has 150 units).
SELECT count(*) AS groups FROM (SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(5, 1e-6, 'auto', 150)) s;
-- Every mechanism; other conditions of HAVING are post-processing of the releases.
SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(5, 1e-6, 'laplace') ORDER BY region;
SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(5, 1e-6, 'gaussian') AND dp_count(1e6) > 0 ORDER BY region;
-- Other HAVING conditions run only for the groups dp_groups keeps: a condition that fails on the
-- dropped one-unit groups x1..x100 (division by their count minus 1, about 0) never reveals them.
SELECT region FROM gr_visits GROUP BY region HAVING 1 / (dp_count(1e6) - 1) >= 0 AND dp_groups(5, 1e-6) ORDER BY region;
-- Keys computed from the rows, and outputs computed from keys.
SELECT upper(region) AS shout, dp_count(1e6) > 90 AS many
FROM gr_visits WHERE region LIKE 'r%' GROUP BY region HAVING dp_groups(5, 1e-6) ORDER BY 1;
-- The selection is charged like every release, with its mechanism; a query charges each call once.
SELECT aggregate, mechanism, epsilon, delta FROM pgdp.my_ledger
WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger) ORDER BY release;

-- Prepared, generic plans; undeclaring the keys invalidates the plan: planned again, it is refused.
PREPARE gr_keys_count(float8) AS
SELECT count(*) AS groups, sum(units) > 0 AS released
FROM (SELECT k.region, dp_count($1) AS units FROM gr_regions k LEFT JOIN gr_visits v USING (region) GROUP BY k.region) s;
SET plan_cache_mode = force_generic_plan;
EXECUTE gr_keys_count(1e6);
RESET SESSION AUTHORIZATION;
SELECT pgdp.undeclare_public('gr_regions');
SET SESSION AUTHORIZATION gr_analyst;
CREATE TEMP TABLE gr_before AS SELECT releases FROM pgdp.my_budget;
\set VERBOSITY terse
EXECUTE gr_keys_count(1e6);
\set VERBOSITY default
SELECT b.releases = a.releases AS nothing_charged FROM pgdp.my_budget b, gr_before a;
RESET SESSION AUTHORIZATION;
SELECT relation, kind FROM pgdp.declare_public('gr_regions');
SET SESSION AUTHORIZATION gr_analyst;
EXECUTE gr_keys_count(1e6);
RESET plan_cache_mode;

-- Parallel plans (level 1 in workers; the releases in the leader): the same exact values.
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
WITH released AS (
    SELECT k.region, dp_count(1e6) AS units, dp_sum(amount, 0, 400, 1e6) AS bounded_sum
    FROM gr_regions k LEFT JOIN gr_visits v USING (region) WHERE k.region LIKE 'r%' GROUP BY k.region)
SELECT bool_and(r.units = e.units) AS units_exact, bool_and(r.bounded_sum = e.bounded_sum) AS sum_exact
FROM released r JOIN gr_exact e USING (region);
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- Protected relations joined on their units: relations of one declared kind (or one relation
-- joined to itself) may be joined on the unit; the unit is bounded after the join, m is the
-- smallest of theirs. gr_payments' persons are gr_visits' persons (kind 'person').
RESET SESSION AUTHORIZATION;
SET client_min_messages = warning;
CREATE TABLE gr_payments (person int, paid int);
INSERT INTO gr_payments SELECT 1 + g % 150, 7 FROM generate_series(1, 600) g;  -- persons 1..150, 4 rows each
CREATE TABLE gr_devices (person int);  -- protected, its units of no declared kind
INSERT INTO gr_devices SELECT g FROM generate_series(1, 100) g;
GRANT SELECT ON gr_payments, gr_devices TO gr_analyst;
SELECT relation, privacy_unit_kind FROM pgdp.protect('gr_visits', 'person', 3, privacy_unit_kind => 'person');
SELECT relation, privacy_unit_kind FROM pgdp.protect('gr_payments', 'person', 2, privacy_unit_kind => 'person');
SELECT relation, privacy_unit_kind FROM pgdp.protect('gr_devices', 'person');
SELECT relation, kind, privacy_unit, max_groups_contributed, privacy_unit_kind FROM pgdp.protections
WHERE relation::text LIKE 'gr\_%' ORDER BY relation::text;
RESET client_min_messages;
SET SESSION AUTHORIZATION gr_analyst;
-- Exact: the persons in both (1..150), each once however many rows the join makes of them; each
-- person's joined sum (its visits' amounts times its 4 payments) clamped to [0, 400].
SELECT count(DISTINCT person) AS units FROM gr_visits JOIN gr_payments USING (person) \gset
SELECT sum(least(s, 400)) AS joined_sum
FROM (SELECT person, sum(amount) s FROM gr_visits JOIN gr_payments USING (person) GROUP BY person) u \gset
SELECT dp_count(1e6) = :units AS units_exact, dp_sum(amount, 0, 400, 1e6) = :joined_sum AS sum_exact
FROM gr_visits JOIN gr_payments USING (person);
SELECT dp_count(1e6) = :units AS units_exact FROM gr_visits v, gr_payments p WHERE v.person = p.person;
-- LEFT JOIN: every visiting person counts (201 units: 1..200 and 999).
SELECT dp_count(1e6) AS units FROM gr_visits v LEFT JOIN gr_payments p ON v.person = p.person;
-- A relation joined to itself on its unit.
SELECT dp_count(1e6) AS units FROM gr_payments a JOIN gr_payments b USING (person);
-- Grouped with public keys (m = min(3, 2) = 2; persons 1..150 are in two regions each).
CREATE TEMP TABLE gr_joined_exact AS
SELECT v.region, count(DISTINCT v.person) AS units FROM gr_visits v JOIN gr_payments p USING (person) GROUP BY v.region;
WITH released AS (
    SELECT k.region, dp_count(1e6) AS units FROM gr_regions k
    LEFT JOIN (gr_visits v JOIN gr_payments p ON v.person = p.person) ON k.region = v.region
    WHERE k.region LIKE 'r%' GROUP BY k.region)
SELECT r.region, r.units = coalesce(e.units, 0) AS units_exact
FROM released r LEFT JOIN gr_joined_exact e USING (region) ORDER BY region;

-- What is charged is what runs (hostile analyst, final review). Bind parameters of dp_groups under
-- a generic plan and under forced parallel mode: the ledger records the values bound and the
-- selection's noise over m = 3 groups per unit: the Laplace threshold's discrete Laplace of scale
-- t = m / epsilon has sd sqrt(2q) / (1 - q), q = exp(-1/t) (0.758 at epsilon 5; 0.117 at m = 1).
SET plan_cache_mode = force_generic_plan;
PREPARE gr_selected(float8, float8) AS
SELECT count(*) AS groups FROM (SELECT region FROM gr_visits GROUP BY region HAVING dp_groups($1, $2, 'laplace')) s;
EXECUTE gr_selected(5, 1e-6);
SELECT aggregate, mechanism, epsilon, delta,
       abs(noise_scale / (sqrt(2 * exp(-5 / 3.0)) / (1 - exp(-5 / 3.0))) - 1) < 1e-6 AS over_m_groups
FROM pgdp.my_ledger WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger);
-- force_parallel_mode was renamed debug_parallel_query in PostgreSQL 16
SELECT CASE WHEN current_setting('server_version_num')::int < 160000 THEN 'force_parallel_mode' ELSE 'debug_parallel_query' END AS force_parallel \gset
SET :force_parallel = on;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXECUTE gr_selected(4, 1e-5);
SELECT aggregate, epsilon, delta,
       abs(noise_scale / (sqrt(2 * exp(-4 / 3.0)) / (1 - exp(-4 / 3.0))) - 1) < 1e-6 AS over_m_groups
FROM pgdp.my_ledger WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger);
RESET :force_parallel;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET plan_cache_mode;
DEALLOCATE gr_selected;
-- A cursor over a grouped release, fetched in pieces: one charge for all its rows.
SELECT count(*) AS charges_before FROM (SELECT DISTINCT charge_id FROM pgdp.my_ledger) c \gset
BEGIN;
DECLARE gr_cursor CURSOR FOR SELECT region, dp_count(1e6) FROM gr_visits GROUP BY region HAVING dp_groups(5, 1e-6);
FETCH 1 FROM gr_cursor;
FETCH ALL FROM gr_cursor;
COMMIT;
SELECT count(*) - :charges_before AS new_charges FROM (SELECT DISTINCT charge_id FROM pgdp.my_ledger) c;
-- The analyst's own functions: falsely IMMUTABLE as a dp_groups parameter (evaluated once per
-- row it could count rows), falsely PARALLEL SAFE in WHERE reading the protected table.
CREATE FUNCTION pg_temp.gr_epsilon() RETURNS float8 LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN 1; END $$;
CREATE FUNCTION pg_temp.gr_peek(p int) RETURNS boolean LANGUAGE plpgsql STABLE PARALLEL SAFE AS
$$ BEGIN RETURN EXISTS (SELECT FROM gr_visits WHERE person = p AND amount > 25); END $$;
-- The IMMUTABLE one is folded by the planner: evaluated once, before the charge, which records
-- the value used.
SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(pg_temp.gr_epsilon(), 1e-6);
SELECT aggregate, epsilon FROM pgdp.my_ledger WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger);
-- The function reading the protected table per row is refused when its query starts (serial and
-- in parallel workers): nothing is released (the charge made when the release started is kept:
-- docs/privacy.md, what remains).
\set SHOW_CONTEXT never
SELECT region, dp_count(1e6) FROM gr_visits WHERE pg_temp.gr_peek(person) GROUP BY region HAVING dp_groups(5, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET :force_parallel = on;
SET parallel_setup_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT region, dp_count(1e6) FROM gr_visits WHERE pg_temp.gr_peek(person) GROUP BY region HAVING dp_groups(5, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET :force_parallel;
RESET parallel_setup_cost;
RESET min_parallel_table_scan_size;
\set SHOW_CONTEXT errors
DROP FUNCTION pg_temp.gr_epsilon(), pg_temp.gr_peek(int);

-- Refused before anything is charged: clear errors.
\set SHOW_CONTEXT never
TRUNCATE gr_before;
INSERT INTO gr_before SELECT releases FROM pgdp.my_budget;
-- Grouped without selection or public keys (the hint shows both forms).
SELECT region, dp_count(1) FROM gr_visits GROUP BY region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Keys from a relation that is not declared public.
SELECT k.region, dp_count(1) FROM gr_private_regions k LEFT JOIN gr_visits v USING (region) GROUP BY k.region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Keys that are not the public relation's columns.
SELECT v.region, dp_count(1) FROM gr_regions k LEFT JOIN gr_visits v USING (region) GROUP BY v.region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- A column that is not a key.
SELECT region, amount, dp_count(1) FROM gr_visits GROUP BY region HAVING dp_groups(1, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- dp_groups without GROUP BY, in the select list, under NOT or OR.
SELECT dp_groups(1, 1e-6) FROM gr_visits;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region, dp_groups(1, 1e-6) FROM gr_visits GROUP BY region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region FROM gr_visits GROUP BY region HAVING NOT dp_groups(1, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(1, 1e-6) OR true;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- dp_groups' parameters: epsilon, delta (0 < delta < 1), mechanism, min_units.
SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(0, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(1, 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(1, 1e-6, 'tlap');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(1, 1e-6, NULL);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(1, 1e-6, 'auto', 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Protected relations not joined on their units, or of no common kind.
SELECT dp_count(1) FROM gr_visits v JOIN gr_payments p ON v.person < p.person;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1) FROM gr_visits v CROSS JOIN gr_payments p;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1) FROM gr_visits JOIN gr_devices USING (person);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Grouping sets.
SELECT region, dp_count(1) FROM gr_visits GROUP BY ROLLUP (region) HAVING dp_groups(1, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
SELECT b.releases = a.releases AS nothing_charged FROM pgdp.my_budget b, gr_before a;

-- An outer query's condition on the keys is not pushed into the release (it would run on the
-- dropped groups too, and its error showed that person 999's groups x* exist): it runs on the
-- released rows r1..r4 only (each x* group, one unit, is kept at epsilon 1 with probability
-- below 1e-5), so no division by zero.
SELECT count(*) AS released FROM (SELECT region, dp_count(1e6) FROM gr_visits GROUP BY region
                                  HAVING dp_groups(1, 1e-6)) s
WHERE 1 / (CASE WHEN region LIKE 'x%' THEN 0 ELSE 1 END) > 0;
WITH s AS (SELECT region FROM gr_visits GROUP BY region HAVING dp_groups(1, 1e-6))
SELECT count(*) AS released FROM s WHERE 1 / (CASE WHEN region LIKE 'x%' THEN 0 ELSE 1 END) > 0;

-- Row-level tables may use dp_groups too (each row its own unit, m = 1).
RESET SESSION AUTHORIZATION;
CREATE TABLE gr_rows (k int);
INSERT INTO gr_rows SELECT g % 3 FROM generate_series(1, 300) g;
INSERT INTO gr_rows VALUES (7);
GRANT SELECT ON gr_rows TO gr_analyst;
SET SESSION AUTHORIZATION gr_analyst;
SELECT k, dp_count(1e6) FROM gr_rows GROUP BY k HAVING dp_groups(5, 1e-6) ORDER BY k;

RESET SESSION AUTHORIZATION;
SET client_min_messages = warning;
DEALLOCATE gr_keys_count;
SELECT pgdp.unprotect('gr_visits');
SELECT pgdp.undeclare_public('gr_regions');
SELECT pgdp.unprotect('gr_payments');
SELECT pgdp.unprotect('gr_devices');
DROP TABLE gr_visits, gr_regions, gr_private_regions, gr_tags, gr_rows, gr_payments, gr_devices, gr_exact, gr_spread,
           gr_before, gr_joined_exact;
DELETE FROM pgdp.budgets WHERE role = 'gr_analyst'::regrole;
DROP ROLE gr_analyst;
