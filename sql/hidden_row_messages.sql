-- Specifies: no server message of a hidden-row statement reaches the client (stage: channels, the seal).
-- Attacks on the message, statistics and resource channels of hidden-row statements (red team of
-- issue 20, section 1, against the seal of 0.9; each was a break, this is the fixed behaviour).
-- pg_regress style; needs shared_preload_libraries = 'pgdp,pg_stat_statements' (test/regress.conf).
-- Each probe pair differs only in whether the victim (customer 777: amounts 40, 30, 20) matches;
-- a FIXED pgdp gives the same output for both members of every pair.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE EXTENSION IF NOT EXISTS pg_stat_statements;
CREATE ROLE rt_alice;
CREATE ROLE rt_dave;
SELECT role FROM pgdp.set_budget('rt_alice', 1e6, 1e-3);
CREATE TABLE rt_sales (customer int, region int, amount int, note text, diag text);
INSERT INTO rt_sales SELECT g % 300, g % 5, g % 100, 'n' || g, 'flu' FROM generate_series(1, 1000) g;
INSERT INTO rt_sales VALUES (777, 1, 40, 'x', 'hiv'), (777, 1, 30, 'x', 'hiv'), (777, 1, 20, 'x', 'hiv');
CREATE INDEX ON rt_sales (amount);
CREATE INDEX ON rt_sales (customer);
SELECT relation FROM pgdp.protect('rt_sales', 'customer', 2);
SELECT relation FROM pgdp.grant_access('rt_sales', 'rt_alice');
SELECT relation FROM pgdp.grant_access('rt_sales', 'rt_dave');
CREATE SCHEMA rt_own AUTHORIZATION rt_alice;
-- An admin's security-barrier view over a table the analyst may not read (no protection declared).
CREATE TABLE rt_hidden AS SELECT * FROM rt_sales;
CREATE VIEW rt_hidden_view WITH (security_barrier) AS SELECT customer, amount, diag FROM rt_hidden;
GRANT SELECT ON rt_hidden_view TO rt_alice;
ANALYZE rt_sales;
ANALYZE rt_hidden;
SET SESSION AUTHORIZATION rt_alice;
-- pad2: 500 rows per amount value (an index: one probe per joined protected row);
-- big: 50000 zeros (every protected row that passes the filter joins 50000 rows).
CREATE TABLE rt_own.pad2 (k int);
INSERT INTO rt_own.pad2 SELECT g % 100 FROM generate_series(0, 49999) g;
CREATE INDEX ON rt_own.pad2 (k);
CREATE TABLE rt_own.big (k int);
INSERT INTO rt_own.big SELECT 0 FROM generate_series(1, 50000);
ANALYZE rt_own.pad2;
ANALYZE rt_own.big;
CREATE FUNCTION rt_own.probe(t int) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
  RETURN (SELECT dp_count(0.01) > -1e9 FROM rt_sales s JOIN rt_own.pad2 p ON p.k = s.amount
          WHERE s.customer = 777 AND s.amount > t);
END $$;
RESET SESSION AUTHORIZATION;
RESET client_min_messages;

