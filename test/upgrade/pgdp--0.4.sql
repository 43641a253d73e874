-- pgdp 0.4, frozen: the install script of the first release, kept only so that the upgrade test
-- (sql/upgrade.sql) can install 0.4 and update it to the current version. Not shipped: the
-- Makefile's DATA does not list it; scripts/test.sh installs it into the test PostgreSQL
-- (make install-upgrade-test-script).
--
-- It is the pre-release chain a fresh 0.4 install replayed, concatenated unchanged in the order
-- it ran: pgdp--0.1.sql, pgdp--0.1--0.2.sql, pgdp--0.2--0.3.sql, pgdp--0.3--0.4.sql (removed
-- from extension/ in 0.5; their history is in git), with only their \echo guard lines merged
-- into the one below. Do not edit: it must stay what 0.4 users installed.
\echo Use "CREATE EXTENSION pgdp VERSION '0.4'" to load this file. \quit

-- =============================================================================================
-- pgdp--0.1.sql
-- pgdp 0.1: the calibration library and the secure samplers.

-- ---------------------------------------------------------------------------------------------
-- Gaussian calibration

CREATE FUNCTION gaussian_sigma(epsilon float8, delta float8, sensitivity float8 DEFAULT 1,
                               method text DEFAULT 'analytic')
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_gaussian_sigma'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gaussian_sigma(float8, float8, float8, text) IS
'Standard deviation of Gaussian noise giving (epsilon, delta)-DP for L2 sensitivity `sensitivity`. '
'Methods: analytic (optimal, default), classic, dwork2006, vinterbo, vinterbo_closed, zhao1, zhao2, '
'pdp, zhao3, zhao4, zcdp. See docs/mechanisms.md.';

CREATE FUNCTION gaussian_delta(sigma float8, epsilon float8, sensitivity float8 DEFAULT 1)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_gaussian_delta'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gaussian_delta(float8, float8, float8) IS
'Exact delta of Gaussian noise sigma at epsilon (Balle-Wang privacy profile).';

CREATE FUNCTION gaussian_epsilon(sigma float8, delta float8, sensitivity float8 DEFAULT 1)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_gaussian_epsilon'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gaussian_epsilon(float8, float8, float8) IS
'Smallest epsilon for which Gaussian noise sigma is (epsilon, delta)-DP (exact profile, rounded up).';

CREATE FUNCTION gaussian_accuracy(epsilon float8, delta float8, sensitivity float8 DEFAULT 1,
                                  alpha float8 DEFAULT 0.05, method text DEFAULT 'analytic')
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_gaussian_accuracy'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION gaussian_accuracy(float8, float8, float8, float8, text) IS
'Half-width a with P(|noise| > a) = alpha for the Gaussian noise gaussian_sigma(epsilon, delta, sensitivity, method).';

-- ---------------------------------------------------------------------------------------------
-- Truncated Laplace (Geng et al.)

CREATE FUNCTION tlap_params(epsilon float8, delta float8, sensitivity float8 DEFAULT 1,
                            OUT lambda float8, OUT bound float8, OUT amplitude float8,
                            OUT power float8)
RETURNS record
AS 'MODULE_PATHNAME', 'pgdp_tlap_params'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION tlap_params(float8, float8, float8) IS
'Truncated Laplace mechanism for (epsilon, delta)-DP, 0 < delta < 1/2: scale lambda, bound A, '
'noise amplitude E|X| and power E X^2.';

CREATE FUNCTION tlap_accuracy(epsilon float8, delta float8, sensitivity float8 DEFAULT 1,
                              alpha float8 DEFAULT 0.05)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_tlap_accuracy'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION tlap_accuracy(float8, float8, float8, float8) IS
'Half-width a with P(|noise| > a) = alpha for the truncated Laplace mechanism.';

-- ---------------------------------------------------------------------------------------------
-- Samplers: exact discrete noise on a power-of-two grid from pg_strong_random. PARALLEL
-- RESTRICTED because the superuser-only pgdp.test_seed generator is per process.

CREATE FUNCTION gaussian_noise(sigma float8)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_gaussian_noise'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION gaussian_noise(float8) IS
'One draw of discrete Gaussian noise with standard deviation sigma on a power-of-two grid.';

CREATE FUNCTION laplace_noise(scale float8)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_laplace_noise'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION laplace_noise(float8) IS
'One draw of discrete Laplace noise with scale `scale` on a power-of-two grid.';

CREATE FUNCTION tlap_noise(epsilon float8, delta float8, sensitivity float8 DEFAULT 1)
RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_tlap_noise'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION tlap_noise(float8, float8, float8) IS
'One draw of truncated discrete Laplace noise for (epsilon, delta) and sensitivity.';

-- =============================================================================================
-- pgdp--0.1--0.2.sql
-- pgdp 0.2: the private aggregates dp_sum, dp_mean and dp_count.

-- Support functions. The state is an internal fixed-point total; noise is added only by the final
-- functions, which PostgreSQL never calls twice on one state (FINALFUNC_MODIFY = READ_WRITE).
CREATE FUNCTION pgdp_state_combine(internal, internal) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_state_combine' LANGUAGE C PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_state_combine(internal, internal) IS 'pgdp aggregates: exact merge of partial states';

