-- Protected and public relations (0.6, issue 10; docs/privacy.md "Protected relations"): the data
-- owner's API (pgdp.protect, pgdp.unprotect, pgdp.declare_public, pgdp.undeclare_public, the view
-- pgdp.protections) with its validation, and the fail-closed guard: until person-level releases
-- exist, a query making pgdp releases over a protected relation (directly, through a view, a join,
-- a subquery, a CTE, a function, or a partition of it) is refused before anything is charged.
\set VERBOSITY default
\set SHOW_CONTEXT never
SET client_min_messages = warning;
CREATE TABLE prot_sales AS SELECT g AS id, g % 50 AS customer_id, g % 4 AS region, g % 100 AS amount
FROM generate_series(1, 400) g;
CREATE TABLE prot_regions AS SELECT g AS region FROM generate_series(0, 3) g;
CREATE TABLE prot_other AS SELECT g AS id FROM generate_series(1, 100) g;
CREATE TABLE prot_events (customer_id int, day int, amount int) PARTITION BY RANGE (day);
CREATE TABLE prot_events_early PARTITION OF prot_events FOR VALUES FROM (0) TO (10);
CREATE TABLE prot_events_late PARTITION OF prot_events FOR VALUES FROM (10) TO (20) PARTITION BY RANGE (day);
CREATE TABLE prot_events_late_a PARTITION OF prot_events_late FOR VALUES FROM (10) TO (15);
INSERT INTO prot_events SELECT g % 7, g % 15, g FROM generate_series(1, 300) g;
CREATE VIEW prot_sales_view AS SELECT customer_id, amount FROM prot_sales WHERE amount > 10;
CREATE MATERIALIZED VIEW prot_sales_matview AS SELECT * FROM prot_sales;
CREATE SEQUENCE prot_sequence;
CREATE TYPE prot_composite AS (a int);
CREATE INDEX prot_sales_index ON prot_sales (id);
CREATE TEMP TABLE prot_temp (customer_id int);
CREATE ROLE prot_admin;
CREATE ROLE prot_analyst;
GRANT SELECT ON prot_sales, prot_regions, prot_other, prot_events, prot_events_early, prot_events_late,
                prot_events_late_a, prot_sales_view TO prot_analyst;
SELECT role FROM pgdp.set_budget('prot_analyst', 1e9);
SELECT pgdp.designate_admin('prot_admin');
RESET client_min_messages;

-- ---------------------------------------------------------------------------------------------
-- Who may call what: an analyst may read pgdp.protections but not call the admin functions
-- (42501); an admin may. The functions run as their owner with a fixed search_path.
SELECT p.oid::regprocedure AS function, p.prosecdef AS security_definer, p.proconfig AS settings,
       has_function_privilege('prot_analyst', p.oid, 'EXECUTE') AS analyst_may,
       has_function_privilege('prot_admin', p.oid, 'EXECUTE') AS admin_may
FROM pg_proc p WHERE p.pronamespace = 'pgdp'::regnamespace
  AND p.proname IN ('protect', 'unprotect', 'declare_public', 'undeclare_public')
ORDER BY 1::text;
SELECT has_table_privilege('prot_analyst', 'pgdp.protections', 'SELECT') AS analyst_reads_view,
       has_table_privilege('prot_analyst', 'pgdp.protected_relations', 'SELECT') AS analyst_reads_table,
       has_table_privilege('prot_analyst', 'pgdp.protected_relations', 'INSERT') AS analyst_writes_table;
SET SESSION AUTHORIZATION prot_analyst;
SELECT * FROM pgdp.protect('prot_sales', 'customer_id');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pgdp.declare_public('prot_regions');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS protections_visible FROM pgdp.protections;
RESET SESSION AUTHORIZATION;

