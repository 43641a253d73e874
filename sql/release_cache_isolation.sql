-- Specifies: who may be answered from the release cache, and with what (stages: execution, authorize and cache).
-- Red-team round 10 (docs/red-team/round10.md): a hostile analyst against the release cache and
-- budget windows (0.8). Each check shows the CORRECT behaviour. Checks marked BREAK fail until the
-- lead fixes the break they reproduce (their expected output is what a fixed pgdp must print).
-- Charges are counted in pgdp.ledger; answers are compared, never printed (noise).
CREATE EXTENSION IF NOT EXISTS pgdp;
SET extra_float_digits = 0;
CREATE TABLE atk_sales AS SELECT g AS id, g % 5 AS region, g % 101 AS amount FROM generate_series(1, 20000) g;
CREATE ROLE atk_eve;
CREATE ROLE atk_bob;
CREATE ROLE atk_cid;
GRANT SELECT ON atk_sales TO atk_eve, atk_bob, atk_cid;
CREATE SCHEMA atk_eve AUTHORIZATION atk_eve;
SELECT count(*) FROM (SELECT pgdp.set_budget(r::regrole, 100000, 0.5) FROM unnest(ARRAY['atk_eve', 'atk_bob', 'atk_cid']) r) s;
SELECT relation, epoch FROM pgdp.set_refresh_policy('atk_sales');

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
CREATE FUNCTION pg_temp.charged(who name) RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM pgdp.ledger l WHERE l.role = who::regrole
$$;

-- ---------------------------------------------------------------------------------------------
-- BREAK 1 (privilege escalation). The cache is written as its table's owner (a superuser) with
-- SPI statements whose operators and functions (now(), *, -, <) are resolved through the
-- analyst's search_path: an exact-match operator *(integer, interval) in her own schema is
-- chosen over pg_catalog's *(double precision, interval) and runs as the owner. Here it only
-- logs current_user; in round 10 it ran ALTER ROLE ... SUPERUSER and the analyst became a
-- superuser (fixed: the store pins search_path). Correct: no row.
CREATE TABLE atk_eve.ran_as (who name);
GRANT INSERT ON atk_eve.ran_as TO PUBLIC;
SET SESSION AUTHORIZATION atk_eve;
-- (a first stored release: the expiry DELETE evaluates its condition per stored row)
SELECT dp_sum(amount, 0, 100, 0.5) IS NOT NULL AS released FROM atk_sales;
CREATE FUNCTION atk_eve.times(integer, interval) RETURNS interval LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO atk_eve.ran_as VALUES (current_user);
    RETURN $1::float8 OPERATOR(pg_catalog.*) $2;
END $$;
CREATE OPERATOR atk_eve.* (LEFTARG = integer, RIGHTARG = interval, FUNCTION = atk_eve.times);
SET search_path = atk_eve, public;
SELECT dp_sum(amount, 0, 100, 1.0) IS NOT NULL AS released FROM atk_sales;
RESET search_path;
RESET SESSION AUTHORIZATION;
SELECT count(*) FILTER (WHERE who <> 'atk_eve') AS ran_as_another_role FROM atk_eve.ran_as;
DROP OPERATOR atk_eve.*(integer, interval);
DROP FUNCTION atk_eve.times(integer, interval);

-- ---------------------------------------------------------------------------------------------
-- BREAK 2 (a group member reads rows she may not read). The admin shares answers in a cache
-- group and exposes each seller's own rows through a security_barrier view filtering on
-- current_user (row security without RLS). The key does not depend on the role, so cid is
-- answered bob's release over bob's rows. Correct: cid's own release (charged to her), which
-- over her rows (amount 0) is far from bob's total of 100 000.
CREATE TABLE atk_own AS
SELECT g AS id, CASE WHEN g % 2 = 0 THEN 'atk_bob' ELSE 'atk_cid' END::name AS seller,
       CASE WHEN g % 2 = 0 THEN 100 ELSE 0 END AS amount
