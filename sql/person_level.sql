-- Person-level releases over a protected relation (issue 10, first form: no GROUP BY). The
-- planner hook combines each privacy unit's rows first (its sum, its mean, one row per unit) and
-- the unchanged aggregates release over the units. Exact at epsilon 1e6 against bounded values
-- computed here in plain SQL, on a table with hundreds of rows per unit, rows without a unit, and
-- a join that triples every row.
SET client_min_messages = warning;
CREATE ROLE pl_analyst;
SELECT role FROM pgdp.set_budget('pl_analyst', 1e9, 0.5);
CREATE TABLE pl_visits (id int, person int, minutes int);
INSERT INTO pl_visits
SELECT g, CASE WHEN g % 101 = 0 THEN NULL ELSE g % 57 END, CASE WHEN g % 57 < 10 THEN g % 13 ELSE g % 3 END
FROM generate_series(1, 20000) g;
CREATE TABLE pl_tags (tag int);
INSERT INTO pl_tags VALUES (1), (2), (3);
CREATE TABLE pl_events (person int, day int) PARTITION BY RANGE (day);
CREATE TABLE pl_events_a PARTITION OF pl_events FOR VALUES FROM (0) TO (10);
CREATE TABLE pl_events_b PARTITION OF pl_events FOR VALUES FROM (10) TO (20);
INSERT INTO pl_events SELECT g % 25, g % 20 FROM generate_series(1, 5000) g;
GRANT SELECT ON pl_visits, pl_tags, pl_events, pl_events_a TO pl_analyst;
SELECT relation FROM pgdp.protect('pl_visits', 'person');
SELECT relation FROM pgdp.protect('pl_events', 'person');
RESET client_min_messages;
SET SESSION AUTHORIZATION pl_analyst;

-- The exact person-level values (the analyst may read the table), for comparison.
SELECT count(*) AS rows, count(DISTINCT person) AS units, count(*) FILTER (WHERE person IS NULL) AS no_unit
FROM pl_visits;
SELECT count(DISTINCT person) AS units FROM pl_visits \gset
SELECT sum(least(greatest(s, 0), 500)) AS bounded_sum, count(*) FILTER (WHERE s > 500) AS clamped_units
FROM (SELECT person, sum(minutes) s FROM pl_visits WHERE person IS NOT NULL GROUP BY person) u;
SELECT sum(least(greatest(s, 0), 500)) AS bounded_sum
FROM (SELECT person, sum(minutes) s FROM pl_visits WHERE person IS NOT NULL GROUP BY person) u \gset
SELECT sum(least(greatest(s, 0), 500)) AS joined_sum
FROM (SELECT person, 3 * sum(minutes) s FROM pl_visits WHERE person IS NOT NULL GROUP BY person) u \gset
SELECT avg(least(greatest(m, 0), 5)) AS bounded_mean
FROM (SELECT person, avg(minutes) m FROM pl_visits WHERE person IS NOT NULL GROUP BY person) u \gset
SELECT count(DISTINCT person) AS filtered_units FROM pl_visits WHERE minutes > 8 \gset

-- The plan: one row per unit, then the release.
EXPLAIN (COSTS OFF) SELECT dp_count(1e6), dp_sum(minutes, 0, 500, 1e6) FROM pl_visits WHERE minutes > 0;
CREATE TEMP TABLE pl_before AS SELECT releases FROM pgdp.my_budget;
-- A unit with hundreds of rows counts once; its sum is clamped as a whole; its mean is one value.
SELECT dp_count(1e6) = :units AS units_exact, dp_sum(minutes, 0, 500, 1e6) = :bounded_sum AS sum_exact,
       abs(dp_mean(minutes, 0, 5, 1e6) - :bounded_mean) < 1e-3 AS mean_exact
FROM pl_visits;
-- A join that repeats every row three times: still one row per unit (its sum triples, clamped).
SELECT dp_count(1e6) = :units AS units_exact, dp_sum(minutes, 0, 500, 1e6) = :joined_sum AS sum_exact
FROM pl_visits JOIN pl_tags ON true;
-- WHERE filters rows before the units are formed; the *_ci forms; result types are unchanged.
SELECT dp_count(1e6) = :filtered_units AS filtered_exact FROM pl_visits WHERE minutes > 8;
SELECT (dp_count_ci(1e6, 0.05)).value = :units AS ci_exact, pg_typeof(dp_sum(minutes, 0, 500, 1e6)) AS sum_type,
       pg_typeof(dp_sum(minutes::numeric, 0, 500, 1e6)) AS numeric_type, pg_typeof(dp_mean(minutes, 0, 5, 1e6)) AS mean_type
