-- Specifies: other roles' code cannot change the session's settings; no statistics of releases (trust, channels).
-- Attacks on the 0.9 fixes of issue 20 (red team round 13; both were breaks, the expected output is
-- the fixed behaviour): another role's code changing the session's settings through expressions
-- that run without a function frame, and statistics of statements prepared before the session user
-- got a budget or DP-only access. Needs shared_preload_libraries = 'pgdp,pg_stat_statements'.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE EXTENSION IF NOT EXISTS pg_stat_statements;
CREATE ROLE rt13_alice;
CREATE ROLE rt13_bob;
CREATE ROLE rt13_carol;
CREATE ROLE rt13_dan;     -- no budget, no access: pgdp leaves his session as PostgreSQL has it
SELECT role FROM pgdp.set_budget('rt13_alice', 1e6, 1e-3);
CREATE TABLE rt13_sales (customer int, region int, amount int, note text, diag text);
INSERT INTO rt13_sales SELECT g % 300, g % 5, g % 100, 'n' || g, 'flu' FROM generate_series(1, 1000) g;
INSERT INTO rt13_sales VALUES (777, 1, 40, 'x', 'hiv'), (777, 1, 30, 'x', 'hiv'), (777, 1, 20, 'x', 'hiv');
SELECT relation FROM pgdp.protect('rt13_sales', 'customer', 2);
ANALYZE rt13_sales;
CREATE SCHEMA rt13_b AUTHORIZATION rt13_bob;
GRANT USAGE ON SCHEMA rt13_b TO PUBLIC;
CREATE SCHEMA rt13_c AUTHORIZATION rt13_carol;
RESET client_min_messages;

-- ---------------------------------------------------------------------------------------------
-- BREAK 1. set_config(..., false) in another role's code still changes the session when that code
-- is not a function frame, view, policy, rule or column default: a CHECK constraint of bob's
-- table, a constraint of bob's domain, bob's aggregate whose transition function is set_config
-- (called directly or through bob's view), the WHEN clause of bob's trigger. Observed (0.9 at
-- 32b8185): every statement succeeds and alice's search_path becomes bob's ('rt13_b, ...'), so her
-- later unqualified names resolve to bob's objects. FIXED: each refused (42501), search_path
-- unchanged. (Each attempt runs in a DO block of alice's that reports the SQLSTATE; a refusal rolls
-- its subtransaction back, a session change that is not refused survives it.)
SET SESSION AUTHORIZATION rt13_bob;
CREATE TABLE rt13_b.chk (x int CHECK (set_config('search_path', 'rt13_b, chk', false) IS NOT NULL));
GRANT INSERT ON rt13_b.chk TO PUBLIC;
CREATE DOMAIN rt13_b.dom AS text CHECK (set_config('search_path', VALUE, false) IS NOT NULL);
CREATE AGGREGATE rt13_b.agg(text, bool) (sfunc = set_config, stype = text, initcond = 'search_path');
CREATE VIEW rt13_b.v AS SELECT rt13_b.agg('rt13_b, agg_view', false) AS a;
GRANT SELECT ON rt13_b.v TO PUBLIC;
CREATE TABLE rt13_b.trg (x int);
GRANT INSERT ON rt13_b.trg TO PUBLIC;
CREATE FUNCTION rt13_b.noop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER t BEFORE INSERT ON rt13_b.trg FOR EACH ROW
  WHEN (set_config('search_path', 'rt13_b, trigger_when', false) IS NOT NULL) EXECUTE FUNCTION rt13_b.noop();
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION rt13_alice;
SHOW search_path;
DO $$ BEGIN INSERT INTO rt13_b.chk VALUES (1);
  EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'check constraint: %', SQLSTATE; END $$;
SHOW search_path;
RESET search_path;
DO $$ BEGIN PERFORM 'rt13_b, domain'::rt13_b.dom;
  EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'domain constraint: %', SQLSTATE; END $$;
SHOW search_path;
RESET search_path;
DO $$ BEGIN PERFORM * FROM rt13_b.v;
  EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'aggregate in view: %', SQLSTATE; END $$;
SHOW search_path;
RESET search_path;
DO $$ BEGIN PERFORM rt13_b.agg('rt13_b, agg_direct', false);
  EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'aggregate: %', SQLSTATE; END $$;
SHOW search_path;
RESET search_path;
DO $$ BEGIN INSERT INTO rt13_b.trg VALUES (1);
  EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'trigger WHEN: %', SQLSTATE; END $$;
SHOW search_path;
RESET search_path;
RESET SESSION AUTHORIZATION;
-- Control: a role that can make no release is not protected from bob's code by pgdp (nothing could
-- be charged to him): bob's CHECK constraint changes his search_path, as it would without pgdp.
SET SESSION AUTHORIZATION rt13_dan;
DO $$ BEGIN INSERT INTO rt13_b.chk VALUES (1);
  EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'check constraint: %', SQLSTATE; END $$;
