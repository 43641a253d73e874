-- The version chain: installing 0.1 and updating gives the current extension, and every object
-- belongs to it.
DROP EXTENSION IF EXISTS pgdp CASCADE;
CREATE EXTENSION pgdp VERSION '0.1';
SELECT extversion, (SELECT count(*) FROM pg_proc WHERE proname IN ('dp_sum', 'dp_mean', 'dp_count')) AS aggregates
FROM pg_extension WHERE extname = 'pgdp';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion, (SELECT count(*) FROM pg_proc WHERE proname IN ('dp_sum', 'dp_mean', 'dp_count')) AS aggregates,
       (SELECT count(*) FROM pg_proc WHERE proname IN ('dp_sum_ci', 'dp_mean_ci', 'dp_count_ci')) AS interval_aggregates
FROM pg_extension WHERE extname = 'pgdp';
-- Every aggregate is parallel safe with combine, serialize and deserialize functions and a
-- read-write final function (never shared between releases).
SELECT count(*) AS aggregates, bool_and(p.proparallel = 's') AS parallel_safe,
       bool_and(a.aggcombinefn <> 0 AND a.aggserialfn <> 0 AND a.aggdeserialfn <> 0) AS combinable,
       bool_and(a.aggfinalmodify = 'w') AS read_write_final, bool_and(a.aggtranstype = 'internal'::regtype) AS internal_state
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
WHERE p.proname LIKE 'dp\_%';

-- The 0.3 -> 0.4 step with data: budgets in both modes, a designated admin and 0.3 ledger rows
-- (written here as the 0.3 ledger worker wrote them: one row per release, charge_id per query;
-- this library's worker writes the 0.4 catalog, so no release is made at 0.3).
DROP EXTENSION pgdp CASCADE;
CREATE EXTENSION pgdp VERSION '0.3';
CREATE ROLE upgrade_basic;
CREATE ROLE upgrade_gauss;
CREATE ROLE upgrade_fresh;
CREATE ROLE upgrade_admin;
SELECT pgdp.designate_admin('upgrade_admin');
SELECT role, accounting FROM pgdp.set_budget('upgrade_basic', 1, 1e-5);
SELECT role, accounting FROM pgdp.set_budget('upgrade_gauss', 1, 1e-5, 'gaussian');
SELECT role, accounting FROM pgdp.set_budget('upgrade_fresh', 2, 1e-6, 'gaussian');
INSERT INTO pgdp.ledger (role, charge_id, aggregate, mechanism, accounting, epsilon, delta, noise_scale, sensitivity,
                         gaussian_mu2, query_id, query_text, backend_pid)
VALUES ('upgrade_basic', 1, 'dp_count', 'laplace', 'basic', 0.25, 0, 4, 1, 0, NULL, 'SELECT dp_count(0.25) FROM t', 101),
       ('upgrade_gauss', 2, 'dp_count', 'gaussian', 'gaussian', 0.1, 1e-6, 47.5, 1, 0.0004, 7, 'SELECT two', 102),
       ('upgrade_gauss', 2, 'dp_sum', 'laplace', 'basic', 0.2, 0, 500, 100, 0, 7, 'SELECT two', 102);
UPDATE pgdp.budgets SET epsilon_spent = 0.25, releases = 1 WHERE role = 'upgrade_basic'::regrole;
UPDATE pgdp.budgets SET epsilon_spent = 0.2, gaussian_mu2 = 0.0004, releases = 2 WHERE role = 'upgrade_gauss'::regrole;
CREATE TEMP TABLE ledger_03 AS
SELECT charge_id, role, aggregate, mechanism, accounting, epsilon, delta, noise_scale, sensitivity, gaussian_mu2,
       query_id, query_text, backend_pid
FROM pgdp.ledger;
ALTER EXTENSION pgdp UPDATE TO '0.4';
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
-- The releases are the same (every column but charged_at, which becomes the first release's),
-- one pgdp.charges row per charge.
SELECT (SELECT count(*) FROM ledger_03) AS releases_before,
       (SELECT count(*) FROM pgdp.ledger) AS releases_after,
       (SELECT count(*) FROM pgdp.charges) AS charges,
       NOT EXISTS (SELECT charge_id, role, aggregate, mechanism, accounting, epsilon, delta, noise_scale, sensitivity,
                          gaussian_mu2, query_id, query_text, backend_pid FROM pgdp.ledger
                   EXCEPT SELECT * FROM ledger_03) AS same_releases;
SELECT charge_id, role, aggregates, mechanisms, gaussian_part, epsilons FROM pgdp.charges ORDER BY charge_id;
-- Budgets: the new limits take their defaults; a gaussian role that spent keeps for its Gaussian
-- part exactly the room the 0.3 check gave it (the limits minus the basic part's spending), a
-- gaussian role that spent nothing gets the default split (half of each limit).
SELECT role, accounting, epsilon_spent, gaussian_epsilon_limit, gaussian_delta_limit, min_epsilon, release_limit
FROM pgdp.budgets ORDER BY role::text;
-- Catalog: the admin keeps the admin functions and views; PUBLIC has nothing on the tables;
-- pg_dump keeps budgets, charges and the charge id sequence (the 0.3 table is gone).
SELECT has_function_privilege('upgrade_admin', 'pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint)', 'EXECUTE') AS admin_sets,
       has_function_privilege('upgrade_admin', 'pgdp.raise_budget(regrole, numeric, numeric)', 'EXECUTE') AS admin_raises,
       has_table_privilege('upgrade_admin', 'pgdp.ledger', 'SELECT') AS admin_reads_ledger,
       has_table_privilege('upgrade_admin', 'pgdp.budget_status', 'SELECT') AS admin_reads_status,
       has_table_privilege('upgrade_basic', 'pgdp.charges', 'SELECT') AS analyst_reads_charges,
       has_function_privilege('upgrade_basic', 'pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint)', 'EXECUTE') AS analyst_sets;
SELECT c.relname FROM pg_extension e, unnest(e.extconfig) AS x(oid) JOIN pg_class c ON c.oid = x.oid
WHERE e.extname = 'pgdp' ORDER BY 1;
-- The 0.3 -> 0.4 catalog is the same as a fresh 0.4 install (columns of every pgdp relation).
CREATE TEMP TABLE columns_updated AS
SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS type
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
WHERE n.nspname = 'pgdp' AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'v');
DROP EXTENSION pgdp CASCADE;
CREATE EXTENSION pgdp;
SELECT count(*) AS columns_differing FROM (
    (SELECT relname, attname, type FROM columns_updated
     EXCEPT SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
     WHERE n.nspname = 'pgdp' AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'v'))
    UNION ALL
    (SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
     WHERE n.nspname = 'pgdp' AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'v')
     EXCEPT SELECT relname, attname, type FROM columns_updated)) AS d;
DELETE FROM pgdp.budgets WHERE role::text LIKE 'upgrade\_%';
DROP ROLE upgrade_basic, upgrade_gauss, upgrade_fresh, upgrade_admin;
