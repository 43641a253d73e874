-- Dry runs (pgdp.cost): what a query would be charged, before it runs, free. The dry run plans
-- and starts the statement as it would be run and hands the charge items the ledger would get
-- to the caller instead; it never runs the plan. Specified here: it equals the ledger's charges
-- release for release (aggregate, mechanism, epsilon, delta, noise scale) on a broad sample of
-- queries; it charges nothing; under DP-only access its output is the same on two tables that
-- differ in one person; bad input gets the SQLSTATE the query itself would get, nothing charged;
-- a grouped query whose private selection keeps no group says so in a NOTICE. EXECUTE of a
-- prepared statement is planned with its arguments, as EXECUTE plans it.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE dr_analyst;
CREATE ROLE dr_viewer;
CREATE ROLE dr_poor;
CREATE ROLE dr_nobody;
SELECT role FROM pgdp.set_budget('dr_analyst', 1e7, 0.5);
SELECT role FROM pgdp.set_budget('dr_viewer', 1e6, 0.5);
SELECT role FROM pgdp.set_budget('dr_poor', 1, 1e-6);
CREATE SCHEMA dr AUTHORIZATION dr_analyst;
CREATE SCHEMA drv AUTHORIZATION dr_viewer;
-- A plain (unprotected) table the analyst reads, a protected one (2 rows per person in each of
-- 3 regions, m = 2), a public table of regions, a partitioned protected table.
CREATE TABLE dr_plain (id int, region int, amount int, price float8);
INSERT INTO dr_plain SELECT g, g % 4, g % 50, (g % 7) * 1.5 FROM generate_series(1, 400) g;
CREATE TABLE dr_people (person int, region int, amount int);
INSERT INTO dr_people SELECT p, r, (p * r) % 40 FROM generate_series(1, 60) p, generate_series(0, 2) r, generate_series(1, 2);
CREATE TABLE dr_regions (region int);
INSERT INTO dr_regions SELECT generate_series(0, 5);
CREATE TABLE dr_part (person int, region int, amount int) PARTITION BY LIST (region);
CREATE TABLE dr_part_a PARTITION OF dr_part FOR VALUES IN (0, 1);
CREATE TABLE dr_part_b PARTITION OF dr_part DEFAULT;
INSERT INTO dr_part SELECT * FROM dr_people;
GRANT SELECT ON dr_plain, dr_people, dr_regions, dr_part TO dr_analyst, dr_poor;
SELECT relation FROM pgdp.protect('dr_people', 'person', 2);
SELECT relation FROM pgdp.protect('dr_part', 'person', 2);
SELECT relation FROM pgdp.declare_public('dr_regions');
-- Two tables that differ in one person (person 61 only in dr_twin_b), read by dr_viewer through
-- DP-only access alone (no SELECT).
CREATE TABLE dr_twin_a (person int, region int, amount int);
INSERT INTO dr_twin_a SELECT * FROM dr_people;
CREATE TABLE dr_twin_b (person int, region int, amount int);
INSERT INTO dr_twin_b SELECT * FROM dr_people UNION ALL SELECT 61, 7, 39 FROM generate_series(1, 9);
SELECT relation FROM pgdp.protect('dr_twin_a', 'person', 2);
SELECT relation FROM pgdp.protect('dr_twin_b', 'person', 2);
SELECT relation FROM pgdp.grant_access('dr_twin_a', 'dr_viewer');
SELECT relation FROM pgdp.grant_access('dr_twin_b', 'dr_viewer');
GRANT SELECT ON dr_regions TO dr_viewer;
ANALYZE dr_plain, dr_people, dr_regions, dr_part, dr_twin_a, dr_twin_b;
RESET client_min_messages;

SET SESSION AUTHORIZATION dr_analyst;
SET search_path = dr, public;
-- The check of one query: its dry run, the ledger before and after the dry run (nothing charged),
-- the query run, and the ledger rows it added compared with the dry run release for release (a
-- statement the release cache answers is charged nothing).
CREATE FUNCTION dr.check(query text)
RETURNS TABLE (releases integer, dry_run_charged_nothing boolean, equals_ledger boolean)
LANGUAGE plpgsql AS $$
DECLARE
    before bigint;
    after_dry_run bigint;
    planned text[];
    charged text[];
