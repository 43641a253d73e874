-- Specifies: which person-level forms are rewritten and which refused (pipeline stage: planning, person-level rewrite).
-- Attacks on person-level releases (docs/red-team/round6.md). Table pla_visits: 10 units of 100
-- rows each (one minute per row). Every release here either is exact at the person level (at
-- epsilon 1e6 a count's noise is far below 0.5) or is refused before anything is charged.
SET client_min_messages = warning;
CREATE ROLE pla_analyst;
SELECT role FROM pgdp.set_budget('pla_analyst', 1e9, 0.5);
CREATE SCHEMA pla AUTHORIZATION pla_analyst;
CREATE TABLE pla_visits (id int, person int, minutes int);
INSERT INTO pla_visits SELECT g, g % 10, 1 FROM generate_series(1, 1000) g;
CREATE TABLE pla_family (person int, minutes int);
CREATE TABLE pla_family_child (extra int, minutes int, person int);
ALTER TABLE pla_family_child INHERIT pla_family;
INSERT INTO pla_family SELECT g % 5, 1 FROM generate_series(1, 100) g;
INSERT INTO pla_family_child SELECT 0, 1, 5 + g % 5 FROM generate_series(1, 100) g;
CREATE TABLE pla_names (person text COLLATE "C", minutes int);
INSERT INTO pla_names
SELECT CASE g % 3 WHEN 0 THEN 'a' WHEN 1 THEN 'A' END, 1 FROM generate_series(1, 99) g;
GRANT SELECT ON pla_visits, pla_family, pla_family_child, pla_names TO pla_analyst;
SELECT relation FROM pgdp.protect('pla_visits', 'person');
SELECT relation FROM pgdp.protect('pla_family', 'person');
SELECT relation FROM pgdp.protect('pla_names', 'person');
RESET client_min_messages;
SET SESSION AUTHORIZATION pla_analyst;
SET search_path = pla, public;
\set SHOW_CONTEXT never
CREATE TEMP TABLE pla_before AS SELECT releases FROM pgdp.my_budget;

-- Break 1 (fixed): a SQL function in FROM is inlined by the planner after the rewrite; its read of
-- the protected table was invisible and covered by the plan's mark. Conditioning every unit's row
-- on one victim's row made the count 10 or 0 (sensitivity 10); a sibling release over the inlined
-- rows counted rows (1000), not units.
CREATE FUNCTION pla.visit_rows() RETURNS SETOF pla_visits LANGUAGE sql STABLE AS 'SELECT * FROM pla_visits';
SELECT dp_count(1e6) FROM pla_visits p, pla.visit_rows() s WHERE s.person = 3 AND s.id = 3;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT (SELECT dp_count(1e6) FROM pla_visits), (SELECT dp_count(1e6) FROM pla.visit_rows());
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM pla_visits WHERE EXISTS (SELECT 1 FROM pla.visit_rows() s WHERE s.person = 3);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Break 2 (fixed): a row-level security policy of the analyst's own table, joined to the protected
-- one, reading the protected table (the level's own tables' policies were not examined).
CREATE TABLE pla.gate (k int);
INSERT INTO pla.gate VALUES (1);
ALTER TABLE pla.gate ENABLE ROW LEVEL SECURITY;
ALTER TABLE pla.gate FORCE ROW LEVEL SECURITY;
CREATE POLICY pla_gate ON pla.gate USING (EXISTS (SELECT 1 FROM pla_visits WHERE person = 3));
SELECT dp_count(1e6) FROM pla_visits JOIN pla.gate ON true;
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- Break 3 (fixed): an aggregate of the level written inside a subquery (agglevelsup 1) was not seen
-- as the level's call; beside a rewritten release (whose mark covered the table) it released the
-- rows' sum at row level.
SELECT (SELECT dp_count(1e6) FROM pla_visits) AS a,
       (SELECT (SELECT dp_sum(p.minutes, 0, 1e9, 1e6)) FROM pla_visits p) AS b;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT (SELECT (SELECT dp_sum(p.minutes, 0, 1e9, 1e6)) FROM pla_visits p) AS b;
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- Refused forms (0A000 at plan time, before charging).
SELECT dp_count(1e6) FROM pla_visits GROUP BY ();
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM pla_visits GROUP BY person;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FILTER (WHERE minutes > 0) FROM pla_visits;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM (SELECT * FROM pla_visits) s;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
WITH w AS (SELECT * FROM pla_visits) SELECT dp_count(1e6) FROM w;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM pla_visits p1 JOIN pla_visits p2 ON true;  -- a self-join mixing people
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CREATE VIEW pla.visits_view WITH (security_barrier) AS SELECT * FROM pla_visits;
SELECT dp_count(1e6) FROM pla.visits_view;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) OVER () FROM pla_visits LIMIT 1;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6), (SELECT count(*) FROM pla_visits) FROM pla_visits;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS refused_charges FROM pgdp.my_budget, pla_before WHERE my_budget.releases <> pla_before.releases;

-- A PL/pgSQL function reading the table runs inside the aggregating execution: refused when its
-- query starts (after the charge: nothing is released).
CREATE FUNCTION pla.visit_rows_plpgsql() RETURNS SETOF pla_visits LANGUAGE plpgsql STABLE
AS 'BEGIN RETURN QUERY SELECT * FROM pla_visits; END';
SELECT dp_count(1e6) FROM pla_visits p, pla.visit_rows_plpgsql() s WHERE s.person = 3 AND s.id = 3;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CREATE FUNCTION pla.victim_present() RETURNS boolean LANGUAGE plpgsql VOLATILE
AS 'BEGIN RETURN EXISTS (SELECT 1 FROM pla_visits WHERE person = 3); END';
SELECT dp_count(1e6) FROM pla_visits WHERE pla.victim_present();
\echo SQLSTATE :LAST_ERROR_SQLSTATE


