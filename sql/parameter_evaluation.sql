-- Privacy parameters are evaluated once per execution, before any row, and the transition and
-- final functions use exactly the charged values (issue 8 part 2). 0.3 evaluated them again in
-- the transition function: a function declared IMMUTABLE that returned other values on later
-- calls gave the charge bounds [120000, 120000] and the transition [0, 130000], and noise_sd
-- revealed one salary. Now only constants, bind parameters and built-in immutable functions
-- and operators are accepted, for every parameter of every aggregate and form.
SET client_min_messages = warning;
CREATE TABLE pe_staff AS SELECT g AS id, 30000 + (g * 7919) % 100000 AS salary FROM generate_series(1, 1000) g;
CREATE ROLE pe_eve;
GRANT SELECT ON pe_staff TO pe_eve;
CREATE SCHEMA pe_eve AUTHORIZATION pe_eve;
SELECT role FROM pgdp.set_budget('pe_eve', 1e9, 0.5);
CREATE FUNCTION pe_released(r text) RETURNS text LANGUAGE sql AS
  $$ SELECT format('%s releases, epsilon %s', releases, epsilon_spent) FROM pgdp.budgets WHERE role = r::regrole $$;
-- Runs q as a generic prepared statement with $1 = 1 (a generic plan keeps function calls on $1
-- unevaluated until execution); returns 'released' or the SQLSTATE and message.
CREATE FUNCTION pe_outcome(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE outcome text;
BEGIN
    EXECUTE 'PREPARE pe_q(int) AS ' || q;
    BEGIN
        EXECUTE 'EXECUTE pe_q(1)';
        outcome := 'released';
    EXCEPTION WHEN OTHERS THEN
        outcome := SQLSTATE || ': ' || SQLERRM;
    END;
    DEALLOCATE pe_q;
    RETURN outcome;
END $$;

SET SESSION AUTHORIZATION pe_eve;
SET plan_cache_mode = force_generic_plan;
-- The liar: 120000 on its first call of the session, 0 afterwards; declared IMMUTABLE.
CREATE FUNCTION pe_eve.lie(i int) RETURNS float8 LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    PERFORM set_config('pe.calls', (coalesce(nullif(current_setting('pe.calls', true), ''), '0')::int + 1)::text, false);
    RETURN CASE WHEN current_setting('pe.calls')::int = 1 THEN 120000 ELSE 0 END;
END $$;
CREATE FUNCTION pe_eve.lie_text(i int) RETURNS text LANGUAGE plpgsql IMMUTABLE AS
  $$ BEGIN RETURN CASE WHEN random() < 2 THEN 'gaussian' END; END $$;
CREATE FUNCTION pe_eve.plus(float8, float8) RETURNS float8 LANGUAGE plpgsql IMMUTABLE AS
  'BEGIN RETURN $1 + $2 + pe_eve.lie(1); END';
CREATE OPERATOR pe_eve.### (leftarg = float8, rightarg = float8, function = pe_eve.plus);
-- An inlinable SQL function: the planner inlines it and folds pe_eve.lie(1) into a constant of
-- the plan, evaluated once at plan time: every process then sees the same value.
CREATE FUNCTION pe_eve.folded(float8) RETURNS float8 LANGUAGE sql IMMUTABLE AS 'SELECT $1 + pe_eve.lie(1)';
CREATE DOMAIN pe_eve.bound AS float8 CHECK (VALUE >= pe_eve.lie(1));
SELECT query, pe_outcome(query) AS outcome FROM (VALUES
    ('SELECT dp_sum(salary, pe_eve.lie($1), 130000, 0.001) FROM pe_staff WHERE id = 42'),
    ('SELECT dp_sum(salary, 0, 130000 + pe_eve.lie($1), 0.001) FROM pe_staff'),
    ('SELECT dp_sum(salary, 0, 130000, 0.001 + pe_eve.lie($1)) FROM pe_staff'),
    ('SELECT dp_sum(salary, 0, 130000, 1, 1e-6 + pe_eve.lie($1) * 0) FROM pe_staff'),
    ('SELECT dp_sum(salary, 0, 130000, 1, 1e-6, pe_eve.lie_text($1)) FROM pe_staff'),
    ('SELECT dp_mean(salary, pe_eve.lie($1), 130000, 0.001) FROM pe_staff'),
    ('SELECT dp_mean(salary, 0, 130000, 1, pe_eve.lie($1) * 0 + 1e-6, ''gaussian'') FROM pe_staff'),
    ('SELECT dp_count(0.5 + pe_eve.lie($1) * 0) FROM pe_staff'),
    ('SELECT dp_count(1, 1e-6 + pe_eve.lie($1) * 0) FROM pe_staff'),
    ('SELECT dp_count(1, 1e-6, pe_eve.lie_text($1)) FROM pe_staff'),
    ('SELECT dp_sum_ci(salary, pe_eve.lie($1), 130000, 0.001, 0.05) FROM pe_staff'),
    ('SELECT dp_mean_ci(salary, pe_eve.lie($1), 130000, 0.001, 0.05) FROM pe_staff'),
    ('SELECT dp_mean_ci(salary, 0, 130000, 1, 0.05 + pe_eve.lie($1) * 0) FROM pe_staff'),
    ('SELECT dp_count_ci(1, 1e-6, ''gaussian'', 0.05 + pe_eve.lie($1) * 0) FROM pe_staff'),
    ('SELECT dp_sum(salary, $1::float8 OPERATOR(pe_eve.###) 0, 130000, 0.001) FROM pe_staff'),
    ('SELECT dp_sum(salary, $1::pe_eve.bound, 130000, 0.001) FROM pe_staff'),
    ('SELECT dp_sum(salary, CASE WHEN $1 > 0 THEN pe_eve.lie($1) ELSE 0 END, 130000, 0.001) FROM pe_staff'),
    ('SELECT dp_sum(salary, 0, current_setting(''pe.calls'')::float8, 0.001) FROM pe_staff'),
    ('SELECT dp_sum(salary, 0, (SELECT max(salary) FROM pe_staff), 0.001) FROM pe_staff'),
    -- accepted: built-in immutable functions and operators of bind parameters, plan constants
    ('SELECT dp_sum(salary, 0, pe_eve.folded(130000), 0.001) > -1e12 FROM pe_staff'),
    ('SELECT dp_sum(salary, $1 * 0, 130000 * $1, 0.001) > -1e12 FROM pe_staff'),
    ('SELECT dp_sum(salary, 0, greatest($1, 130000), sqrt(1e-6 * $1)) > -1e12 FROM pe_staff'),
    ('SELECT dp_count(1, ''1e-6''::text::float8, CASE WHEN $1 = 1 THEN ''gaussian'' ELSE ''tlap'' END) > -1e9 FROM pe_staff')
) AS t(query);
RESET SESSION AUTHORIZATION;
SELECT pe_released('pe_eve') AS only_the_accepted_four;

-- The charged values are the ones used: a bound from a bind parameter, at epsilon 1e6, gives
-- exactly the clamped sum computed independently; the release equals it for custom and generic
-- plans alike.
SET SESSION AUTHORIZATION pe_eve;
PREPARE pe_exact(float8, float8) AS SELECT dp_sum(salary, $1, $2, 1e6) AS released FROM pe_staff;
EXECUTE pe_exact(50000, 90000) \gset generic_
SET plan_cache_mode = force_custom_plan;
EXECUTE pe_exact(50000, 90000) \gset custom_
SELECT :generic_released = sum(least(greatest(salary, 50000), 90000)) AS generic_exact,
       :custom_released = sum(least(greatest(salary, 50000), 90000)) AS custom_exact
FROM pe_staff;

-- Failures decided by the parameters alone come before the charge (0.3 charged dp_count(1e-300)
-- and then failed with 22003).
SELECT pe_outcome('SELECT dp_count(1e-300) FROM pe_staff') AS tiny_epsilon,
       pe_outcome('SELECT dp_sum(salary, -1e300, 1e300, 1e-10) FROM pe_staff') AS huge_bounds,
       pe_outcome('SELECT dp_count(1e-300, 1e-6, ''tlap'') FROM pe_staff') AS tiny_epsilon_tlap;
-- A calibration that takes long (the discrete Gaussian's profile sums O(sigma) terms: seconds at
-- epsilon 1e-8, delta 1e-9) stops at a cancel or statement_timeout instead of running to its end;
-- nothing is charged.
SET statement_timeout = '300ms';
SET client_min_messages = notice;
DO $$
DECLARE started timestamptz := clock_timestamp();
BEGIN
    PERFORM dp_count(1e-8, 1e-9, 'gaussian') FROM pe_staff;
    RAISE NOTICE 'not cancelled';
EXCEPTION WHEN query_canceled THEN
    RAISE NOTICE 'cancelled within 5 s: %', clock_timestamp() - started < interval '5 s';
END $$;
SET client_min_messages = warning;
RESET statement_timeout;
RESET SESSION AUTHORIZATION;
SELECT pe_released('pe_eve') AS plus_the_two_exact;

DROP SCHEMA pe_eve CASCADE;
DROP FUNCTION pe_outcome(text), pe_released(text);
DROP TABLE pe_staff;
DROP ROLE pe_eve;
