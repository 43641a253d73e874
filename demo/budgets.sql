-- pgdp demo, part 3: privacy budgets. Two analysts share a table of patient visits; each has an
-- (epsilon, delta) budget that every release is charged to before its value leaves the server.
-- Ana's budget uses basic composition (epsilons and deltas add up); Ben's uses gaussian
-- accounting with his whole budget as the Gaussian part (he makes only Gaussian releases): they
-- compose exactly as one Gaussian (002 Lemma 15), so the same budget buys him more of them.
-- (By default gaussian accounting gives half of each limit to the Gaussian part and the rest to
-- every other release; docs/privacy.md "Gaussian accounting".)
-- Once a budget is spent, releases are refused and nothing more is learned.
\set QUIET on
\set ON_ERROR_STOP on
\pset footer off

CREATE TABLE demo_visits AS
SELECT i AS id, (ARRAY['north', 'south', 'east', 'west'])[1 + i % 4] AS region,
       (10 + (i * 37) % 80)::float8 AS minutes
FROM generate_series(1, 20000) AS i;
DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ana') THEN CREATE ROLE ana; END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ben') THEN CREATE ROLE ben; END IF;
END $$;
GRANT SELECT ON demo_visits TO ana, ben;

\echo '== The data owner gives each analyst a budget of epsilon 1, delta 1e-5 =='
SELECT role, accounting, epsilon_limit, delta_limit
FROM pgdp.set_budget('ana', 1, 1e-5, 'basic') UNION ALL
SELECT role, accounting, epsilon_limit, delta_limit
FROM pgdp.set_budget('ben', 1, 1e-5, 'gaussian', gaussian_epsilon => 1, gaussian_delta => 1e-5);

\echo
\echo '== Ana: visits and mean minutes per region (one release per aggregate, not per group) =='
SET SESSION AUTHORIZATION ana;
SELECT region, dp_count(0.2) AS visits, round(dp_mean(minutes, 0, 120, 0.2)::numeric, 1) AS mean_minutes
FROM demo_visits GROUP BY region ORDER BY region;
\echo 'Ana''s remaining budget (pgdp.my_budget shows only her own row):'
SELECT role, epsilon_spent, epsilon_remaining, delta_remaining, releases FROM pgdp.my_budget;
\echo 'Her ledger (pgdp.my_ledger):'
SELECT charge_id, aggregate, mechanism, epsilon, delta, noise_scale, sensitivity FROM pgdp.my_ledger ORDER BY charge_id, release;

\echo
\echo '== Ana spends the rest: 0.6 more is allowed, anything after that is refused =='
SELECT dp_sum(minutes, 0, 120, 0.6) AS total_minutes FROM demo_visits;
SELECT epsilon_spent, epsilon_remaining FROM pgdp.my_budget;
\set ON_ERROR_STOP off
SELECT dp_count(0.01) FROM demo_visits;
\set ON_ERROR_STOP on
\echo '(refused: nothing was released and nothing was charged)'
RESET SESSION AUTHORIZATION;

\echo
\echo '== Ben: the same budget, Gaussian releases at (epsilon 0.1, delta 1e-6) each =='
\echo 'Under basic composition 10 of them would exhaust (1, 1e-5). Ben counts until refused:'
SET SESSION AUTHORIZATION ben;
DO $$
DECLARE
    made int := 0;
    value bigint;
BEGIN
    LOOP
        BEGIN
            EXECUTE $q$SELECT dp_count(0.1, 1e-6, 'gaussian') FROM demo_visits WHERE region = 'north'$q$ INTO value;
            made := made + 1;
        EXCEPTION WHEN configuration_limit_exceeded THEN
            RAISE NOTICE 'release % refused: %', made + 1, SQLERRM;
            EXIT;
        END;
        EXIT WHEN made >= 1000;
    END LOOP;
    RAISE NOTICE 'Ben made % Gaussian releases with his budget (basic composition: 10)', made;
END $$;
SELECT role, accounting, releases, round(sqrt(gaussian_mu2)::numeric, 4) AS composed_sensitivity_over_sigma,
       round(epsilon_spent, 4) AS epsilon_spent_at_delta_1e_5
FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

\echo
\echo '== The data owner sees every budget (pgdp.budget_status) =='
SELECT role, accounting, epsilon_limit, round(epsilon_spent, 4) AS epsilon_spent, releases
FROM pgdp.budget_status WHERE role IN ('ana', 'ben') ORDER BY role::text;

DROP TABLE demo_visits;