-- Accepted forms, each exact at the person level (10 units; a unit's clamped sum is 100).
SELECT dp_count(1e6) = 10 AS units FROM pla_visits HAVING dp_count(1e6) > 0;
SELECT DISTINCT ON (1) dp_count(1e6) = 10 AS units FROM pla_visits;
SELECT dp_count(1e6) = 10 AS units FROM pla_visits LIMIT 1;
SELECT dp_count(1e6) = 10 AS units FROM pla_visits, LATERAL generate_series(1, pla_visits.minutes + 2) g;
SELECT dp_count(1e6) = 10 AS units FROM pla_visits UNION ALL SELECT dp_count(1e6) = 10 FROM pla_visits;
CREATE TABLE pla.results (units boolean);
INSERT INTO pla.results SELECT dp_count(1e6) = 10 FROM pla_visits;
CREATE TABLE pla.results_as AS SELECT dp_count(1e6) = 10 AS units FROM pla_visits;
SELECT units FROM pla.results UNION ALL SELECT units FROM pla.results_as;
-- An inheritance child whose columns are in another order (the unit is found by name): 5 units in
-- the parent's own rows, 5 in the child, 200 rows of one minute; each unit's sum is 20.
SELECT dp_count(1e6) = 10 AS units, dp_sum(minutes, 0, 1000, 1e6) = 200 AS sum_exact FROM pla_family;
SELECT dp_count(1e6) = 5 AS units FROM pla_family_child;
SELECT dp_count(1e6) = 5 AS units FROM ONLY pla_family;
-- A text unit under the "C" collation: 'a' and 'A' are two units, NULL rows belong to nobody.
SELECT dp_count(1e6) = 2 AS units, dp_sum(minutes, 0, 1000, 1e6) = 66 AS sum_exact FROM pla_names;
-- COPY, a PL/pgSQL block and a SQL function (not inlined: it aggregates) make the rewritten release.
COPY (SELECT dp_count(1e6) = 10 AS units FROM pla_visits) TO STDOUT;
DO $$BEGIN IF (SELECT dp_count(1e6) FROM pla_visits) <> 10 THEN RAISE 'not exact'; END IF; END$$;
CREATE FUNCTION pla.units() RETURNS boolean LANGUAGE sql AS 'SELECT dp_count(1e6) = 10 FROM pla_visits';
SELECT pla.units();
-- A release inside an inlined SQL set-returning function is not rewritten (inlined after the
-- hook): the guard refuses the plan at executor start, before charging.
CREATE FUNCTION pla.units_of(int) RETURNS SETOF bigint LANGUAGE sql STABLE
AS 'SELECT dp_count(1e6) FROM pla_visits WHERE minutes = $1';
SELECT * FROM pla.units_of(1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
BEGIN;
DECLARE pla_cursor CURSOR FOR SELECT dp_count(1e6) = 10 AS units FROM pla_visits;
FETCH pla_cursor;
COMMIT;
-- A PARALLEL SAFE function in WHERE that reads the protected table runs in parallel workers
-- while they compute level 1: refused when its query starts there (the release was charged when
-- it started; nothing is released).
CREATE FUNCTION pla.victim_minutes(p int) RETURNS int LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$ BEGIN RETURN (SELECT sum(minutes) FROM public.pla_visits WHERE person = p); END $$;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;
SELECT dp_count(1e6) FROM pla_visits WHERE pla.victim_minutes(person) > 0;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET parallel_leader_participation;
-- Level 1 in parallel and partitionwise settings still counts each unit once.
SET enable_partitionwise_aggregate = on;
SELECT dp_count(1e6) = 10 AS units, dp_sum(minutes, 0, 1000, 1e6) = 1000 AS sum_exact FROM pla_visits;
RESET enable_partitionwise_aggregate;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
-- A trigger on the table a person-level release is inserted into, reading the protected table
-- while the statement runs: refused (the statement rolls back, the release is not stored).
CREATE TABLE pla.stored (n float8);
CREATE FUNCTION pla.peek() RETURNS trigger LANGUAGE plpgsql
AS $$ BEGIN PERFORM count(*) FROM public.pla_visits; RETURN NEW; END $$;
CREATE TRIGGER pla_peek AFTER INSERT ON pla.stored FOR EACH ROW EXECUTE FUNCTION pla.peek();
INSERT INTO pla.stored SELECT dp_count(1e6) FROM pla_visits;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS stored_rows FROM pla.stored;
-- A falsely IMMUTABLE user function as epsilon is evaluated once at plan time or refused; it
-- never varies between what is charged and what is used.
CREATE FUNCTION pla.eps() RETURNS float8 LANGUAGE sql IMMUTABLE AS 'SELECT 1e6::float8';
PREPARE pla_eps AS SELECT dp_count(pla.eps()) = 10 AS units FROM pla_visits;
SET plan_cache_mode = force_generic_plan;
EXECUTE pla_eps;
RESET plan_cache_mode;
DEALLOCATE pla_eps;
RESET SESSION AUTHORIZATION;

SET client_min_messages = warning;
DROP SCHEMA pla CASCADE;
DROP TABLE pla_before;
DROP TABLE pla_visits, pla_family_child, pla_family, pla_names;
DELETE FROM pgdp.budgets WHERE role = 'pla_analyst'::regrole;
DROP ROLE pla_analyst;