BEGIN
    SELECT coalesce(max(charge_id), 0) INTO before FROM pgdp.my_ledger;
    SELECT array_agg(format('%s %s %s %s %s', c.aggregate, c.mechanism, c.epsilon, c.delta, c.noise_scale)
                     ORDER BY c.release)
      INTO planned FROM pgdp.cost_releases(query) c WHERE NOT c.cached;
    SELECT coalesce(max(charge_id), 0) INTO after_dry_run FROM pgdp.my_ledger;
    EXECUTE query;
    SELECT array_agg(format('%s %s %s %s %s', l.aggregate, l.mechanism, l.epsilon, l.delta, l.noise_scale)
                     ORDER BY l.charge_id, l.release)
      INTO charged FROM pgdp.my_ledger l WHERE l.charge_id > before;
    IF planned IS DISTINCT FROM charged THEN
        RAISE NOTICE 'dry run % <> ledger %', planned, charged;
    END IF;
    RETURN QUERY SELECT coalesce(cardinality(planned), 0), after_dry_run = before, planned IS NOT DISTINCT FROM charged;
END $$;

-- What the output says: one row per release, then the total with what would remain of the
-- budget (1e7, 0.5 here, nothing spent yet) and whether it fits. Ungrouped over dr_people, a
-- person changes dp_count by 1 and dp_sum by at most the bound 40: at epsilon 1, Laplace scale
-- 1 and 95 % half-width ln 20 + 1 (one grid step) = 3.996; at epsilon 0.5, scale 80 and
-- 80 ln 20 + 1 = 240.659. A mean's error depends on its count: NULL.
SELECT release, aggregate, mechanism, epsilon, delta, round(noise_scale::numeric, 6) AS noise_scale,
       round(error_95::numeric, 3) AS error_95, cached, epsilon_remaining, delta_remaining, fits
FROM pgdp.cost('SELECT dp_count(1.0), dp_sum(amount, 0, 40, 0.5), dp_mean(amount, 0, 40, 1.0, 1e-6, ''gaussian'') FROM dr_people');
-- Grouped with private selection (m = 2: a person is in at most 2 groups, so each group's count
-- and sum are calibrated for 2 coordinates: scales 2 / 0.5 = 4 and 2 * 40 / 0.5 = 160); the
-- selection is a release of its own, with no value and no half-width.
SELECT release, aggregate, mechanism, epsilon, delta, round(noise_scale::numeric, 6) AS noise_scale,
       round(error_95::numeric, 3) AS error_95, cached, epsilon_remaining, delta_remaining, fits
FROM pgdp.cost('SELECT region, dp_count(0.5), dp_sum(amount, 0, 40, 0.5) FROM dr_people GROUP BY region HAVING dp_groups(0.5, 1e-6)');
-- The dry runs charged nothing.
SELECT count(*) AS charges FROM pgdp.my_ledger;

-- Equal to the ledger, release for release: releases | charged nothing | equal.
-- Person-level releases over a protected relation, several calls in one statement.
SELECT * FROM dr.check('SELECT dp_count(1.0), dp_sum(amount, 0, 40, 0.5) FROM dr_people');
-- A plain relation; the Gaussian mechanism; auto; truncated Laplace.
SELECT * FROM dr.check('SELECT dp_mean(amount, 0, 50, 1.0, 1e-6, ''gaussian'') FROM dr_plain');
SELECT * FROM dr.check('SELECT dp_sum(amount, 0, 50, 1.0, 1e-6, ''auto''), dp_count(0.5, 1e-6, ''tlap'') FROM dr_plain');
-- Private group selection: dp_groups is a release of its own.
SELECT * FROM dr.check('SELECT region, dp_count(1.0) FROM dr_people GROUP BY region HAVING dp_groups(1.0, 1e-6)');
-- Public keys: no selection.
SELECT * FROM dr.check('SELECT r.region, dp_count(1.0) FROM dr_regions r LEFT JOIN dr_people p USING (region) GROUP BY r.region');
-- Grouping sets: each set is a release.
SELECT * FROM dr.check('SELECT region, dp_sum(amount, 0, 50, 1.0) FROM dr_plain GROUP BY GROUPING SETS ((region), ())');
-- Omitted and NULL bounds (the bounds stage is part of the release).
SELECT * FROM dr.check('SELECT dp_sum(amount, 1.0), dp_mean(amount, NULL, 40, 1.0) FROM dr_people');
SELECT * FROM dr.check('SELECT dp_variance(amount, 1.0, 1e-6), dp_median(amount, 1.0) FROM dr_plain');
-- Histograms, quantiles, distinct counts.
SELECT * FROM dr.check('SELECT dp_histogram(amount, 0, 40, 4, 1.0) FROM dr_people');
SELECT * FROM dr.check('SELECT dp_quantiles(amount, 0, 40, ARRAY[0.1, 0.9], 1.0), dp_median(amount, 0, 40, 0.5) FROM dr_people');
SELECT * FROM dr.check('SELECT dp_count_distinct(region, 1.0) FROM dr_people');
-- *_ci forms. (dp_mean_ci(...)).* over a protected relation is charged once per output column
-- in this version; the dry run reports what the ledger charges, whatever that number is.
SELECT * FROM dr.check('SELECT dp_mean_ci(amount, 0, 40, 1.0, 1e-6, 0.05) FROM dr_people');
SELECT * FROM dr.check('SELECT (dp_sum_ci(amount, 0, 50, 1.0, 1e-6, 0.05)).* FROM dr_plain');
SELECT dry_run_charged_nothing, equals_ledger
FROM dr.check('SELECT (dp_mean_ci(amount, 0, 40, 1.0, 1e-6, 0.05)).* FROM dr_people');
-- Subqueries and CTEs with releases.
SELECT * FROM dr.check('WITH t AS (SELECT dp_count(1.0) AS c FROM dr_people) SELECT c FROM t');
SELECT * FROM dr.check('SELECT (SELECT dp_count(1.0) FROM dr_plain), (SELECT dp_sum(amount, 0, 40, 2.0) FROM dr_people)');
SELECT * FROM dr.check('SELECT s.n FROM (SELECT region, dp_count(0.25) AS n FROM dr_plain GROUP BY region) s WHERE s.region > 0');
-- Partitionwise aggregation: one release per call over all partitions.
SET enable_partitionwise_aggregate = on;
SELECT * FROM dr.check('SELECT region, dp_count(1.0) FROM dr_part GROUP BY region HAVING dp_groups(1.0, 1e-6)');
RESET enable_partitionwise_aggregate;
-- No release at all: nothing to report, nothing charged.
SELECT * FROM dr.check('SELECT count(*) FROM dr_plain');
SELECT release, aggregate, epsilon, delta, cached, fits FROM pgdp.cost('SELECT 1');

