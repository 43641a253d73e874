-- Predicate locks (red team round 21): under SERIALIZABLE every scan records what it read as
-- SIRead predicate locks, and pg_locks shows them to every role, so a release over rows the
-- analyst may not read would tell exactly which rows matched its WHERE (one person's value in 40
-- releases of epsilon 0.001). Such releases are refused in SERIALIZABLE transactions before
-- anything runs or is charged; REPEATABLE READ and READ COMMITTED take no predicate locks. Roles
-- that may read the rows release as before.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE pl_admin;
CREATE ROLE pl_analyst;
CREATE ROLE pl_reader;
SELECT pgdp.designate_admin('pl_admin');
SELECT role FROM pgdp.set_budget('pl_analyst', 10, 0.5);
SELECT role FROM pgdp.set_budget('pl_reader', 10, 0.5);
CREATE TABLE pl_sales (customer int, amount float8);
INSERT INTO pl_sales SELECT g, g % 1000 FROM generate_series(1, 5000) g;
INSERT INTO pl_sales VALUES (5001, 734521.7);
CREATE INDEX pl_sales_amount ON pl_sales (amount);
ANALYZE pl_sales;
GRANT SELECT ON pl_sales TO pl_reader;
SELECT relation FROM pgdp.protect('pl_sales', 'customer');
SET SESSION AUTHORIZATION pl_admin;
SELECT role FROM pgdp.grant_access('pl_sales', 'pl_analyst');
RESET SESSION AUTHORIZATION;
CREATE VIEW pl_held AS
SELECT count(*) AS predicate_locks FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
WHERE l.pid = pg_backend_pid() AND l.mode = 'SIReadLock' AND c.relname LIKE 'pl\_sales%';
GRANT SELECT ON pl_held TO PUBLIC;
RESET client_min_messages;

-- The attack: an index scan under SERIALIZABLE; refused (0A000) before any row is read, nothing
-- charged, no predicate lock on the table or its index (pgdp's own catalog reads take relation
-- locks on its tables, the same for every statement).
SET SESSION AUTHORIZATION pl_analyst;
SELECT epsilon_spent AS spent_before FROM pgdp.my_budget \gset
BEGIN ISOLATION LEVEL SERIALIZABLE;
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
\set SHOW_CONTEXT never
SAVEPOINT probe;
SELECT dp_count(0.001) FROM pl_sales WHERE amount > 734000;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ROLLBACK TO probe;
\set SHOW_CONTEXT errors
SELECT predicate_locks FROM pl_held;
COMMIT;
-- SERIALIZABLE as the session's default, READ ONLY, DEFERRABLE: the same.
SET default_transaction_isolation = serializable;
\set SHOW_CONTEXT never
SELECT dp_count(0.001) FROM pl_sales WHERE amount > 734000;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
BEGIN READ ONLY DEFERRABLE;
SELECT dp_count(0.001) FROM pl_sales WHERE amount > 734000;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ROLLBACK;
\set SHOW_CONTEXT errors
RESET default_transaction_isolation;
SELECT epsilon_spent = :spent_before AS nothing_charged FROM pgdp.my_budget;
-- REPEATABLE READ: released, and no predicate lock to read.
BEGIN ISOLATION LEVEL REPEATABLE READ;
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
SELECT dp_count(0.001) IS NOT NULL AS released FROM pl_sales WHERE amount > 734000;
SELECT predicate_locks FROM pl_held;
COMMIT;
RESET SESSION AUTHORIZATION;

-- A role that may read the rows releases under SERIALIZABLE as before (its locks tell it nothing
-- it could not SELECT).
SET SESSION AUTHORIZATION pl_reader;
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT dp_count(0.001) IS NOT NULL AS released FROM pl_sales WHERE amount > 734000;
SELECT predicate_locks > 0 AS reader_locks FROM pl_held;
COMMIT;
RESET SESSION AUTHORIZATION;

SET client_min_messages = warning;
DROP VIEW pl_held;
SELECT pgdp.unprotect('pl_sales');
DROP TABLE pl_sales;
DELETE FROM pgdp.budgets WHERE role::text IN ('pl_analyst', 'pl_reader');
SELECT pgdp.revoke_admin('pl_admin');
DROP OWNED BY pl_admin, pl_analyst, pl_reader;
DROP ROLE pl_admin, pl_analyst, pl_reader;
RESET client_min_messages;