CREATE FUNCTION pgdp_state_serialize(internal) RETURNS bytea
AS 'MODULE_PATHNAME', 'pgdp_state_serialize' LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_state_serialize(internal) IS 'pgdp aggregates: versioned state for parallel workers';

CREATE FUNCTION pgdp_state_deserialize(bytea, internal) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_state_deserialize' LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_state_deserialize(bytea, internal) IS 'pgdp aggregates: validated state from parallel workers';

CREATE FUNCTION pgdp_sum_final_int8(internal) RETURNS int8
AS 'MODULE_PATHNAME', 'pgdp_sum_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_sum_final_float8(internal) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_sum_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_sum_final_numeric(internal) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_sum_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_mean_final_float8(internal) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_mean_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_mean_final_numeric(internal) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_mean_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_count_final(internal) RETURNS int8
AS 'MODULE_PATHNAME', 'pgdp_count_final' LANGUAGE C PARALLEL SAFE;

-- A release with its error bars, for dashboards: one call gives the value, an interval that
-- contains the exact (clamped) value with probability >= 1 - alpha, the noise's standard
-- deviation, alpha and the mechanism actually used ('auto' resolved). Computed from the noisy
-- value and public parameters only.
CREATE TYPE dp_release AS (value float8, ci_lower float8, ci_upper float8, noise_sd float8,
                           alpha float8, mechanism text);
COMMENT ON TYPE dp_release IS 'A differentially private release with its (1 - alpha) interval and noise scale';

CREATE FUNCTION pgdp_sum_ci_final(internal) RETURNS dp_release
AS 'MODULE_PATHNAME', 'pgdp_sum_ci_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_mean_ci_final(internal) RETURNS dp_release
AS 'MODULE_PATHNAME', 'pgdp_mean_ci_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_count_ci_final(internal) RETURNS dp_release
AS 'MODULE_PATHNAME', 'pgdp_count_ci_final' LANGUAGE C PARALLEL SAFE;

-- dp_sum and dp_mean for every value type and each of the three forms:
--   (value, lower, upper, epsilon)                   pure epsilon-DP, Laplace
--   (value, lower, upper, epsilon, delta)            mechanism 'auto'
--   (value, lower, upper, epsilon, delta, mechanism) 'gaussian', 'tlap', 'laplace' or 'auto'
DO $generate$
DECLARE
    value_type text;
    parameters text;
    sum_final text;
    mean_final text;