-- ---------------------------------------------------------------------------------------------
-- Validation (as the admin): every bad argument is refused with its SQLSTATE, a message naming
-- it and a hint.
SET SESSION AUTHORIZATION prot_admin;
SELECT * FROM pgdp.protect('prot_missing', 'customer_id');              -- 42P01 (regclass input)
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect(NULL, 'customer_id');                        -- 22004
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_sales', NULL);                         -- 22004
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_sales', 'client_id');                  -- 42703
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_sales', 'ctid');                       -- 42P10: a system column
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_sales', 'customer_id', 0);             -- 22023
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_sales', 'customer_id', -5);            -- 22023
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_sales', 'customer_id', NULL);          -- 22004
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_sales_view', 'customer_id');           -- 42809: a view
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_sales_matview', 'customer_id');        -- 42809: a materialized view
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_sequence', 'last_value');              -- 42809: a sequence
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_composite', 'a');                      -- 42809: a composite type
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_sales_index', 'id');                   -- 42809: an index
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_events_early', 'customer_id');         -- 42809: a partition
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_events_late_a', 'customer_id');        -- 42809: hint names the root
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pgdp.unprotect('prot_sales');                                    -- 42704: not protected
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pgdp.unprotect(NULL);                                            -- 22004
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pgdp.undeclare_public('prot_regions');                           -- 42704: not public
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.declare_public(NULL);                                -- 22004
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.declare_public('prot_sequence');                     -- 42809
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET SESSION AUTHORIZATION;
SELECT * FROM pgdp.protect('prot_temp', 'customer_id');                 -- 42809: temporary
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET SESSION AUTHORIZATION prot_admin;
-- Nothing was recorded.
SELECT count(*) AS rows FROM pgdp.protections;

-- ---------------------------------------------------------------------------------------------
-- Protect, declare public, change a protection; the view shows all (declared_at is now()).
SELECT relation, kind, privacy_unit, max_groups_contributed, declared_by, status
FROM pgdp.protect('prot_sales', 'customer_id');
SELECT relation, kind, privacy_unit, max_groups_contributed, declared_by, status
FROM pgdp.protect('prot_events', privacy_unit => 'customer_id', max_groups_contributed => 2);
SELECT relation, kind, privacy_unit, max_groups_contributed, declared_by, status FROM pgdp.declare_public('prot_regions');
SELECT relation, kind, status FROM pgdp.declare_public('prot_sales_view');  -- views may hold public keys
SELECT pgdp.undeclare_public('prot_sales_view');
-- A relation is protected or public, never both (55000, with the way out in the hint).
SELECT * FROM pgdp.declare_public('prot_sales');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.protect('prot_regions', 'region');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Protecting again changes the protection (privacy unit and m), keeping one row.
SELECT relation, privacy_unit, max_groups_contributed FROM pgdp.protect('prot_sales', 'region', 3);
SELECT relation, privacy_unit, max_groups_contributed FROM pgdp.protect('prot_sales', 'customer_id');
SELECT relation, kind, privacy_unit, max_groups_contributed, declared_by, declared_at <= now() AS dated, status
FROM pgdp.protections ORDER BY kind, relation::text;
RESET SESSION AUTHORIZATION;

