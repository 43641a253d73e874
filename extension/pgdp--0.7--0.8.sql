-- pgdp 0.7 -> 0.8: private aggregates on Citus distributed tables (docs/architecture.md
-- "Distributed tables (Citus)").
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.8'" to load this file. \quit

-- With shared_preload_libraries = 'citus,pgdp', a query level computing pgdp aggregates over
-- distributed tables is split: the workers compute exact totals with the built-in sum() and
-- count() over pgdp.clamped_units, and the releases are charged and noised once, here.
CREATE FUNCTION pgdp.clamped_units(value float8, lower float8, upper float8) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_clamped_units_float8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.clamped_units(float8, float8, float8) IS
    'One row''s value clamped to [lower, upper] in the exact fixed-point units of the pgdp aggregates (NULL for NaN); summed on Citus workers';
CREATE FUNCTION pgdp.clamped_units(value numeric, lower float8, upper float8) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_clamped_units_numeric' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.clamped_units(numeric, float8, float8) IS
    'One row''s value clamped to [lower, upper] in the exact fixed-point units of the pgdp aggregates (NULL for NaN); summed on Citus workers';
CREATE FUNCTION pgdp.distributed_partials(query text) RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgdp_distributed_partials' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION pgdp.distributed_partials(text) IS
    'Internal: the exact totals of a distributed release; runs only inside the plans pgdp builds, for a charged execution';

-- The report per release (dashboards): what a *_ci form charged, and whether it came from the cache.
ALTER TYPE dp_release ADD ATTRIBUTE epsilon float8, ADD ATTRIBUTE delta float8, ADD ATTRIBUTE from_cache boolean;

-- =============================================================================================
-- Dashboards (0.8; docs/privacy.md "The release cache", docs/architecture.md "Release cache"):
-- a repeated release (same normalized statement, same parameter values, same data epochs) is
-- answered from the cache at no charge.

-- The data epoch of each relation releases may be cached over. A statement is cached only if
-- every relation it reads has one (a partition: itself or its root). A new epoch means new
-- releases, with new noise, and new charges.
CREATE TABLE pgdp.data_epochs (
    relation regclass PRIMARY KEY,
    epoch bigint NOT NULL DEFAULT 1 CHECK (epoch >= 1),
    -- manual: pgdp.refresh(relation) only; on_change: also every INSERT, UPDATE, DELETE or
    -- TRUNCATE (a statement trigger); interval: also every refresh_interval (aligned to the epoch
    -- of 1970-01-01 UTC), without writing anything.
    policy text NOT NULL DEFAULT 'manual' CHECK (policy IN ('manual', 'on_change', 'interval')),
    refresh_interval interval,
    advanced_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT data_epochs_interval CHECK ((policy = 'interval') = (refresh_interval IS NOT NULL))
);
COMMENT ON TABLE pgdp.data_epochs IS 'Data epochs of the relations whose releases the release cache answers';
SELECT pg_catalog.pg_extension_config_dump('pgdp.data_epochs', '');

-- Roles an admin lets share cached answers (scope 'group:<name>'); others have their own scope.
CREATE TABLE pgdp.cache_groups (
    role regrole PRIMARY KEY,
    cache_group name NOT NULL CHECK (cache_group <> '')
);
COMMENT ON TABLE pgdp.cache_groups IS 'Roles whose cached releases are shared with the other roles of their group';
SELECT pg_catalog.pg_extension_config_dump('pgdp.cache_groups', '');