BEGIN
    FOREACH value_type IN ARRAY ARRAY['int2', 'int4', 'int8', 'float4', 'float8', 'numeric'] LOOP
        sum_final := CASE WHEN value_type IN ('int2', 'int4', 'int8') THEN 'pgdp_sum_final_int8'
                          WHEN value_type = 'numeric' THEN 'pgdp_sum_final_numeric'
                          ELSE 'pgdp_sum_final_float8' END;
        mean_final := CASE WHEN value_type = 'numeric' THEN 'pgdp_mean_final_numeric'
                           ELSE 'pgdp_mean_final_float8' END;
        FOREACH parameters IN ARRAY ARRAY['float8, float8, float8', 'float8, float8, float8, float8',
                                          'float8, float8, float8, float8, text'] LOOP
            EXECUTE format('CREATE FUNCTION pgdp_clamped_transfn(internal, %s, %s) RETURNS internal '
                           'AS ''MODULE_PATHNAME'', ''pgdp_clamped_transfn'' LANGUAGE C PARALLEL SAFE',
                           value_type, parameters);
            EXECUTE format('CREATE AGGREGATE dp_sum(%s, %s) (SFUNC = pgdp_clamped_transfn, STYPE = internal, '
                           'SSPACE = 32, FINALFUNC = %s, FINALFUNC_MODIFY = READ_WRITE, '
                           'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                           'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)',
                           value_type, parameters, sum_final);
            EXECUTE format('CREATE AGGREGATE dp_mean(%s, %s) (SFUNC = pgdp_clamped_transfn, STYPE = internal, '
                           'SSPACE = 32, FINALFUNC = %s, FINALFUNC_MODIFY = READ_WRITE, '
                           'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                           'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)',
                           value_type, parameters, mean_final);
            EXECUTE format('CREATE FUNCTION pgdp_clamped_ci_transfn(internal, %s, %s, float8) RETURNS internal '
                           'AS ''MODULE_PATHNAME'', ''pgdp_clamped_ci_transfn'' LANGUAGE C PARALLEL SAFE',
                           value_type, parameters);
            EXECUTE format('CREATE AGGREGATE dp_sum_ci(%s, %s, alpha float8) (SFUNC = pgdp_clamped_ci_transfn, '
                           'STYPE = internal, SSPACE = 32, FINALFUNC = pgdp_sum_ci_final, FINALFUNC_MODIFY = READ_WRITE, '
                           'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                           'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)', value_type, parameters);
            EXECUTE format('CREATE AGGREGATE dp_mean_ci(%s, %s, alpha float8) (SFUNC = pgdp_clamped_ci_transfn, '
                           'STYPE = internal, SSPACE = 32, FINALFUNC = pgdp_mean_ci_final, FINALFUNC_MODIFY = READ_WRITE, '
                           'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                           'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)', value_type, parameters);
            EXECUTE format('COMMENT ON AGGREGATE dp_sum_ci(%s, %s, float8) IS %L', value_type, parameters,
                           'dp_sum with its (1 - alpha) interval and noise scale, as a dp_release record.');
            EXECUTE format('COMMENT ON AGGREGATE dp_mean_ci(%s, %s, float8) IS %L', value_type, parameters,
                           'dp_mean with its (1 - alpha) interval (union bound over sum and count) and noise scale.');
            EXECUTE format('COMMENT ON AGGREGATE dp_sum(%s, %s) IS %L', value_type, parameters,
                           'Differentially private sum of values clamped to [lower, upper]; sensitivity max(|lower|, |upper|).');
            EXECUTE format('COMMENT ON AGGREGATE dp_mean(%s, %s) IS %L', value_type, parameters,
                           'Differentially private mean of values clamped to [lower, upper]; half the budget on the centred sum, half on the count.');
        END LOOP;
    END LOOP;
    FOREACH parameters IN ARRAY ARRAY['float8', 'float8, float8', 'float8, float8, text'] LOOP
        EXECUTE format('CREATE FUNCTION pgdp_count_transfn(internal, %s) RETURNS internal '
                       'AS ''MODULE_PATHNAME'', ''pgdp_count_transfn'' LANGUAGE C PARALLEL SAFE', parameters);
        EXECUTE format('CREATE AGGREGATE dp_count(%s) (SFUNC = pgdp_count_transfn, STYPE = internal, '
                       'SSPACE = 32, FINALFUNC = pgdp_count_final, FINALFUNC_MODIFY = READ_WRITE, '
                       'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                       'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)', parameters);
        EXECUTE format('CREATE FUNCTION pgdp_count_ci_transfn(internal, %s, float8) RETURNS internal '
                       'AS ''MODULE_PATHNAME'', ''pgdp_count_ci_transfn'' LANGUAGE C PARALLEL SAFE', parameters);
        EXECUTE format('CREATE AGGREGATE dp_count_ci(%s, alpha float8) (SFUNC = pgdp_count_ci_transfn, '
                       'STYPE = internal, SSPACE = 32, FINALFUNC = pgdp_count_ci_final, FINALFUNC_MODIFY = READ_WRITE, '
                       'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                       'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)', parameters);
        EXECUTE format('COMMENT ON AGGREGATE dp_count_ci(%s, float8) IS %L', parameters,
                       'dp_count with its (1 - alpha) interval and noise scale, as a dp_release record.');
        EXECUTE format('COMMENT ON AGGREGATE dp_count(%s) IS %L', parameters,
                       'Differentially private count of the rows of the group; sensitivity 1.');
    END LOOP;
END
$generate$;

-- =============================================================================================
-- pgdp--0.2--0.3.sql
-- pgdp 0.3: per-role privacy budgets and the ledger (docs/architecture.md "Budgets",
-- docs/privacy.md "Budgets and composition").
--
-- Every release of dp_sum, dp_mean and dp_count is charged to the query's *session user* before
-- the query runs, by the ledger background worker in a transaction of its own that commits with
-- synchronous_commit = on. Analysts cannot write these tables; admins change limits only through
-- the functions below; spent amounts are written by the ledger worker alone and never decrease.

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

-- =============================================================================================
-- pgdp--0.3--0.4.sql
-- pgdp 0.4: per-role release limits (epsilon floor, release quota), a compact ledger (one row per
-- charge), the gaussian accounting mode as a split fixed when the budget is set, and bounded
-- display of exact numerics (docs/privacy.md "Budgets and composition", docs/architecture.md
-- "Budgets and the ledger").

-- ---------------------------------------------------------------------------------------------
-- Readable numerics. The tables keep exact decimals; views and messages show them bounded.

-- x with at most 15 significant digits and at most 40 decimals, rounded toward +infinity (up)
-- or toward zero (down); values that already fit are returned unchanged (same scale), so
-- ordinary sums such as 1.50 print as before. Spent amounts are shown rounded up and limits and
-- remaining amounts rounded down: a displayed budget never looks larger than it is.
CREATE FUNCTION pgdp.bounded_numeric(x numeric, up boolean) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    places int;
    cut numeric;
BEGIN
    IF x = 0 OR x = 'NaN' OR x IN ('Infinity', '-Infinity') THEN
        RETURN x;
    END IF;
    -- decimals kept: 14 below the leading digit, at most 40 (negative: digits left of the point)
    places := least(14 - floor(log(abs(x)))::int, 40);
    IF scale(x) <= places THEN
        RETURN x;
    END IF;
    cut := trunc(x, places);
    IF up AND cut < x THEN
        cut := cut + ('1e' || (-places)::text)::numeric;
    END IF;
    RETURN trim_scale(cut);