-- ---------------------------------------------------------------------------------------------
-- The guard, as the analyst. Releases in the person-level form (the relation directly in FROM, no
-- GROUP BY; sql/person_level.sql checks their values) are made; every other release over a
-- protected relation is refused with 0A000 before anything is charged.
SET SESSION AUTHORIZATION prot_analyst;
CREATE TEMP TABLE prot_budget_before AS SELECT releases, epsilon_spent FROM pgdp.my_budget;
SELECT dp_count(1.0) IS NOT NULL AS person_level FROM prot_sales;                       -- direct
SELECT region, dp_sum(amount, 0, 100, 1.0) FROM prot_sales GROUP BY region;             -- grouped
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) FROM prot_sales_view;                                              -- a view
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) IS NOT NULL AS person_level FROM prot_other o JOIN prot_sales s ON s.id = o.id;  -- a join
SELECT dp_count(1.0) FROM prot_other WHERE id IN (SELECT customer_id FROM prot_sales);  -- a subquery
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) FROM (SELECT DISTINCT customer_id FROM prot_sales) AS units;       -- a derived table
\echo SQLSTATE :LAST_ERROR_SQLSTATE
WITH big AS MATERIALIZED (SELECT * FROM prot_sales WHERE amount > 50)
SELECT dp_count(1.0) FROM big;                                                          -- a CTE
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) IS NOT NULL AS person_level FROM prot_events;                      -- partitioned root
SELECT dp_count(1.0) IS NOT NULL AS person_level FROM prot_events WHERE day < 5;        -- pruned to one partition
SELECT dp_count(1.0) IS NOT NULL AS person_level FROM prot_events_early;                -- a partition directly
SELECT dp_count(1.0) IS NOT NULL AS person_level FROM prot_events_late_a;               -- a sub-partition
SELECT dp_count(1.0), (SELECT count(*) FROM prot_sales) FROM prot_other;                -- a release beside a read
\echo SQLSTATE :LAST_ERROR_SQLSTATE
PREPARE prot_prepared(float8) AS SELECT dp_count($1) IS NOT NULL AS person_level FROM prot_sales;  -- prepared
EXECUTE prot_prepared(1.0);
DEALLOCATE prot_prepared;
-- A function running a query with a release: its query is rewritten (or checked) on its own.
CREATE FUNCTION pg_temp.prot_count() RETURNS bigint LANGUAGE plpgsql AS
$$ BEGIN RETURN (SELECT dp_count(1.0) FROM public.prot_sales); END $$;
SELECT pg_temp.prot_count() IS NOT NULL AS person_level;
SELECT 1 AS person_level FROM prot_other WHERE id = 1 AND pg_temp.prot_count() IS NOT NULL;
-- Only the person-level releases were charged (9 of them), nothing for the refused ones.
SELECT b.releases - a.releases AS charged FROM pgdp.my_budget b, prot_budget_before a;
-- Not refused: plain queries (no release) over protected relations, and releases over other
-- relations, the public one included (each charged once).
SELECT count(*) AS rows, count(DISTINCT customer_id) AS units FROM prot_sales;
SELECT count(*) AS rows FROM prot_events_early;
SELECT dp_count(1e6) BETWEEN 90 AND 110 AS released FROM prot_other;
SELECT dp_count(1e6) BETWEEN 2 AND 6 AS released FROM prot_regions;
SELECT b.releases - a.releases AS new_releases FROM pgdp.my_budget b, prot_budget_before a;
-- A function returning rows of a protected relation, in the FROM or WHERE of a release (its plan
-- does not name the relation): the function's query starts while the aggregating query runs and
-- is refused then. The enclosing query was charged when it started; nothing is released.
CREATE FUNCTION pg_temp.prot_units() RETURNS SETOF int LANGUAGE plpgsql AS
$$ BEGIN RETURN QUERY SELECT customer_id FROM public.prot_sales; END $$;
CREATE TEMP TABLE prot_budget_nested AS SELECT releases FROM pgdp.my_budget;
SELECT dp_count(1.0) FROM pg_temp.prot_units();
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1.0) FROM prot_other WHERE id IN (SELECT * FROM pg_temp.prot_units());
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT b.releases - a.releases AS charged_not_released FROM pgdp.my_budget b, prot_budget_nested a;
-- The function alone, and beside no release, reads the relation as before.
SELECT count(*) AS rows FROM pg_temp.prot_units();
-- The other way round (review): a query reading the relation without releases hands its rows to
-- a function that makes one; refused when the release starts, nothing charged.
CREATE FUNCTION pg_temp.prot_release(amounts int[]) RETURNS float8 LANGUAGE plpgsql AS
$$ DECLARE r float8; BEGIN SELECT dp_sum(v, 0, 100, 1e6) INTO r FROM unnest(amounts) v; RETURN r; END $$;
CREATE TEMP TABLE prot_budget_argument AS SELECT releases FROM pgdp.my_budget;
SELECT pg_temp.prot_release(array_agg(amount)) FROM prot_sales;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT b.releases - a.releases AS charged FROM pgdp.my_budget b, prot_budget_argument a;
SELECT round(pg_temp.prot_release(ARRAY[1, 2, 3])) AS released_elsewhere;  -- 6, one release
-- A cursor over the relation opened before the release and fetched inside it (no ExecutorStart
-- there): refused at the fetch. The release was charged when it started; nothing is released.
CREATE FUNCTION pg_temp.prot_fetch(c refcursor) RETURNS SETOF int LANGUAGE plpgsql AS
$$ DECLARE v int; BEGIN LOOP FETCH c INTO v; EXIT WHEN NOT FOUND; RETURN NEXT v; END LOOP; END $$;
BEGIN;
DECLARE prot_cursor CURSOR FOR SELECT amount FROM prot_sales;
SELECT dp_sum(v, 0, 100, 1e6) FROM pg_temp.prot_fetch('prot_cursor') v;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ROLLBACK;
-- Two charges since: the release over ARRAY[1, 2, 3] and the withheld one.
SELECT b.releases - a.releases AS charged FROM pgdp.my_budget b, prot_budget_argument a;
RESET SESSION AUTHORIZATION;
-- Superusers get the same refusals: the guard is about the data, not the role.
SELECT region, dp_count(1.0) FROM prot_sales GROUP BY region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- ---------------------------------------------------------------------------------------------
-- The catalog follows the relations. The privacy unit column cannot be renamed or dropped while
-- the relation is protected (2BP01); other columns can.
ALTER TABLE prot_sales RENAME COLUMN customer_id TO client_id;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ALTER TABLE prot_events DROP COLUMN customer_id;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ALTER TABLE prot_events RENAME COLUMN customer_id TO client_id;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ALTER TABLE prot_sales RENAME COLUMN amount TO total;
ALTER TABLE prot_sales RENAME COLUMN total TO amount;
-- A dropped relation's row goes with it (a later relation reusing its OID is not protected by
-- accident), also when dropped with its schema.
CREATE SCHEMA prot_schema;
CREATE TABLE prot_schema.dropped (customer_id int);
CREATE TABLE prot_dropped (customer_id int);
SELECT relation FROM pgdp.protect('prot_schema.dropped', 'customer_id');
SELECT relation FROM pgdp.protect('prot_dropped', 'customer_id');
SELECT relation FROM pgdp.declare_public('prot_other');
DROP TABLE prot_dropped;
DROP SCHEMA prot_schema CASCADE;
SELECT relation, kind FROM pgdp.protections ORDER BY kind, relation::text;
-- Should a row outlive its relation (event triggers do not fire in single-user mode; simulated
-- here by disabling the trigger), the view says so, the guard still works and does not fail on it.
ALTER EVENT TRIGGER pgdp_forget_dropped_relations DISABLE;
CREATE TABLE prot_stale (customer_id int);
SELECT relation FROM pgdp.protect('prot_stale', 'customer_id');
CREATE TEMP TABLE prot_stale_oid AS SELECT 'prot_stale'::regclass::oid AS oid;
DROP TABLE prot_stale;
ALTER EVENT TRIGGER pgdp_forget_dropped_relations ENABLE;
SELECT p.relation::oid = s.oid AS stale_row, p.kind, p.privacy_unit, p.status
FROM pgdp.protections p, prot_stale_oid s WHERE p.relation::oid = s.oid;
GRANT SELECT ON prot_stale_oid TO prot_analyst;
SET SESSION AUTHORIZATION prot_analyst;
SELECT dp_count(1e6) BETWEEN 2 AND 6 AS released FROM prot_regions;
SELECT dp_count(1.0) IS NOT NULL AS person_level FROM prot_sales;
SELECT region, dp_count(1.0) FROM prot_sales GROUP BY region;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET SESSION AUTHORIZATION;
DELETE FROM pgdp.protected_relations p USING prot_stale_oid s WHERE p.relation::oid = s.oid;
-- A protection whose unit column went missing while the event trigger was off blocks DDL on that
-- relation only, not every DDL of the database (review).
CREATE TABLE prot_lost (customer_id int, other int);
SELECT relation FROM pgdp.protect('prot_lost', 'customer_id');
ALTER EVENT TRIGGER pgdp_keep_privacy_units DISABLE;
ALTER TABLE prot_lost DROP COLUMN customer_id;
ALTER EVENT TRIGGER pgdp_keep_privacy_units ENABLE;
CREATE TABLE prot_unrelated (x int);
DROP TABLE prot_unrelated;
ALTER TABLE prot_lost RENAME COLUMN other TO another;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pgdp.unprotect('prot_lost');
DROP TABLE prot_lost;

