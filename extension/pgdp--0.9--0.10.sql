-- pgdp 0.9 -> 0.10 (ALTER EXTENSION pgdp UPDATE TO '0.10'). Sessions that cannot be charged run as
-- without pgdp (docs/privacy.md "Inert where unused"): backends keep whether their session user
-- could be charged, and are told when that may change.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.10'" to load this file. \quit
CREATE FUNCTION pgdp.invalidate_chargeable_sessions() RETURNS trigger
AS 'MODULE_PATHNAME', 'pgdp_invalidate_chargeable_sessions' LANGUAGE C;
REVOKE ALL ON FUNCTION pgdp.invalidate_chargeable_sessions() FROM PUBLIC;
CREATE TRIGGER pgdp_chargeable_roles AFTER INSERT OR DELETE OR UPDATE OF role OR TRUNCATE ON pgdp.budgets
    FOR EACH STATEMENT EXECUTE FUNCTION pgdp.invalidate_chargeable_sessions();
CREATE TRIGGER pgdp_chargeable_roles AFTER INSERT OR DELETE OR UPDATE OF role OR TRUNCATE ON pgdp.access_grants
    FOR EACH STATEMENT EXECUTE FUNCTION pgdp.invalidate_chargeable_sessions();
ALTER TABLE pgdp.budgets ENABLE ALWAYS TRIGGER pgdp_chargeable_roles;
ALTER TABLE pgdp.access_grants ENABLE ALWAYS TRIGGER pgdp_chargeable_roles;


