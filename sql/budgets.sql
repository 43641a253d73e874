-- Budgets and the ledger: the catalog, the views each role sees, refusals, privileges, what one
-- query costs (GROUP BY, grouping sets, prepared statements, EXPLAIN), which role pays, and
-- gaussian accounting fitting more releases than basic accounting for the same budget, and its
-- two parts used up independently. (Release limits and bounded numerics: sql/budget_limits.sql.)
-- (Durability, crashes and concurrency are tested by test/t/001_budget_ledger.pl.)
CREATE EXTENSION IF NOT EXISTS pgdp;
SET extra_float_digits = 0;

-- The catalog: schema pgdp, owned by the extension; no privilege on the tables for PUBLIC.
SELECT c.relname, c.relkind, c.relacl IS NULL OR NOT c.relacl::text LIKE '%=r%' AS no_public_read
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'pgdp' AND c.relkind IN ('r', 'v') ORDER BY c.relname;
SELECT count(*) AS catalog_objects_in_extension
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
WHERE e.extname = 'pgdp' AND d.classid = 'pg_class'::regclass AND d.deptype = 'e';

CREATE TABLE visits (id int, region text, minutes float8);
INSERT INTO visits SELECT i, (ARRAY['north', 'south', 'east'])[1 + i % 3], (i * 7 % 120)::float8
FROM generate_series(1, 3000) AS i;
CREATE ROLE budget_alice;
CREATE ROLE budget_bob;
CREATE ROLE budget_carol;
CREATE ROLE budget_admin;
CREATE ROLE budget_team;
GRANT budget_team TO budget_alice;
GRANT SELECT ON visits TO budget_alice, budget_bob, budget_carol, budget_team, budget_admin;

-- Admin functions: set and raise budgets (superuser or a designated admin).
SELECT role, accounting, epsilon_limit, delta_limit, epsilon_spent, epsilon_remaining, releases
FROM pgdp.set_budget('budget_alice', 1.0, 1e-5);
SELECT role, epsilon_limit FROM pgdp.set_budget('budget_team', 100);
SELECT pgdp.designate_admin('budget_admin');
SET SESSION AUTHORIZATION budget_admin;
SELECT role, epsilon_limit, delta_limit FROM pgdp.raise_budget('budget_alice', 0.5);
SELECT role, epsilon_limit, delta_limit, accounting FROM pgdp.set_budget('budget_carol', 1, 1e-5, 'gaussian');
SELECT role, epsilon_limit FROM pgdp.budget_status ORDER BY role::text;
RESET SESSION AUTHORIZATION;
SELECT role, epsilon_limit, delta_limit, accounting FROM pgdp.set_budget('budget_bob', 1, 1e-5);

-- Errors report as SQLSTATE: message (detail / hint).
CREATE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
    detail text;
    hint text;
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL,
                            hint = PG_EXCEPTION_HINT;
    RETURN state || ': ' || message || E'\n  DETAIL: ' || coalesce(detail, '') || E'\n  HINT: ' || coalesce(hint, '');
END $$;

-- Bad admin input is refused with the argument named.
SELECT pg_temp.error_of(q) FROM (VALUES
    ('SELECT pgdp.set_budget(''budget_bob'', -1)'),
    ('SELECT pgdp.set_budget(''budget_bob'', 1, 1)'),
    ('SELECT pgdp.set_budget(''budget_bob'', 1, 0, ''rdp'')'),
    ('SELECT pgdp.raise_budget(''budget_admin'', 1)'),
    ('SELECT pgdp.set_budget(''no_such_role'', 1)')) AS t(q);

-- An analyst sees only their own budget and ledger, and cannot write the catalog or call admin
-- functions in any way.
SET SESSION AUTHORIZATION budget_alice;
SELECT dp_count(0.25) > 0 AS released FROM visits;
SELECT role, epsilon_limit, delta_limit, epsilon_spent, delta_spent, epsilon_remaining, releases FROM pgdp.my_budget;
SELECT aggregate, mechanism, accounting, epsilon, delta, noise_scale, sensitivity, query_text FROM pgdp.my_ledger;
SELECT pg_temp.error_of(q) FROM (VALUES
    ('SELECT * FROM pgdp.budgets'),
    ('SELECT * FROM pgdp.ledger'),
    ('SELECT * FROM pgdp.charges'),
    ('SELECT * FROM pgdp.budget_status'),
    ('UPDATE pgdp.budgets SET epsilon_limit = 1000'),
    ('DELETE FROM pgdp.charges'),
    ('INSERT INTO pgdp.budgets (role, epsilon_limit, delta_limit) VALUES (''budget_alice'', 1000, 0)'),
    ('INSERT INTO pgdp.charges (charge_id, role, backend_pid, aggregates, mechanisms, gaussian_part, epsilons, deltas, noise_scales, sensitivities, gaussian_mu2s) VALUES (0, ''budget_alice'', 0, ''{x}'', ''{x}'', ''{f}'', ''{-5}'', ''{0}'', ''{1}'', ''{1}'', ''{0}'')'),
    ('UPDATE pgdp.my_budget SET epsilon_limit = 1000'),
    ('SELECT pgdp.set_budget(''budget_alice'', 1000)'),
    ('SELECT pgdp.raise_budget(''budget_alice'', 1000)'),
    ('SELECT pgdp.designate_admin(''budget_alice'')'),
    ('TRUNCATE pgdp.charges')) AS t(q);