-- The dry run reads no row: a function over the rows never runs (no NOTICE from it), while one
-- the planner folds into a constant runs once, as it does when the query is planned.
CREATE FUNCTION dr.noisy(x int) RETURNS int LANGUAGE plpgsql VOLATILE AS $$
BEGIN RAISE NOTICE 'noisy %', x; RETURN x; END $$;
CREATE FUNCTION dr.folded(e numeric) RETURNS numeric LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN RAISE NOTICE 'folded %', e; RETURN e; END $$;
SELECT release, aggregate, epsilon FROM pgdp.cost('SELECT dp_sum(dr.noisy(amount), 0, 40, 1.0) FROM dr_plain');
SELECT release, aggregate, epsilon FROM pgdp.cost('SELECT dp_count(dr.folded(0.5)) FROM dr_plain');

-- A release made by a function that planning the statement runs (the planner's estimates
-- evaluate a stable function) is not charged by a dry run: refused as the query refuses it
-- (42501), nothing charged.
CREATE FUNCTION dr.region_by_release() RETURNS int LANGUAGE plpgsql STABLE AS $$
BEGIN RETURN (SELECT CASE WHEN dp_count(1.0) > 0 THEN 0 ELSE 1 END FROM dr_plain); END $$;
SELECT coalesce(max(charge_id), 0) AS before FROM pgdp.my_ledger \gset
\set SHOW_CONTEXT never
SELECT * FROM pgdp.cost('SELECT dp_count(1.0) FROM dr_part WHERE region = dr.region_by_release()');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
SELECT count(*) AS charged_by_the_dry_run FROM pgdp.my_ledger WHERE charge_id > :before;
\set SHOW_CONTEXT never
SELECT dp_count(1.0) FROM dr_part WHERE region = dr.region_by_release();
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors

-- A prepared statement charges what the dry run of its text says.
PREPARE dr_prepared AS SELECT dp_count(1.0), dp_sum(amount, 0, 40, 0.5) FROM dr_people;
SELECT coalesce(max(charge_id), 0) AS before FROM pgdp.my_ledger \gset
SELECT array_agg(format('%s %s %s %s', aggregate, mechanism, epsilon, delta) ORDER BY release) AS planned
FROM pgdp.cost_releases('SELECT dp_count(1.0), dp_sum(amount, 0, 40, 0.5) FROM dr_people') \gset
EXECUTE dr_prepared \g /dev/null
SELECT array_agg(format('%s %s %s %s', aggregate, mechanism, epsilon, delta) ORDER BY release) = :'planned' AS prepared_equal
FROM pgdp.my_ledger WHERE charge_id > :before;

