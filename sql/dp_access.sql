-- DP-only access (issue 11): an admin lets a role make person-level releases over a protected
-- relation without SELECT on it. PostgreSQL's own permission check refuses every other query;
-- accepted releases read the relation with its owner's privileges, only if every expression over
-- the rows is leakproof. Exact at epsilon 1e6 (Laplace) against values computed by the owner.
-- The hostile-analyst suite is test/t/005_dp_only_access.pl.
SET client_min_messages = warning;
CREATE ROLE da_analyst;
CREATE ROLE da_other;
CREATE ROLE da_admin;
SELECT pgdp.designate_admin('da_admin');
SELECT role FROM pgdp.set_budget('da_analyst', 1e9, 0.5);
SELECT role FROM pgdp.set_budget('da_other', 1e9, 0.5);
CREATE TABLE da_sales (customer int, region text, amount int, big bigint, price float8);
INSERT INTO da_sales SELECT g % 100, 'r' || (g % 3), g % 50, g % 1000, (g % 7) * 1.5 FROM generate_series(1, 3000) g;
CREATE TABLE da_regions (region text);
INSERT INTO da_regions VALUES ('r0'), ('r1'), ('r2'), ('r9');
GRANT SELECT ON da_regions TO da_analyst;
SELECT relation FROM pgdp.protect('da_sales', 'customer', 2);
SELECT relation FROM pgdp.declare_public('da_regions');
RESET client_min_messages;

-- Bad input: clear errors, nothing changed.
\set SHOW_CONTEXT never
SELECT pgdp.grant_access(NULL, 'da_analyst');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pgdp.grant_access('da_regions', 'da_analyst');  -- not protected
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pgdp.grant_access('da_sales', 'postgres');      -- a superuser reads everything anyway
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pgdp.revoke_access('da_sales', 'da_analyst');   -- no such access
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET SESSION AUTHORIZATION da_analyst;
SELECT pgdp.grant_access('da_sales', 'da_analyst');    -- analysts may not grant
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET SESSION AUTHORIZATION;
\set SHOW_CONTEXT errors
-- An admin grants; a role that can SELECT gets a warning (the access adds nothing).
SET SESSION AUTHORIZATION da_admin;
SELECT relation, role, granted_by, can_read_rows FROM pgdp.grant_access('da_sales', 'da_analyst');
RESET SESSION AUTHORIZATION;
GRANT SELECT ON da_sales TO da_other;
SELECT relation, role, can_read_rows FROM pgdp.grant_access('da_sales', 'da_other');
REVOKE SELECT ON da_sales FROM da_other;
SELECT relation, role, can_read_rows FROM pgdp.dp_access ORDER BY role::text;

-- The exact values, computed by the owner.
SELECT count(DISTINCT customer) AS units FROM da_sales \gset
SELECT sum(least(s, 1000)) AS bounded_sum FROM (SELECT customer, sum(amount) s FROM da_sales GROUP BY customer) u \gset
SELECT count(DISTINCT customer) AS big_units FROM da_sales WHERE amount > 10 AND region = 'r1' \gset

