-- pgdp 0.7 -> 0.8: private aggregates on Citus distributed tables (docs/architecture.md
-- "Distributed tables (Citus)").
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.8'" to load this file. \quit

-- =============================================================================================
-- Budget windows (0.8, opt-in; docs/privacy.md "Budget windows"): an admin may give a role limits
-- that renew every period (pgdp.set_budget_period); the default stays a lifetime budget.
ALTER TABLE pgdp.budgets
    ADD COLUMN period interval,
    ADD COLUMN period_start timestamptz,
    ADD CONSTRAINT budgets_period_valid
        CHECK (period IS NULL OR (period >= interval '1 minute' AND period <= interval '36525 days')),
    ADD CONSTRAINT budgets_period_with_start CHECK ((period IS NULL) = (period_start IS NULL));

-- The start of the budget window that contains the instant at (0.8): period_start while at is
-- before period_start + period, else period_start + k * period with k the number of whole periods
-- elapsed. A day of the period counts 24 hours (extract(epoch)), so windows have a fixed length
-- whatever the time zone; periods have no months (pgdp.set_budget_period refuses them).
CREATE FUNCTION pgdp.budget_window_start(period_start timestamptz, period interval, at timestamptz)
RETURNS timestamptz
LANGUAGE sql STABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
    SELECT CASE WHEN period IS NULL OR period_start IS NULL
                     OR at < period_start + make_interval(secs => extract(epoch FROM period)::float8)
                THEN period_start
                ELSE period_start
                     + make_interval(secs => (floor((extract(epoch FROM at) - extract(epoch FROM period_start))
                                                    / extract(epoch FROM period))
                                              * extract(epoch FROM period))::float8)
           END
$$;
COMMENT ON FUNCTION pgdp.budget_window_start(timestamptz, interval, timestamptz) IS
    'The start of the budget window (period_start + k * period, a day being 24 hours) that contains at; period_start for a lifetime budget or before its first renewal';

-- The views show the current window (columns appended: period, period_start, renews_at).
CREATE OR REPLACE VIEW pgdp.budget_status WITH (security_barrier) AS
SELECT b.role,
       b.accounting,
       pgdp.bounded_numeric(b.epsilon_limit, false) AS epsilon_limit,
       pgdp.bounded_numeric(b.delta_limit, false) AS delta_limit,
       pgdp.bounded_numeric(s.epsilon_spent, true) AS epsilon_spent,
       pgdp.bounded_numeric(s.delta_spent, true) AS delta_spent,
       pgdp.bounded_numeric(greatest(b.epsilon_limit - s.epsilon_spent, 0), false) AS epsilon_remaining,
       pgdp.bounded_numeric(greatest(b.delta_limit - s.delta_spent, 0), false) AS delta_remaining,
       s.gaussian_mu2,
       s.releases,
       b.updated_at,
       pgdp.bounded_numeric(b.gaussian_epsilon_limit, false) AS gaussian_epsilon_limit,
       pgdp.bounded_numeric(b.gaussian_delta_limit, false) AS gaussian_delta_limit,
       pgdp.bounded_numeric(b.min_epsilon, true) AS min_epsilon,
       b.release_limit,
       b.period,
       w.window_start AS period_start,
       w.window_start + make_interval(secs => extract(epoch FROM b.period)::float8) AS renews_at
FROM pgdp.budgets b,
     LATERAL (SELECT pgdp.budget_window_start(b.period_start, b.period, now()) AS window_start) w,
     LATERAL (SELECT w.window_start IS DISTINCT FROM b.period_start AS renewed) r,
     LATERAL (SELECT CASE WHEN r.renewed THEN 0 ELSE b.gaussian_mu2 END AS gaussian_mu2,
                     CASE WHEN r.renewed THEN 0 ELSE b.releases END AS releases,
                     CASE WHEN r.renewed THEN 0
                          ELSE b.epsilon_spent
                               + CASE WHEN b.gaussian_mu2 > 0
                                      THEN coalesce(pgdp.gaussian_part_epsilon(b.gaussian_mu2, b.gaussian_delta_limit)::numeric,
                                                    'Infinity')
                                      ELSE 0 END END AS epsilon_spent,
                     CASE WHEN r.renewed THEN 0
                          ELSE b.delta_spent + CASE WHEN b.gaussian_mu2 > 0 THEN b.gaussian_delta_limit ELSE 0 END
                          END AS delta_spent) s;