-- ---------------------------------------------------------------------------------------------
-- Unprotect: releases over the relation are row-level again (and charged).
SET SESSION AUTHORIZATION prot_admin;
SELECT pgdp.unprotect('prot_sales');
SELECT pgdp.unprotect('prot_events');
SELECT pgdp.undeclare_public('prot_regions');
SELECT pgdp.undeclare_public('prot_other');
SELECT count(*) AS rows FROM pgdp.protections;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION prot_analyst;
SELECT dp_count(1e6) BETWEEN 390 AND 410 AS released FROM prot_sales;
SELECT dp_count(1e6) BETWEEN 190 AND 210 AS released FROM prot_events_early;
SELECT b.releases - a.releases AS new_releases FROM pgdp.my_budget b, prot_budget_before a;
RESET SESSION AUTHORIZATION;
-- Revoking the admin takes the functions away.
SELECT pgdp.revoke_admin('prot_admin');
SELECT has_function_privilege('prot_admin', 'pgdp.protect(regclass, name, int, name, int)', 'EXECUTE') AS admin_protects;

SET client_min_messages = warning;
DROP TABLE prot_sales, prot_regions, prot_other, prot_events, prot_temp CASCADE;
DROP MATERIALIZED VIEW IF EXISTS prot_sales_matview;
DROP SEQUENCE prot_sequence;
DROP TYPE prot_composite;
DROP FUNCTION pg_temp.prot_count(), pg_temp.prot_units(), pg_temp.prot_release(int[]), pg_temp.prot_fetch(refcursor);
DROP TABLE prot_budget_before, prot_budget_nested, prot_budget_argument, prot_stale_oid;
DELETE FROM pgdp.budgets WHERE role::text LIKE 'prot\_%';
DROP ROLE prot_admin, prot_analyst;