-- The cache: the rows a charged statement returned, in binary form (send/receive functions), for
-- its scope and key (SHA-256 of the normalized statement, its parameters and its relations'
-- epochs). Written only by pgdp (src/pg/release_cache.cpp), as this table's owner.
CREATE TABLE pgdp.release_cache (
    scope text NOT NULL,
    cache_key bytea NOT NULL,
    query_text text NOT NULL,
    epochs text NOT NULL,
    column_types oid[] NOT NULL,
    result_rows integer NOT NULL CHECK (result_rows >= 0),
    result_cells bytea[] NOT NULL,
    released_by regrole NOT NULL,
    charge_id bigint,
    released_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, cache_key)
);
COMMENT ON TABLE pgdp.release_cache IS 'Released rows answered again for repeated statements over unchanged data (no charge)';
SELECT pg_catalog.pg_extension_config_dump('pgdp.release_cache', '');
REVOKE ALL ON pgdp.data_epochs, pgdp.cache_groups, pgdp.release_cache FROM PUBLIC;

CREATE FUNCTION pgdp.set_refresh_policy(relation regclass, policy text DEFAULT 'manual',
                                        refresh_interval interval DEFAULT NULL)
RETURNS pgdp.data_epochs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET client_min_messages = warning AS $$
DECLARE
    result pgdp.data_epochs;
BEGIN
    IF relation IS NULL THEN
        RAISE EXCEPTION 'relation must not be NULL' USING ERRCODE = 'null_value_not_allowed',
              HINT = 'Pass the table whose releases dashboards repeat, e.g. ''sales''.';
    END IF;
    IF (SELECT relkind FROM pg_class WHERE oid = relation) NOT IN ('r', 'p', 'm', 'f') THEN
        RAISE EXCEPTION 'relation % holds no data of its own', relation USING ERRCODE = 'wrong_object_type',
              HINT = 'Set the policy of the tables a view reads.';
    END IF;
    IF policy IS NULL OR policy NOT IN ('manual', 'on_change', 'interval') THEN
        RAISE EXCEPTION 'policy must be ''manual'', ''on_change'' or ''interval'', got %', coalesce(quote_literal(policy), 'NULL')
              USING ERRCODE = 'invalid_parameter_value',
              HINT = 'manual: pgdp.refresh only; on_change: every write; interval: every refresh_interval.';
    END IF;
    IF (policy = 'interval') <> (refresh_interval IS NOT NULL) THEN
        RAISE EXCEPTION 'refresh_interval must be given exactly for the ''interval'' policy'
              USING ERRCODE = 'invalid_parameter_value', HINT = 'E.g. pgdp.set_refresh_policy(''sales'', ''interval'', ''1 hour'').';
    END IF;
    IF refresh_interval IS NOT NULL AND (refresh_interval < interval '1 second' OR extract(month FROM refresh_interval) <> 0
                                         OR extract(year FROM refresh_interval) <> 0) THEN
        RAISE EXCEPTION 'refresh_interval must be at least 1 second and of fixed length, got %', refresh_interval
              USING ERRCODE = 'invalid_parameter_value', HINT = 'Use seconds, minutes, hours or days (a month has no fixed length).';
    END IF;
    INSERT INTO pgdp.data_epochs AS e (relation, policy, refresh_interval)
    VALUES (set_refresh_policy.relation, set_refresh_policy.policy, set_refresh_policy.refresh_interval)
    ON CONFLICT ON CONSTRAINT data_epochs_pkey
    DO UPDATE SET policy = excluded.policy, refresh_interval = excluded.refresh_interval
    RETURNING * INTO result;
    EXECUTE format('DROP TRIGGER IF EXISTS pgdp_advance_epoch ON %s', relation);
    IF policy = 'on_change' THEN
        EXECUTE format('CREATE TRIGGER pgdp_advance_epoch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %s '
                       'FOR EACH STATEMENT EXECUTE FUNCTION pgdp.advance_epoch()', relation);
    END IF;
    RETURN result;
END $$;
COMMENT ON FUNCTION pgdp.set_refresh_policy(regclass, text, interval) IS
    'Admins: gives a relation a data epoch (manual, on_change or interval), so that repeated releases over it are answered from the release cache';

