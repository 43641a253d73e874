-- Red team round 20 (docs/red-team/round20.md): a hostile analyst against the forms without bounds
-- of 0.14 (dp_sum(value, epsilon [, delta]) and the others, rewritten by the planner's analysis into
-- the NULL-bound forms) and the estimated bounds' fallback to the widest bounds. The two defects
-- found are pinned first (fixed: an ORDER BY inside a call without bounds raised XX000 while
-- planning; an ORDER BY key inside any pgdp call was read as its delta, mechanism or alpha), then
-- the attacks that held. Expected values: PostgreSQL's own statistics at epsilon 1e9, charge counts.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE r20_eve;
CREATE ROLE r20_vic;
CREATE ROLE r20_alice;
SELECT role FROM pgdp.set_budget('r20_eve', 1e18, 0.99);
SELECT role FROM pgdp.set_budget('r20_vic', 1e18, 0.99);
SELECT role FROM pgdp.set_budget('r20_alice', 1e18, 0.99);
CREATE SCHEMA r20_eve AUTHORIZATION r20_eve;
CREATE SCHEMA r20_alice AUTHORIZATION r20_alice;
GRANT USAGE ON SCHEMA r20_eve TO r20_vic;
-- v in [-100, 200] (the outer binades hold more than the 1% the estimate may trim), id unique.
CREATE TABLE r20_secret (id int, g int, v float8);
INSERT INTO r20_secret SELECT i, i % 3, i % 301 - 100 FROM generate_series(1, 3000) i;
GRANT SELECT ON r20_secret TO r20_eve, r20_vic;
CREATE TABLE r20_sales (customer int, amount float8);
INSERT INTO r20_sales SELECT i % 200, 10 + i % 90 FROM generate_series(1, 2000) i;
SELECT relation FROM pgdp.protect('r20_sales', 'customer');
SELECT relation FROM pgdp.grant_access('r20_sales', 'r20_alice');
RESET client_min_messages;
SET extra_float_digits = 0;
\set VERBOSITY terse
CREATE FUNCTION pg_temp.charges() RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM pgdp.my_ledger';
SET SESSION AUTHORIZATION r20_eve;

-- Defect 1 (fixed): an ORDER BY inside a call without bounds. The parser appends the ORDER BY key
-- to the call's arguments (a resjunk entry), so the rewrite's check of the argument count raised
-- "pgdp: not a call without bounds" (XX000, internal error) while planning. Now the call is its
-- NULL-bound form, ORDER BY included.
SELECT abs(dp_sum(v, 1e9 ORDER BY id) - dp_sum(v, NULL, NULL, 1e9)) < 1e-3 AS ordered_sum,
       abs(dp_median(v, 1e9 ORDER BY v DESC) - dp_median(v, NULL, NULL, 1e9)) < 1e-3 AS ordered_median,
       abs(dp_quantile(v, 0.9, 1e9 ORDER BY id) - dp_quantile(v, NULL, NULL, 0.9, 1e9)) < 1e-3 AS ordered_quantile
FROM r20_secret;

-- Defect 2 (fixed, older than 0.14): the privacy parameters after epsilon were read by position
-- among all of the call's argument entries, ORDER BY keys included. dp_sum(v, 0, 10, 1 ORDER BY
-- 0.5) was charged and released as (1, 0.5) with 'auto' (Gaussian), a sort key read as delta; the
-- *_ci forms read their alpha from the last key; ORDER BY a column was refused as "delta must be
-- a constant". The noise always matched the charge (no privacy loss), but the call's meaning was
-- not the one written. Now the keys are no arguments.
SELECT pg_temp.charges() AS before \gset
SELECT dp_sum(v, 0, 10, 1 ORDER BY 0.5::float8) IS NOT NULL AS released FROM r20_secret;
SELECT aggregate, epsilon, delta, mechanism FROM pgdp.my_ledger ORDER BY charge_id DESC LIMIT 1;
SELECT (dp_sum_ci(v, 0, 10, 1, 0.05 ORDER BY 0.999::float8)).alpha FROM r20_secret;
SELECT aggregate, epsilon, delta, mechanism FROM pgdp.my_ledger ORDER BY charge_id DESC LIMIT 1;
SELECT abs(dp_sum(v, 0, 10, 1e9 ORDER BY id) - sum(least(greatest(v, 0), 10))) < 1 AS ordered_by_a_column
FROM r20_secret;
SELECT pg_temp.charges() - :before AS charges;