-- ---------------------------------------------------------------------------------------------
-- BREAK 1. A plain query (no pgdp call) over a protected relation by a DP-only role without
-- SELECT and without budget: planned before the permission check refuses it, and not sealed
-- (only release plans are): debug_print_plan shows the estimates (:plan_rows 3 for diag = 'hiv',
-- from the protected rows' statistics). FIXED: only the ERROR line.
SET SESSION AUTHORIZATION rt_dave;
SET client_min_messages = log;
SET debug_print_plan = on;
SET debug_pretty_print = off;
SELECT count(*) FROM rt_sales WHERE diag = 'hiv';
SELECT 1 FROM rt_sales WHERE amount > 98;
RESET ALL;
RESET SESSION AUTHORIZATION;

-- ---------------------------------------------------------------------------------------------
-- BREAK 2. pg_stat_statements keeps the counters of statements whose releases are made by nested
-- or wrapped execution: DO blocks, CREATE TABLE AS, COPY (query) TO STDOUT, FETCH (utility
-- statements, never planned, so their query id is not cleared) and a top-level SELECT of the
-- analyst's own plpgsql function. Their shared_blks_hit include the release's index probes, one
-- per protected row that passes the filter (observed: DO 480 vs 26, CTAS 1352 vs 122, COPY 361 vs
-- 26, SELECT probe(...) 256 vs 26, FETCH 7 vs 3). FIXED: no entry with calls > 0 of any of them.
SELECT pg_stat_statements_reset() IS NOT NULL AS reset;
SET SESSION AUTHORIZATION rt_alice;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
DO $$ BEGIN PERFORM dp_count(0.01) /* rt_marker */ FROM rt_sales s JOIN rt_own.pad2 p ON p.k = s.amount WHERE s.customer = 777 AND s.amount > 35; END $$;
DO $$ BEGIN PERFORM dp_count(0.01) /* rt_marker */ FROM rt_sales s JOIN rt_own.pad2 p ON p.k = s.amount WHERE s.customer = 777 AND s.amount > 45; END $$;
CREATE TABLE rt_own.r1 AS SELECT dp_count(0.01) /* rt_marker */ FROM rt_sales s JOIN rt_own.pad2 p ON p.k = s.amount WHERE s.customer = 777 AND s.amount > 36;
CREATE TABLE rt_own.r2 AS SELECT dp_count(0.01) /* rt_marker */ FROM rt_sales s JOIN rt_own.pad2 p ON p.k = s.amount WHERE s.customer = 777 AND s.amount > 46;
COPY (SELECT dp_count(0.01) > -1e9 /* rt_marker */ FROM rt_sales s JOIN rt_own.pad2 p ON p.k = s.amount WHERE s.customer = 777 AND s.amount > 37) TO STDOUT;
COPY (SELECT dp_count(0.01) > -1e9 /* rt_marker */ FROM rt_sales s JOIN rt_own.pad2 p ON p.k = s.amount WHERE s.customer = 777 AND s.amount > 47) TO STDOUT;
SELECT rt_own.probe(38) AS rt_marker_a;
SELECT rt_own.probe(48) AS rt_marker_b, 1 AS other_text;
BEGIN;
DECLARE rt_c1 CURSOR FOR SELECT dp_count(0.01) > -1e9 AS r FROM rt_sales s JOIN rt_own.pad2 p ON p.k = s.amount WHERE s.customer = 777 AND s.amount > 39;
FETCH 1 /* rt_marker */ FROM rt_c1;
DECLARE rt_c2 CURSOR FOR SELECT dp_count(0.01) > -1e9 AS r FROM rt_sales s JOIN rt_own.pad2 p ON p.k = s.amount WHERE s.customer = 777 AND s.amount > 49;
FETCH 2 /* rt_marker */ FROM rt_c2;
COMMIT;
RESET ALL;
RESET SESSION AUTHORIZATION;
SELECT count(*) AS kept_statements_with_releases
FROM pg_stat_statements WHERE calls > 0 AND (query LIKE '%rt\_marker%');
-- What they show (FIXED: no rows): each pair's hits differ with the victim's rows.
SELECT regexp_replace(query, '^(.{0,12}).*(amount > [0-9]+|probe\(\$1\) AS rt_marker_.|FROM rt_c.).*$', '\1 ... \2') AS statement,
       shared_blks_hit > 100 AS many_hits
FROM pg_stat_statements WHERE calls > 0 AND query LIKE '%rt\_marker%' ORDER BY 1;

-- ---------------------------------------------------------------------------------------------
-- BREAK 3. The seal escaped through a later command: a cursor over a person-level release whose
-- sort spilled, fetched (sealed) inside a savepoint; ROLLBACK TO SAVEPOINT (a new command, not
-- sealed) marks the portal failed, so no ExecutorEnd runs (pgdp's seal hook), and the resource
-- owner closes the sort's temporary files: the admin's log_temp_files reports their size to the
-- client (observed: "LOG:  temporary file: path ..., size 647168" for one matching victim row,
-- 1245184 for two, nothing for none). FIXED: no LOG line at any ROLLBACK.
SET log_temp_files = 0;   -- the admin's configuration (superuser context)
SET SESSION AUTHORIZATION rt_alice;
SET enable_hashagg = off;
SET work_mem = '64kB';
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET client_min_messages = log;
BEGIN;
SAVEPOINT s;
DECLARE rt_c CURSOR FOR SELECT dp_count(0.01) > -1e9 AS r FROM rt_sales s JOIN rt_own.big p ON p.k <= s.amount WHERE s.customer >= 777 AND s.customer <= 777 AND s.amount > 35;
FETCH 1 FROM rt_c;
ROLLBACK TO SAVEPOINT s;
SAVEPOINT s;
DECLARE rt_c CURSOR FOR SELECT dp_count(0.01) > -1e9 AS r FROM rt_sales s JOIN rt_own.big p ON p.k <= s.amount WHERE s.customer >= 777 AND s.customer <= 777 AND s.amount > 45;
FETCH 1 FROM rt_c;
ROLLBACK TO SAVEPOINT s;
COMMIT;
RESET client_min_messages;
RESET SESSION AUTHORIZATION;
RESET log_temp_files;

-- ---------------------------------------------------------------------------------------------
-- BREAK 4. temp_file_limit is lifted only while the protected plan runs, but the temporary files
-- it wrote stay open with the cursor and still count in the backend's temporary_files_size: the
-- analyst's own sort in the next command of the transaction exceeds the admin's limit only when the
-- victim matched (observed: count 20000 for "> 45", ERROR temporary file size exceeds
-- temp_file_limit (1024kB) for "> 35"). FIXED: 20000 in both transactions.
SET temp_file_limit = '1MB';   -- the admin's
SET SESSION AUTHORIZATION rt_alice;
SET enable_hashagg = off;
SET work_mem = '64kB';
SET enable_indexscan = off;
SET enable_bitmapscan = off;
BEGIN;
DECLARE rt_c CURSOR FOR SELECT dp_count(0.01) > -1e9 AS r FROM rt_sales s JOIN rt_own.big p ON p.k <= s.amount WHERE s.customer >= 777 AND s.customer <= 777 AND s.amount > 45;
FETCH 1 FROM rt_c;
SELECT count(*) FROM (SELECT g FROM generate_series(1, 20000) g ORDER BY g DESC OFFSET 0) x;
ROLLBACK;
BEGIN;
DECLARE rt_c CURSOR FOR SELECT dp_count(0.01) > -1e9 AS r FROM rt_sales s JOIN rt_own.big p ON p.k <= s.amount WHERE s.customer >= 777 AND s.customer <= 777 AND s.amount > 35;
FETCH 1 FROM rt_c;
SELECT count(*) FROM (SELECT g FROM generate_series(1, 20000) g ORDER BY g DESC OFFSET 0) x;
ROLLBACK;

-- ---------------------------------------------------------------------------------------------
-- BREAK 5. temp_file_limit is not lifted at all for a release plan over an admin's view of a
-- table the analyst may not read (docs: "reads hidden rows" covers it; lift_size_limits is called
-- only for person-level plans): the size of the sort becomes an error after the charge (observed:
-- t for "> 35", ERROR temporary file size exceeds temp_file_limit for "> 25"). FIXED: t, t.
SELECT dp_count(0.01) > -1e9 AS r FROM (SELECT v.amount FROM rt_hidden_view v JOIN rt_own.big p ON p.k <= v.amount WHERE v.customer = 777 AND v.amount > 35 ORDER BY p.k OFFSET 0) x;
SELECT dp_count(0.01) > -1e9 AS r FROM (SELECT v.amount FROM rt_hidden_view v JOIN rt_own.big p ON p.k <= v.amount WHERE v.customer = 777 AND v.amount > 25 ORDER BY p.k OFFSET 0) x;
RESET ALL;
RESET SESSION AUTHORIZATION;
RESET temp_file_limit;

SET client_min_messages = warning;
SELECT pgdp.unprotect('rt_sales') IS NOT NULL AS unprotected;
DROP SCHEMA rt_own CASCADE;
DROP VIEW rt_hidden_view;
DROP TABLE rt_sales, rt_hidden;
DELETE FROM pgdp.budgets WHERE role::text IN ('rt_alice', 'rt_dave');
DROP ROLE rt_alice, rt_dave;
