-- pgdp 0.4: per-role release limits (epsilon floor, release quota), a compact ledger (one row per
-- charge), the gaussian accounting mode as a split fixed when the budget is set, and bounded
-- display of exact numerics (docs/privacy.md "Budgets and composition", docs/architecture.md
-- "Budgets and the ledger").
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.4'" to load this file. \quit

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