CREATE FUNCTION pgdp.refresh(relation regclass) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    advanced bigint;
BEGIN
    IF relation IS NULL THEN
        RAISE EXCEPTION 'relation must not be NULL' USING ERRCODE = 'null_value_not_allowed',
              HINT = 'Pass the table whose data changed.';
    END IF;
    UPDATE pgdp.data_epochs e SET epoch = e.epoch + 1, advanced_at = now()
    WHERE e.relation = refresh.relation RETURNING e.epoch INTO advanced;
    IF advanced IS NULL THEN
        RAISE EXCEPTION 'relation % has no data epoch', relation USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = 'Releases over it are never cached, so there is nothing to refresh.',
              HINT = format('A pgdp admin can give it one with pgdp.set_refresh_policy(%L).', relation::text);
    END IF;
    RETURN advanced;
END $$;
COMMENT ON FUNCTION pgdp.refresh(regclass) IS
    'Admins: starts a new data epoch of the relation: the next repeated release over it is released and charged again';

CREATE FUNCTION pgdp.advance_epoch() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    UPDATE pgdp.data_epochs SET epoch = epoch + 1, advanced_at = now() WHERE relation = TG_RELID AND policy = 'on_change';
    RETURN NULL;
END $$;
COMMENT ON FUNCTION pgdp.advance_epoch() IS 'Trigger of the on_change policy: every write starts a new data epoch';

CREATE FUNCTION pgdp.set_cache_group(role regrole, cache_group name) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF role IS NULL THEN
        RAISE EXCEPTION 'role must not be NULL' USING ERRCODE = 'null_value_not_allowed',
              HINT = 'Pass the role whose cached releases its group shares.';
    END IF;
    IF cache_group = '' THEN
        RAISE EXCEPTION 'cache_group must not be empty' USING ERRCODE = 'invalid_parameter_value',
              HINT = 'Pass a name, or NULL to give the role its own scope again.';
    END IF;
    IF cache_group IS NULL THEN
        DELETE FROM pgdp.cache_groups g WHERE g.role = set_cache_group.role;
    ELSE
        INSERT INTO pgdp.cache_groups AS g VALUES (set_cache_group.role, set_cache_group.cache_group)
        ON CONFLICT ON CONSTRAINT cache_groups_pkey DO UPDATE SET cache_group = excluded.cache_group;
    END IF;
END $$;
COMMENT ON FUNCTION pgdp.set_cache_group(regrole, name) IS
    'Admins: the roles of one cache group are answered each other''s cached releases (NULL: the role''s own scope)';

CREATE FUNCTION pgdp.purge_cache(older_than interval DEFAULT interval '0', relation regclass DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    purged bigint;
BEGIN
    IF older_than IS NULL OR older_than < interval '0' THEN
        RAISE EXCEPTION 'older_than must be a non-negative interval, got %', coalesce(older_than::text, 'NULL')
              USING ERRCODE = 'invalid_parameter_value', HINT = 'interval ''0'' purges every entry.';
    END IF;
    -- relation: only the entries whose statement read it (epochs lists 'oid:epoch' items).
    DELETE FROM pgdp.release_cache c
    WHERE c.released_at <= now() - older_than
      AND (relation IS NULL OR c.epochs ~ ('(^|,)' || relation::oid || ':'));
    GET DIAGNOSTICS purged = ROW_COUNT;
    RETURN purged;
END $$;
COMMENT ON FUNCTION pgdp.purge_cache(interval, regclass) IS
    'Admins: removes cached releases released at least older_than ago (of statements over relation, if given)';

CREATE FUNCTION pgdp.answered_from_cache() RETURNS boolean
AS 'MODULE_PATHNAME', 'pgdp_answered_from_cache' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION pgdp.answered_from_cache() IS
    'True if this session''s latest statement with pgdp releases was answered from the release cache (nothing charged)';

REVOKE ALL ON FUNCTION pgdp.set_refresh_policy(regclass, text, interval), pgdp.refresh(regclass),
                       pgdp.advance_epoch(), pgdp.set_cache_group(regrole, name), pgdp.purge_cache(interval, regclass)
    FROM PUBLIC;