END $$;
COMMENT ON FUNCTION pgdp.bounded_numeric(numeric, boolean) IS
    'x rounded (up or toward zero) to at most 15 significant digits and 40 decimals, for display; exact values stay in pgdp.budgets';

-- A numeric for an error message: as typed when short, else about 6 significant digits with an
-- exponent and the number of digits it had (a 1000-digit argument is not echoed whole).
CREATE FUNCTION pgdp.numeric_for_message(x numeric) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    shown text;
    exponent int;
    mantissa numeric;
BEGIN
    IF x IS NULL THEN
        RETURN 'NULL';
    END IF;
    shown := trim_scale(x)::text;
    IF length(shown) <= 24 OR x = 0 OR x = 'NaN' OR x IN ('Infinity', '-Infinity') THEN
        RETURN shown;
    END IF;
    exponent := floor(log(abs(x)))::int;
    mantissa := round(x / ('1e' || exponent::text)::numeric, 5);
    IF abs(mantissa) >= 10 THEN  -- 9.999996 rounded up
        mantissa := round(mantissa / 10, 5);
        exponent := exponent + 1;
    END IF;
    RETURN mantissa::text || CASE WHEN exponent = 0 THEN '' ELSE 'e' || exponent::text END
           || ' (rounded from ' || length(shown) || ' characters)';
END $$;
COMMENT ON FUNCTION pgdp.numeric_for_message(numeric) IS 'A numeric shown in at most about 40 characters, for error messages';

-- ---------------------------------------------------------------------------------------------
-- Budgets: release limits and the fixed split of gaussian accounting.
ALTER TABLE pgdp.budgets
    -- The Gaussian part of a 'gaussian' budget (E_g, D_g): Gaussian releases compose in it as one
    -- Gaussian (sum of mu_i^2 <= mu^2, mu the largest with delta_mu(E_g) <= D_g); every other
    -- release is charged to the basic part (E - E_g, D - D_g). Both 0 in 'basic' mode.
    ADD COLUMN gaussian_epsilon_limit numeric NOT NULL DEFAULT 0 CHECK (gaussian_epsilon_limit >= 0),
    ADD COLUMN gaussian_delta_limit numeric NOT NULL DEFAULT 0 CHECK (gaussian_delta_limit >= 0),
    -- The smallest epsilon of one release (a release below is refused, nothing charged).
    ADD COLUMN min_epsilon numeric NOT NULL DEFAULT 0.0001 CHECK (min_epsilon > 0),
    -- At most this many releases in all (pgdp.budgets.releases).
    ADD COLUMN release_limit bigint NOT NULL DEFAULT 100000 CHECK (release_limit >= 0),
    ADD CONSTRAINT budgets_split_within_limits
        CHECK (gaussian_epsilon_limit <= epsilon_limit AND gaussian_delta_limit <= delta_limit);

-- 0.3 roles in gaussian mode (or with Gaussian releases from an earlier gaussian mode, which 0.3
-- kept counting in basic mode): the coupled check gave the Gaussian part everything the basic part
-- had not spent. The split keeps exactly that room for the Gaussian releases already made (they
-- were checked against it) and closes the basic part; roles that spent nothing get the default
-- split of set_budget (half of each limit). An admin can change it with set_budget.
UPDATE pgdp.budgets SET
    gaussian_epsilon_limit = CASE WHEN epsilon_spent = 0 AND delta_spent = 0 AND gaussian_mu2 = 0 AND delta_limit > 0
                                  THEN trim_scale(epsilon_limit / 2)
                                  WHEN delta_limit > delta_spent THEN greatest(epsilon_limit - epsilon_spent, 0)
                                  ELSE 0 END,
    gaussian_delta_limit = CASE WHEN epsilon_spent = 0 AND delta_spent = 0 AND gaussian_mu2 = 0
                                THEN trim_scale(delta_limit / 2)
                                ELSE greatest(delta_limit - delta_spent, 0) END
WHERE accounting = 'gaussian' OR gaussian_mu2 > 0;

-- ---------------------------------------------------------------------------------------------
-- The compact ledger: one row per charge (one charged query execution), the query text once and
-- the releases of the charge as parallel arrays (element i of each array is release i).
-- Why arrays rather than a child table of releases: a charge is written once, atomically, by the
-- ledger worker and never changed; one heap tuple and one index entry per charge (instead of one
-- per release) is what makes a 64-release query cost about as much as a 1-release one, and rows
-- above 2 kB are compressed by TOAST (the releases of one query are alike). The per-release view
-- below unnests them for readers.
CREATE TABLE pgdp.charges (
    charge_id bigint PRIMARY KEY,           -- from pgdp.charge_ids
    charged_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    role regrole NOT NULL,
    backend_pid int NOT NULL,
    query_id bigint,                        -- pg_stat_statements query id when compute_query_id is on
    query_text text,                        -- first 2000 bytes of the statement
    aggregates text[] NOT NULL,             -- dp_sum, dp_mean, dp_count, dp_sum_ci, ...
    mechanisms text[] NOT NULL,             -- laplace, gaussian, tlap (resolved from 'auto')
    gaussian_part boolean[] NOT NULL,       -- composed in the Gaussian part (else: basic part)
    epsilons numeric[] NOT NULL,            -- as charged: the shortest decimal of the float8 argument
    deltas numeric[] NOT NULL,
    noise_scales float8[] NOT NULL,         -- sigma or Laplace scale of the value release, value units
    sensitivities float8[] NOT NULL,        -- declared sensitivity of the value release, value units
    gaussian_mu2s float8[] NOT NULL,        -- (sensitivity/sigma)^2 in grid units, rounding charged; 0 if not Gaussian
    CONSTRAINT charges_one_entry_per_release CHECK (
        cardinality(aggregates) >= 1 AND cardinality(mechanisms) = cardinality(aggregates)
        AND cardinality(gaussian_part) = cardinality(aggregates) AND cardinality(epsilons) = cardinality(aggregates)
        AND cardinality(deltas) = cardinality(aggregates) AND cardinality(noise_scales) = cardinality(aggregates)
        AND cardinality(sensitivities) = cardinality(aggregates) AND cardinality(gaussian_mu2s) = cardinality(aggregates))
);
CREATE INDEX ON pgdp.charges (role, charge_id);
COMMENT ON TABLE pgdp.charges IS 'Append-only record of every charge: one row per charged query, its releases as arrays';

