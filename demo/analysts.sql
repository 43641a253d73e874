-- pgdp demo, part 5: an analyst who may not read the rows. The owner gives the analyst no SELECT
-- on the protected table, only DP-only access: PostgreSQL itself refuses every raw query, and pgdp
-- accepts person-level releases whose expressions over the rows cannot fail or leak
-- (docs/privacy.md "Untrusted analysts").
\set QUIET on
\set ON_ERROR_STOP on
\pset footer off

CREATE TABLE demo_visits AS
SELECT i AS id, 1 + i % 400 AS patient, 'ward ' || (1 + i % 5) AS ward, (i * 7) % 90 AS minutes
FROM generate_series(1, 20000) AS i;
CREATE ROLE demo_analyst;
SELECT pgdp.protect('demo_visits', 'patient') \gset
SELECT relation, role, can_read_rows FROM pgdp.grant_access('demo_visits', 'demo_analyst');
SELECT role FROM pgdp.set_budget('demo_analyst', 5, 1e-5) \gset

\echo
\echo '== The analyst tries to read the rows: PostgreSQL refuses (no SELECT privilege) =='
SET SESSION AUTHORIZATION demo_analyst;
\set ON_ERROR_STOP off
SELECT * FROM demo_visits LIMIT 3;
SELECT sum(minutes) FROM demo_visits;
\echo
\echo '== ... or to learn one patient''s value from an error: refused before any row is read =='
SELECT dp_count(1.0) FROM demo_visits WHERE 1 / (minutes - 17) > 0;
\set ON_ERROR_STOP on

\echo
\echo '== Person-level releases are accepted: patients per ward, each patient counted once =='
SELECT ward, round(dp_count(0.5)) AS patients, round(dp_mean(minutes, 0, 90, 0.5)::numeric, 1) AS mean_minutes
FROM demo_visits GROUP BY ward HAVING dp_groups(0.5, 1e-6) ORDER BY ward;
SELECT round(epsilon_spent, 2) AS epsilon_spent, round(epsilon_remaining, 2) AS epsilon_remaining FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

SELECT pgdp.revoke_access('demo_visits', 'demo_analyst') \gset
SELECT pgdp.unprotect('demo_visits') \gset
DELETE FROM pgdp.budgets WHERE role = 'demo_analyst'::regrole;
DROP TABLE demo_visits;
DROP ROLE demo_analyst;