-- Which role pays: always the session user. SET ROLE to a role with a large budget changes
-- nothing (alice is a member of budget_team), nor does a SECURITY DEFINER function owned by a pgdp
-- admin (functions of other roles may not release at all: sql/release_authority.sql).
SET ROLE budget_team;
SELECT dp_count(0.25) > 0 AS released_as_team FROM visits;
RESET ROLE;
RESET SESSION AUTHORIZATION;
CREATE FUNCTION team_count() RETURNS bigint LANGUAGE sql SECURITY DEFINER AS 'SELECT dp_count(0.25) FROM visits';
ALTER FUNCTION team_count() OWNER TO budget_admin;
SET SESSION AUTHORIZATION budget_alice;
SELECT team_count() > 0 AS released_by_definer;
SELECT current_user, session_user, epsilon_spent, releases FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
SELECT role, epsilon_spent, releases FROM pgdp.budget_status WHERE role IN ('budget_alice', 'budget_team') ORDER BY role::text;

-- What a query costs. GROUP BY: one release per aggregate call, whatever the number of groups;
-- identical calls are computed once; grouping sets: one release per set. (Each region's sum is
-- 59500 and its Laplace scale 12000: the interval misses with probability < 1e-6 per region.)
SET SESSION AUTHORIZATION budget_alice;
SELECT region, dp_count(0.01) > 0 AS counted,
       dp_sum(minutes, 0, 120, 0.01) BETWEEN -100000 AND 220000 AS summed,
       dp_count(0.01) = dp_count(0.01) AS shared_call
FROM visits GROUP BY region ORDER BY region;
SELECT count(*) AS rows_of_sets, bool_and(n > 0) AS counted
FROM (SELECT region, dp_count(0.01) AS n FROM visits GROUP BY ROLLUP (region)) AS s;
SELECT charge_id - min(charge_id) OVER () AS query, aggregate, epsilon, count(*) AS releases
FROM pgdp.my_ledger WHERE epsilon = 0.01 GROUP BY charge_id, aggregate, epsilon ORDER BY 1, 2;
-- Prepared statements: each execution is charged with the values bound.
PREPARE counted(float8) AS SELECT dp_count($1) > 0 AS released FROM visits;
EXECUTE counted(0.02);
EXECUTE counted(0.03);
-- A generic plan reads the bound values at execution, and so does an SQL function's parameter.
SET plan_cache_mode = force_generic_plan;
EXECUTE counted(0.02);
RESET plan_cache_mode;
CREATE FUNCTION pg_temp.counted_by(epsilon float8) RETURNS boolean LANGUAGE sql
    AS 'SELECT dp_count(epsilon) > 0 FROM visits';
SELECT pg_temp.counted_by(0.03) AS released_by_sql_function;
SELECT epsilon, count(*) FROM pgdp.my_ledger WHERE epsilon IN (0.02, 0.03) GROUP BY epsilon ORDER BY epsilon;
-- Plain EXPLAIN neither charges nor releases; EXPLAIN ANALYZE runs the query and is charged.
SELECT releases AS before_explain FROM pgdp.my_budget;
EXPLAIN (COSTS OFF) SELECT dp_count(0.04) FROM visits;
SELECT releases AS after_explain FROM pgdp.my_budget;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT dp_count(0.04) FROM visits;
SELECT releases AS after_explain_analyze FROM pgdp.my_budget;
-- Plans that could evaluate an aggregate more than once per charge are refused before anything
-- is charged; a MATERIALIZED CTE is computed once.
SELECT pg_temp.error_of(q) FROM (VALUES
    ('SELECT r, (SELECT dp_count(0.01) FROM visits v WHERE v.region = r.r) FROM (VALUES (''north''), (''north'')) AS r(r)'),
    ('SELECT * FROM generate_series(1, 3) g, LATERAL (SELECT dp_count(0.01) FROM visits WHERE id > g) s'),
    -- a stable function could return another value later in the query than when charged
    ('SELECT dp_count(current_setting(''pgdp.charge_timeout'')::float8 / 1e6) FROM visits')) AS t(q);
