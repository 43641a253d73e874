-- pgdp.harden_statistics() covers every function and view that tells sizes of storage or
-- row, block and buffer counts (issue 20, section 3). The checks below enumerate the catalog
-- independently of pgdp.statistics_objects(): by PostgreSQL's own descriptions of its functions
-- ("statistics: ...", "... disk space usage ..."), by argument and result types, and by trying
-- every readable catalog view and column, as a role with no memberships.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE sh_plain;
CREATE TABLE sh_table (id int PRIMARY KEY, v text);
INSERT INTO sh_table SELECT g, 'x' FROM generate_series(1, 100) g;
ANALYZE sh_table;
RESET client_min_messages;

-- Before hardening the class is open to everyone (so unhardening may grant it to PUBLIC again).
SELECT count(*) > 90 AS functions, bool_and(has_function_privilege('sh_plain', object::regprocedure, 'EXECUTE'))
       AS all_public
FROM pgdp.statistics_objects() WHERE kind = 'function';
SELECT count(*) > 20 AS views, bool_and(has_table_privilege('sh_plain', object::regclass, 'SELECT')) AS all_public
FROM pgdp.statistics_objects() WHERE kind = 'view';
SELECT has_function_privilege('sh_plain', 'pg_table_size(regclass)', 'EXECUTE') AS table_size_before;

SELECT count(*) > 100 AS restricted FROM pgdp.harden_statistics();

-- 1. Functions PostgreSQL describes as statistics or disk space usage that a role with no
--    memberships may still call. Only these, each reviewed:
--    pg_backend_pid, pg_stat_clear_snapshot, pg_stat_force_next_flush: the session's own state;
--    pg_stat_get_activity, pg_stat_get_backend_*, pg_stat_get_progress_info: sessions, shown in
--    full only for the caller's own role's sessions (PostgreSQL's own check), no relation counts
--    (pg_stat_get_backend_subxact, 17+, shows any backend's subtransaction count; 18's
--    pg_stat_get_backend_io and _wal count blocks and are restricted);
SELECT p.oid::regprocedure AS still_public FROM pg_proc p
WHERE p.pronamespace = 'pg_catalog'::regnamespace
  AND obj_description(p.oid, 'pg_proc') ~* '^statistics: |disk space usage'
  AND has_function_privilege('sh_plain', p.oid, 'EXECUTE')
ORDER BY p.oid::regprocedure::text;

-- 2. Functions of a relation, database or tablespace (regclass, oid or name argument) returning a
--    number, callable by that role: sequences (need privileges on the sequence), hashes and
--    comparisons of the identifier itself, large objects (need privileges on the object),
--    pg_char_to_encoding, pg_relation_is_updatable, and the index maintenance functions
--    brin_summarize_*, gin_clean_pending_list (the index's owner only): none counts rows of a
--    table the caller cannot read.
SELECT p.oid::regprocedure AS numeric_of_identifier FROM pg_proc p
WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind = 'f'
  AND p.prorettype IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'float4'::regtype,
                       'float8'::regtype, 'numeric'::regtype)
  AND EXISTS (SELECT FROM unnest(p.proargtypes) t WHERE t IN ('regclass'::regtype, 'oid'::regtype, 'name'::regtype))
  AND NOT EXISTS (SELECT FROM unnest(p.proargtypes) t WHERE t IN ('internal'::regtype, 'cstring'::regtype))
  AND has_function_privilege('sh_plain', p.oid, 'EXECUTE')
ORDER BY p.oid::regprocedure::text;

-- 3. Catalog columns a role with no memberships may read whose name says count or size: the
--    progress views (the caller's own role's commands only, PostgreSQL's check), a sequence's
--    cache size and a replication slot's WAL margin (no rows of any table).
SELECT c.relname, a.attname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
WHERE c.relnamespace = 'pg_catalog'::regnamespace AND c.relkind IN ('r', 'v') AND a.attnum > 0
  AND NOT a.attisdropped
  AND a.attname ~ '(tup|blks|blocks|_size|pages|scan|fetch|_read|hit|alloc|written|allvisible)'
  AND has_table_privilege('sh_plain', c.oid, 'SELECT') AND has_column_privilege('sh_plain', c.oid, a.attnum, 'SELECT')
ORDER BY 1, 2;

-- 4. Every catalog view the role may still select from runs for it (a view calling a restricted
--    function would fail with 42501: the views are restricted with their functions).
SET SESSION AUTHORIZATION sh_plain;
DO $$
DECLARE
    v regclass;
    failed text[] := '{}';
BEGIN
    FOR v IN SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'pg_catalog'::regnamespace AND c.relkind = 'v'
               AND has_table_privilege(c.oid, 'SELECT') ORDER BY c.relname LOOP
        BEGIN
            EXECUTE format('SELECT * FROM %s LIMIT 0', v);
        EXCEPTION WHEN insufficient_privilege THEN
            failed := failed || v::text;
        END;
    END LOOP;
    RAISE NOTICE 'readable views that fail: %', failed;
END $$;
\set SHOW_CONTEXT never
SELECT pg_table_size('sh_table');
SELECT pg_total_relation_size('sh_table');
SELECT pg_indexes_size('sh_table');
SELECT pg_database_size(current_database());
SELECT pg_stat_get_xact_tuples_returned('sh_table'::regclass);
SELECT tup_fetched FROM pg_stat_database;
SELECT relpages FROM pg_class WHERE relname = 'sh_table';
\set SHOW_CONTEXT errors
RESET SESSION AUTHORIZATION;

-- Unhardening gives everything back to PUBLIC.
SELECT count(*) > 100 AS restored FROM pgdp.unharden_statistics();
SELECT bool_and(CASE kind WHEN 'function' THEN has_function_privilege('sh_plain', object::regprocedure, 'EXECUTE')
                          ELSE has_table_privilege('sh_plain', object::regclass, 'SELECT') END) AS all_public_again
FROM pgdp.statistics_objects();
SELECT has_column_privilege('sh_plain', 'pg_class', 'reltuples', 'SELECT') AS reltuples_again;
SET SESSION AUTHORIZATION sh_plain;
SELECT pg_table_size('sh_table') > 0 AS table_size_again;
RESET SESSION AUTHORIZATION;

DROP TABLE sh_table;
DROP ROLE sh_plain;