-- The 0.3 ledger's rows, one charge per charge_id, releases in their original order.
INSERT INTO pgdp.charges (charge_id, charged_at, role, backend_pid, query_id, query_text, aggregates, mechanisms,
                          gaussian_part, epsilons, deltas, noise_scales, sensitivities, gaussian_mu2s)
SELECT charge_id, min(charged_at), (array_agg(role ORDER BY id))[1], (array_agg(backend_pid ORDER BY id))[1],
       (array_agg(query_id ORDER BY id))[1], (array_agg(query_text ORDER BY id))[1],
       array_agg(aggregate ORDER BY id), array_agg(mechanism ORDER BY id), array_agg(accounting = 'gaussian' ORDER BY id),
       array_agg(epsilon ORDER BY id), array_agg(delta ORDER BY id), array_agg(noise_scale ORDER BY id),
       array_agg(sensitivity ORDER BY id), array_agg(gaussian_mu2 ORDER BY id)
FROM pgdp.ledger GROUP BY charge_id;

-- Designated admins of 0.3 (EXECUTE on the old set_budget, granted by designate_admin) keep
-- their privileges on the new objects.
SELECT set_config('pgdp_upgrade.admins', coalesce(string_agg(a.grantee::text, ','), ''), true)
FROM pg_proc p, aclexplode(p.proacl) a
WHERE p.oid = 'pgdp.set_budget(regrole, numeric, numeric, text)'::regprocedure
  AND a.privilege_type = 'EXECUTE' AND a.grantee <> p.proowner AND a.grantee <> 0;

DROP VIEW pgdp.my_ledger;
DROP VIEW pgdp.my_budget;
DROP FUNCTION pgdp.set_budget(regrole, numeric, numeric, text);
DROP FUNCTION pgdp.raise_budget(regrole, numeric, numeric);
DROP VIEW pgdp.budget_status;
DROP TABLE pgdp.ledger;  -- with its sequence pgdp.ledger_id_seq; leaves the extension's dump list

CREATE TRIGGER charges_append_only BEFORE UPDATE OR DELETE ON pgdp.charges
    FOR EACH ROW EXECUTE FUNCTION pgdp.refuse_ledger_change();
CREATE TRIGGER charges_no_truncate BEFORE TRUNCATE ON pgdp.charges
    FOR EACH STATEMENT EXECUTE FUNCTION pgdp.refuse_ledger_change();
CREATE OR REPLACE FUNCTION pgdp.refuse_ledger_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the pgdp ledger (pgdp.charges) is append-only'
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'Charges are never refunded; raise a budget with pgdp.raise_budget() instead.';
END $$;
REVOKE ALL ON pgdp.charges FROM PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('pgdp.charges', '');

-- One row per release, for admins (the 0.3 table's columns; release numbers the releases of one
-- charge from 1).
CREATE VIEW pgdp.ledger WITH (security_barrier) AS
SELECT c.charge_id, r.release, c.charged_at, c.role, r.aggregate, r.mechanism,
       CASE WHEN r.gaussian_part THEN 'gaussian' ELSE 'basic' END AS accounting,
       r.epsilon, r.delta, r.noise_scale, r.sensitivity, r.gaussian_mu2, c.query_id, c.query_text, c.backend_pid
FROM pgdp.charges c,
     LATERAL unnest(c.aggregates, c.mechanisms, c.gaussian_part, c.epsilons, c.deltas, c.noise_scales,
                    c.sensitivities, c.gaussian_mu2s)
             WITH ORDINALITY AS r(aggregate, mechanism, gaussian_part, epsilon, delta, noise_scale, sensitivity,
                                  gaussian_mu2, release);
COMMENT ON VIEW pgdp.ledger IS 'Every charged release, one row each (admins); stored compactly in pgdp.charges';