-- A dry run of EXECUTE: the prepared statement's plan for its arguments (here the epsilons).
PREPARE dr_with_arguments(float8, int) AS
SELECT dp_count($1), dp_sum(amount, 0, $2, $1) FROM dr_people;
SELECT coalesce(max(charge_id), 0) AS before FROM pgdp.my_ledger \gset
SELECT release, aggregate, mechanism, epsilon, delta, round(noise_scale::numeric, 6) AS noise_scale
FROM pgdp.cost('EXECUTE dr_with_arguments(0.25, 40)');
SELECT array_agg(format('%s %s %s %s %s', aggregate, mechanism, epsilon, delta, noise_scale) ORDER BY release) AS planned
FROM pgdp.cost_releases('EXECUTE dr_with_arguments(0.25, 40)') \gset
SELECT count(*) AS charged_by_the_dry_runs FROM pgdp.my_ledger WHERE charge_id > :before;
EXECUTE dr_with_arguments(0.25, 40) \g /dev/null
SELECT array_agg(format('%s %s %s %s %s', aggregate, mechanism, epsilon, delta, noise_scale) ORDER BY release) = :'planned' AS execute_equal
FROM pgdp.my_ledger WHERE charge_id > :before;
\set SHOW_CONTEXT never
SELECT * FROM pgdp.cost('EXECUTE dr_with_arguments(0.25)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.cost('EXECUTE dr_nowhere(1)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
DEALLOCATE dr_with_arguments;

-- The cached flag: with the release cache on and the data epochs kept, a repeated statement is
-- answered free; its dry run says so and its total is 0.
RESET SESSION AUTHORIZATION;
SELECT (pgdp.set_refresh_policy('dr_plain', 'manual')).relation;
SET SESSION AUTHORIZATION dr_analyst;
SET search_path = dr, public;
SET pgdp.release_cache = on;
SELECT release, aggregate, epsilon, cached FROM pgdp.cost('SELECT dp_count(0.75) FROM dr_plain');
SELECT dp_count(0.75) FROM dr_plain \g /dev/null
SELECT release, aggregate, epsilon, cached FROM pgdp.cost('SELECT dp_count(0.75) FROM dr_plain');
SELECT * FROM dr.check('SELECT dp_count(0.75) FROM dr_plain');
SELECT pgdp.answered_from_cache();
RESET pgdp.release_cache;

-- The budget: what remains and whether it fits (dr_poor has epsilon 1, delta 1e-6).
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION dr_poor;
SET search_path = dr, public;
-- One call written twice is one release.
SELECT release, aggregate, epsilon, delta, cached, epsilon_remaining, delta_remaining, fits
FROM pgdp.cost('SELECT dp_count(0.5), dp_count(0.5) + 0 FROM dr_plain');
SELECT release, aggregate, epsilon, delta, cached, epsilon_remaining, delta_remaining, fits
FROM pgdp.cost('SELECT dp_count(0.5), dp_sum(amount, 0, 50, 0.75) FROM dr_plain');
-- The ledger agrees: the second is refused.
\set SHOW_CONTEXT never
SELECT dp_count(0.5), dp_sum(amount, 0, 50, 0.75) FROM dr_plain;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
-- The delta part and the release quota too.
SELECT release, epsilon, delta, delta_remaining, fits
FROM pgdp.cost('SELECT dp_count(0.25, 1e-5, ''gaussian'') FROM dr_plain');
SELECT count(*) AS charges FROM pgdp.my_ledger;

-- Bad input: the SQLSTATE the statement itself would get, nothing charged.
\set SHOW_CONTEXT never
SELECT * FROM pgdp.cost('INSERT INTO dr_plain VALUES (1)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.cost('CREATE TABLE dr_x (i int)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.cost('SELECT dp_count(1.0) FROM dr_plain; SELECT 1');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.cost('SELEC dp_count(1.0) FROM dr_plain');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.cost('SELECT dp_count(1.0) FROM dr_nowhere');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.cost(NULL);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.cost('EXPLAIN SELECT dp_count(1.0) FROM dr_plain');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.cost('DECLARE c CURSOR FOR SELECT dp_count(1.0) FROM dr_plain');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.cost('WITH d AS (DELETE FROM dr_plain RETURNING id) SELECT dp_count(1.0) FROM d');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Parameters no release can honour: the same error as the query.
SELECT * FROM pgdp.cost('SELECT dp_count(-1) FROM dr_plain');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(-1) FROM dr_plain;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- A role that may not read the relation, and one without a budget.
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION dr_nobody;
SELECT * FROM pgdp.cost('SELECT dp_count(1.0) FROM dr_plain');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) FROM dr_plain;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET SESSION AUTHORIZATION;
GRANT SELECT ON dr_plain TO dr_nobody;
SET SESSION AUTHORIZATION dr_nobody;
SELECT * FROM pgdp.cost('SELECT dp_count(1.0) FROM dr_plain');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) FROM dr_plain;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET SESSION AUTHORIZATION;
\set SHOW_CONTEXT errors
SELECT count(*) AS charges_of_bad_input FROM pgdp.ledger WHERE role IN ('dr_poor'::regrole, 'dr_nobody'::regrole);

