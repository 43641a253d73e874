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
                   'pgdp.grant_access(regclass, regrole), pgdp.revoke_access(regclass, regrole) TO %s', role);
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
                   'pgdp.grant_access(regclass, regrole), pgdp.revoke_access(regclass, regrole) FROM %s', role);
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