-- ---------------------------------------------------------------------------------------------
-- Views. Exact values are in pgdp.budgets; these show them bounded (pgdp.bounded_numeric).
-- Spent amounts in gaussian mode: the basic part's sums plus, once a Gaussian release was made,
-- the Gaussian part at its own delta: (epsilon of the composed Gaussian at D_g, D_g).
CREATE VIEW pgdp.budget_status WITH (security_barrier) AS
SELECT b.role,
       b.accounting,
       pgdp.bounded_numeric(b.epsilon_limit, false) AS epsilon_limit,
       pgdp.bounded_numeric(b.delta_limit, false) AS delta_limit,
       pgdp.bounded_numeric(s.epsilon_spent, true) AS epsilon_spent,
       pgdp.bounded_numeric(s.delta_spent, true) AS delta_spent,
       pgdp.bounded_numeric(greatest(b.epsilon_limit - s.epsilon_spent, 0), false) AS epsilon_remaining,
       pgdp.bounded_numeric(greatest(b.delta_limit - s.delta_spent, 0), false) AS delta_remaining,
       b.gaussian_mu2,
       b.releases,
       b.updated_at,
       pgdp.bounded_numeric(b.gaussian_epsilon_limit, false) AS gaussian_epsilon_limit,
       pgdp.bounded_numeric(b.gaussian_delta_limit, false) AS gaussian_delta_limit,
       pgdp.bounded_numeric(b.min_epsilon, true) AS min_epsilon,
       b.release_limit
FROM pgdp.budgets b,
     LATERAL (SELECT b.epsilon_spent
                     + CASE WHEN b.gaussian_mu2 > 0
                            THEN coalesce(pgdp.gaussian_part_epsilon(b.gaussian_mu2, b.gaussian_delta_limit)::numeric,
                                          'Infinity')
                            ELSE 0 END AS epsilon_spent,
                     b.delta_spent + CASE WHEN b.gaussian_mu2 > 0 THEN b.gaussian_delta_limit ELSE 0 END AS delta_spent) s;
COMMENT ON VIEW pgdp.budget_status IS
    'Every role''s budget (admins), numerics bounded for display. In gaussian mode spent amounts include the Gaussian part at its delta.';

CREATE VIEW pgdp.my_budget WITH (security_barrier) AS
SELECT * FROM pgdp.budget_status WHERE role = session_user::regrole;
CREATE VIEW pgdp.my_ledger WITH (security_barrier) AS
SELECT charge_id, release, charged_at, aggregate, mechanism, accounting, epsilon, delta, noise_scale, sensitivity,
       gaussian_mu2, query_id, query_text
FROM pgdp.ledger WHERE role = session_user::regrole;
REVOKE ALL ON pgdp.budget_status, pgdp.ledger FROM PUBLIC;
GRANT SELECT ON pgdp.my_budget, pgdp.my_ledger TO PUBLIC;
COMMENT ON VIEW pgdp.my_budget IS 'The budget of the session user (who pays for every release made in the session).';
COMMENT ON VIEW pgdp.my_ledger IS 'The releases charged to the session user, one row each.';

-- ---------------------------------------------------------------------------------------------
-- Admin functions.

-- Raises 22023 (22004 for NULL) for an argument that is not a number in [0, upper] (upper_open:
-- [0, upper)), naming the argument and showing its value bounded.
CREATE FUNCTION pgdp.check_budget_argument(name text, value numeric, upper numeric, upper_shown text,
                                           upper_open boolean, hint text)
RETURNS void LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF value IS NULL OR value = 'NaN' OR value < 0 OR (upper_open AND value >= upper) OR (NOT upper_open AND value > upper) THEN
        RAISE EXCEPTION '%', format('%s must be a number in [0, %s%s, got %s', name, upper_shown,
                                    CASE WHEN upper_open THEN ')' ELSE ']' END, pgdp.numeric_for_message(value))
            USING ERRCODE = CASE WHEN value IS NULL THEN 'null_value_not_allowed' ELSE 'invalid_parameter_value' END,
                  HINT = hint;
    END IF;
END $$;

CREATE FUNCTION pgdp.set_budget(role regrole, epsilon numeric, delta numeric DEFAULT 0,
                                accounting text DEFAULT 'basic',
                                gaussian_epsilon numeric DEFAULT NULL, gaussian_delta numeric DEFAULT NULL,
                                min_epsilon numeric DEFAULT NULL, release_limit bigint DEFAULT NULL)
RETURNS SETOF pgdp.budget_status
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    current pgdp.budgets;
    split_epsilon numeric;
    split_delta numeric;
