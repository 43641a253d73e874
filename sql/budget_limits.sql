-- Release limits (0.4): the smallest epsilon of one release (min_epsilon) and the number of
-- releases a role may make (release_limit), both checked by the ledger worker before anything is
-- charged; and numerics shown bounded in the views and in the admin functions' errors while the
-- tables keep them exact.
CREATE EXTENSION IF NOT EXISTS pgdp;
SET extra_float_digits = 0;
CREATE TABLE flood (id int);
INSERT INTO flood SELECT generate_series(1, 100);
CREATE ROLE limits_mallory;
CREATE ROLE limits_quinn;
GRANT SELECT ON flood TO limits_mallory, limits_quinn;

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
-- n different dp_sum calls in one query: n releases (identical calls would be one release).
CREATE FUNCTION pg_temp.many_releases(n int, epsilon text) RETURNS text LANGUAGE sql AS $$
    SELECT 'SELECT ' || string_agg(format('dp_sum((id + %s)::float8, 0, 200, %s)', i, epsilon), ', ') || ' FROM flood'
    FROM generate_series(1, n) i
$$;

-- The defaults: min_epsilon 0.0001, release_limit 100000.
SELECT role, min_epsilon, release_limit FROM pgdp.set_budget('limits_mallory', 1);

-- The flood of issue 8: 64 releases of epsilon 1e-9 in one query. Refused (22023) before anything
-- is charged: no release, no ledger row.
SET SESSION AUTHORIZATION limits_mallory;
SELECT pg_temp.error_of(pg_temp.many_releases(64, '1e-9'));
SELECT pg_temp.error_of(pg_temp.many_releases(3, '0.00009999'));
SELECT epsilon_spent, releases, (SELECT count(*) FROM pgdp.my_ledger) AS ledger_rows FROM pgdp.my_budget;
-- At the floor itself: allowed; the 64 releases are one row of the compact ledger.
SELECT pg_temp.error_of(pg_temp.many_releases(64, '0.0001'));
SELECT epsilon_spent, releases, (SELECT count(*) FROM pgdp.my_ledger) AS ledger_rows,
       (SELECT count(DISTINCT charge_id) FROM pgdp.my_ledger) AS charges
FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
SELECT cardinality(epsilons) AS releases, epsilons[1], epsilons[64], aggregates[64], length(query_text) AS query_text_bytes
FROM pgdp.charges WHERE role = 'limits_mallory'::regrole;

-- An admin may lower the floor; set_budget without min_epsilon keeps it.
SELECT min_epsilon FROM pgdp.set_budget('limits_mallory', 1, min_epsilon => 1e-9);
SELECT min_epsilon, release_limit FROM pgdp.set_budget('limits_mallory', 2);
SET SESSION AUTHORIZATION limits_mallory;
SELECT pg_temp.error_of(pg_temp.many_releases(2, '1e-9'));
SELECT releases FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

-- The release quota: 5 releases in all. 2 + 2 fit, then a 2-release query is refused (53400,
-- nothing charged), and 1 more release fits exactly.
SELECT role, release_limit FROM pgdp.set_budget('limits_quinn', 1, release_limit => 5);
SET SESSION AUTHORIZATION limits_quinn;
SELECT pg_temp.error_of(pg_temp.many_releases(2, '0.01'));
SELECT pg_temp.error_of(pg_temp.many_releases(2, '0.01'));
SELECT pg_temp.error_of(pg_temp.many_releases(2, '0.01'));
SELECT releases, epsilon_spent FROM pgdp.my_budget;
SELECT pg_temp.error_of(pg_temp.many_releases(1, '0.01'));
SELECT pg_temp.error_of(pg_temp.many_releases(1, '0.01'));
SELECT releases, epsilon_spent, release_limit FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

-- Validation of the new arguments.
SELECT pg_temp.error_of(q) FROM (VALUES
    ('SELECT pgdp.set_budget(''limits_quinn'', 1, min_epsilon => 0)'),
    ('SELECT pgdp.set_budget(''limits_quinn'', 1, min_epsilon => ''NaN'')'),
    ('SELECT pgdp.set_budget(''limits_quinn'', 1, release_limit => -1)')) AS t(q);

-- Numerics: a 1000-digit argument is not echoed whole, whichever argument it is; infinite and
-- NaN values are refused with the argument named.
SELECT pg_temp.error_of(q) FROM (VALUES
    ('SELECT pgdp.set_budget(''limits_quinn'', -' || repeat('9', 1000) || ')'),
    ('SELECT pgdp.set_budget(''limits_quinn'', 1, 1.' || repeat('0', 1000) || '1)'),
    ('SELECT pgdp.set_budget(''limits_quinn'', 1, 1e-5, ''gaussian'', gaussian_epsilon => 1.' || repeat('0', 999) || '1)'),
    ('SELECT pgdp.set_budget(''limits_quinn'', ''Infinity'')'),
    ('SELECT pgdp.set_budget(''limits_quinn'', NULL)'),
    ('SELECT pgdp.raise_budget(''limits_quinn'', ''NaN'')'),
    ('SELECT pgdp.raise_budget(''limits_quinn'', 1e18)'),
    ('SELECT pgdp.raise_budget(''limits_quinn'', 0, 0.' || repeat('9', 1000) || ')'),
    ('SELECT pgdp.set_budget(''limits_quinn'', 1, min_epsilon => ' || repeat('7', 1000) || ')')) AS t(q);
SELECT length(q) AS statement_length, length(pg_temp.error_of(q)) < 400 AS error_is_short
FROM (VALUES ('SELECT pgdp.set_budget(''limits_quinn'', -' || repeat('9', 1000) || ')')) AS t(q);
-- A limit with 1000 decimals is kept exactly; the views show at most 15 significant digits,
-- limits and remaining amounts rounded down, spent amounts rounded up.
SELECT epsilon_limit, epsilon_remaining, delta_limit
FROM pgdp.set_budget('limits_quinn', ('0.' || repeat('3', 1000))::numeric, ('0.' || repeat('0', 10) || repeat('7', 990))::numeric);
SELECT length(epsilon_limit::text) AS stored_digits, epsilon_limit = ('0.' || repeat('3', 1000))::numeric AS exact
FROM pgdp.budgets WHERE role = 'limits_quinn'::regrole;
SELECT pgdp.bounded_numeric(x, true) AS up, pgdp.bounded_numeric(x, false) AS down
FROM (VALUES (1.50), (0.25 + 1e-300), (1 - 1e-300), (1e-300), (-1e-300), (123456789012345678.9), (0.1234567890123456789),
             (1e-20 + 1e-60)) AS t(x);

-- Clean up.
REVOKE SELECT ON flood FROM limits_mallory, limits_quinn;
DROP TABLE flood;
DELETE FROM pgdp.budgets WHERE role::text LIKE 'limits\_%';
DROP ROLE limits_mallory, limits_quinn;
