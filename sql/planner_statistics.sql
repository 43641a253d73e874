-- Plans independent of hidden rows (issue 33 class 1; docs/privacy.md "Plans independent of hidden
-- rows"): a protected relation that the user may not read is planned from public facts only, its
-- declared size and its schema, never from statistics of its rows; users who may read it plan as
-- without pgdp. The plan shown here is the one made for a caller: an admin's SECURITY DEFINER
-- function EXPLAINs a plain query (the current user may read, the session user may not, so the
-- statement is planned as the session user's). Two tables differ in one person, whose value is
-- far above everyone else's; every plan fact of a user who may not read them must be the same for
-- both. The attacks on the observables themselves (plan cache counters, locks, cursors, refusals)
-- are in plan_independence.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE ps_admin;
CREATE ROLE ps_analyst;
CREATE ROLE ps_reader;
CREATE ROLE ps_stranger;
SELECT pgdp.designate_admin('ps_admin');
SELECT role FROM pgdp.set_budget('ps_analyst', 10, 0.5);
CREATE TABLE ps_a (person int, v float8, tags int[], day date, note text);
INSERT INTO ps_a SELECT g, g % 1000, ARRAY[g % 7], date '2026-01-01' + g % 300, 'n' || (g % 50)
FROM generate_series(1, 20000) g;
CREATE TABLE ps_b (LIKE ps_a);
INSERT INTO ps_b SELECT * FROM ps_a;
INSERT INTO ps_b VALUES (20001, 734521.7, ARRAY[99], date '2030-01-01', 'outlier');
-- The same indexes and extended statistics on both (names differ only in the table's).
CREATE INDEX ps_a_v ON ps_a (v);
CREATE INDEX ps_b_v ON ps_b (v);
CREATE INDEX ps_a_v2 ON ps_a ((v * 2));
CREATE INDEX ps_b_v2 ON ps_b ((v * 2));
CREATE INDEX ps_a_tags ON ps_a USING gin (tags);
CREATE INDEX ps_b_tags ON ps_b USING gin (tags);
CREATE INDEX ps_a_day ON ps_a USING brin (day);
CREATE INDEX ps_b_day ON ps_b USING brin (day);
CREATE STATISTICS ps_a_stats ON v, note FROM ps_a;
CREATE STATISTICS ps_b_stats ON v, note FROM ps_b;
VACUUM ANALYZE ps_a;
VACUUM ANALYZE ps_b;
CREATE TABLE ps_regions (v float8 PRIMARY KEY);
INSERT INTO ps_regions SELECT g FROM generate_series(1, 50) g;
ANALYZE ps_regions;
GRANT SELECT ON ps_regions TO ps_analyst, ps_stranger;
GRANT SELECT ON ps_a, ps_b TO ps_reader;
SELECT relation FROM pgdp.protect('ps_a', 'person');
SELECT relation FROM pgdp.protect('ps_b', 'person');
SELECT relation FROM pgdp.declare_public('ps_regions');
-- The plan of `query` over `tab` (its %s), as EXPLAIN prints it, with the table's name replaced.
CREATE FUNCTION public.ps_plan(query text, tab text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_catalog AS $$
DECLARE
    line text;
    plan text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN ' || format(query, tab) LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN replace(plan, tab, 'T');
END $$;
ALTER FUNCTION ps_plan(text, text) OWNER TO ps_admin;
GRANT SELECT ON ps_a, ps_b, ps_regions TO ps_admin;
SET SESSION AUTHORIZATION ps_admin;
SELECT role FROM pgdp.grant_access('ps_a', 'ps_analyst');
SELECT role FROM pgdp.grant_access('ps_b', 'ps_analyst');
RESET SESSION AUTHORIZATION;
-- The statements of the sweep: ranges around the hidden value, equalities (most common values),
-- joins, groups, sorts, each index kind, the extended statistics' columns.
CREATE TABLE ps_queries (q text);
GRANT SELECT ON ps_queries TO PUBLIC;
INSERT INTO ps_queries VALUES
    ('SELECT * FROM %s'),
    ('SELECT count(*) FROM %s WHERE v > 999'),
    ('SELECT count(*) FROM %s WHERE v > 734521'),
    ('SELECT count(*) FROM %s WHERE v > 734522'),
    ('SELECT count(*) FROM %s WHERE v BETWEEN 734000 AND 735000'),
    ('SELECT count(*) FROM %s WHERE v = 5'),
    ('SELECT count(*) FROM %s WHERE v * 2 > 1468000'),
    ('SELECT count(*) FROM %s WHERE tags @> ARRAY[99]'),
    ('SELECT count(*) FROM %s WHERE day > date ''2029-01-01'''),
    ('SELECT count(*) FROM %s WHERE v = 5 AND note = ''n5'''),
    ('SELECT note, count(*) FROM %s GROUP BY note'),
    ('SELECT v FROM %s ORDER BY v DESC LIMIT 1'),
    ('SELECT count(*) FROM %s t JOIN ps_regions r ON r.v = t.v'),
    ('SELECT count(*) FROM %s a JOIN %1$s b ON a.person = b.person WHERE a.v > 700000');
RESET client_min_messages;

-- The owner and a role with SELECT plan with the statistics: the outlier shows (the sweep can see
-- a difference when there is one).
SELECT count(*) FILTER (WHERE ps_plan(q, 'ps_a') <> ps_plan(q, 'ps_b')) > 0 AS owner_plans_differ
FROM ps_queries;
SET SESSION AUTHORIZATION ps_reader;
SELECT count(*) FILTER (WHERE ps_plan(q, 'ps_a') <> ps_plan(q, 'ps_b')) > 0 AS reader_plans_differ
FROM ps_queries;
RESET SESSION AUTHORIZATION;

-- A DP-only analyst and a role without access: every plan the same for both tables, under every
-- setting of the sweep.
SET SESSION AUTHORIZATION ps_analyst;
SELECT count(*) AS queries, count(*) FILTER (WHERE ps_plan(q, 'ps_a') = ps_plan(q, 'ps_b')) AS same_plan
FROM ps_queries;
SET enable_seqscan = off;
SET random_page_cost = 1.1;
SELECT count(*) AS queries, count(*) FILTER (WHERE ps_plan(q, 'ps_a') = ps_plan(q, 'ps_b')) AS same_plan
FROM ps_queries;
RESET enable_seqscan;
RESET random_page_cost;
SET enable_hashjoin = off;
SET work_mem = '64kB';
SELECT count(*) AS queries, count(*) FILTER (WHERE ps_plan(q, 'ps_a') = ps_plan(q, 'ps_b')) AS same_plan
FROM ps_queries;
RESET enable_hashjoin;
RESET work_mem;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION ps_stranger;
SELECT count(*) AS queries, count(*) FILTER (WHERE ps_plan(q, 'ps_a') = ps_plan(q, 'ps_b')) AS same_plan
FROM ps_queries;
RESET SESSION AUTHORIZATION;

-- The size the planner assumes: pgdp.planning_rows (a user setting, 100000 by default), or the size
-- an admin declared public for the relation; a partitioned relation's spread over its partitions.
SET SESSION AUTHORIZATION ps_analyst;
SELECT substring(ps_plan('SELECT * FROM %s', 'ps_a') FROM 'rows=([0-9]+)') AS assumed_rows;
SET pgdp.planning_rows = 5000;
SELECT substring(ps_plan('SELECT * FROM %s', 'ps_a') FROM 'rows=([0-9]+)') AS assumed_rows;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION ps_admin;
SELECT relation, planning_rows FROM pgdp.set_planning_rows('ps_a', 2000000);
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION ps_analyst;
SELECT substring(ps_plan('SELECT * FROM %s', 'ps_a') FROM 'rows=([0-9]+)') AS declared_rows,
       substring(ps_plan('SELECT * FROM %s', 'ps_b') FROM 'rows=([0-9]+)') AS setting_rows;
-- Everyone reads the declared size.
SELECT relation, planning_rows FROM pgdp.protections WHERE relation::text LIKE 'ps\_%' ORDER BY 1;
RESET pgdp.planning_rows;
RESET SESSION AUTHORIZATION;
-- The owner still plans with the real size and statistics.
SELECT ps_plan('SELECT count(*) FROM %s WHERE v > 734521', 'ps_b') ~ 'rows=1 ' AS owner_estimates_one_row;

SET client_min_messages = warning;
CREATE TABLE ps_parts (person int, v float8) PARTITION BY RANGE (v);
CREATE TABLE ps_parts_1 PARTITION OF ps_parts FOR VALUES FROM (0) TO (100);
CREATE TABLE ps_parts_2 PARTITION OF ps_parts FOR VALUES FROM (100) TO (200);
CREATE TABLE ps_parts_3 PARTITION OF ps_parts FOR VALUES FROM (200) TO (300);
INSERT INTO ps_parts SELECT g, g % 300 FROM generate_series(1, 3000) g;
ANALYZE ps_parts;
SELECT relation FROM pgdp.protect('ps_parts', 'person');
SELECT relation FROM pgdp.set_planning_rows('ps_parts', 3000000);
GRANT SELECT ON ps_parts TO ps_admin;
RESET client_min_messages;
SET SESSION AUTHORIZATION ps_stranger;
SELECT substring(ps_plan('SELECT * FROM %s', 'ps_parts') FROM 'rows=([0-9]+)') AS partitioned_rows,
       substring(ps_plan('SELECT * FROM %s WHERE v < 50', 'ps_parts') FROM 'on T_1 .*rows=([0-9]+)') AS one_partition;
RESET SESSION AUTHORIZATION;

-- Locks: a plan made again (the owner's ANALYZE invalidated it) and one reused hold the same
-- locks, every index of the hidden relation (a reused plan would lock only those it uses).
SET SESSION AUTHORIZATION ps_analyst;
SET plan_cache_mode = force_generic_plan;
PREPARE ps_locks AS SELECT dp_count(0.001) FROM ps_b WHERE v > $1;
CREATE TEMP VIEW ps_held AS
SELECT string_agg(c.relname, ',' ORDER BY c.relname) AS locks FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
WHERE l.pid = pg_backend_pid() AND c.relname LIKE 'ps\_b%';
\o /dev/null
BEGIN;
EXECUTE ps_locks(734521);
\o
SELECT locks AS planned FROM ps_held \gset
COMMIT;
\o /dev/null
BEGIN;
EXECUTE ps_locks(734521);
\o
SELECT locks AS reused FROM ps_held \gset
COMMIT;
RESET SESSION AUTHORIZATION;
ANALYZE ps_b;
SET SESSION AUTHORIZATION ps_analyst;
\o /dev/null
BEGIN;
EXECUTE ps_locks(734521);
\o
SELECT locks AS replanned FROM ps_held \gset
COMMIT;
SELECT :'planned' AS planned_locks, :'reused' = :'planned' AS reused_same, :'replanned' = :'planned' AS replanned_same;
DEALLOCATE ps_locks;
RESET plan_cache_mode;
RESET SESSION AUTHORIZATION;

-- A foreign partition of a protected relation: its wrapper estimates its size from the data
-- (file_fdw: the file's size), so a user who may not read it gets no plan (0A000), nothing charged.
SET client_min_messages = warning;
CREATE EXTENSION file_fdw;
CREATE SERVER ps_files FOREIGN DATA WRAPPER file_fdw;
CREATE TABLE ps_mixed (person int, v float8) PARTITION BY RANGE (v);
CREATE TABLE ps_mixed_local PARTITION OF ps_mixed FOR VALUES FROM (0) TO (100);
CREATE FOREIGN TABLE ps_mixed_file PARTITION OF ps_mixed FOR VALUES FROM (100) TO (200)
    SERVER ps_files OPTIONS (filename '/dev/null', format 'csv');
SELECT relation FROM pgdp.protect('ps_mixed', 'person');
SELECT role FROM pgdp.grant_access('ps_mixed', 'ps_analyst');
RESET client_min_messages;
SELECT count(*) AS owner_reads FROM ps_mixed;
SET SESSION AUTHORIZATION ps_analyst;
SELECT epsilon_spent AS spent_before FROM pgdp.my_budget \gset
\set SHOW_CONTEXT never
SELECT dp_count(1) FROM ps_mixed;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
SELECT epsilon_spent = :spent_before AS nothing_charged FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

-- The owner of a table with row security (not forced) reads every row: planned with statistics
-- (check_enable_rls says RLS_NONE_ENV for the owner; red team round 21).
SET client_min_messages = warning;
CREATE ROLE ps_owner;
CREATE TABLE ps_owned (person int, v float8);
INSERT INTO ps_owned SELECT g, g % 1000 FROM generate_series(1, 5000) g;
INSERT INTO ps_owned VALUES (5001, 734521.7);
ANALYZE ps_owned;
ALTER TABLE ps_owned OWNER TO ps_owner;
ALTER TABLE ps_owned ENABLE ROW LEVEL SECURITY;
SELECT relation FROM pgdp.protect('ps_owned', 'person');
RESET client_min_messages;
CREATE FUNCTION ps_estimate(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    EXECUTE 'EXPLAIN ' || query INTO line;
    RETURN substring(line FROM 'rows=([0-9]+)');
END $$;
SET SESSION AUTHORIZATION ps_owner;
SELECT ps_estimate('SELECT * FROM ps_owned WHERE v > 734521') AS owner_estimate;
RESET SESSION AUTHORIZATION;

-- Bad input: clear errors, nothing changed.
\set SHOW_CONTEXT never
SELECT pgdp.set_planning_rows(NULL, 10);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pgdp.set_planning_rows('ps_regions', 10);   -- public, not protected
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pgdp.set_planning_rows('ps_a', 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET SESSION AUTHORIZATION ps_analyst;
SELECT pgdp.set_planning_rows('ps_a', 10);         -- only admins
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET pgdp.planning_rows = 0;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET SESSION AUTHORIZATION;
\set SHOW_CONTEXT errors
SELECT relation, planning_rows FROM pgdp.protections WHERE relation::text LIKE 'ps\_%' ORDER BY 1;
-- NULL: back to the setting.
SELECT relation, planning_rows FROM pgdp.set_planning_rows('ps_a', NULL);

SET client_min_messages = warning;
DROP TABLE ps_a, ps_b, ps_regions, ps_parts, ps_queries, ps_mixed, ps_owned;
DROP SERVER ps_files;
DROP EXTENSION file_fdw;
DROP FUNCTION ps_plan(text, text);
DROP FUNCTION ps_estimate(text);
SELECT pgdp.revoke_admin('ps_admin');
DROP OWNED BY ps_admin, ps_analyst, ps_reader, ps_stranger, ps_owner;
DELETE FROM pgdp.budgets WHERE role::text LIKE 'ps\_%';
DROP ROLE ps_admin, ps_analyst, ps_reader, ps_stranger, ps_owner;
RESET client_min_messages;