FROM pl_visits;
-- Prepared, custom and generic plans.
PREPARE pl_count(float8) AS SELECT dp_count($1) = :units AS units_exact FROM pl_visits;
EXECUTE pl_count(1e6);
SET plan_cache_mode = force_generic_plan;
EXECUTE pl_count(1e6);
RESET plan_cache_mode;
-- Parallel level 1.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT dp_sum(minutes, 0, 500, 1e6) = :bounded_sum AS parallel_exact FROM pl_visits;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
-- Partitioned: the root and a partition read directly.
SELECT dp_count(1e6) AS event_units FROM pl_events;
SELECT dp_count(1e6) AS early_units FROM pl_events_a;
-- The per-unit partial is pg_catalog's sum whatever the search_path.
CREATE FUNCTION pg_temp.sum(int) RETURNS int LANGUAGE sql AS 'SELECT 1';
SET search_path = pg_temp, public, pg_catalog;
SELECT dp_sum(minutes, 0, 500, 1e6) = :bounded_sum AS sum_exact FROM pl_visits;
RESET search_path;
-- One charge per call.
SELECT b.releases - a.releases AS charged FROM pgdp.my_budget b, pl_before a;

-- Refused before anything is charged (0A000): forms without a person-level release yet, and
-- protected rows reached other than directly in FROM.
CREATE TEMP TABLE pl_refused AS SELECT releases FROM pgdp.my_budget;
SELECT minutes % 2, dp_count(1.0) FROM pl_visits GROUP BY 1;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) FROM (SELECT * FROM pl_visits) v;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) FROM pl_tags WHERE tag IN (SELECT person FROM pl_visits);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) FROM pl_visits a JOIN pl_visits b ON a.minutes = b.minutes;  -- a self-join not on the unit
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0), count(*) FROM pl_visits;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) FILTER (WHERE minutes > 1) FROM pl_visits;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0), (SELECT 1 FROM pl_tags LIMIT 1) FROM pl_visits;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
WITH v AS (SELECT * FROM pl_visits) SELECT dp_count(1.0) FROM v;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT b.releases - a.releases AS charged FROM pgdp.my_budget b, pl_refused a;

-- A prepared statement is planned again when its relation's protection changes (the catalog's
-- trigger invalidates its plans): it releases under the new protection (the unit is now the row id).
PREPARE pl_stale AS SELECT dp_count(1e6) AS units FROM pl_visits;
EXECUTE pl_stale;
RESET SESSION AUTHORIZATION;
SELECT relation FROM pgdp.protect('pl_visits', 'id');
SET SESSION AUTHORIZATION pl_analyst;
EXECUTE pl_stale;
-- A plan made before a change that bypassed the trigger (a superuser's direct catalog edit) is not
-- used for releases (fail closed) until the statement is prepared again.
RESET SESSION AUTHORIZATION;
ALTER TABLE pgdp.protected_relations DISABLE TRIGGER pgdp_invalidate_plans;
UPDATE pgdp.protected_relations SET privacy_unit = 'person' WHERE relation = 'pl_visits'::regclass;
ALTER TABLE pgdp.protected_relations ENABLE TRIGGER pgdp_invalidate_plans;
SET SESSION AUTHORIZATION pl_analyst;
EXECUTE pl_stale;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
DEALLOCATE pl_stale;
PREPARE pl_stale AS SELECT dp_count(1e6) = :units AS units_exact FROM pl_visits;
EXECUTE pl_stale;
DEALLOCATE pl_stale;
DEALLOCATE pl_count;
RESET SESSION AUTHORIZATION;

SET client_min_messages = warning;
DROP TABLE pl_visits, pl_tags, pl_events;
DROP FUNCTION pg_temp.sum(int);
DROP TABLE pl_before, pl_refused;
DELETE FROM pgdp.budgets WHERE role = 'pl_analyst'::regrole;
DROP ROLE pl_analyst;