SHOW search_path;
RESET search_path;
RESET SESSION AUTHORIZATION;

-- ---------------------------------------------------------------------------------------------
-- BREAK 2. A statement prepared while the session user had neither budget nor DP-only access keeps
-- its query id in the plan cache (parse analysis is not repeated: the plan source depends on no
-- relation, so the grant's invalidation does not reach it). After the admin grants a budget and
-- access, every EXECUTE of it is counted by pg_stat_statements under that id, with the block reads
-- of the release its function makes. Observed (0.9 at 32b8185), cumulative shared blocks of
-- 'PREPARE p(int) AS SELECT r3_c.probe($1)' after EXECUTE p(45), p(35), p(45), p(35):
-- 1372, 1626, 1656, 1910: +30 when the victim has no row above the threshold, +254 when it has
-- one (amount 40 > 35 joins 500 of her rows). The same holds for statements parsed in a
-- transaction that began before the grant (decided once per transaction). FIXED: no counters.
SET SESSION AUTHORIZATION rt13_carol;
CREATE TABLE rt13_c.pad (k int);
INSERT INTO rt13_c.pad SELECT g % 100 FROM generate_series(0, 49999) g;
CREATE INDEX ON rt13_c.pad (k);
ANALYZE rt13_c.pad;
CREATE FUNCTION rt13_c.probe(t int) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
  RETURN (SELECT dp_count(0.01) > -1e9 FROM rt13_sales s JOIN rt13_c.pad p ON p.k = s.amount
          WHERE s.customer = 777 AND s.amount > t);
END $$;
PREPARE rt13_p(int) AS SELECT rt13_c.probe($1);
RESET SESSION AUTHORIZATION;
SELECT role FROM pgdp.set_budget('rt13_carol', 1e6, 1e-3);
SELECT relation FROM pgdp.grant_access('rt13_sales', 'rt13_carol');
SET SESSION AUTHORIZATION rt13_carol;
EXECUTE rt13_p(45);
EXECUTE rt13_p(35);
RESET SESSION AUTHORIZATION;
SELECT count(*) AS counted_statements
FROM pg_stat_statements
WHERE userid = 'rt13_carol'::regrole AND query LIKE 'PREPARE rt13_p%' AND calls > 0;
DEALLOCATE rt13_p;

SET client_min_messages = warning;
DELETE FROM pgdp.release_cache WHERE released_by IN ('rt13_alice'::regrole, 'rt13_carol'::regrole);
SELECT pgdp.revoke_access('rt13_sales', 'rt13_carol') IS NOT NULL AS revoked;
SELECT pgdp.unprotect('rt13_sales') IS NOT NULL AS unprotected;
DELETE FROM pgdp.data_epochs WHERE relation = 'rt13_sales'::regclass;
DROP TABLE rt13_sales;
DELETE FROM pgdp.budgets WHERE role::text IN ('rt13_alice', 'rt13_bob', 'rt13_carol');
DROP OWNED BY rt13_alice, rt13_bob, rt13_carol, rt13_dan;
DROP ROLE rt13_alice, rt13_bob, rt13_carol, rt13_dan;
