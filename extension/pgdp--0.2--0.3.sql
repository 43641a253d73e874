-- pgdp 0.3: per-role privacy budgets and the ledger (docs/architecture.md "Budgets",
-- docs/privacy.md "Budgets and composition").
--
-- Every release of dp_sum, dp_mean and dp_count is charged to the query's *session user* before
-- the query runs, by the ledger background worker in a transaction of its own that commits with
-- synchronous_commit = on. Analysts cannot write these tables; admins change limits only through
-- the functions below; spent amounts are written by the ledger worker alone and never decrease.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.3'" to load this file. \quit

CREATE SCHEMA pgdp;
REVOKE ALL ON SCHEMA pgdp FROM PUBLIC;
GRANT USAGE ON SCHEMA pgdp TO PUBLIC;
COMMENT ON SCHEMA pgdp IS 'pgdp privacy budgets and ledger (written by the ledger worker and the admin functions only)';

-- One row per role that may release anything. Limits and spent amounts are exact decimals; the
-- epsilon and delta of each release are charged as the shortest decimals that round-trip to the
-- query's float8 arguments, and the mechanisms are calibrated one ulp below them
-- (docs/privacy.md), so sums are exact and the guarantee holds for the decimal limits.
CREATE TABLE pgdp.budgets (
    role regrole PRIMARY KEY,
    epsilon_limit numeric NOT NULL CHECK (epsilon_limit >= 0),
    delta_limit numeric NOT NULL CHECK (delta_limit >= 0 AND delta_limit < 1),
    accounting text NOT NULL DEFAULT 'basic' CHECK (accounting IN ('basic', 'gaussian')),
    -- basic composition part: every release in 'basic' mode, non-Gaussian ones in 'gaussian' mode
    epsilon_spent numeric NOT NULL DEFAULT 0 CHECK (epsilon_spent >= 0),
    delta_spent numeric NOT NULL DEFAULT 0 CHECK (delta_spent >= 0),
    -- Gaussian part ('gaussian' mode): sum of (sensitivity/sigma)^2, rounded up (002 Lemma 15)
    gaussian_mu2 float8 NOT NULL DEFAULT 0 CHECK (gaussian_mu2 >= 0),
    releases bigint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE pgdp.budgets IS 'Per-role privacy budgets: limits set by admins, spent amounts written by the ledger worker';

-- Append-only: one row per release (per aggregate call and grouping set), written by the ledger
-- worker in the same transaction that raises the spent amounts.
CREATE TABLE pgdp.ledger (
    id bigserial PRIMARY KEY,
    charged_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    role regrole NOT NULL,
    charge_id bigint NOT NULL,          -- one per charged query execution
    aggregate text NOT NULL,            -- dp_sum, dp_mean, dp_count, dp_sum_ci, ...
    mechanism text NOT NULL,            -- laplace, gaussian, tlap (resolved from 'auto')
    accounting text NOT NULL,           -- how this release was composed: basic or gaussian
    epsilon numeric NOT NULL,
    delta numeric NOT NULL,
    noise_scale float8 NOT NULL,        -- sigma or Laplace scale of the value release, value units
    sensitivity float8 NOT NULL,        -- declared sensitivity of the value release, value units
    gaussian_mu2 float8 NOT NULL,       -- (sensitivity/sigma)^2 in grid units, rounding charged; 0 if not Gaussian
    query_id bigint,                    -- pg_stat_statements query id when compute_query_id is on
    query_text text,                    -- first 2000 bytes of the statement
    backend_pid int NOT NULL
);
CREATE INDEX ON pgdp.ledger (role, id);
COMMENT ON TABLE pgdp.ledger IS 'Append-only record of every charged release';

CREATE SEQUENCE pgdp.charge_ids;

CREATE FUNCTION pgdp.refuse_ledger_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'pgdp.ledger is append-only'
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'Charges are never refunded; raise a budget with pgdp.raise_budget() instead.';
END $$;
CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON pgdp.ledger
    FOR EACH ROW EXECUTE FUNCTION pgdp.refuse_ledger_change();
CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON pgdp.ledger
    FOR EACH STATEMENT EXECUTE FUNCTION pgdp.refuse_ledger_change();

REVOKE ALL ON pgdp.budgets, pgdp.ledger, pgdp.charge_ids FROM PUBLIC;

-- pg_dump keeps budgets and ledger with the extension.
SELECT pg_catalog.pg_extension_config_dump('pgdp.budgets', '');
SELECT pg_catalog.pg_extension_config_dump('pgdp.ledger', '');
SELECT pg_catalog.pg_extension_config_dump('pgdp.ledger_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pgdp.charge_ids', '');

-- The epsilon a role has spent: the basic part plus the Gaussian part expressed as the smallest
-- epsilon at which the composed Gaussian (sensitivity/sigma = sqrt(mu2)) is private for the
-- delta left over by the basic part (exact profile, 002 Lemma 15 / Balle-Wang).
CREATE FUNCTION pgdp.gaussian_part_epsilon(mu2 float8, delta_room numeric) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_gaussian_part_epsilon'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

CREATE VIEW pgdp.budget_status WITH (security_barrier) AS
SELECT b.role,
       b.accounting,
       b.epsilon_limit,
       b.delta_limit,
       s.epsilon_spent,
       b.delta_spent,
       greatest(b.epsilon_limit - s.epsilon_spent, 0) AS epsilon_remaining,
       greatest(b.delta_limit - b.delta_spent, 0) AS delta_remaining,
       b.gaussian_mu2,
       b.releases,
       b.updated_at
FROM pgdp.budgets b,
     LATERAL (SELECT b.epsilon_spent + coalesce(pgdp.gaussian_part_epsilon(b.gaussian_mu2, b.delta_limit - b.delta_spent)::numeric, 0)
             AS epsilon_spent) s;
COMMENT ON VIEW pgdp.budget_status IS 'Every role''s budget (admins). In gaussian mode epsilon_spent includes the Gaussian part at the delta left over.';

-- What an analyst sees: the session user's own budget and releases.
CREATE VIEW pgdp.my_budget WITH (security_barrier) AS
SELECT * FROM pgdp.budget_status WHERE role = session_user::regrole;
CREATE VIEW pgdp.my_ledger WITH (security_barrier) AS
SELECT id, charged_at, charge_id, aggregate, mechanism, accounting, epsilon, delta, noise_scale, sensitivity,
       gaussian_mu2, query_id, query_text
FROM pgdp.ledger WHERE role = session_user::regrole;
REVOKE ALL ON pgdp.budget_status FROM PUBLIC;
GRANT SELECT ON pgdp.my_budget, pgdp.my_ledger TO PUBLIC;
COMMENT ON VIEW pgdp.my_budget IS 'The budget of the session user (who pays for every release made in the session).';
COMMENT ON VIEW pgdp.my_ledger IS 'The releases charged to the session user.';

-- Admin functions: superusers, and roles designated with pgdp.designate_admin(). They run as the
-- extension owner with a fixed search_path; the privilege to call them is EXECUTE.
CREATE FUNCTION pgdp.set_budget(role regrole, epsilon numeric, delta numeric DEFAULT 0,
                                accounting text DEFAULT 'basic')
RETURNS SETOF pgdp.budget_status
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF role IS NULL THEN
        RAISE EXCEPTION 'role must not be NULL' USING ERRCODE = 'null_value_not_allowed',
            HINT = 'Name the role whose budget to set, e.g. ''alice''.';
    END IF;
    IF epsilon IS NULL OR epsilon < 0 OR epsilon = 'NaN' THEN
        RAISE EXCEPTION 'epsilon must be a number >= 0, got %', coalesce(epsilon::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value', HINT = 'epsilon is the total epsilon the role may spend.';
    END IF;
    IF delta IS NULL OR delta < 0 OR delta >= 1 OR delta = 'NaN' THEN
        RAISE EXCEPTION 'delta must be in [0, 1), got %', coalesce(delta::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value', HINT = 'delta is the total delta the role may spend; 0 allows only pure-DP (laplace) releases.';
    END IF;
    IF accounting IS NULL OR accounting NOT IN ('basic', 'gaussian') THEN
        RAISE EXCEPTION 'accounting must be ''basic'' or ''gaussian'', got %', coalesce(quote_literal(accounting), 'NULL')
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = '''basic'' sums epsilon and delta; ''gaussian'' composes Gaussian releases exactly (002 Lemma 15).';
    END IF;
    INSERT INTO pgdp.budgets AS b (role, epsilon_limit, delta_limit, accounting)
    VALUES (set_budget.role, set_budget.epsilon, set_budget.delta, set_budget.accounting)
    ON CONFLICT ON CONSTRAINT budgets_pkey DO UPDATE
        SET epsilon_limit = excluded.epsilon_limit, delta_limit = excluded.delta_limit,
            accounting = excluded.accounting, updated_at = now();
    RETURN QUERY SELECT * FROM pgdp.budget_status s WHERE s.role = set_budget.role;
END $$;
COMMENT ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text) IS
    'Creates or changes a role''s limits and accounting mode; spent amounts are kept (never refunded).';

CREATE FUNCTION pgdp.raise_budget(role regrole, epsilon numeric, delta numeric DEFAULT 0)
RETURNS SETOF pgdp.budget_status
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF epsilon IS NULL OR epsilon < 0 OR epsilon = 'NaN' OR delta IS NULL OR delta < 0 OR delta = 'NaN' THEN
        RAISE EXCEPTION 'epsilon and delta must be numbers >= 0'
            USING ERRCODE = 'invalid_parameter_value', HINT = 'raise_budget adds to the limits; use set_budget to lower them.';
    END IF;
    UPDATE pgdp.budgets b SET epsilon_limit = b.epsilon_limit + raise_budget.epsilon,
                              delta_limit = b.delta_limit + raise_budget.delta, updated_at = now()
    WHERE b.role = raise_budget.role;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'role % has no budget', coalesce(role::text, 'NULL') USING ERRCODE = 'undefined_object',
            HINT = 'Create one with pgdp.set_budget(role, epsilon, delta).';
    END IF;
    RETURN QUERY SELECT * FROM pgdp.budget_status s WHERE s.role = raise_budget.role;
END $$;
COMMENT ON FUNCTION pgdp.raise_budget(regrole, numeric, numeric) IS 'Adds epsilon and delta to a role''s limits.';

CREATE FUNCTION pgdp.designate_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can designate pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('GRANT EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text), '
                   'pgdp.raise_budget(regrole, numeric, numeric) TO %s', role);
    EXECUTE format('GRANT SELECT ON pgdp.budget_status, pgdp.ledger TO %s', role);
END $$;
CREATE FUNCTION pgdp.revoke_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can revoke pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('REVOKE EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text), '
                   'pgdp.raise_budget(regrole, numeric, numeric) FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.budget_status, pgdp.ledger FROM %s', role);
END $$;
REVOKE ALL ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text), pgdp.raise_budget(regrole, numeric, numeric),
                       pgdp.designate_admin(regrole), pgdp.revoke_admin(regrole), pgdp.refuse_ledger_change()
    FROM PUBLIC;
COMMENT ON FUNCTION pgdp.designate_admin(regrole) IS 'Superusers only: lets a role set and raise budgets and read every budget and the ledger.';

-- Which process would charge this session's releases, and whether charging is possible here.
CREATE FUNCTION pgdp.ledger_ready() RETURNS boolean
AS 'MODULE_PATHNAME', 'pgdp_ledger_ready' LANGUAGE C STABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION pgdp.ledger_ready() IS
    'True when pgdp is in shared_preload_libraries and the server is not in recovery, i.e. releases can be charged.';