COMMENT ON VIEW pgdp.budget_status IS
    'Every role''s budget (admins), numerics bounded for display. In gaussian mode spent amounts include the Gaussian part at its delta. With a period (0.8): the amounts of the current window, which started at period_start and renews at renews_at.';
CREATE OR REPLACE VIEW pgdp.my_budget WITH (security_barrier) AS
SELECT * FROM pgdp.budget_status WHERE role = session_user::regrole;

-- Budget windows (0.8, opt-in): the role's limits renew every period (docs/privacy.md "Budget
-- windows"). A window that has already elapsed is renewed first (as the ledger worker would); then
-- the new window starts now, with what the current window (or the lifetime budget) has spent: a
-- change never refunds anything. NULL: back to a lifetime budget, which keeps what the current
-- window has spent (earlier windows stay in the ledger).
CREATE FUNCTION pgdp.set_budget_period(role regrole, period interval)
RETURNS SETOF pgdp.budget_status
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    current pgdp.budgets;
BEGIN
    IF role IS NULL THEN
        RAISE EXCEPTION 'role must not be NULL' USING ERRCODE = 'null_value_not_allowed',
            HINT = 'Name the role whose budget gets a period, e.g. ''alice''.';
    END IF;
    IF period IS NOT NULL THEN
        -- Months (and years) have no fixed length: a window of '1 month' would not say how much
        -- may be released per unit of time.
        IF extract(year FROM period) <> 0 OR extract(month FROM period) <> 0 THEN
            RAISE EXCEPTION 'period must not have months or years, got %', period
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Months have no fixed length; give the period in days, e.g. interval ''30 days'' (a day counts 24 hours).';
        END IF;
        IF period <= interval '0' THEN
            RAISE EXCEPTION 'period must be positive, got %', period
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'The budget renews every period, e.g. interval ''1 day''; NULL makes it a lifetime budget.';
        END IF;
        -- Below a minute the per-window guarantee says next to nothing (1440 windows a day).
        IF period < interval '1 minute' OR period > interval '36525 days' THEN
            RAISE EXCEPTION 'period must be between 1 minute and 36525 days, got %', period
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'The limits hold per window, so short windows give away budget quickly: periods are usually days; NULL makes it a lifetime budget.';
        END IF;
    END IF;
    SELECT * INTO current FROM pgdp.budgets b WHERE b.role = set_budget_period.role FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'role % has no budget', role USING ERRCODE = 'undefined_object',
            HINT = 'Create one with pgdp.set_budget(role, epsilon, delta) first.';
    END IF;
    -- The renewal of the ledger worker (src/pg/ledger_worker.cpp, renew_budget), if it is due.
    IF current.period IS NOT NULL AND pgdp.budget_window_start(current.period_start, current.period, now()) > current.period_start THEN
        UPDATE pgdp.budgets b
        SET epsilon_spent = 0, delta_spent = 0, gaussian_mu2 = 0, releases = 0,
            period_start = pgdp.budget_window_start(b.period_start, b.period, now())
        WHERE b.role = set_budget_period.role;
    END IF;
    UPDATE pgdp.budgets b
    SET period = set_budget_period.period,
        period_start = CASE WHEN set_budget_period.period IS NULL THEN NULL ELSE now() END, updated_at = now()
    WHERE b.role = set_budget_period.role;
    RETURN QUERY SELECT * FROM pgdp.budget_status s WHERE s.role = set_budget_period.role;
END $$;
COMMENT ON FUNCTION pgdp.set_budget_period(regrole, interval) IS
    'Admins: the role''s limits renew every period (at least 1 minute, days count 24 hours, no months), in windows starting now; NULL: a lifetime budget (the default). A per-window guarantee only (docs/privacy.md "Budget windows").';

REVOKE ALL ON FUNCTION pgdp.set_budget_period(regrole, interval) FROM PUBLIC;

