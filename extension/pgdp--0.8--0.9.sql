-- pgdp 0.8 -> 0.9 (ALTER EXTENSION pgdp UPDATE TO '0.9'). Closes the message, error and resource
-- channels of DP-only access (docs/privacy.md "Threat model").
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.9'" to load this file. \quit

-- Statistics hardening by class (issue 20, section 3): every storage size function of a relation,
-- database or tablespace, every cumulative statistics reader but the per-session ones, and every
-- catalog view calling one of them. Run pgdp.harden_statistics() again after the update.
CREATE OR REPLACE FUNCTION pgdp.statistics_objects() RETURNS TABLE (kind text, object text)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
    -- By class, not by name (0.9, issue 20): sizes of storage (pg_*_size of a relation, database or
    -- tablespace: regclass, oid or name first argument) and every cumulative statistics reader
    -- (pg_stat_get_*: relation, index, function, database, buffer, WAL, SLRU counters, current
    -- transaction's too) except the per-session ones PostgreSQL already limits to the caller's own
    -- sessions (pg_stat_get_activity, pg_stat_get_backend_*, pg_stat_get_progress_info); then every
    -- pg_catalog view that calls one of them, directly or through another such view.
    WITH RECURSIVE functions AS (
        SELECT p.oid FROM pg_proc p
        WHERE p.pronamespace = 'pg_catalog'::regnamespace
          AND ((p.proname LIKE 'pg\_%\_size' AND p.pronargs >= 1
                AND p.proargtypes[0] IN ('regclass'::regtype, 'oid'::regtype, 'name'::regtype))
               OR (p.proname LIKE 'pg\_stat\_get\_%' AND p.proname NOT LIKE 'pg\_stat\_get\_backend\_%'
                   AND p.proname NOT IN ('pg_stat_get_activity', 'pg_stat_get_progress_info')))
    ), views(oid) AS (
        -- Built-in views record no dependencies on built-in functions (pinned objects): read their
        -- rule trees (function calls as :funcid, relations read as :relid).
        SELECT r.ev_class FROM pg_rewrite r
        WHERE EXISTS (SELECT FROM functions f WHERE strpos(r.ev_action::text, ' :funcid ' || f.oid || ' ') > 0)
        UNION
        SELECT r.ev_class FROM views v, pg_rewrite r
        WHERE r.ev_class <> v.oid AND strpos(r.ev_action::text, ' :relid ' || v.oid || ' ') > 0
    )
    SELECT 'function', f.oid::regprocedure::text FROM functions f
    UNION ALL
    SELECT 'view', c.oid::regclass::text FROM pg_class c
    WHERE c.oid IN (SELECT oid FROM views) AND c.relnamespace = 'pg_catalog'::regnamespace AND c.relkind = 'v'
    ORDER BY 1, 2
$$;