-- PostgreSQL 18's per-backend I/O and WAL counters (pg_stat_get_backend_io, _wal) are statistics
-- objects: pgdp.harden_statistics() restricts them (docs/privacy.md "Statistics side channels").
CREATE OR REPLACE FUNCTION pgdp.statistics_objects() RETURNS TABLE (kind text, object text)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
    -- By class, not by name (0.9, issue 20): sizes of storage (pg_*_size of a relation, database or
    -- tablespace: regclass, oid or name first argument) and every cumulative statistics reader
    -- (pg_stat_get_*: relation, index, function, database, buffer, WAL, SLRU counters, current
    -- transaction's too) except the per-session ones PostgreSQL already limits to the caller's own
    -- sessions (pg_stat_get_activity, pg_stat_get_backend_*, pg_stat_get_progress_info; not 18's
    -- pg_stat_get_backend_io and _wal, which count any backend's reads and writes); then every
    -- pg_catalog view that calls one of them, directly or through another such view.
    WITH RECURSIVE functions AS (
        SELECT p.oid FROM pg_proc p
        WHERE p.pronamespace = 'pg_catalog'::regnamespace
          AND ((p.proname LIKE 'pg\_%\_size' AND p.pronargs >= 1
                AND p.proargtypes[0] IN ('regclass'::regtype, 'oid'::regtype, 'name'::regtype))
               OR (p.proname LIKE 'pg\_stat\_get\_%'
                   AND (p.proname NOT LIKE 'pg\_stat\_get\_backend\_%'
                        -- PostgreSQL 18's per-backend I/O and WAL counters: any backend's, by pid
                        OR p.proname IN ('pg_stat_get_backend_io', 'pg_stat_get_backend_wal'))
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

-- Settings PostgreSQL 16, 17 and 18 added, classified (docs/privacy.md "Server messages and statistics").
CREATE OR REPLACE FUNCTION pgdp.setting_channels(OUT setting text, OUT channel text, OUT closed_by text)
RETURNS SETOF record
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
VALUES
  ('client_min_messages', 'messages', 'seal'),
  ('debug\_%', 'messages', 'seal; debug_discard_caches only slows catalog caches'),
  ('trace\_%', 'messages', 'seal'),
  ('log\_%', 'messages', 'seal (the server log is the admin''s)'),
  ('auto\_explain.%', 'messages', 'seal (also at the log level notice or warning)'),
  ('backtrace_functions', 'messages', 'seal; the backtrace goes to the server log only'),
  ('escape_string_warning', 'messages', 'seal; warns about the statement''s text, not rows'),
  ('icu_validation_level', 'messages', 'seal; warns about locale names of DDL, not rows (PostgreSQL 16+)'),
  ('md5_password_warnings', 'messages', 'seal; warns about passwords, not rows (PostgreSQL 18+)'),
  ('lc_messages', 'messages', 'language of messages, not their content'),
  ('pg\_stat\_statements.%', 'statistics', 'query id cleared for every statement of a session with a budget or DP-only access, at parse analysis'),
  ('track\_%', 'statistics', 'pgdp.harden_statistics() (core counters); query id cleared'),
  ('compute_query_id', 'statistics', 'query id cleared for protected statements'),
  ('stats_fetch_consistency', 'statistics', 'pgdp.harden_statistics()'),
  ('update_process_title', 'statistics', 'the process title shows the statement''s text, not rows'),
  ('temp_file_limit', 'resources', 'lifted while the connection is sealed: it turns the size of sorts and hashes into an error'),
  ('work_mem', 'resources', 'spills to disk: no error once temp_file_limit is lifted; time remains'),
  ('hash_mem_multiplier', 'resources', 'as work_mem'),
  ('maintenance_work_mem', 'resources', 'index builds and VACUUM, not releases'),
  ('logical_decoding_work_mem', 'resources', 'replication, not releases'),
  ('temp_buffers', 'resources', 'temporary tables of the session'),
  ('max_stack_depth', 'resources', 'depth of expressions and calls: set by the statement, not by rows'),
  ('statement_timeout', 'resources', 'time: not closed (docs/privacy.md "What remains")'),
  ('lock_timeout', 'resources', 'lock waits: not closed (docs/privacy.md "What remains")'),
  ('deadlock_timeout', 'resources', 'lock waits'),
  ('idle_in_transaction_session_timeout', 'resources', 'between statements'),
  ('idle_session_timeout', 'resources', 'between statements'),
  ('client_connection_check_interval', 'resources', 'connection checks'),
  ('tcp\_%', 'resources', 'connection keepalives'),
  ('commit\_%', 'resources', 'commit pacing'),
  ('synchronous_commit', 'resources', 'commit durability'),
  ('backend_flush_after', 'resources', 'write-back pacing'),
  ('effective_io_concurrency', 'resources', 'prefetching'),
  ('io_combine_limit', 'resources', 'read sizes (PostgreSQL 17+)'),
  ('transaction_timeout', 'resources', 'time: not closed (docs/privacy.md "What remains"; PostgreSQL 17+)'),
  ('maintenance_io_concurrency', 'resources', 'prefetching'),
  ('vacuum\_%', 'resources', 'VACUUM, not releases'),
  ('gin\_%', 'resources', 'GIN index maintenance and fuzzy search limit (not in accepted levels)'),
  ('wal\_%', 'resources', 'write-ahead log'),
  ('exit_on_error', 'resources', 'turns any error into FATAL: no error of a protected level depends on rows'),
  ('zero_damaged_pages', 'resources', 'admin recovery setting'),
  ('ignore_checksum_failure', 'resources', 'admin recovery setting'),
  ('composite_type_mismatch', 'resources', 'admin setting for stored composite values'),
  ('enable\_%', 'plan', 'plans never shown'),
  ('%\_cost', 'plan', 'plans never shown'),
  ('geqo%', 'plan', 'plans never shown'),
  ('jit%', 'plan', 'plans never shown (jit_dump_bitcode writes to the data directory)'),
  ('%\_collapse\_limit', 'plan', 'plans never shown'),
  ('constraint_exclusion', 'plan', 'plans never shown'),
  ('cursor_tuple_fraction', 'plan', 'plans never shown'),
  ('default_statistics_target', 'plan', 'ANALYZE by the owner'),
  ('effective_cache_size', 'plan', 'plans never shown'),
  ('force_parallel_mode', 'plan', 'plans never shown; worker messages reach the client through the sealed leader'),
  ('debug_parallel_query', 'plan', 'force_parallel_mode''s name from PostgreSQL 16: plans never shown; worker messages reach the client through the sealed leader'),
  ('max_parallel\_%', 'plan', 'plans never shown'),
  ('min_parallel\_%', 'plan', 'plans never shown'),
  ('parallel\_%', 'plan', 'plans never shown'),
  ('plan_cache_mode', 'plan', 'plans never shown'),
  ('random_page_cost', 'plan', 'plans never shown'),
  ('seq_page_cost', 'plan', 'plans never shown'),
  ('recursive_worktable_factor', 'plan', 'plans never shown'),
  ('synchronize_seqscans', 'plan', 'row order: releases do not depend on it'),
  ('DateStyle', 'session', 'format of values'),
  ('IntervalStyle', 'session', 'format of values'),
  ('TimeZone', 'session', 'format of values'),
  ('timezone_abbreviations', 'session', 'format of values'),
  ('extra_float_digits', 'session', 'format of values'),
  ('bytea_output', 'session', 'format of values'),
  ('xml%', 'session', 'format of values'),
  ('lc\_%', 'session', 'format of values (lc_messages above)'),
  ('client_encoding', 'session', 'format of values'),
  ('standard_conforming_strings', 'session', 'parsing of the statement'),
  ('backslash_quote', 'session', 'parsing of the statement'),
  ('array_nulls', 'session', 'parsing of array literals'),
  ('quote_all_identifiers', 'session', 'format of names'),
  ('transform_null_equals', 'session', 'parsing of the statement'),
  ('search_path', 'session', 'names'),
  ('application_name', 'session', 'names the session'),
  ('row_security', 'session', 'policies of the relation apply as for its owner; refusals depend on policies, not rows'),
  ('session_replication_role', 'session', 'triggers and rules (admin setting)'),
  ('check_function_bodies', 'session', 'DDL'),
  ('default\_%', 'session', 'defaults of new objects and transactions'),
  ('transaction\_%', 'session', 'transaction behaviour'),
  ('temp_tablespaces', 'session', 'where temporary files go'),
  ('allow_in_place_tablespaces', 'session', 'DDL (admin setting)'),
  ('allow_system_table_mods', 'session', 'DDL (admin setting)'),
  ('lo_compat_privileges', 'session', 'large object privileges (admin setting)'),
  ('password_encryption', 'session', 'passwords'),
  ('scram_iterations', 'session', 'passwords (PostgreSQL 16+)'),
  ('createrole_self_grant', 'session', 'role memberships of roles a CREATEROLE role creates (DDL; PostgreSQL 16+)'),
  ('event_triggers', 'session', 'DDL (admin setting; PostgreSQL 17+)'),
  ('file_copy_method', 'session', 'how CREATE DATABASE copies files (DDL; PostgreSQL 18+)'),
  ('dynamic_library_path', 'session', 'loading modules (admin setting)'),
  ('extension_destdir', 'session', 'loading modules (admin setting)'),
  ('extension_control_path', 'session', 'loading modules (admin setting; PostgreSQL 18+)'),
  ('%preload_libraries', 'session', 'loading modules at connection start'),
  ('restrict_nonsystem_relation_kind', 'session', 'refuses relation kinds whatever their rows'),
  ('output_plugin_libraries', 'session', 'logical decoding (admin setting)'),
  ('plpgsql.%', 'session', 'PL/pgSQL behaviour: functions that never run over protected rows'),
  ('citus.log\_%', 'messages', 'seal (remote commands, intermediate results)'),
  ('citus.multi_task_query_log_level', 'messages', 'seal'),
  ('citus.worker_min_messages', 'messages', 'seal: workers'' messages reach the client through the coordinator'),
  ('citus.stat\_tenants\_log\_level', 'messages', 'seal'),
  ('citus.stat\_%', 'statistics', 'query id cleared (citus_stat_statements); citus_stat_tenants counts the analyst''s own queries by their tenant value, not rows'),
  ('citus.max_intermediate_result_size', 'resources', 'lifted while the connection is sealed: it turns the size of partial results into an error'),
  ('citus.max\_%', 'resources', 'connections, pools and background processes'),
  ('citus.cpu\_priority%', 'resources', 'process priority'),
  ('citus.node_connection_timeout', 'resources', 'connections'),
  ('citus.remote_task_check_interval', 'resources', 'polling'),
  ('citus.explain\_%', 'plan', 'plans never shown'),
  ('citus.enable\_%', 'plan', 'execution and DDL choices, not what is sent'),
  ('citus.task\_%', 'plan', 'where tasks run'),
  ('citus.local_table_join_policy', 'plan', 'plans never shown'),
  ('citus.coordinator_aggregation_strategy', 'plan', 'plans never shown'),
  ('citus.count_distinct_error_rate', 'plan', 'count(DISTINCT) of Citus, not pgdp calls'),
  ('citus.limit_clause_row_fetch_count', 'plan', 'plans never shown'),
  ('citus.values_materialization_threshold', 'plan', 'plans never shown'),
  ('citus.all_modifications_commutative', 'session', 'locking of modifications'),
  ('citus.multi_shard_modify_mode', 'session', 'modifications'),
  ('citus.propagate_set_commands', 'session', 'SET LOCAL reaches the workers, whose messages are sealed at the coordinator'),
  ('citus.shard\_%', 'session', 'DDL of distributed tables'),
  ('citus.defer\_drop\_%', 'session', 'shard moves'),
  ('citus.use_citus_managed_tables', 'session', 'DDL'),
  ('citus.skip\_%', 'session', 'DDL and COPY validation (admin setting for constraints)'),
  ('citus.local_hostname', 'session', 'connections (admin setting)'),
  ('citus.superuser', 'session', 'the role of Citus''s own connections (admin setting; Citus 13+)'),
  ('citus.show_shards_for_app_name_prefixes', 'session', 'catalog listings of shards'),
  ('citus.writable_standby_coordinator', 'session', 'writes on a standby'),
  ('pgdp.%', 'pgdp', 'pgdp''s own settings (README)')
$$;