SET SESSION AUTHORIZATION da_analyst;
-- The rows themselves: PostgreSQL refuses (42501), with or without pgdp.
SELECT * FROM da_sales LIMIT 1;
SELECT sum(amount) FROM da_sales;
-- Person-level releases: accepted.
SELECT dp_count(1e6) = :units AS units_exact, dp_sum(amount, 0, 1000, 1e6) = :bounded_sum AS sum_exact FROM da_sales;
SELECT dp_count(1e6) = :big_units AS filtered_exact FROM da_sales WHERE amount > 10 AND region = 'r1';
SELECT r.region, dp_count(1e6) > 0 AS counted FROM da_regions r LEFT JOIN da_sales s USING (region) GROUP BY r.region;
SELECT region FROM da_sales GROUP BY region HAVING dp_groups(1, 1e-6);
-- pgdp's safe functions in keys and values (they cannot fail).
SELECT pgdp.bucket(big, 250) AS bucket FROM da_sales GROUP BY 1 HAVING dp_groups(1, 1e-6) ORDER BY 1;
SELECT dp_sum(pgdp.clamp(price, 0, 5), 0, 100, 1e6) > 0 AS clamped FROM da_sales;
-- Integer arithmetic runs as pgdp's total forms (0.16): 1 / 0 is NULL, not an error; exact at
-- epsilon 1e6: 2 customers have amount 8 (1 / 1 > 0); each customer's 30 rows have amount
-- customer % 50, doubled and clamped to 100: 2 * 0 + 2 * 60 + 96 * 100 = 9720; 20 customers per
-- key amount / 10.
SELECT dp_count(1e6) FROM da_sales WHERE 1 / (amount - 7) > 0;
SELECT dp_sum(amount * 2, 0, 100, 1e6) FROM da_sales;
SELECT amount / 10 AS k, dp_count(1e6) FROM da_sales GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1;
-- Expressions that can fail, wait or act on a person's values are refused before any row is read.
\set SHOW_CONTEXT never
SELECT dp_count(1e6) FROM da_sales WHERE pg_sleep(0.01) IS NOT NULL;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM da_sales WHERE region::int > 0;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM da_sales WHERE region LIKE 'r%';
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM da_sales WHERE amount IN (SELECT 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_sum(power(amount::numeric, 2), 0, 100, 1e6) FROM da_sales;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM da_sales WHERE greatest(amount, 5) > 5;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- EXPLAIN shows estimates from the rows' statistics.
EXPLAIN (COSTS OFF) SELECT dp_count(1e6) FROM da_sales;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
SELECT releases FROM pgdp.my_budget \gset before_
-- A prepared release stops working when the access is revoked (the plan is made again and refused).
PREPARE da_count AS SELECT dp_count(1e6) = :units AS units_exact FROM da_sales;
EXECUTE da_count;
RESET SESSION AUTHORIZATION;
SELECT pgdp.revoke_access('da_sales', 'da_analyst');
SET SESSION AUTHORIZATION da_analyst;
\set SHOW_CONTEXT never
EXECUTE da_count;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
-- Another role without access cannot use the plan either.
RESET SESSION AUTHORIZATION;
SELECT relation FROM pgdp.grant_access('da_sales', 'da_analyst');
SET SESSION AUTHORIZATION da_analyst;
SET plan_cache_mode = force_generic_plan;
PREPARE da_generic AS SELECT dp_count(1e6) = :units AS units_exact FROM da_sales;
EXECUTE da_generic;
-- Run as a role with neither access nor SELECT, the statement is planned again for it (person-level
-- plans depend on the role) and PostgreSQL refuses it (42501).
RESET SESSION AUTHORIZATION;
SET ROLE da_admin;
\set SHOW_CONTEXT never
EXECUTE da_generic;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
RESET ROLE;
-- A grant removed behind the catalog trigger's back (no plan invalidation): the plan cached for
-- da_analyst still reads as the owner, and pgdp's executor-start check refuses it (42501).
SET SESSION AUTHORIZATION da_analyst;
EXECUTE da_generic;
RESET SESSION AUTHORIZATION;
ALTER TABLE pgdp.access_grants DISABLE TRIGGER pgdp_invalidate_plans;
DELETE FROM pgdp.access_grants WHERE role = 'da_analyst'::regrole;
ALTER TABLE pgdp.access_grants ENABLE TRIGGER pgdp_invalidate_plans;
SET SESSION AUTHORIZATION da_analyst;
\set SHOW_CONTEXT never
EXECUTE da_generic;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
RESET SESSION AUTHORIZATION;
SELECT relation FROM pgdp.grant_access('da_sales', 'da_analyst');
RESET plan_cache_mode;
SET SESSION AUTHORIZATION da_analyst;
-- Refusals charged nothing (one release each: the three accepted executions above).
SELECT releases - :before_releases AS releases_since FROM pgdp.my_budget;
DEALLOCATE da_count;
DEALLOCATE da_generic;
RESET SESSION AUTHORIZATION;

-- pgdp's safe functions never fail.
SELECT pgdp.bucket(17.5::float8, 5) AS b1, pgdp.bucket(-0.5::float8, 1) AS b2, pgdp.bucket(1, 0::float8) AS zero_width,
       pgdp.bucket('Infinity'::float8, 1) AS infinite, pgdp.bucket(1e308::float8, 1e-308) AS overflow;
SELECT pgdp.bucket(17::bigint, 5) AS b1, pgdp.bucket(-1::bigint, 5) AS b2, pgdp.bucket(-9223372036854775808, 10) AS below_range,
       pgdp.bucket(7::bigint, -1) AS negative_width;
SELECT pgdp.clamp(7, 0, 5) AS c1, pgdp.clamp(-1, 0, 5) AS c2, pgdp.clamp('NaN', 0, 5) AS nan, pgdp.clamp(1, 5, 0) AS reversed;
SELECT p.oid::regprocedure AS function, p.proleakproof AS leakproof FROM pg_proc p
WHERE p.pronamespace = 'pgdp'::regnamespace AND p.proname IN ('bucket', 'clamp') ORDER BY 1;

-- Statistics hardening (superusers): row counts and sizes only for pg_read_all_stats.
SELECT count(*) > 20 AS restricted FROM pgdp.harden_statistics();
SET SESSION AUTHORIZATION da_analyst;
\set SHOW_CONTEXT never
SELECT reltuples FROM pg_class WHERE oid = 'da_sales'::regclass;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT relname FROM pg_class WHERE oid = 'da_sales'::regclass;  -- other columns stay readable
SELECT n_live_tup FROM pg_stat_user_tables WHERE relid = 'da_sales'::regclass;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pg_stat_get_live_tuples('da_sales'::regclass);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pg_relation_size('da_sales');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
RESET SESSION AUTHORIZATION;
SELECT count(*) > 20 AS restored FROM pgdp.unharden_statistics();
SET SESSION AUTHORIZATION da_analyst;
SELECT reltuples IS NOT NULL AS readable_again FROM pg_class WHERE oid = 'da_sales'::regclass;
RESET SESSION AUTHORIZATION;

-- Unprotecting a relation drops its grants.
SELECT pgdp.unprotect('da_sales');
SELECT count(*) AS grants FROM pgdp.dp_access WHERE relation::text = 'da_sales';

SET client_min_messages = warning;
SELECT pgdp.undeclare_public('da_regions');
DROP TABLE da_sales, da_regions;
DELETE FROM pgdp.budgets WHERE role::text IN ('da_analyst', 'da_other');
SELECT pgdp.revoke_admin('da_admin');
DROP ROLE da_analyst, da_other, da_admin;