FROM generate_series(1, 2000) g;
CREATE VIEW atk_my_sales WITH (security_barrier) AS SELECT id, amount FROM atk_own WHERE seller = current_user;
GRANT SELECT ON atk_my_sales TO atk_bob, atk_cid;
SELECT relation, epoch FROM pgdp.set_refresh_policy('atk_own');
SELECT pgdp.set_cache_group('atk_bob', 'atk_dash'), pgdp.set_cache_group('atk_cid', 'atk_dash');
SET SESSION AUTHORIZATION atk_bob;
SELECT dp_sum(amount, 0, 100, 100.0) AS total FROM atk_my_sales \gset bob_
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION atk_cid;
SELECT pg_temp.error_of('SELECT count(*) FROM atk_own') AS cid_reads_table;
SELECT dp_sum(amount, 0, 100, 100.0) AS total FROM atk_my_sales \gset cid_
SELECT pgdp.answered_from_cache() AS cid_answered_from_cache, abs(:cid_total) < 1000 AS cid_sees_own_rows;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('atk_cid') AS cid_charged;
SELECT pgdp.set_cache_group('atk_bob', NULL), pgdp.set_cache_group('atk_cid', NULL);

-- ---------------------------------------------------------------------------------------------
-- BREAK 3 (an answer for another statement). The fingerprint holds a called function's OID, not
-- its body: after CREATE OR REPLACE FUNCTION the same text is answered with the release of the
-- old definition (not a privacy loss: eve saw it already; a wrong answer). Correct: a new release.
SET SESSION AUTHORIZATION atk_eve;
CREATE FUNCTION atk_eve.scaled(int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT $1';
SELECT dp_sum(atk_eve.scaled(amount), 0, 100, 1.0) IS NOT NULL AS released FROM atk_sales;
CREATE OR REPLACE FUNCTION atk_eve.scaled(int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT 0';
SELECT dp_sum(atk_eve.scaled(amount), 0, 100, 1.0) IS NOT NULL AS released FROM atk_sales;
SELECT pgdp.answered_from_cache() AS old_definition_answered;
-- Same cause: a setting the statement reads (here TimeZone through current_setting) is not in
-- the key. Correct: a new release.
SET TimeZone = 'UTC';
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_sales WHERE current_setting('TimeZone') = 'UTC';
SET TimeZone = 'Europe/Berlin';
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_sales WHERE current_setting('TimeZone') = 'UTC';
SELECT pgdp.answered_from_cache() AS other_setting_answered;
RESET TimeZone;
RESET SESSION AUTHORIZATION;

-- ---------------------------------------------------------------------------------------------
-- Holds: a temporary table shadowing a public one (same text, another relation) has no epoch:
-- released and charged, never answered with the public table's release.
SET SESSION AUTHORIZATION atk_eve;
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_sales WHERE region = 1;
CREATE TEMP TABLE atk_sales AS SELECT 1 AS id, 1 AS region, 1 AS amount;
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_sales WHERE region = 1;
SELECT pgdp.answered_from_cache() AS shadow_answered;
DROP TABLE pg_temp.atk_sales;
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_sales WHERE region = 1;
SELECT pgdp.answered_from_cache() AS public_again_answered;
RESET SESSION AUTHORIZATION;

-- Holds: a release stored in a transaction that rolls back is gone with it; the repeat is a new,
-- charged release (two charges, never a free fresh release).
SELECT pg_temp.charged('atk_eve') AS eve_before \gset
SET SESSION AUTHORIZATION atk_eve;
BEGIN;
SELECT dp_sum(amount, 0, 100, 2.0) IS NOT NULL AS released FROM atk_sales;
ROLLBACK;
SELECT dp_sum(amount, 0, 100, 2.0) IS NOT NULL AS released FROM atk_sales;
SELECT pgdp.answered_from_cache() AS after_rollback_answered;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('atk_eve') - :eve_before AS eve_charged_twice;

-- Holds: a release inside a savepoint rolled back.
SET SESSION AUTHORIZATION atk_eve;
BEGIN;
SAVEPOINT s;
SELECT dp_sum(amount, 0, 100, 2.5) IS NOT NULL AS released FROM atk_sales;
ROLLBACK TO SAVEPOINT s;
SELECT dp_sum(amount, 0, 100, 2.5) IS NOT NULL AS released FROM atk_sales;
SELECT pgdp.answered_from_cache() AS after_savepoint_answered;
COMMIT;
RESET SESSION AUTHORIZATION;

-- Holds: parameters of equal binary form but other types are other keys (the type is hashed).
SET SESSION AUTHORIZATION atk_eve;
PREPARE atk_by_int(int8) AS SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_sales WHERE id > $1::int8;
PREPARE atk_by_float(float8) AS SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_sales WHERE id > $1::int8;
EXECUTE atk_by_int(0);
EXECUTE atk_by_float(0);
SELECT pgdp.answered_from_cache() AS other_type_answered;
EXECUTE atk_by_int(0);
SELECT pgdp.answered_from_cache() AS same_type_answered;
DEALLOCATE atk_by_int;
DEALLOCATE atk_by_float;
RESET SESSION AUTHORIZATION;

-- Holds: a column type without binary send/receive (aclitem) is never stored: the repeat is a
-- charged release; special values (NaN, Infinity, huge numerics, arrays, composites, a domain)
-- come back from the cache exactly as released.
SET SESSION AUTHORIZATION atk_eve;
SELECT dp_count(1.0) IS NOT NULL AS released, 'atk_eve=r/atk_eve'::aclitem AS acl FROM atk_sales;
SELECT dp_count(1.0) IS NOT NULL AS released, 'atk_eve=r/atk_eve'::aclitem AS acl FROM atk_sales;
SELECT pgdp.answered_from_cache() AS aclitem_answered;
CREATE DOMAIN atk_eve.positive AS numeric CHECK (VALUE > 0);
SELECT dp_count(1.0) IS NOT NULL AS released, 'NaN'::float8 AS nan, '-Infinity'::numeric AS inf,
       (10::numeric ^ 1000 + 0.5)::text = (10::numeric ^ 1000 + 0.5)::text AS huge_equal, 10::numeric ^ 1000 + 0.5 AS huge,
       ARRAY[ROW(1, 'a b', NULL)::record, ROW(2, '', 3.5)::record]::text AS arr, 7::atk_eve.positive AS dom
FROM atk_sales \gset first_
SELECT dp_count(1.0) IS NOT NULL AS released, 'NaN'::float8 AS nan, '-Infinity'::numeric AS inf,
       (10::numeric ^ 1000 + 0.5)::text = (10::numeric ^ 1000 + 0.5)::text AS huge_equal, 10::numeric ^ 1000 + 0.5 AS huge,
       ARRAY[ROW(1, 'a b', NULL)::record, ROW(2, '', 3.5)::record]::text AS arr, 7::atk_eve.positive AS dom
FROM atk_sales \gset second_
SELECT pgdp.answered_from_cache() AS specials_answered, :'first_nan' = :'second_nan' AS nan_same,
       :'first_inf' = :'second_inf' AS inf_same, :'first_huge' = :'second_huge' AS huge_same,
       :'first_arr' = :'second_arr' AS arr_same, :'second_dom' AS dom;
-- A domain constraint added after the release: the stored value no longer satisfies it; the
-- answer is refused (the receive function checks it), not served.
ALTER DOMAIN atk_eve.positive ADD CONSTRAINT big CHECK (VALUE > 100) NOT VALID;
SELECT split_part(pg_temp.error_of($q$SELECT dp_count(1.0) IS NOT NULL AS released, 'NaN'::float8 AS nan, '-Infinity'::numeric AS inf,
       (10::numeric ^ 1000 + 0.5)::text = (10::numeric ^ 1000 + 0.5)::text AS huge_equal, 10::numeric ^ 1000 + 0.5 AS huge,
       ARRAY[ROW(1, 'a b', NULL)::record, ROW(2, '', 3.5)::record]::text AS arr, 7::atk_eve.positive AS dom
FROM atk_sales$q$), ' for', 1) AS after_new_constraint;
RESET SESSION AUTHORIZATION;

-- Holds: a scrollable cursor answered from the cache refuses to go backwards (no replay through
-- a second path), and the analyst cannot lengthen the cache's life or write its settings.
SET SESSION AUTHORIZATION atk_eve;
SELECT region, dp_count(1.0) IS NOT NULL AS released FROM atk_sales GROUP BY region ORDER BY region;
BEGIN;
DECLARE atk_scroll SCROLL CURSOR FOR SELECT region, dp_count(1.0) IS NOT NULL AS released FROM atk_sales GROUP BY region ORDER BY region;
FETCH 2 FROM atk_scroll;
SAVEPOINT s;
FETCH BACKWARD 1 FROM atk_scroll;
ROLLBACK TO SAVEPOINT s;
COMMIT;
SELECT pg_temp.error_of('SET pgdp.release_cache_max_age = 0') AS set_max_age;
SELECT pg_temp.error_of('SELECT pgdp.set_budget_period(''atk_eve'', ''1 minute'')') AS set_own_period;
SELECT pg_temp.error_of('UPDATE pgdp.budgets SET period_start = now() - interval ''2 days''') AS move_window;
SELECT pg_temp.error_of('DELETE FROM pgdp.release_cache') AS delete_cache;
RESET SESSION AUTHORIZATION;

-- Holds: SET ROLE does not move the scope (the session user pays and owns the answers): eve,
-- member of atk_bob, asks as atk_bob what eve stored; it is eve's release, nothing charged to bob.
GRANT atk_bob TO atk_eve;
SET SESSION AUTHORIZATION atk_eve;
SELECT dp_sum(amount, 0, 100, 3.0) IS NOT NULL AS released FROM atk_sales;
SET ROLE atk_bob;
SELECT dp_sum(amount, 0, 100, 3.0) IS NOT NULL AS released FROM atk_sales;
SELECT pgdp.answered_from_cache() AS answered_as_bob;
RESET ROLE;
RESET SESSION AUTHORIZATION;
REVOKE atk_bob FROM atk_eve;
SELECT count(*) AS bob_charged_for_eve FROM pgdp.ledger WHERE role = 'atk_bob'::regrole AND query_text LIKE '%3.0%';

-- Holds: a budget window does not refund the current window: after a renewal, the window's
-- spending is checked against the limit again.
CREATE ROLE atk_win;
GRANT SELECT ON atk_sales TO atk_win;
SELECT role, epsilon_limit FROM pgdp.set_budget('atk_win', 1.5, 0.5);
SELECT period FROM pgdp.set_budget_period('atk_win', '1 day');
SET SESSION AUTHORIZATION atk_win;
SET pgdp.release_cache = off;
SELECT pg_temp.error_of('SELECT dp_sum(amount, 0, 100, 1.0) FROM atk_sales') AS first_in_window;
RESET SESSION AUTHORIZATION;
UPDATE pgdp.budgets SET period_start = period_start - interval '25 hours' WHERE role = 'atk_win'::regrole;
SET SESSION AUTHORIZATION atk_win;
SET pgdp.release_cache = off;
SELECT pg_temp.error_of('SELECT dp_sum(amount, 0, 100, 1.0) FROM atk_sales') AS first_after_renewal;
SELECT split_part(pg_temp.error_of('SELECT dp_sum(amount, 0, 100, 1.0) FROM atk_sales'), ':', 1) AS second_after_renewal;
RESET pgdp.release_cache;
RESET SESSION AUTHORIZATION;
SELECT epsilon_spent, releases FROM pgdp.budget_status WHERE role = 'atk_win'::regrole;

-- ---------------------------------------------------------------------------------------------
-- BREAK 4 (server crash by a non-superuser). A hit marks every column whose type is named
-- dp_release with 9 attributes, the 9th named from_cache, by writing a boolean Datum into that
-- attribute, whatever its type. With the analyst's own type atk_eve.dp_release whose from_cache
-- is text, heap_form_tuple reads a text at address 1: SIGSEGV, the postmaster restarts every
-- backend (round 10's reproducer). Checked here with from_cache int8 (passed by value, so no
-- crash): the stored 42 comes back as 1. Correct: the stored row unchanged (42).
SET SESSION AUTHORIZATION atk_eve;
SET search_path = atk_eve, public;
CREATE TYPE atk_eve.dp_release AS (a int, b int, c int, d int, e int, f int, g int, h int, from_cache int8);
SELECT dp_count(1.0) IS NOT NULL AS released, ROW(1, 2, 3, 4, 5, 6, 7, 8, 42)::atk_eve.dp_release AS fake FROM atk_sales;
SELECT dp_count(1.0) IS NOT NULL AS released, ROW(1, 2, 3, 4, 5, 6, 7, 8, 42)::atk_eve.dp_release AS fake FROM atk_sales;
SELECT pgdp.answered_from_cache() AS fake_answered;
RESET search_path;
RESET SESSION AUTHORIZATION;

-- ---------------------------------------------------------------------------------------------
-- Lead's attempts after the round.
-- Fresh noise on the same data by advancing the epoch without changing anything: eve may write
-- to an on_change table (an UPDATE that changes no value, or a row inserted and deleted); each new
-- epoch is a new release, charged: averaging costs what it costs without the cache.
CREATE TABLE atk_log (id int, v int);
INSERT INTO atk_log SELECT g, g % 7 FROM generate_series(1, 500) g;
GRANT SELECT, UPDATE, INSERT, DELETE ON atk_log TO atk_eve;
SELECT relation, policy FROM pgdp.set_refresh_policy('atk_log', 'on_change');
SELECT count(*) AS eve_before FROM pgdp.ledger WHERE role = 'atk_eve'::regrole \gset
SET SESSION AUTHORIZATION atk_eve;
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_log;
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_log;
UPDATE atk_log SET v = v WHERE false;
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_log;
INSERT INTO atk_log VALUES (0, 0);
DELETE FROM atk_log WHERE id = 0;
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_log;
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_log;
RESET SESSION AUTHORIZATION;
-- Epochs: 1, then 2 (the empty UPDATE), 4 (INSERT, DELETE): three releases, three charges.
SELECT epoch FROM pgdp.data_epochs WHERE relation = 'atk_log'::regclass;
SELECT count(*) - :eve_before AS eve_charged_for_three_epochs FROM pgdp.ledger WHERE role = 'atk_eve'::regrole;

-- A parallel plan (parallel workers compute the partial aggregates): stored by the leader once,
-- the repeat answered from the cache, one charge, the same value.
SET SESSION AUTHORIZATION atk_eve;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT dp_sum(amount, 0, 100, 1.0) AS s FROM atk_sales WHERE region < 4 \gset par1_
SELECT dp_sum(amount, 0, 100, 1.0) AS s FROM atk_sales WHERE region < 4 \gset par2_
SELECT :'par1_s' = :'par2_s' AS same_parallel_answer, pgdp.answered_from_cache() AS parallel_from_cache;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET SESSION AUTHORIZATION;

-- A falsely IMMUTABLE function of eve's in the statement: her redefinition between runs is another
-- statement (new release, charged), so a changed filter is never answered with the old rows.
SET SESSION AUTHORIZATION atk_eve;
CREATE FUNCTION atk_eve.pick(r int) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT r < 2';
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_sales WHERE atk_eve.pick(region);
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_sales WHERE atk_eve.pick(region);
SELECT pgdp.answered_from_cache() AS same_definition_cached;
CREATE OR REPLACE FUNCTION atk_eve.pick(r int) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT r >= 2';
SELECT dp_count(1.0) IS NOT NULL AS released FROM atk_sales WHERE atk_eve.pick(region);
SELECT pgdp.answered_from_cache() AS redefined_cached;
RESET SESSION AUTHORIZATION;

DROP TABLE atk_log;
DROP TABLE atk_sales, atk_own CASCADE;
DROP SCHEMA atk_eve CASCADE;
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.cache_groups;
DELETE FROM pgdp.release_cache;