-- Held: the omitted-bound call in every place the planner's one analysis must reach. Each released
-- (PostgreSQL's sum at epsilon 1e9) and charged once per release.
SELECT pg_temp.charges() AS before \gset
CREATE VIEW r20_eve.v_plain AS SELECT g, dp_sum(v, 1e9) AS s FROM public.r20_secret GROUP BY g;
CREATE VIEW r20_eve.v_nested WITH (security_barrier) AS SELECT * FROM r20_eve.v_plain;
SELECT count(*) FILTER (WHERE abs(n.s - t.s) < 1) AS view_groups
FROM r20_eve.v_nested n JOIN (SELECT g, sum(v) AS s FROM r20_secret GROUP BY g) t USING (g);
SELECT (SELECT abs(dp_sum(v, 1e9) - sum(v)) < 1 FROM r20_secret) AS sublink;
WITH c AS MATERIALIZED (SELECT dp_sum(v, 1e9) AS s, sum(v) AS t FROM r20_secret) SELECT abs(s - t) < 1 AS cte FROM c;
SELECT abs(s - t) < 1 AS lateral_once FROM (VALUES (1)) x, LATERAL (SELECT dp_sum(v, 1e9) AS s, sum(v) AS t FROM r20_secret) l;
SELECT abs(dp_sum(v, 1e9) - sum(v)) < 1 AS set_operation FROM r20_secret
UNION ALL SELECT abs(dp_sum(v, 1e9) - sum(v)) < 1 FROM r20_secret;
SELECT g, abs(dp_sum(v, 1e9) - sum(v)) < 1 AS grouping_set FROM r20_secret GROUP BY GROUPING SETS ((g), ()) ORDER BY g;
SELECT abs(dp_sum(v, 1e9) FILTER (WHERE g = 1) - sum(v) FILTER (WHERE g = 1)) < 1 AS filtered FROM r20_secret;
-- A frame offset's sublink (query_tree_walker walks WindowClause offsets).
SELECT count(*) AS frame_rows FROM (SELECT sum(1) OVER (ORDER BY id ROWS BETWEEN
    (SELECT (dp_sum(v, 1e9) > 0)::int FROM r20_secret) PRECEDING AND CURRENT ROW) FROM r20_secret) w;
SELECT pg_temp.charges() - :before AS charges;

-- Held: the statements that plan a query of their own (CTAS, COPY, cursors, EXPLAIN ANALYZE,
-- INSERT .. SELECT, MERGE, prepared generic plans, PL/pgSQL, SQL functions not inlined, triggers
-- of the session's own statements) plan through pgdp's hook: rewritten, released, charged once.
SELECT pg_temp.charges() AS before \gset
CREATE TABLE r20_eve.out AS SELECT dp_mean(v, 1e9) AS m FROM public.r20_secret;
INSERT INTO r20_eve.out SELECT dp_mean(v, 1e9) FROM public.r20_secret;
MERGE INTO r20_eve.out o USING (SELECT dp_mean(v, 1e9) AS m FROM public.r20_secret) x ON false
WHEN NOT MATCHED THEN INSERT VALUES (x.m);
SELECT count(*) FILTER (WHERE abs(m - (SELECT avg(v) FROM r20_secret)) < 1e-6) AS written FROM r20_eve.out;
COPY (SELECT dp_variance(v, 1e9) > 0 FROM r20_secret) TO STDOUT;
BEGIN;
DECLARE r20_cursor CURSOR FOR SELECT abs(dp_stddev(v, 1e9) - stddev_pop(v)) < 1e-6 AS cursor FROM r20_secret;
FETCH ALL r20_cursor;
COMMIT;
-- (The plan's text differs by major, PostgreSQL 18 printing rows=1.00 and buffers: only that it
-- runs, charged once like the others, is checked; an error would still show.)
\o /dev/null
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT dp_sum(v, 1e9) FROM r20_secret;
\o
SET plan_cache_mode = force_generic_plan;
PREPARE r20_generic(float8, float8) AS SELECT abs(dp_mean(v, $1, $2) - avg(v)) < 1e-6 AS generic FROM r20_secret;
EXECUTE r20_generic(1e9, 1e-6);
EXECUTE r20_generic(1e9, 1e-6);
DEALLOCATE r20_generic;
RESET plan_cache_mode;
CREATE FUNCTION r20_eve.f_volatile() RETURNS float8 LANGUAGE sql VOLATILE AS 'SELECT dp_sum(v, 1e9) FROM public.r20_secret';
CREATE FUNCTION r20_eve.f_plpgsql() RETURNS float8 LANGUAGE plpgsql AS 'BEGIN RETURN (SELECT dp_sum(v, 1e9) FROM public.r20_secret); END';
CREATE FUNCTION r20_eve.srf_volatile() RETURNS SETOF float8 LANGUAGE sql VOLATILE AS 'SELECT dp_sum(v, 1e9) FROM public.r20_secret';
SELECT abs(r20_eve.f_volatile() - 148836) < 1 AS sql_function, abs(r20_eve.f_plpgsql() - 148836) < 1 AS plpgsql;
SELECT abs(s - 148836) < 1 AS volatile_srf FROM r20_eve.srf_volatile() s;
CREATE TABLE r20_eve.fired (k int);
CREATE TABLE r20_eve.log (s float8);
CREATE FUNCTION r20_eve.log_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO r20_eve.log SELECT dp_sum(v, 1e9) FROM public.r20_secret;
    RETURN NULL;
END $$;
CREATE TRIGGER log_release AFTER INSERT ON r20_eve.fired FOR EACH ROW EXECUTE FUNCTION r20_eve.log_release();
INSERT INTO r20_eve.fired VALUES (1);
SELECT count(*) FILTER (WHERE abs(s - 148836) < 1) AS trigger_released FROM r20_eve.log;
SELECT pg_temp.charges() - :before AS charges;

-- Held: a call the planner inlines from a SQL function in FROM after the analysis (any depth, in a
-- CTE or sublink of the body, BEGIN ATOMIC, beside other releases, under LATERAL) is refused while
-- planning (0A000); nothing charged. PostgreSQL refuses the forms as window functions (their final
-- functions are READ_WRITE) when the executor starts, before the charge.
SELECT pg_temp.charges() AS before \gset
CREATE FUNCTION r20_eve.srf() RETURNS SETOF float8 LANGUAGE sql STABLE AS 'SELECT dp_sum(v, 1e9) FROM public.r20_secret';
CREATE FUNCTION r20_eve.srf_cte() RETURNS SETOF float8 LANGUAGE sql STABLE AS
    'WITH c AS (SELECT dp_median(v, 1e9) AS m FROM public.r20_secret) SELECT m FROM c';
CREATE FUNCTION r20_eve.srf_sublink() RETURNS SETOF float8 LANGUAGE sql IMMUTABLE AS
    'SELECT (SELECT dp_quantiles(v, ARRAY[0.5], 1e9) FROM public.r20_secret)[1]';
CREATE FUNCTION r20_eve.srf_nested() RETURNS SETOF float8 LANGUAGE sql STABLE AS 'SELECT * FROM r20_eve.srf()';
CREATE FUNCTION r20_eve.srf_atomic() RETURNS SETOF float8 LANGUAGE sql STABLE
BEGIN ATOMIC SELECT dp_variance(v, 1e9) FROM public.r20_secret; END;
SELECT * FROM r20_eve.srf();
SELECT * FROM r20_eve.srf_cte();
SELECT * FROM r20_eve.srf_sublink();
SELECT * FROM r20_eve.srf_nested();
SELECT * FROM r20_eve.srf_atomic();
-- (An inlined call whose result the query does not use is removed by the planner, with its release.)
SELECT abs(dp_sum(v, 1e9) - 148836) < 1 AS outer_only FROM r20_secret, r20_eve.srf();
SELECT * FROM r20_secret s, LATERAL r20_eve.srf() f;
SELECT dp_sum(v, 1e9) OVER () FROM r20_secret;
SELECT dp_median(v, 1e9) OVER (PARTITION BY g) FROM r20_secret;
SELECT pg_temp.charges() - :before AS charges_outer_release_only;

-- Held: no look-alike of the forms without bounds. An aggregate on pgdp's transition functions
-- needs STYPE internal (superuser only); their functions cannot be called (no SQL value is of type
-- internal). The analyst's own plain aggregate named dp_median(float8, float8) is ordinary SQL and
-- resolves by search_path like any overload; qualified, it is always the analyst's.
CREATE AGGREGATE r20_eve.dp_sum(float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, STYPE = internal, FINALFUNC = pgdp_omitted_bounds_final_float8);
-- (Refused as an unknown function or as an internal-typed argument, depending on the minor
-- version's resolution of NULL: either way it never runs.)
DO $$
BEGIN
    PERFORM pgdp_omitted_bounds_final_float8(NULL);
    RAISE NOTICE 'pgdp_omitted_bounds_final_float8 ran';
EXCEPTION WHEN undefined_function OR feature_not_supported OR datatype_mismatch THEN
    RAISE NOTICE 'pgdp_omitted_bounds_final_float8 cannot be called';
END $$;
CREATE FUNCTION r20_eve.weighted(float8, float8, float8) RETURNS float8 LANGUAGE sql IMMUTABLE AS 'SELECT $1 + $2 * $3';
CREATE AGGREGATE r20_eve.dp_median(float8, float8) (SFUNC = r20_eve.weighted, STYPE = float8, INITCOND = '0');
SELECT pg_temp.charges() AS before \gset
SET search_path = r20_eve, public;
SELECT dp_median(v, 2) = 2 * sum(v) AS own_aggregate FROM public.r20_secret;
SET search_path = public, r20_eve;
SELECT abs(dp_median(v, 1e9) - percentile_disc(0.5) WITHIN GROUP (ORDER BY v)) <= 1 AS pgdp_median FROM r20_secret;
SELECT r20_eve.dp_median(v, 2) = 2 * sum(v) AS qualified FROM r20_secret;
RESET search_path;
SELECT pg_temp.charges() - :before AS charges;

-- Held: the trust rules see the forms as releases. vic reads eve's view, calls her function,
-- writes her tables (a trigger, a rule) and reads her table under a row-security policy, each with
-- a call without bounds: refused (42501) before any charge; eve's log stays empty.
CREATE TABLE r20_eve.loot (s float8);
CREATE TABLE r20_eve.ruled (k int);
CREATE TABLE r20_eve.policed (k int);
INSERT INTO r20_eve.policed VALUES (1);
CREATE RULE leak AS ON INSERT TO r20_eve.ruled DO ALSO INSERT INTO r20_eve.loot SELECT dp_variance(v, 1e9) FROM public.r20_secret;
ALTER TABLE r20_eve.policed ENABLE ROW LEVEL SECURITY;
CREATE POLICY leak ON r20_eve.policed USING (k < (SELECT dp_stddev(v, 1e9) FROM public.r20_secret));
GRANT SELECT ON r20_eve.v_plain, r20_eve.policed TO r20_vic;
GRANT INSERT ON r20_eve.fired, r20_eve.ruled, r20_eve.loot, r20_eve.log TO r20_vic;
DELETE FROM r20_eve.log;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION r20_vic;
SELECT * FROM r20_eve.v_plain;
SELECT r20_eve.f_volatile();
SELECT r20_eve.f_plpgsql();
INSERT INTO r20_eve.fired VALUES (2);
INSERT INTO r20_eve.ruled VALUES (1);
SELECT * FROM r20_eve.policed;
SELECT pg_temp.charges() AS vic_charges;
RESET SESSION AUTHORIZATION;
SELECT (SELECT count(*) FROM r20_eve.log) + (SELECT count(*) FROM r20_eve.loot) AS handed_to_eve;

-- Held: DP-only access (alice, no SELECT on the protected r20_sales). The forms without bounds are
-- person-level releases like the NULL-bound ones; a leaky value, ORDER BY or FILTER, a plan dump
-- and an inlined SQL function are refused before any charge; the exact total stays unreadable.
SET SESSION AUTHORIZATION r20_alice;
CREATE FUNCTION r20_alice.leak(x float8) RETURNS float8 LANGUAGE plpgsql IMMUTABLE AS 'BEGIN RAISE NOTICE ''%'', x; RETURN x; END';
CREATE FUNCTION r20_alice.srf() RETURNS SETOF float8 LANGUAGE sql STABLE AS 'SELECT dp_sum(amount, 1e9) FROM public.r20_sales';
SELECT dp_sum(amount, 1e9) AS omitted, dp_sum(amount, NULL, NULL, 1e9) AS null_bounds FROM r20_sales \gset
SELECT abs(:omitted - :null_bounds) < 1e-3 AS same_release;
SELECT pg_temp.charges() AS before \gset
SELECT dp_median(r20_alice.leak(amount), 1e9) FROM r20_sales;
SELECT dp_sum(amount, 1e9 ORDER BY r20_alice.leak(amount)) FROM r20_sales;
SELECT dp_sum(amount, 1e9) FILTER (WHERE r20_alice.leak(amount) > 0) FROM r20_sales;
EXPLAIN (VERBOSE, COSTS OFF) SELECT dp_sum(amount, 1e9) FROM r20_sales;
SELECT * FROM r20_alice.srf();
SELECT sum(amount) FROM r20_sales;
SELECT pg_temp.charges() - :before AS charges;
RESET SESSION AUTHORIZATION;
SELECT abs(:omitted - (SELECT sum(t) FROM (SELECT sum(amount) AS t FROM r20_sales GROUP BY customer) p)) < 1e-3
    AS person_totals;

-- Held: the fallback to the widest bounds at the smallest epsilons the charge accepts (a given
-- bound of 1.5 or 3 next to a NULL one; empty, one-row and wide tables): every release finite,
-- none an error after its charge (the sweep of round20.md: 16496 calls, none).
SELECT role FROM pgdp.set_budget('r20_eve', 1e18, 0.99, min_epsilon => 1e-300);
SET SESSION AUTHORIZATION r20_eve;
CREATE TABLE r20_eve.wide (x float8);
INSERT INTO r20_eve.wide VALUES (1.7e308), (-1.7e308), (0), (1), (1.5);
CREATE TABLE r20_eve.one AS SELECT 7::float8 AS x;
CREATE TABLE r20_eve.none AS SELECT 7::float8 AS x WHERE false;
CREATE FUNCTION r20_eve.try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE before bigint; result text; state text;
BEGIN
    SELECT count(*) INTO before FROM pgdp.my_ledger;
    BEGIN
        EXECUTE q INTO result;
        RETURN CASE WHEN result IS NULL OR result ILIKE '%nan%' OR result ILIKE '%infinity%' THEN 'bad value' ELSE 'released' END;
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE;
        RETURN CASE WHEN (SELECT count(*) FROM pgdp.my_ledger) > before THEN 'error after the charge ' || state
                    ELSE 'refused ' || state END;
    END;
END $$;
SELECT r20_eve.try(format('SELECT %s(x, %s, %s)::text FROM r20_eve.%s', a, b, e, t)) AS outcome, count(*)
FROM unnest(ARRAY['dp_sum', 'dp_mean', 'dp_variance', 'dp_stddev']) a,
     unnest(ARRAY['NULL, 1.5', '-1.5, NULL', 'NULL, 3']) b,
     unnest(ARRAY['1e-11', '1.94025721520066e-11', '3.48024038583862e-11', '7e-11', '1e-17, 1e-6, ''gaussian''',
                  '2.7755576e-17, 1e-6, ''tlap''', '2.7755576e-17, 1e-6, ''auto''']) e,
     unnest(ARRAY['wide', 'one', 'none']) t
GROUP BY 1 ORDER BY 1;
RESET SESSION AUTHORIZATION;

-- Leave nothing behind.
SET client_min_messages = warning;
SELECT pgdp.unprotect('r20_sales');
DROP TABLE r20_secret, r20_sales CASCADE;
DROP SCHEMA r20_eve, r20_alice CASCADE;
DELETE FROM pgdp.budgets WHERE role IN ('r20_eve'::regrole, 'r20_vic'::regrole, 'r20_alice'::regrole);
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.release_cache;
DROP OWNED BY r20_eve, r20_vic, r20_alice;
DROP ROLE r20_eve;
DROP ROLE r20_vic;
DROP ROLE r20_alice;
