-- Specifies: per-unit sums never overflow, cache entries are bounded in bytes (stages: planning, cache).
-- Attacks on two claims of issue 20 (red team round 12, both were breaks; the expected output is
-- the fixed behaviour): per-unit sums cannot overflow in any person-level level (also for an
-- analyst with SELECT), and release cache entries are bounded in bytes per entry and per role
-- (the statement text counted).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE TABLE rt12_sales (customer int, region int, amount int, note text, diag text);
INSERT INTO rt12_sales SELECT (i % 300) + 1, i % 5, (i * 37) % 100, 'n' || i, 'cold' FROM generate_series(1, 1000) i;
INSERT INTO rt12_sales VALUES (777, 1, 40, 'v', 'hiv'), (777, 2, 30, 'v', 'hiv'), (777, 3, 20, 'v', 'hiv');
SELECT relation FROM pgdp.protect('rt12_sales', 'customer', 2);
CREATE ROLE rt12_bob;     -- person-level releases with SELECT (not DP-only)
GRANT SELECT ON rt12_sales TO rt12_bob;
SELECT role FROM pgdp.set_budget('rt12_bob', 1000, 1e-3);
CREATE ROLE rt12_alice;   -- DP-only access
SELECT relation FROM pgdp.grant_access('rt12_sales', 'rt12_alice');
SELECT role FROM pgdp.set_budget('rt12_alice', 1000, 1e-3);
SELECT (pgdp.set_refresh_policy('rt12_sales')).policy;
ANALYZE rt12_sales;
CREATE FUNCTION pg_temp.charges(who name) RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM pgdp.ledger l WHERE l.role = who::regrole $$;
RESET client_min_messages;

-- ---- BREAK 1: float per-unit partials overflow in a person-level level (not DP-only) -----------
-- unit_partial() sums float values as numeric only with DP-only access; otherwise the per-unit
-- partial is PostgreSQL's sum(float8)/avg(float8), which raise "value out of range: overflow"
-- (float8pl; float8_accum also overflows on the sum of squares, so avg fails on ONE value of 1e200).
-- The error appears iff the victim has a row with amount > 35, and the failed statement is charged.
SELECT pg_temp.charges('rt12_bob') AS bob_charges_before;
SET SESSION AUTHORIZATION rt12_bob;
SELECT dp_mean(CASE WHEN customer = 777 AND amount > 35 THEN 1e200::float8 ELSE 0 END, 0, 1, 0.001) IS NOT NULL AS released
FROM rt12_sales;
SELECT dp_mean(CASE WHEN customer = 777 AND amount > 45 THEN 1e200::float8 ELSE 0 END, 0, 1, 0.001) IS NOT NULL AS released
FROM rt12_sales;
SELECT dp_sum(CASE WHEN customer = 777 AND amount > 35 THEN 1e308::float8 ELSE 0 END, 0, 1, 0.001) IS NOT NULL AS released
FROM rt12_sales, (VALUES (1), (2)) v(x);
SELECT dp_sum(CASE WHEN customer = 777 AND amount > 45 THEN 1e308::float8 ELSE 0 END, 0, 1, 0.001) IS NOT NULL AS released
FROM rt12_sales, (VALUES (1), (2)) v(x);
SELECT dp_sum(CASE WHEN customer = 777 AND amount > 35 THEN 3e38::float4 ELSE 0 END, 0, 1, 0.001) IS NOT NULL AS released
FROM rt12_sales, (VALUES (1), (2)) v(x);
SELECT dp_mean_ci(CASE WHEN customer = 777 AND amount > 35 THEN 1e200::float8 ELSE 0 END, 0, 1, 0.001, 0.05) IS NOT NULL AS released
FROM rt12_sales;
\o /dev/null
SELECT region, dp_mean(CASE WHEN customer = 777 AND amount > 35 THEN 1e200::float8 ELSE 0 END, 0, 1, 0.001)
FROM rt12_sales GROUP BY region HAVING dp_groups(1, 1e-6);
\o
RESET SESSION AUTHORIZATION;
-- None of the statements above raised (fixed); each is charged (the grouped one twice: selection and mean).
SELECT pg_temp.charges('rt12_bob') AS bob_charges_after;

-- ---- BREAK 2: the release cache stores the statement's source text outside its byte bounds ----
-- store_answer() writes query->sourceText into pgdp.release_cache.query_text; neither
-- pgdp.release_cache_max_entry_bytes nor pgdp.release_cache_max_role_bytes counts it. A DP-only
-- analyst pads her statement (a literal, a comment, other statements of the same query string):
-- one release at min epsilon stores 2 MB (incompressible) for the cache's lifetime, in a table she
-- cannot delete from; one such entry per distinct constant.
SET pgdp.release_cache_max_entry_bytes = '100kB';
SET pgdp.release_cache_max_role_bytes = '200kB';
SELECT string_agg(md5(g::text), '') AS pad FROM generate_series(1, 65536) g \gset
SET SESSION AUTHORIZATION rt12_alice;
SET pgdp.release_cache = on;
SELECT dp_count(0.01) IS NOT NULL AS released FROM rt12_sales WHERE note <> :'pad';
SELECT dp_count(0.01) IS NOT NULL AS released FROM rt12_sales WHERE note <> :'pad' AND amount > -1;
RESET SESSION AUTHORIZATION;
-- Bytes the cache holds for rt12_alice, all columns counted: within the per-role bound (fixed).
SELECT coalesce(sum(pg_column_size(c.*)), 0) <= 200 * 1024 AS role_bytes_bounded,
       coalesce(max(pg_column_size(c.*)), 0) <= 100 * 1024 AS entry_bytes_bounded
FROM pgdp.release_cache c WHERE released_by = 'rt12_alice'::regrole;
RESET pgdp.release_cache_max_entry_bytes;
RESET pgdp.release_cache_max_role_bytes;

SET client_min_messages = warning;
DELETE FROM pgdp.release_cache WHERE released_by IN ('rt12_alice'::regrole, 'rt12_bob'::regrole);
SELECT pgdp.unprotect('rt12_sales') IS NOT NULL AS unprotected;
DELETE FROM pgdp.data_epochs WHERE relation = 'rt12_sales'::regclass;
DROP TABLE rt12_sales;
DELETE FROM pgdp.budgets WHERE role::text IN ('rt12_alice', 'rt12_bob');
DROP OWNED BY rt12_alice, rt12_bob;
DROP ROLE rt12_alice, rt12_bob;
