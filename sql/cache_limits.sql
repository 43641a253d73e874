-- Bounds on what the release cache stores (issue 20, section 3): bytes per entry
-- (pgdp.release_cache_max_entry_bytes) and per role (pgdp.release_cache_max_role_bytes), set by
-- admins only. A release over a bound is returned and charged once, with a WARNING, and not
-- stored: its repeat is a new release, charged again. (The lock of first requests, which no SQL
-- can take, is tested with concurrent sessions in test/t/012_cache_lock.pl.)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
RESET client_min_messages;
SET extra_float_digits = 0;
CREATE TABLE limit_sales AS SELECT g AS id, g % 50 AS region, g % 101 AS amount FROM generate_series(1, 5000) g;
CREATE ROLE limit_ana;
CREATE ROLE limit_bob;
GRANT SELECT ON limit_sales TO limit_ana, limit_bob;
SELECT count(*) FROM (SELECT pgdp.set_budget(r::regrole, 1000, 0.5) FROM unnest(ARRAY['limit_ana', 'limit_bob']) r) s;
SELECT (pgdp.set_refresh_policy('limit_sales')).policy;
CREATE FUNCTION pg_temp.charged(who name) RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM pgdp.ledger l WHERE l.role = who::regrole
$$;
-- Bytes stored for a role (what pgdp.release_cache_max_role_bytes bounds, and per entry
-- pgdp.release_cache_max_entry_bytes): each entry's statement text and epochs with 8 bytes of
-- lengths, and each cell's binary form with its 4-byte length.
CREATE FUNCTION pg_temp.stored(who name) RETURNS bigint LANGUAGE sql AS $$
    SELECT coalesce(sum(octet_length(e.query_text) + octet_length(e.epochs) + 8 +
                        (SELECT coalesce(sum(octet_length(c) + 4), 0) FROM unnest(e.result_cells) c)), 0)
    FROM pgdp.release_cache e WHERE e.released_by = who::regrole
$$;
CREATE FUNCTION pg_temp.cell_bytes(who name) RETURNS bigint LANGUAGE sql AS $$
    SELECT coalesce(sum(octet_length(c) + 4), 0) FROM pgdp.release_cache, unnest(result_cells) c
    WHERE released_by = who::regrole
$$;

-- Defaults, and the settings are the admins': an analyst may neither raise nor lower them.
SELECT name, setting, unit, context FROM pg_settings
WHERE name IN ('pgdp.release_cache_max_entry_bytes', 'pgdp.release_cache_max_role_bytes',
               'pgdp.release_cache_lock_timeout') ORDER BY name;
SET SESSION AUTHORIZATION limit_ana;
SET pgdp.release_cache_max_entry_bytes = '1GB';
SET pgdp.release_cache_max_role_bytes = '1GB';
SET pgdp.release_cache_lock_timeout = 0;
RESET SESSION AUTHORIZATION;

-- Per entry: 50 groups x 2 columns (int4 key, float8 release) are 50 x (8 + 12) = 1000 bytes of
-- cells (binary forms with their 4-byte lengths), plus the statement's text and epochs. Measured
-- once (stored, then purged): a bound one byte below the entry refuses to store it, a bound of its
-- size stores it. (The 50 released rows themselves go to /dev/null: noise.)
SET SESSION AUTHORIZATION limit_ana;
\o /dev/null
SELECT region, dp_count(1.0) FROM limit_sales GROUP BY region;
\o
RESET SESSION AUTHORIZATION;
SELECT pg_temp.stored('limit_ana') AS ana_entry \gset
SELECT pg_temp.cell_bytes('limit_ana') AS cell_bytes,
       :ana_entry - pg_temp.cell_bytes('limit_ana') BETWEEN 70 AND 100 AS text_and_epochs_counted;
