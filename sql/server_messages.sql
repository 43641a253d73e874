-- Server messages and statistics of protected statements (issue 20; docs/privacy.md "Server
-- messages and statistics"). While a statement reads protected rows, nothing but its releases and
-- errors reaches the client until the server is ready for the next query, whatever a setting, a
-- module or the admin's configuration asks for, and modules keyed by the query id keep nothing of
-- it. Each section has a control: the same setting shows its messages on a statement that reads no
-- protected rows, so the test fails if the seal stops working or the setting stops producing them.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE EXTENSION IF NOT EXISTS pg_stat_statements;
CREATE ROLE sm_analyst;
CREATE ROLE sm_broke;
SELECT role FROM pgdp.set_budget('sm_analyst', 1e9, 0.5);
CREATE TABLE sm_sales (customer int, amount int, diag text);
INSERT INTO sm_sales SELECT g % 200, g % 100, CASE WHEN g % 200 = 77 THEN 'hiv' ELSE 'flu' END
FROM generate_series(1, 2000) g;
SELECT relation FROM pgdp.protect('sm_sales', 'customer', 2);
SELECT relation FROM pgdp.grant_access('sm_sales', 'sm_analyst');
SELECT relation FROM pgdp.grant_access('sm_sales', 'sm_broke');
CREATE SCHEMA sm_own AUTHORIZATION sm_analyst;
CREATE TABLE sm_hidden AS SELECT * FROM sm_sales;
CREATE VIEW sm_hidden_view WITH (security_barrier) AS SELECT customer, diag FROM sm_hidden;
GRANT SELECT ON sm_hidden_view TO sm_analyst;
ANALYZE sm_sales;
CREATE FUNCTION sm_charges() RETURNS bigint LANGUAGE sql AS
  $$SELECT count(*) FROM pgdp.ledger WHERE role IN ('sm_analyst', 'sm_broke')$$;
RESET client_min_messages;

-- ---------------------------------------------------------------------------------------------
-- 1. A role with DP-only access and no budget asks for plan dumps: the refusal only (the plan,
-- with row estimates from the protected rows' statistics, used to be printed before it).
SET SESSION AUTHORIZATION sm_broke;
SET client_min_messages = log;
SET debug_print_plan = on;
SET debug_pretty_print = off;
DO $$ BEGIN RAISE LOG 'control: LOG messages reach this client'; END $$;
SELECT dp_count(1.0) FROM sm_sales WHERE diag = 'hiv';
SELECT dp_count(1.0) FROM sm_sales WHERE amount > 45;
-- The same without any release: PostgreSQL plans the query, then refuses it for want of SELECT.
SELECT count(*) FROM sm_sales WHERE diag = 'hiv';
RESET ALL;
RESET SESSION AUTHORIZATION;
SELECT sm_charges() AS charged_for_refusals;

-- A release over an admin's security-barrier view of a table the analyst may not read: its plan
-- reads the hidden rows, so it is sealed too (without any protection declared).
SET SESSION AUTHORIZATION sm_analyst;
SET client_min_messages = log;
SET debug_print_plan = on;
DO $$ BEGIN RAISE LOG 'control: LOG messages reach this client'; END $$;
SELECT dp_count(1e6) > 0 AS released FROM sm_hidden_view WHERE diag = 'hiv';
RESET ALL;
RESET SESSION AUTHORIZATION;

-- 2. Sort traces of a release whose bounding level sorts the join with the analyst's own table
-- (their sizes counted the protected rows, also of dropped groups): nothing but the release.
SET SESSION AUTHORIZATION sm_analyst;
CREATE TABLE sm_own.pad (k int);
INSERT INTO sm_own.pad SELECT generate_series(1, 50);
SET client_min_messages = log;
SET enable_hashagg = off;
SET work_mem = '64kB';
SET trace_sort = on;
DO $$ BEGIN RAISE LOG 'control: LOG messages reach this client'; END $$;
SELECT dp_count(1e6) > 0 AS released FROM sm_sales s JOIN sm_own.pad p ON p.k <= 50 WHERE s.diag = 'hiv';
-- A setting changed inside the statement, before the release is computed or after it.
SELECT set_config('trace_sort', 'on', false) AS during, r.released
FROM (SELECT dp_count(1e6) > 0 AS released FROM sm_sales s JOIN sm_own.pad p ON p.k <= 50) r;
-- A cursor over a release fetched in later commands: each of them is sealed.
BEGIN;
DECLARE sm_cursor CURSOR FOR SELECT dp_count(1e6) > 0 AS released FROM sm_sales s JOIN sm_own.pad p ON true;
SET trace_sort = on;
FETCH ALL sm_cursor;
CLOSE sm_cursor;
COMMIT;
-- The seal ends with the command: a LOG message of the next one reaches the client again.
DO $$ BEGIN RAISE LOG 'control: unsealed after the release'; END $$;
RESET ALL;
RESET SESSION AUTHORIZATION;

-- 3. The admin's logging configuration (auto_explain at the notice level, log_executor_stats) and
-- both orders of pgdp and pg_stat_statements in shared_preload_libraries: test/t/011_server_messages.pl.

-- 4. A size limit that would turn the size of the sort into an error (temp_file_limit, the admin's)
-- is lifted while a protected plan runs; it still holds for other statements (control).
SET temp_file_limit = '64kB';
SET SESSION AUTHORIZATION sm_analyst;
SET work_mem = '64kB';
SET enable_hashagg = off;
-- (the SQLSTATE only: PostgreSQL 18 quotes the setting's name in the message)
\set VERBOSITY sqlstate
SELECT count(*) AS control FROM (SELECT g FROM generate_series(1, 100000) g ORDER BY g DESC) s;
\set VERBOSITY default
SELECT dp_count(1e6) > 0 AS released FROM sm_sales s JOIN sm_own.pad p ON true;
RESET work_mem;
RESET enable_hashagg;
RESET SESSION AUTHORIZATION;
RESET temp_file_limit;

-- 5. pg_stat_statements keeps no counters (blocks, rows, time) of any statement of a session that
-- could make releases over hidden rows (a budget or DP-only access): its statements that wrap a
-- release (DO, CREATE TABLE AS, COPY (query) TO, FETCH, her function called from SELECT) would
-- count the blocks the release read. Also with track = all and track_planning on, pg_stat_statements
-- listed after pgdp (its hooks run first). A role without budget or access keeps its counters
-- (control).
SELECT pg_stat_statements_reset() IS NOT NULL AS reset;
SET pg_stat_statements.track = 'all';
SET pg_stat_statements.track_planning = on;
SET SESSION AUTHORIZATION sm_analyst;
CREATE FUNCTION sm_own.wrapped() RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN RETURN (SELECT dp_count(1e6) > 0 FROM sm_sales WHERE amount > 45); END$$;
SELECT dp_count(1e6) > 0 AS sm_marker_release FROM sm_sales WHERE amount > 45;
SELECT dp_sum(amount, 0, 100, 1e6) > 0 AS sm_marker_release FROM sm_sales s JOIN sm_own.pad p ON p.k < 3;
DO $$ BEGIN PERFORM dp_count(1e6) AS sm_marker_do FROM sm_sales WHERE amount > 45; END $$;
CREATE TABLE sm_own.copied AS SELECT dp_count(1e6) > 0 AS sm_marker_ctas FROM sm_sales;
COPY (SELECT dp_count(1e6) > 0 AS sm_marker_copy FROM sm_sales) TO STDOUT;
SELECT sm_own.wrapped() AS sm_marker_function;
BEGIN;
DECLARE sm_marker_cursor CURSOR FOR SELECT dp_count(1e6) > 0 FROM sm_sales;
FETCH ALL sm_marker_cursor;
COMMIT;
SELECT count(*) AS sm_marker_plain FROM sm_own.pad;
RESET SESSION AUTHORIZATION;
CREATE ROLE sm_plain;
GRANT USAGE ON SCHEMA sm_own TO sm_plain;
GRANT SELECT ON sm_own.pad TO sm_plain;
SET SESSION AUTHORIZATION sm_plain;
SELECT count(*) AS sm_control_plain FROM sm_own.pad;
RESET SESSION AUTHORIZATION;
RESET pg_stat_statements.track;
RESET pg_stat_statements.track_planning;
SELECT count(*) FILTER (WHERE query LIKE '%sm\_marker%') AS analyst_entries,
       count(*) FILTER (WHERE query LIKE '%sm\_control\_plain%') AS control_entries
FROM pg_stat_statements WHERE calls > 0 OR plans > 0;

-- ---------------------------------------------------------------------------------------------
-- 6. Every setting a user or an admin can change at run time is classified (pgdp.setting_channels:
-- which channel it opens and what closes it), with the modules commonly preloaded beside pgdp
-- loaded (pg_stat_statements, auto_explain, plpgsql). A setting of a new PostgreSQL or module
-- release that is not classified fails this test.
LOAD 'auto_explain';
SELECT s.name, s.context
FROM pg_settings s
WHERE s.context IN ('user', 'superuser')
  AND NOT EXISTS (SELECT 1 FROM pgdp.setting_channels() c WHERE s.name LIKE c.setting)
ORDER BY 1;
-- The channels (docs/privacy.md names what closes each).
SELECT DISTINCT channel FROM pgdp.setting_channels() ORDER BY 1;

SET client_min_messages = warning;
SELECT pgdp.unprotect('sm_sales');
DROP SCHEMA sm_own CASCADE;
DROP VIEW sm_hidden_view;
DROP TABLE sm_sales, sm_hidden;
DROP FUNCTION sm_charges();
DELETE FROM pgdp.budgets WHERE role::text IN ('sm_analyst', 'sm_broke');
DROP ROLE sm_analyst, sm_broke, sm_plain;