-- Admins get pgdp.set_budget_period: the designated ones from now on ...
CREATE OR REPLACE FUNCTION pgdp.designate_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can designate pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('GRANT EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint), '
                   'pgdp.raise_budget(regrole, numeric, numeric), pgdp.set_budget_period(regrole, interval), '
                   'pgdp.protect(regclass, name, int, name), '
                   'pgdp.unprotect(regclass), pgdp.declare_public(regclass), pgdp.undeclare_public(regclass), '
                   'pgdp.grant_access(regclass, regrole), pgdp.revoke_access(regclass, regrole), '
                   'pgdp.set_refresh_policy(regclass, text, interval), pgdp.refresh(regclass), '
                   'pgdp.set_cache_group(regrole, name), pgdp.purge_cache(interval, regclass) TO %s', role);
    EXECUTE format('GRANT SELECT ON pgdp.data_epochs, pgdp.cache_groups, pgdp.release_cache TO %s', role);
    EXECUTE format('GRANT SELECT ON pgdp.access_grants TO %s', role);
    EXECUTE format('GRANT SELECT ON pgdp.budget_status, pgdp.ledger TO %s', role);
END $$;
CREATE OR REPLACE FUNCTION pgdp.revoke_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can revoke pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('REVOKE EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint), '
                   'pgdp.raise_budget(regrole, numeric, numeric), pgdp.set_budget_period(regrole, interval), '
                   'pgdp.protect(regclass, name, int, name), '
                   'pgdp.unprotect(regclass), pgdp.declare_public(regclass), pgdp.undeclare_public(regclass), '
                   'pgdp.grant_access(regclass, regrole), pgdp.revoke_access(regclass, regrole), '
                   'pgdp.set_refresh_policy(regclass, text, interval), pgdp.refresh(regclass), '
                   'pgdp.set_cache_group(regrole, name), pgdp.purge_cache(interval, regclass) FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.data_epochs, pgdp.cache_groups, pgdp.release_cache FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.access_grants FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.budget_status, pgdp.ledger FROM %s', role);
END $$;
-- ... and the roles with EXECUTE on pgdp.set_budget (the admins designated before 0.8).
DO $$
DECLARE
    admin regrole;
BEGIN
    FOR admin IN
        SELECT DISTINCT a.grantee::regrole FROM pg_catalog.pg_proc p, pg_catalog.aclexplode(p.proacl) a
        WHERE p.oid = 'pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint)'::pg_catalog.regprocedure
          AND a.privilege_type = 'EXECUTE' AND a.grantee <> 0 AND a.grantee <> p.proowner
    LOOP
        EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION pgdp.set_budget_period(regrole, interval) TO %s', admin);
    END LOOP;
END $$;
-- (end of budget windows)

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
    -- TRUNCATE (a statement trigger); interval: also every refresh_interval (windows counted from
    -- 2000-01-01 00:00 UTC, PostgreSQL's timestamp zero), without writing anything.
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
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
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
    -- (Only when there is one: Citus refuses any trigger command on a distributed table.)
    IF EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = relation AND t.tgname = 'pgdp_advance_epoch') THEN
        EXECUTE format('DROP TRIGGER pgdp_advance_epoch ON %s', relation);
    END IF;
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

-- The admins designated before 0.8 (EXECUTE on pgdp.set_budget) manage the cache too.
DO $$
DECLARE
    admin regrole;
BEGIN
    FOR admin IN
        SELECT DISTINCT a.grantee::regrole FROM pg_catalog.pg_proc p, pg_catalog.aclexplode(p.proacl) a
        WHERE p.oid = 'pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint)'::pg_catalog.regprocedure
          AND a.privilege_type = 'EXECUTE' AND a.grantee <> 0 AND a.grantee <> p.proowner
    LOOP
        EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION pgdp.set_refresh_policy(regclass, text, interval), '
                                  'pgdp.refresh(regclass), pgdp.set_cache_group(regrole, name), '
                                  'pgdp.purge_cache(interval, regclass) TO %s', admin);
        EXECUTE pg_catalog.format('GRANT SELECT ON pgdp.data_epochs, pgdp.cache_groups, pgdp.release_cache TO %s', admin);
    END LOOP;
END $$;
COMMENT ON FUNCTION pgdp.designate_admin(regrole) IS 'Superusers only: lets a role set and raise budgets, read every budget and the ledger, protect relations or declare them public, and manage the release cache (epochs, groups, purge).';
