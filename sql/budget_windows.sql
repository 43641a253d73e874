-- Budget windows (0.8, opt-in; docs/privacy.md "Budget windows"): an admin gives a role limits
-- that renew every period with pgdp.set_budget_period; the ledger worker renews the budget when a
-- charge arrives in a later window, and the views show the current window before that. Windows
-- cannot be waited for here: the test (a superuser) moves period_start back instead, which is the
-- same as the period having elapsed. A lifetime budget (the default) never renews.
CREATE EXTENSION IF NOT EXISTS pgdp;
SET extra_float_digits = 0;
CREATE TABLE window_visits (minutes int);
INSERT INTO window_visits SELECT i % 100 FROM generate_series(1, 1000) AS i;
CREATE ROLE window_daily;
CREATE ROLE window_lifetime;
CREATE ROLE window_quota;
CREATE ROLE window_gauss;
CREATE ROLE window_nobudget;
CREATE ROLE window_admin;
GRANT SELECT ON window_visits TO window_daily, window_lifetime, window_quota, window_gauss;

-- Errors as SQLSTATE: message (detail / hint); the time a window renews at, which varies, is
-- shown as <timestamp>.
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
    RETURN state || ': ' || message
           || E'\n  DETAIL: ' || regexp_replace(coalesce(detail, ''), 'renews at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?[+-]\d\d(:\d\d)?\.',
                                                'renews at <timestamp>.')
           || E'\n  HINT: ' || coalesce(hint, '');
END $$;
-- One release of epsilon 0.6 (a dp_sum over the table), as the session user.
CREATE FUNCTION pg_temp.release_06() RETURNS text LANGUAGE sql AS $$
    SELECT pg_temp.error_of('SELECT dp_sum(minutes, 0, 100, 0.6) FROM window_visits')
$$;

-- The default is a lifetime budget: no period, no window.
SELECT role, epsilon_limit, period, period_start, renews_at FROM pgdp.set_budget('window_daily', 1);
SELECT role, epsilon_limit, period, period_start, renews_at FROM pgdp.set_budget('window_lifetime', 1);
SELECT role, release_limit, period FROM pgdp.set_budget('window_quota', 100, release_limit => 2);
-- The views append the window's columns to the 0.7 ones.
SELECT string_agg(column_name::text, ', ' ORDER BY ordinal_position) AS my_budget_columns
FROM information_schema.columns WHERE table_schema = 'pgdp' AND table_name = 'my_budget';

-- ---------------------------------------------------------------------------------------------
-- The admin path: a designated admin sets a period (windows start now); analysts and PUBLIC may not.
SELECT has_function_privilege('public', 'pgdp.set_budget_period(regrole, interval)', 'EXECUTE') AS public_may;
SELECT pgdp.designate_admin('window_admin');
SET SESSION AUTHORIZATION window_admin;
SELECT role, period, period_start = now() AS starts_now, renews_at = now() + interval '24 hours' AS renews_in_24_hours,
       epsilon_spent, epsilon_remaining
FROM pgdp.set_budget_period('window_daily', '1 day');
SELECT role, period FROM pgdp.set_budget_period('window_quota', '2 hours');
SELECT role, period, renews_at - period_start AS window_length FROM pgdp.budget_status
WHERE role::text LIKE 'window\_%' ORDER BY role::text;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION window_daily;
SELECT pg_temp.error_of('SELECT pgdp.set_budget_period(''window_daily'', ''1 minute'')');
SELECT pg_temp.error_of('SELECT pgdp.set_budget_period(''window_lifetime'', ''1 day'')');
SELECT period FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
-- Admins designated before are revoked like the other admin functions.
SELECT pgdp.revoke_admin('window_admin');
SELECT has_function_privilege('window_admin', 'pgdp.set_budget_period(regrole, interval)', 'EXECUTE') AS revoked_admin_may;
SET SESSION AUTHORIZATION window_admin;
SELECT pg_temp.error_of('SELECT pgdp.set_budget_period(''window_daily'', ''1 hour'')');
RESET SESSION AUTHORIZATION;