WITH once AS MATERIALIZED (SELECT dp_count(0.01) AS n FROM visits)
SELECT count(*) AS joined FROM generate_series(1, 3) g, once;
SELECT releases AS after_refusals_and_cte FROM pgdp.my_budget;

-- Spending to the limit: the refusal says what was asked and what is left; nothing is charged.
SELECT epsilon_remaining FROM pgdp.my_budget;
SELECT pg_temp.error_of('SELECT dp_count(' || epsilon_remaining || ' + 0.001) FROM visits') FROM pgdp.my_budget;
SELECT pg_temp.error_of('SELECT dp_count(1, 1e-4, ''gaussian'') FROM visits');
SELECT pg_temp.error_of('SELECT dp_count(' || epsilon_remaining || ') > 0 FROM visits') FROM pgdp.my_budget;
SELECT epsilon_spent, epsilon_remaining, releases FROM pgdp.my_budget;
SELECT pg_temp.error_of('SELECT dp_count(0.1) FROM visits');
SELECT epsilon_spent, releases FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
-- A role without a budget row releases nothing.
CREATE ROLE budget_dave;
GRANT SELECT ON visits TO budget_dave;
SET SESSION AUTHORIZATION budget_dave;
SELECT pg_temp.error_of('SELECT dp_sum(minutes, 0, 120, 0.1) FROM visits');
SELECT count(*) AS own_budget_rows FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
-- The ledger is append-only, even for superusers (short of dropping the trigger); its per-release
-- view cannot be written either.
SELECT pg_temp.error_of(q) FROM (VALUES
    ('DELETE FROM pgdp.charges'),
    ('UPDATE pgdp.charges SET epsilons = ''{0}'''),
    ('TRUNCATE pgdp.charges'),
    ('DELETE FROM pgdp.ledger')) AS t(q);
-- One row per charge: the ROLLUP query above (2 releases) is one row of pgdp.charges.
SELECT cardinality(aggregates) AS releases, aggregates, epsilons FROM pgdp.charges c
WHERE role = 'budget_alice'::regrole AND query_text LIKE '%ROLLUP%';