BEGIN
    IF role IS NULL THEN
        RAISE EXCEPTION 'role must not be NULL' USING ERRCODE = 'null_value_not_allowed',
            HINT = 'Name the role whose budget to set, e.g. ''alice''.';
    END IF;
    PERFORM pgdp.check_budget_argument('epsilon', epsilon, 1e18, '1e18', false,
        'epsilon is the total epsilon the role may spend (at most 1e18, far beyond any meaningful guarantee).');
    PERFORM pgdp.check_budget_argument('delta', delta, 1, '1', true,
        'delta is the total delta the role may spend; 0 allows only pure-DP (laplace) releases.');
    IF accounting IS NULL OR accounting NOT IN ('basic', 'gaussian') THEN
        RAISE EXCEPTION 'accounting must be ''basic'' or ''gaussian'', got %',
            coalesce(quote_literal(left(accounting, 40)) || CASE WHEN length(accounting) > 40 THEN '...' ELSE '' END, 'NULL')
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = '''basic'' sums epsilon and delta; ''gaussian'' also composes Gaussian releases exactly in a part of the budget (gaussian_epsilon, gaussian_delta).';
    END IF;
    IF accounting = 'basic' THEN
        IF coalesce(gaussian_epsilon, 0) <> 0 OR coalesce(gaussian_delta, 0) <> 0 THEN
            RAISE EXCEPTION 'gaussian_epsilon and gaussian_delta apply to gaussian accounting only, got % and %',
                pgdp.numeric_for_message(gaussian_epsilon), pgdp.numeric_for_message(gaussian_delta)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Pass accounting => ''gaussian'' to give Gaussian releases a part of the budget, or leave them out.';
        END IF;
        split_epsilon := 0;
        split_delta := 0;
    ELSE
        -- The documented default: half of each limit to the Gaussian part (none without delta).
        split_epsilon := coalesce(gaussian_epsilon, CASE WHEN delta > 0 THEN trim_scale(epsilon / 2) ELSE 0 END);
        split_delta := coalesce(gaussian_delta, trim_scale(delta / 2));
        PERFORM pgdp.check_budget_argument('gaussian_epsilon', split_epsilon, epsilon, 'epsilon', false,
            'gaussian_epsilon is the part of epsilon given to Gaussian releases (0 <= gaussian_epsilon <= epsilon; default epsilon/2).');
        PERFORM pgdp.check_budget_argument('gaussian_delta', split_delta, delta, 'delta', false,
            'gaussian_delta is the part of delta given to Gaussian releases (0 <= gaussian_delta <= delta; default delta/2).');
        -- A Gaussian part is both 0 (none: Gaussian releases are charged to the basic part) or at
        -- least (1e-6, 1e-30), where the profile evaluation is verified against a 50-digit
        -- reference (test/unit/test_budget_accounting.cpp, GaussianMu2LimitIsPrivateAndTight).
        IF (split_epsilon <> 0 OR split_delta <> 0) AND (split_epsilon < 1e-6 OR split_delta < 1e-30) THEN
            RAISE EXCEPTION '%', format('the Gaussian part must be 0 or at least gaussian_epsilon 1e-6 and gaussian_delta 1e-30, got %s and %s',
                                        pgdp.numeric_for_message(split_epsilon), pgdp.numeric_for_message(split_delta))
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'No Gaussian release is private with delta 0; gaussian_epsilon => 0, gaussian_delta => 0 charges Gaussian releases to the basic part.';
        END IF;
    END IF;
    IF min_epsilon IS NOT NULL AND (min_epsilon = 'NaN' OR min_epsilon <= 0 OR min_epsilon > 1e18) THEN
        RAISE EXCEPTION 'min_epsilon must be a number in (0, 1e18], got %', pgdp.numeric_for_message(min_epsilon)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'min_epsilon is the smallest epsilon of one release the role may make (default 0.0001).';
    END IF;
    IF release_limit IS NOT NULL AND release_limit < 0 THEN
        RAISE EXCEPTION 'release_limit must be >= 0, got %', release_limit
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'release_limit is the number of releases the role may make in all (default 100000).';
    END IF;

    SELECT * INTO current FROM pgdp.budgets b WHERE b.role = set_budget.role FOR UPDATE;
    IF FOUND THEN
        -- What each part has spent must fit its new limits, or the role's releases together
        -- could exceed (epsilon, delta) (docs/privacy.md "Gaussian accounting").
        IF accounting = 'gaussian' AND (current.epsilon_spent > epsilon - split_epsilon OR current.delta_spent > delta - split_delta) THEN
            RAISE EXCEPTION 'the basic part of the budget of role % would be smaller than what it has spent', role
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = format('Basic part: epsilon %s - gaussian_epsilon %s, delta %s - gaussian_delta %s; spent: epsilon %s, delta %s.',
                                      pgdp.numeric_for_message(epsilon), pgdp.numeric_for_message(split_epsilon),
                                      pgdp.numeric_for_message(delta), pgdp.numeric_for_message(split_delta),
                                      pgdp.numeric_for_message(pgdp.bounded_numeric(current.epsilon_spent, true)),
                                      pgdp.numeric_for_message(pgdp.bounded_numeric(current.delta_spent, true))),
                      HINT = 'Give the Gaussian part less (gaussian_epsilon, gaussian_delta) or raise epsilon and delta.';
        END IF;
        IF current.gaussian_mu2 > 0 AND (split_delta = 0 OR NOT
               @extschema@.gaussian_delta(1 / sqrt(current.gaussian_mu2 * (1 + 1e-12)), (split_epsilon * (1 - 1e-9))::float8)
                   <= (split_delta * (1 - 1e-9))::float8) THEN
            RAISE EXCEPTION 'the Gaussian part of the budget of role % would be smaller than what it has spent', role
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = format('Its Gaussian releases compose to sensitivity/sigma %s, which is not (%s, %s)-DP.',
                                      round(sqrt(current.gaussian_mu2)::numeric, 6),
                                      pgdp.numeric_for_message(split_epsilon), pgdp.numeric_for_message(split_delta)),
                      HINT = 'Keep accounting => ''gaussian'' and give the Gaussian part at least what it has spent.';
        END IF;
    END IF;
    INSERT INTO pgdp.budgets AS b (role, epsilon_limit, delta_limit, accounting, gaussian_epsilon_limit,
                                   gaussian_delta_limit, min_epsilon, release_limit)
    VALUES (set_budget.role, set_budget.epsilon, set_budget.delta, set_budget.accounting, split_epsilon, split_delta,
            coalesce(set_budget.min_epsilon, 0.0001), coalesce(set_budget.release_limit, 100000))
    ON CONFLICT ON CONSTRAINT budgets_pkey DO UPDATE
        SET epsilon_limit = excluded.epsilon_limit, delta_limit = excluded.delta_limit,
            accounting = excluded.accounting, gaussian_epsilon_limit = excluded.gaussian_epsilon_limit,
            gaussian_delta_limit = excluded.gaussian_delta_limit,
            min_epsilon = coalesce(set_budget.min_epsilon, b.min_epsilon),
            release_limit = coalesce(set_budget.release_limit, b.release_limit), updated_at = now();
    RETURN QUERY SELECT * FROM pgdp.budget_status s WHERE s.role = set_budget.role;
END $$;
COMMENT ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint) IS
    'Creates or changes a role''s limits: epsilon, delta, accounting; in gaussian mode the Gaussian part (gaussian_epsilon, gaussian_delta; default half of each); min_epsilon (default 0.0001) and release_limit (default 100000), kept when NULL. Spent amounts are kept (never refunded).';

CREATE FUNCTION pgdp.raise_budget(role regrole, epsilon numeric, delta numeric DEFAULT 0)
RETURNS SETOF pgdp.budget_status
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    current pgdp.budgets;
BEGIN
    PERFORM pgdp.check_budget_argument('epsilon', epsilon, 1e18, '1e18', false,
        'raise_budget adds epsilon to the limit (to the basic part in gaussian mode); use set_budget to lower it.');
    PERFORM pgdp.check_budget_argument('delta', delta, 1, '1', true,
        'raise_budget adds delta to the limit (to the basic part in gaussian mode); use set_budget to lower it.');
    SELECT * INTO current FROM pgdp.budgets b WHERE b.role = raise_budget.role FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'role % has no budget', coalesce(role::text, 'NULL') USING ERRCODE = 'undefined_object',
            HINT = 'Create one with pgdp.set_budget(role, epsilon, delta).';
    END IF;
    IF current.epsilon_limit + epsilon > 1e18 OR current.delta_limit + delta >= 1 THEN
        RAISE EXCEPTION 'raising the budget of role % by epsilon % and delta % exceeds the largest limits (epsilon 1e18, delta below 1)',
            role, pgdp.numeric_for_message(epsilon), pgdp.numeric_for_message(delta)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('The limits are epsilon %s and delta %s.', pgdp.bounded_numeric(current.epsilon_limit, false),
                                  pgdp.bounded_numeric(current.delta_limit, false)),
                  HINT = 'Raise by less; a delta limit must stay below 1.';
    END IF;
    UPDATE pgdp.budgets b SET epsilon_limit = b.epsilon_limit + raise_budget.epsilon,
                              delta_limit = b.delta_limit + raise_budget.delta, updated_at = now()
    WHERE b.role = raise_budget.role;
    RETURN QUERY SELECT * FROM pgdp.budget_status s WHERE s.role = raise_budget.role;
END $$;
COMMENT ON FUNCTION pgdp.raise_budget(regrole, numeric, numeric) IS
    'Adds epsilon and delta to a role''s limits (in gaussian mode to the basic part; the Gaussian part is fixed by set_budget).';

CREATE OR REPLACE FUNCTION pgdp.designate_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can designate pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('GRANT EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint), '
                   'pgdp.raise_budget(regrole, numeric, numeric) TO %s', role);
    EXECUTE format('GRANT SELECT ON pgdp.budget_status, pgdp.ledger TO %s', role);
END $$;
CREATE OR REPLACE FUNCTION pgdp.revoke_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can revoke pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('REVOKE EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint), '
                   'pgdp.raise_budget(regrole, numeric, numeric) FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.budget_status, pgdp.ledger FROM %s', role);
END $$;
REVOKE ALL ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint),
                       pgdp.raise_budget(regrole, numeric, numeric), pgdp.check_budget_argument(text, numeric, numeric, text, boolean, text)
    FROM PUBLIC;

DO $$
DECLARE
    admin oid;
BEGIN
    FOR admin IN SELECT x::oid FROM unnest(string_to_array(current_setting('pgdp_upgrade.admins'), ',')) x LOOP
        PERFORM pgdp.designate_admin(admin::regrole);
    END LOOP;
END $$;

-- ---------------------------------------------------------------------------------------------