-- ---------------------------------------------------------------------------------------------
-- Bad input: refused with the argument named, and nothing changes.
CREATE TEMP TABLE budgets_before AS SELECT * FROM pgdp.budgets;
SELECT q AS call, pg_temp.error_of('SELECT pgdp.set_budget_period(' || q || ')') AS refusal FROM (VALUES
    ('NULL, ''1 day'''),
    ('''window_nobudget'', ''1 day'''),
    ('''window_nobudget'', NULL'),
    ('''window_daily'', ''0'''),
    ('''window_daily'', ''-1 day'''),
    ('''window_daily'', ''1 day -25 hours'''),
    ('''window_daily'', ''1 month'''),
    ('''window_daily'', ''1 year'''),
    ('''window_daily'', ''1 month -30 days'''),
    ('''window_daily'', ''59.999999 seconds'''),
    ('''window_daily'', ''36525 days 1 microsecond''')) AS t(q);
-- A role that does not exist is refused by the regrole cast (42704).
SELECT pg_temp.error_of('SELECT pgdp.set_budget_period(''window_no_such_role'', ''1 day'')');
SELECT NOT EXISTS (SELECT * FROM pgdp.budgets EXCEPT SELECT * FROM budgets_before)
       AND NOT EXISTS (SELECT * FROM budgets_before EXCEPT SELECT * FROM pgdp.budgets) AS nothing_changed;
-- The table refuses what the function refuses (an edit by hand; the detail, the row, not shown).
SELECT split_part(pg_temp.error_of('UPDATE pgdp.budgets SET period = ''30 seconds'' WHERE role = ''window_daily''::regrole'), E'\n', 1);
SELECT split_part(pg_temp.error_of('UPDATE pgdp.budgets SET period_start = NULL WHERE role = ''window_daily''::regrole'), E'\n', 1);
-- The bounds themselves are allowed (set on window_nobudget's fresh budget, then removed).
SELECT period FROM pgdp.set_budget('window_nobudget', 1);
SELECT period, renews_at - period_start AS window_length FROM pgdp.set_budget_period('window_nobudget', '1 minute');
SELECT period, renews_at - period_start AS window_length FROM pgdp.set_budget_period('window_nobudget', '36525 days');
DELETE FROM pgdp.budgets WHERE role = 'window_nobudget'::regrole;

-- ---------------------------------------------------------------------------------------------
-- Renewal. window_daily (epsilon 1 per day) spends 0.6; a second 0.6 is refused (53400) and the
-- refusal says when the window renews.
SET SESSION AUTHORIZATION window_daily;
SELECT pg_temp.release_06();
SELECT pg_temp.release_06();
SELECT epsilon_spent, epsilon_remaining, releases FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
-- The window elapses (period_start moved back by 25 hours; the test's intervals are in hours: a
-- day of a period counts 24 hours, a calendar day in the session's time zone may not): the views
-- show the current window at once, nothing spent in it, although the row still holds the last
-- window's amounts until the next charge.
CREATE TEMP TABLE moved AS
SELECT period_start - interval '25 hours' AS start FROM pgdp.budgets WHERE role = 'window_daily'::regrole;
UPDATE pgdp.budgets SET period_start = (SELECT start FROM moved) WHERE role = 'window_daily'::regrole;
SELECT s.epsilon_spent, s.epsilon_remaining, s.releases,
       s.period_start = m.start + interval '24 hours' AS window_aligned, s.renews_at = m.start + interval '48 hours' AS renews_aligned,
       b.epsilon_spent AS row_epsilon_spent, b.releases AS row_releases
FROM pgdp.budget_status s, pgdp.budgets b, moved m
WHERE s.role = 'window_daily'::regrole AND b.role = s.role;
-- The next charge renews the row, in its own transaction, and fits where the budget was exhausted.
SET SESSION AUTHORIZATION window_daily;
SELECT pg_temp.release_06();
SELECT epsilon_spent, epsilon_remaining, releases FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
SELECT b.epsilon_spent, b.releases, b.period_start = m.start + interval '24 hours' AS window_aligned
FROM pgdp.budgets b, moved m WHERE b.role = 'window_daily'::regrole;
-- Several periods elapsed: the window is the one that contains now (moved back 84 hours: period_start + 3 periods).
UPDATE moved SET start = (SELECT period_start FROM pgdp.budgets WHERE role = 'window_daily'::regrole) - interval '84 hours';
UPDATE pgdp.budgets SET period_start = (SELECT start FROM moved) WHERE role = 'window_daily'::regrole;
SET SESSION AUTHORIZATION window_daily;
SELECT pg_temp.release_06();
SELECT pg_temp.release_06();
RESET SESSION AUTHORIZATION;
SELECT b.epsilon_spent, b.releases, b.period_start - m.start AS window_moved_by
FROM pgdp.budgets b, moved m WHERE b.role = 'window_daily'::regrole;
-- The ledger keeps every charge: 3 windows, 3 charges of 0.6 (1.8 in all: a per-window guarantee).
SELECT count(*) AS charges, sum(epsilon) AS epsilon_in_ledger FROM pgdp.ledger WHERE role = 'window_daily'::regrole;

-- The release quota renews too: 2 releases per window.
SET SESSION AUTHORIZATION window_quota;
SELECT pg_temp.release_06();
SELECT pg_temp.release_06();
SELECT pg_temp.release_06();
RESET SESSION AUTHORIZATION;
UPDATE pgdp.budgets SET period_start = period_start - interval '2 hours' WHERE role = 'window_quota'::regrole;
SELECT releases, epsilon_spent FROM pgdp.budget_status WHERE role = 'window_quota'::regrole;
SET SESSION AUTHORIZATION window_quota;
SELECT pg_temp.release_06();
SELECT releases, epsilon_spent FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
SELECT count(*) AS charges FROM pgdp.charges WHERE role = 'window_quota'::regrole;

-- The Gaussian part (gaussian accounting) renews too: a Gaussian release of (0.4, 4e-6) fits the
-- Gaussian part (0.5, 5e-6), two compose beyond it (sensitivity/sigma grows by sqrt(2)); after the
-- renewal the part holds the one new release's mu^2 only.
SELECT role, accounting, period FROM pgdp.set_budget('window_gauss', 1, 1e-5, 'gaussian');
SELECT period FROM pgdp.set_budget_period('window_gauss', '1 hour');
SET SESSION AUTHORIZATION window_gauss;
SELECT pg_temp.error_of('SELECT dp_sum(minutes, 0, 100, 0.4, 4e-6, ''gaussian'') FROM window_visits');
RESET SESSION AUTHORIZATION;
CREATE TEMP TABLE one_gaussian_release AS SELECT gaussian_mu2 FROM pgdp.budgets WHERE role = 'window_gauss'::regrole;
SET SESSION AUTHORIZATION window_gauss;
SELECT pg_temp.error_of('SELECT dp_sum(minutes, 0, 100, 0.4, 4e-6, ''gaussian'') FROM window_visits');
RESET SESSION AUTHORIZATION;
UPDATE pgdp.budgets SET period_start = period_start - interval '1 hour' WHERE role = 'window_gauss'::regrole;
SELECT gaussian_mu2, epsilon_spent, delta_spent FROM pgdp.budget_status WHERE role = 'window_gauss'::regrole;
SET SESSION AUTHORIZATION window_gauss;
SELECT pg_temp.error_of('SELECT dp_sum(minutes, 0, 100, 0.4, 4e-6, ''gaussian'') FROM window_visits');
RESET SESSION AUTHORIZATION;
SELECT b.releases, o.gaussian_mu2 > 0 AS gaussian_part_used, b.gaussian_mu2 = o.gaussian_mu2 AS only_the_new_release,
       (SELECT count(*) FROM pgdp.charges c WHERE c.role = b.role) AS charges
FROM pgdp.budgets b, one_gaussian_release o WHERE b.role = 'window_gauss'::regrole;

-- ---------------------------------------------------------------------------------------------
-- A lifetime budget never renews, however old: a second 0.6 stays refused.
SET SESSION AUTHORIZATION window_lifetime;
SELECT pg_temp.release_06();
RESET SESSION AUTHORIZATION;
UPDATE pgdp.budgets SET created_at = created_at - interval '10 years', updated_at = updated_at - interval '10 years'
WHERE role = 'window_lifetime'::regrole;
SET SESSION AUTHORIZATION window_lifetime;
SELECT pg_temp.release_06();
SELECT epsilon_spent, epsilon_remaining, releases, period, period_start, renews_at FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
-- Giving it a period refunds nothing: the first window starts now with what was spent.
SELECT epsilon_spent, period, period_start = now() AS starts_now FROM pgdp.set_budget_period('window_lifetime', '1 day');
SET SESSION AUTHORIZATION window_lifetime;
SELECT pg_temp.release_06();
RESET SESSION AUTHORIZATION;
-- Back to lifetime (NULL) keeps the current window's spent amounts ...
SELECT epsilon_spent, period, period_start, renews_at FROM pgdp.set_budget_period('window_lifetime', NULL);
-- ... and after an elapsed window, it is renewed first: the lifetime budget starts from that window.
SELECT period FROM pgdp.set_budget_period('window_lifetime', '1 day');
UPDATE pgdp.budgets SET period_start = period_start - interval '24 hours' WHERE role = 'window_lifetime'::regrole;
SELECT epsilon_spent, period, period_start FROM pgdp.set_budget_period('window_lifetime', NULL);
SELECT epsilon_spent, releases, period, period_start FROM pgdp.budgets WHERE role = 'window_lifetime'::regrole;
SELECT count(*) AS charges FROM pgdp.charges WHERE role = 'window_lifetime'::regrole;

-- Clean up.
REVOKE SELECT ON window_visits FROM window_daily, window_lifetime, window_quota, window_gauss;
DROP TABLE window_visits;
DELETE FROM pgdp.budgets WHERE role::text LIKE 'window\_%';
DROP ROLE window_daily, window_lifetime, window_quota, window_gauss, window_nobudget, window_admin;