-- Gaussian accounting splits the budget when it is set: the Gaussian part (gaussian_epsilon,
-- gaussian_delta; default half of each limit) admits Gaussian releases while the composed
-- Gaussian (002 Lemma 15) is within it, the basic part (the rest) everything else, by basic
-- composition. The same Gaussian release (dp_count at epsilon 0.1, delta 1e-6) fits 10 times in
-- a basic budget of (1, 1e-5) (bob), many more times when the whole budget is the Gaussian part
-- (erin), and the two parts of a default split are used up independently (carol, frank).
CREATE ROLE budget_erin;
CREATE ROLE budget_frank;
GRANT SELECT ON visits TO budget_erin, budget_frank;
SELECT role, accounting, epsilon_limit, delta_limit, gaussian_epsilon_limit, gaussian_delta_limit
FROM pgdp.set_budget('budget_erin', 1, 1e-5, 'gaussian', gaussian_epsilon => 1, gaussian_delta => 1e-5);
SELECT role, accounting, gaussian_epsilon_limit, gaussian_delta_limit
FROM pgdp.set_budget('budget_frank', 1, 1e-5, 'gaussian');
CREATE FUNCTION pg_temp.releases_until_refused(query text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    made int := 0;
BEGIN
    FOR attempt IN 1 .. 1000 LOOP
        BEGIN
            EXECUTE query;
            made := made + 1;
        EXCEPTION WHEN configuration_limit_exceeded THEN
            RETURN made;
        END;
    END LOOP;
    RETURN made;
END $$;
SET SESSION AUTHORIZATION budget_bob;
SELECT pg_temp.releases_until_refused('SELECT dp_count(0.1, 1e-6, ''gaussian'') FROM visits') AS basic_releases;
SELECT accounting, epsilon_spent, delta_spent, releases FROM pgdp.my_budget;
SET SESSION AUTHORIZATION budget_erin;
SELECT pg_temp.releases_until_refused('SELECT dp_count(0.1, 1e-6, ''gaussian'') FROM visits') AS gaussian_releases;
-- Composed: sqrt(n) times the ratio of one release; the exact profile (gaussian_delta, evaluated
-- independently of the ledger worker's check) at epsilon 1 is within delta 1e-5, and one more
-- release would not be.
SELECT accounting, releases, round(sqrt(gaussian_mu2)::numeric, 4) AS composed_mu,
       gaussian_delta(1 / sqrt(gaussian_mu2), 1) <= 1e-5 AS within_delta,
       gaussian_delta(1 / sqrt(gaussian_mu2 * (releases + 1) / releases), 1) > 1e-5 AS one_more_would_not_be,
       round(epsilon_spent, 3) AS epsilon_spent, delta_spent
FROM pgdp.my_budget;
-- Nothing is left for other releases: the basic part is (0, 0).
SELECT pg_temp.error_of('SELECT dp_count(0.5) FROM visits');
-- carol (default split: Gaussian part (0.5, 5e-6), basic part (0.5, 5e-6)) makes Gaussian
-- releases first, then Laplace ones; frank the other way round. Both make the same number of
-- Gaussian releases and the same 5 Laplace releases of epsilon 0.1: spending one part does not
-- shrink the other.
SET SESSION AUTHORIZATION budget_carol;
SELECT gaussian_epsilon_limit, gaussian_delta_limit FROM pgdp.my_budget;
SELECT pg_temp.releases_until_refused('SELECT dp_count(0.1, 1e-6, ''gaussian'') FROM visits') AS carol_gaussian_first;
SELECT pg_temp.releases_until_refused('SELECT dp_count(0.1) FROM visits') AS carol_laplace_then;
SELECT releases, round(sqrt(gaussian_mu2)::numeric, 4) AS composed_mu,
       gaussian_delta(1 / sqrt(gaussian_mu2), 0.5) <= 5e-6 AS gaussian_part_within,
       gaussian_delta(1 / sqrt(gaussian_mu2 * (releases - 5 + 1) / (releases - 5)), 0.5) > 5e-6 AS one_more_would_not_be,
       round(epsilon_spent, 3) AS epsilon_spent, delta_spent
FROM pgdp.my_budget;
SELECT pg_temp.error_of('SELECT dp_count(0.1, 1e-6, ''gaussian'') FROM visits');
SET SESSION AUTHORIZATION budget_frank;
SELECT pg_temp.releases_until_refused('SELECT dp_count(0.1) FROM visits') AS frank_laplace_first;
SELECT pg_temp.releases_until_refused('SELECT dp_count(0.1, 1e-6, ''gaussian'') FROM visits') AS frank_gaussian_then;
RESET SESSION AUTHORIZATION;
SELECT role, mechanism, accounting, count(*) FROM pgdp.ledger
WHERE role IN ('budget_bob', 'budget_carol', 'budget_erin', 'budget_frank') GROUP BY 1, 2, 3 ORDER BY role::text, 2, 3;
-- A split is validated, and cannot give a part less than it has spent (the releases together
-- would then exceed the role's limits).
SELECT pg_temp.error_of(q) FROM (VALUES
    ('SELECT pgdp.set_budget(''budget_frank'', 1, 1e-5, ''basic'', gaussian_epsilon => 0.5)'),
    ('SELECT pgdp.set_budget(''budget_frank'', 1, 1e-5, ''gaussian'', gaussian_epsilon => 2)'),
    ('SELECT pgdp.set_budget(''budget_frank'', 1, 1e-5, ''gaussian'', gaussian_delta => -1e-6)'),
    ('SELECT pgdp.set_budget(''budget_frank'', 1, 1e-5, ''gaussian'', gaussian_delta => 0)'),
    ('SELECT pgdp.set_budget(''budget_frank'', 1, 1e-5, ''gaussian'', gaussian_epsilon => 0.6)'),
    ('SELECT pgdp.set_budget(''budget_frank'', 1, 1e-5, ''gaussian'', gaussian_epsilon => 0.2)'),
    ('SELECT pgdp.set_budget(''budget_frank'', 1, 1e-5, ''basic'')')) AS t(q);
-- Raising a gaussian budget raises its basic part: frank can make 2 more Laplace releases.
SELECT epsilon_limit, gaussian_epsilon_limit, gaussian_delta_limit FROM pgdp.raise_budget('budget_frank', 0.2);
SET SESSION AUTHORIZATION budget_frank;
SELECT pg_temp.releases_until_refused('SELECT dp_count(0.1) FROM visits') AS frank_laplace_after_raise;
RESET SESSION AUTHORIZATION;

-- Clean up (the ledger keeps the rows of dropped roles).
DROP FUNCTION team_count();
DROP FUNCTION pg_temp.counted_by(float8);
REVOKE SELECT ON visits FROM budget_alice, budget_bob, budget_carol, budget_dave, budget_team, budget_erin, budget_frank, budget_admin;
SELECT pgdp.revoke_admin('budget_admin');
DROP TABLE visits;
DELETE FROM pgdp.budgets WHERE role::text LIKE 'budget\_%';
DROP ROLE budget_alice, budget_bob, budget_carol, budget_dave, budget_admin, budget_team, budget_erin, budget_frank;