SELECT pgdp.purge_cache() > 0 AS purged;
SELECT set_config('pgdp.release_cache_max_entry_bytes', (:ana_entry - 1)::text, false) IS NOT NULL AS set;
SET SESSION AUTHORIZATION limit_ana;
SET client_min_messages = error;  -- the WARNING names the bound, which depends on the epochs' text
\o /dev/null
SELECT region, dp_count(1.0) FROM limit_sales GROUP BY region;
\o
SELECT pgdp.answered_from_cache() AS from_cache;
\o /dev/null
SELECT region, dp_count(1.0) FROM limit_sales GROUP BY region;
\o
SELECT pgdp.answered_from_cache() AS from_cache;
RESET client_min_messages;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('limit_ana') AS ana_charged, pg_temp.stored('limit_ana') AS ana_stored;
SELECT set_config('pgdp.release_cache_max_entry_bytes', :ana_entry::text, false) IS NOT NULL AS set;
SET SESSION AUTHORIZATION limit_ana;
\o /dev/null
SELECT region, dp_count(1.0) FROM limit_sales GROUP BY region;
\o
\o /dev/null
SELECT region, dp_count(1.0) FROM limit_sales GROUP BY region;
\o
SELECT pgdp.answered_from_cache() AS from_cache;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('limit_ana') AS ana_charged, pg_temp.stored('limit_ana') = :ana_entry AS ana_stored_one_entry;
-- The WARNING, with a bound below any entry. A statement made long by a comment is refused for
-- its text alone (the red team stored 3 MB of comment beside 5 bytes of cells).
SET pgdp.release_cache_max_entry_bytes = 10;
SET SESSION AUTHORIZATION limit_ana;
\o /dev/null
SELECT region, dp_count(4.0) FROM limit_sales GROUP BY region;
\o
RESET SESSION AUTHORIZATION;
SELECT set_config('pgdp.release_cache_max_entry_bytes', (:ana_entry + 100)::text, false) IS NOT NULL AS set;
SET SESSION AUTHORIZATION limit_ana;
SELECT format('SELECT dp_count(4.0) > -1e9 AS released /* %s */ FROM limit_sales', repeat('x', 5000)) AS padded \gset
SET client_min_messages = error;
:padded;
:padded;
RESET client_min_messages;
SELECT pgdp.answered_from_cache() AS from_cache;
RESET SESSION AUTHORIZATION;
RESET pgdp.release_cache_max_entry_bytes;

-- Per role: bob may store two such entries (two entries' bytes and 10). The third is returned, charged and not stored; the first
-- two are still answered from the cache; another role is not affected by bob's use.
SELECT set_config('pgdp.release_cache_max_role_bytes', (2 * :ana_entry + 10)::text, false) IS NOT NULL AS set;
SET SESSION AUTHORIZATION limit_bob;
SET client_min_messages = error;  -- the WARNING names the role's bytes, which depend on the epochs' text
\o /dev/null
SELECT region, dp_count(1.0) FROM limit_sales GROUP BY region;
\o
\o /dev/null
SELECT region, dp_count(2.0) FROM limit_sales GROUP BY region;
\o
\o /dev/null
SELECT region, dp_count(3.0) FROM limit_sales GROUP BY region;
\o
\o /dev/null
SELECT region, dp_count(3.0) FROM limit_sales GROUP BY region;
\o
SELECT pgdp.answered_from_cache() AS from_cache;
\o /dev/null
SELECT region, dp_count(1.0) FROM limit_sales GROUP BY region;
\o
SELECT pgdp.answered_from_cache() AS from_cache;
\o /dev/null
SELECT region, dp_count(2.0) FROM limit_sales GROUP BY region;
\o
SELECT pgdp.answered_from_cache() AS from_cache;
RESET client_min_messages;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('limit_bob') AS bob_charged, pg_temp.stored('limit_bob') <= 2 * :ana_entry + 10 AS bob_within,
       (SELECT count(*) FROM pgdp.release_cache WHERE released_by = 'limit_bob'::regrole) AS bob_entries;
-- ana's entry is hers: a new statement of hers still fits her own bound.
SET SESSION AUTHORIZATION limit_ana;
\o /dev/null
SELECT region, dp_count(5.0) FROM limit_sales GROUP BY region;
\o
\o /dev/null
SELECT region, dp_count(5.0) FROM limit_sales GROUP BY region;
\o
SELECT pgdp.answered_from_cache() AS from_cache;
RESET SESSION AUTHORIZATION;
-- A purge frees the role's bytes: the refused statement is stored at its next run.
SELECT pgdp.purge_cache() > 0 AS purged;
SET SESSION AUTHORIZATION limit_bob;
\o /dev/null
SELECT region, dp_count(3.0) FROM limit_sales GROUP BY region;
\o
\o /dev/null
SELECT region, dp_count(3.0) FROM limit_sales GROUP BY region;
\o
SELECT pgdp.answered_from_cache() AS from_cache;
RESET SESSION AUTHORIZATION;
RESET pgdp.release_cache_max_role_bytes;

SELECT pgdp.purge_cache() >= 0 AS purged;
DELETE FROM pgdp.data_epochs WHERE relation = 'limit_sales'::regclass;
DROP TABLE limit_sales;
DELETE FROM pgdp.budgets WHERE role::text IN ('limit_ana', 'limit_bob');
DROP OWNED BY limit_ana, limit_bob;
DROP ROLE limit_ana, limit_bob;