-- DP-only access: the dry run's output is the same on two tables that differ in one person.
-- Its refusals are the query's: the rows (42501), an expression that could fail on a person's
-- value (refused before any row is read).
SET SESSION AUTHORIZATION dr_viewer;
\set SHOW_CONTEXT never
SELECT * FROM pgdp.cost('SELECT amount FROM dr_twin_a');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT amount FROM dr_twin_a;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.cost('SELECT dp_count(1.0) FROM dr_twin_a WHERE pg_sleep(amount) IS NOT NULL');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) FROM dr_twin_a WHERE pg_sleep(amount) IS NOT NULL;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
CREATE TEMP TABLE dr_seen AS
SELECT t.name, c.*
FROM (VALUES ('a'), ('b')) t(name),
     LATERAL pgdp.cost(format('SELECT dp_count(1.0), dp_sum(amount, 0, 40, 1.0), dp_mean(amount, 1.0), '
                              'dp_median(amount, 0, 40, 1.0) FROM dr_twin_%s', t.name)) c;
SELECT release, aggregate, mechanism, epsilon, delta, round(error_95::numeric, 3) AS error_95, cached, fits
FROM dr_seen WHERE name = 'a' ORDER BY release NULLS LAST;
(SELECT release, aggregate, mechanism, epsilon, delta, noise_scale, error_95, cached FROM dr_seen WHERE name = 'a'
 EXCEPT SELECT release, aggregate, mechanism, epsilon, delta, noise_scale, error_95, cached FROM dr_seen WHERE name = 'b')
UNION ALL
(SELECT release, aggregate, mechanism, epsilon, delta, noise_scale, error_95, cached FROM dr_seen WHERE name = 'b'
 EXCEPT SELECT release, aggregate, mechanism, epsilon, delta, noise_scale, error_95, cached FROM dr_seen WHERE name = 'a');
CREATE TEMP TABLE dr_seen_grouped AS
SELECT t.name, c.*
FROM (VALUES ('a'), ('b')) t(name),
     LATERAL pgdp.cost(format('SELECT region, dp_count(1.0) FROM dr_twin_%s GROUP BY region '
                              'HAVING dp_groups(1.0, 1e-6)', t.name)) c;
SELECT count(*) AS differing_rows
FROM (SELECT release, aggregate, mechanism, epsilon, delta, noise_scale, error_95 FROM dr_seen_grouped WHERE name = 'a'
      EXCEPT SELECT release, aggregate, mechanism, epsilon, delta, noise_scale, error_95 FROM dr_seen_grouped WHERE name = 'b') d;
SELECT count(*) AS charges FROM pgdp.my_ledger;
RESET SESSION AUTHORIZATION;

-- A selection that keeps no group: a NOTICE says so, the releases are charged.
SET SESSION AUTHORIZATION dr_analyst;
SET search_path = dr, public;
SELECT person, dp_count(1.0) FROM dr_people GROUP BY person HAVING dp_groups(1.0, 1e-6);
SELECT count(*) AS releases_of_latest_charge FROM pgdp.my_ledger WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger);
-- Under DP-only access too: the NOTICE passes the seal of the connection (it tells only what the
-- selection released).
SET SESSION AUTHORIZATION dr_viewer;
SELECT person, dp_count(1.0) FROM dr_twin_a GROUP BY person HAVING dp_groups(1.0, 1e-6);
SET SESSION AUTHORIZATION dr_analyst;
-- A cursor fetched part of the way says nothing (not every group was decided).
BEGIN;
DECLARE dr_partial CURSOR FOR SELECT person, dp_count(1.0) FROM dr_people GROUP BY person HAVING dp_groups(1.0, 1e-6);
FETCH 1 FROM dr_partial;
COMMIT;
-- A selection that keeps groups says nothing more.
SELECT region FROM dr_people GROUP BY region HAVING dp_groups(1e6, 1e-9, 'laplace') ORDER BY region;
RESET SESSION AUTHORIZATION;
