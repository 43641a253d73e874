-- The release cache (issue 13): a repeated release (same normalized statement, same parameter
-- values, same data epochs, same scope) is answered with the stored rows at no charge; a new
-- epoch, another parameter value, other query text or another scope is a new release, charged.
-- Charges are counted in the ledger; noise makes a fresh release differ from the stored one.
CREATE EXTENSION IF NOT EXISTS pgdp;
SET extra_float_digits = 0;
CREATE TABLE panel_sales AS SELECT g AS id, g % 5 AS region, g % 101 AS amount FROM generate_series(1, 20000) g;
CREATE TABLE panel_notes (id int);
CREATE ROLE cache_ana;
CREATE ROLE cache_bob;
CREATE ROLE cache_cid;
GRANT SELECT ON panel_sales, panel_notes TO cache_ana, cache_bob, cache_cid;
SELECT count(*) FROM (SELECT pgdp.set_budget(r::regrole, 1000, 0.5) FROM unnest(ARRAY['cache_ana', 'cache_bob', 'cache_cid']) r) s;

CREATE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
    hint text;
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    RETURN state || ': ' || message || E'\n  HINT: ' || coalesce(hint, '');
END $$;
-- Releases charged to a role so far (ledger rows).
CREATE FUNCTION pg_temp.charged(who name) RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM pgdp.ledger l WHERE l.role = who::regrole
$$;

-- ---------------------------------------------------------------------------------------------
-- Bad input: clear errors, nothing changed.
SELECT pg_temp.error_of($$SELECT pgdp.set_refresh_policy(NULL)$$);
SELECT pg_temp.error_of($$SELECT pgdp.set_refresh_policy('no_such_table')$$);
CREATE VIEW panel_view AS SELECT * FROM panel_sales;
SELECT pg_temp.error_of($$SELECT pgdp.set_refresh_policy('panel_view')$$);
SELECT pg_temp.error_of($$SELECT pgdp.set_refresh_policy('panel_sales', 'hourly')$$);
SELECT pg_temp.error_of($$SELECT pgdp.set_refresh_policy('panel_sales', 'interval')$$);
SELECT pg_temp.error_of($$SELECT pgdp.set_refresh_policy('panel_sales', 'manual', '1 hour')$$);
SELECT pg_temp.error_of($$SELECT pgdp.set_refresh_policy('panel_sales', 'interval', '-1 hour')$$);
SELECT pg_temp.error_of($$SELECT pgdp.set_refresh_policy('panel_sales', 'interval', '1 month')$$);
SELECT pg_temp.error_of($$SELECT pgdp.refresh('panel_sales')$$);
SELECT pg_temp.error_of($$SELECT pgdp.refresh('no_such_table')$$);
SELECT pg_temp.error_of($$SELECT pgdp.refresh(NULL)$$);
SELECT pg_temp.error_of($$SELECT pgdp.purge_cache('-1 day')$$);
SELECT pg_temp.error_of($$SELECT pgdp.set_cache_group('cache_ana', '')$$);
SELECT count(*) AS epochs_after_refusals FROM pgdp.data_epochs;
-- Not an admin: refused by privileges, nothing purged or changed.
SET SESSION AUTHORIZATION cache_ana;
SELECT pg_temp.error_of($$SELECT pgdp.purge_cache()$$);
SELECT pg_temp.error_of($$SELECT pgdp.refresh('panel_sales')$$);
SELECT pg_temp.error_of($$SELECT pgdp.set_refresh_policy('panel_sales')$$);
SELECT pg_temp.error_of($$SELECT pgdp.set_cache_group('cache_ana', 'all')$$);
SELECT pg_temp.error_of($$SELECT count(*) FROM pgdp.release_cache$$);
SELECT pg_temp.error_of($$INSERT INTO pgdp.release_cache VALUES ('role:1', '\x00', '', '', '{}', 0, '{}', 'cache_ana', NULL)$$);
RESET SESSION AUTHORIZATION;

-- ---------------------------------------------------------------------------------------------
-- Without a data epoch nothing is cached: each run is a release.
SET SESSION AUTHORIZATION cache_ana;
SELECT dp_count(1.0) IS NOT NULL AS released FROM panel_sales;
SELECT dp_count(1.0) IS NOT NULL AS released FROM panel_sales;
SELECT pgdp.answered_from_cache();
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;

SELECT relation, epoch, policy, refresh_interval FROM pgdp.set_refresh_policy('panel_sales');

-- A panel: five regions' counts, as one text (noise differs between releases, so equal texts
-- mean the same release). The first run is charged and stored; repeats, also written with other
-- spacing and case, return the stored rows and charge nothing.
SET SESSION AUTHORIZATION cache_ana;
SELECT string_agg(format('%s:%s', region, (r).value), ' ' ORDER BY region) AS answer
FROM (SELECT region, dp_count_ci(1.0, 0, 'laplace', 0.05) r FROM panel_sales GROUP BY region) x \gset run1_
SELECT pgdp.answered_from_cache();
SELECT string_agg(format('%s:%s', region, (r).value), ' ' ORDER BY region) AS answer
FROM (SELECT region, dp_count_ci(1.0, 0, 'laplace', 0.05) r FROM panel_sales GROUP BY region) x \gset run2_
SELECT pgdp.answered_from_cache();
select STRING_AGG(format('%s:%s', region, (r).value), ' ' order by region)    AS answer
  from (select region, dp_count_ci(1.0, 0, 'laplace', 0.05) r from panel_sales group by region) x \gset run3_
SELECT :'run1_answer' = :'run2_answer' AND :'run2_answer' = :'run3_answer' AS same_answer,
       :'run1_answer' <> '' AS answered;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;

-- The record form says where it came from: from_cache false when released, true when answered
-- again; epsilon and delta are what the release was charged.
SET SESSION AUTHORIZATION cache_ana;
SELECT dp_sum_ci(amount, 0, 100, 0.5, 1e-6, 'gaussian', 0.05) AS rec FROM panel_sales \gset first_
SELECT dp_sum_ci(amount, 0, 100, 0.5, 1e-6, 'gaussian', 0.05) AS rec FROM panel_sales \gset second_
SELECT (:'first_rec'::dp_release).from_cache AS first_from_cache, (:'second_rec'::dp_release).from_cache AS second_from_cache,
       (:'first_rec'::dp_release).value = (:'second_rec'::dp_release).value AS same_value,
       (:'second_rec'::dp_release).epsilon AS epsilon, (:'second_rec'::dp_release).delta AS delta,
       (:'second_rec'::dp_release).mechanism AS mechanism;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;

-- Bind parameters: the same values are one release; another value is a new one.
SET SESSION AUTHORIZATION cache_ana;
PREPARE by_region(int) AS SELECT dp_sum(amount, 0, 100, 1.0) FROM panel_sales WHERE region = $1;
EXECUTE by_region(1) \gset p1_
EXECUTE by_region(1) \gset p2_
SELECT :'p1_dp_sum' = :'p2_dp_sum' AS same_answer;
EXECUTE by_region(2) \gset p3_
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;
-- Other query text (another constant) is a new release.
SET SESSION AUTHORIZATION cache_ana;
SELECT dp_sum(amount, 0, 100, 1.0) FROM panel_sales WHERE region = 3 \gset c1_
SELECT dp_sum(amount, 0, 100, 1.0) FROM panel_sales WHERE region = 4 \gset c2_
SELECT dp_sum(amount, 0, 100, 1.0) FROM panel_sales WHERE region = 3 \gset c3_
SELECT :'c1_dp_sum' = :'c3_dp_sum' AS repeat_same;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;

-- Another role's function running the same statement in ana's session is refused, cached or not
-- (it could otherwise read ana's cached releases).
CREATE ROLE cache_mallory;
GRANT SELECT ON panel_sales TO cache_mallory;
CREATE FUNCTION public.cache_peek() RETURNS bigint LANGUAGE plpgsql AS $f$
DECLARE
    answer bigint;
BEGIN
    -- the very statement ana's cache holds (plpgsql runs it without the INTO)
    SELECT dp_sum(amount, 0, 100, 1.0) FROM panel_sales WHERE region = 3 INTO answer;
    RETURN answer;
END $f$;
ALTER FUNCTION public.cache_peek() OWNER TO cache_mallory;
SET SESSION AUTHORIZATION cache_ana;
SELECT pg_temp.error_of($$SELECT public.cache_peek()$$);
RESET SESSION AUTHORIZATION;
DROP FUNCTION public.cache_peek();
SELECT pg_temp.charged('cache_ana') AS ana_charged;

-- Nor does another role's code fetching the session user's cursor over a cached answer: ana
-- inserts into mallory's table, whose default reads ana's open cursor (refused, nothing read).
CREATE TABLE public.cache_guestbook (note text, loot text DEFAULT
    cursor_to_xml('anas_cursor'::refcursor, 10, false, true, '')::text);
ALTER TABLE public.cache_guestbook OWNER TO cache_mallory;
GRANT SELECT, INSERT ON public.cache_guestbook TO PUBLIC;
SET SESSION AUTHORIZATION cache_ana;
BEGIN;
DECLARE anas_cursor CURSOR FOR SELECT dp_sum(amount, 0, 100, 1.0) FROM panel_sales WHERE region = 3;
SELECT pgdp.answered_from_cache() AS cursor_from_cache;
SELECT pg_temp.error_of($$INSERT INTO public.cache_guestbook (note) VALUES ('x')$$) ~ '^42501' AS guestbook_refused;
ROLLBACK;
RESET SESSION AUTHORIZATION;
SELECT count(*) AS loot FROM public.cache_guestbook;
DROP TABLE public.cache_guestbook;

-- A new epoch: the repeat is released again (charged, new noise), then cached again.
SELECT pgdp.refresh('panel_sales') AS epoch;
SET SESSION AUTHORIZATION cache_ana;
EXECUTE by_region(1) \gset p4_
EXECUTE by_region(1) \gset p5_
SELECT :'p4_dp_sum' = :'p5_dp_sum' AS same_within_epoch;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;

-- Another role has its own scope: its own release, charged to it.
-- (by_region is the session's prepared statement; SET SESSION AUTHORIZATION changes the session user.)
SET SESSION AUTHORIZATION cache_bob;
EXECUTE by_region(1) \gset b1_
EXECUTE by_region(1) \gset b2_
SELECT :'b1_dp_sum' = :'b2_dp_sum' AS bob_same;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged, pg_temp.charged('cache_bob') AS bob_charged;

-- A cache group shares answers: cid and bob in 'analysts'; bob stores, cid is answered free.
SELECT pgdp.set_cache_group('cache_bob', 'analysts'), pgdp.set_cache_group('cache_cid', 'analysts');
SET SESSION AUTHORIZATION cache_bob;
EXECUTE by_region(3) \gset g1_
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION cache_cid;
EXECUTE by_region(3) \gset g2_
SELECT :'g1_dp_sum' = :'g2_dp_sum' AS group_shares, pgdp.answered_from_cache();
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_bob') AS bob_charged, pg_temp.charged('cache_cid') AS cid_charged;
-- With row security on a relation, roles of a group may see different rows: no sharing.
ALTER TABLE panel_sales ENABLE ROW LEVEL SECURITY;
CREATE POLICY everyone ON panel_sales USING (true);
SET SESSION AUTHORIZATION cache_cid;
EXECUTE by_region(3) \gset g3_
SELECT pgdp.answered_from_cache() AS shared_under_rls;
RESET SESSION AUTHORIZATION;
ALTER TABLE panel_sales DISABLE ROW LEVEL SECURITY;
DROP POLICY everyone ON panel_sales;
SELECT pg_temp.charged('cache_cid') AS cid_charged;

-- Every relation needs an epoch: a join with a relation without one is never cached.
SET SESSION AUTHORIZATION cache_ana;
SELECT dp_count(1.0) IS NOT NULL AS released FROM panel_sales s LEFT JOIN panel_notes n USING (id);
SELECT dp_count(1.0) IS NOT NULL AS released FROM panel_sales s LEFT JOIN panel_notes n USING (id);
SELECT pgdp.answered_from_cache();
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;

-- on_change: any write starts a new epoch.
SELECT relation, epoch, policy FROM pgdp.set_refresh_policy('panel_notes', 'on_change');
SET SESSION AUTHORIZATION cache_ana;
SELECT dp_count(1.0) AS n FROM panel_notes \gset n1_
SELECT dp_count(1.0) AS n FROM panel_notes \gset n2_
SELECT pgdp.answered_from_cache() AS before_write;
RESET SESSION AUTHORIZATION;
INSERT INTO panel_notes VALUES (1);
SELECT epoch FROM pgdp.data_epochs WHERE relation = 'panel_notes'::regclass;
SET SESSION AUTHORIZATION cache_ana;
SELECT dp_count(1.0) AS n FROM panel_notes \gset n3_
SELECT pgdp.answered_from_cache() AS after_write;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;

-- interval: the epoch's window is part of the key.
SELECT relation, policy, refresh_interval FROM pgdp.set_refresh_policy('panel_notes', 'interval', '1 day');
SELECT pg_temp.error_of($$SELECT pgdp.set_refresh_policy('panel_notes', 'interval', '1 day 00:00:00.5'::interval - '1 day'::interval)$$);

-- pgdp.release_cache = off: every run is a release.
SET SESSION AUTHORIZATION cache_ana;
SET pgdp.release_cache = off;
EXECUTE by_region(1) \gset o1_
SELECT pgdp.answered_from_cache() AS with_cache_off;
RESET pgdp.release_cache;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;

-- A cursor fetched in parts is not stored: its repeat is a release again.
SET SESSION AUTHORIZATION cache_ana;
BEGIN;
DECLARE parts CURSOR FOR SELECT region, dp_count(1.0) IS NOT NULL AS released FROM panel_sales GROUP BY region ORDER BY region;
FETCH 2 FROM parts;
FETCH ALL FROM parts;
COMMIT;
SELECT region, dp_count(1.0) IS NOT NULL AS released FROM panel_sales GROUP BY region ORDER BY region;
SELECT pgdp.answered_from_cache() AS after_cursor;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;
-- FETCH 0 runs nothing and stores nothing; a later complete run is stored whole. A PL/pgSQL loop
-- (which fetches in batches) over a cached answer sees every row.
SET SESSION AUTHORIZATION cache_ana;
BEGIN;
DECLARE nothing_yet CURSOR FOR SELECT region, dp_count(2.0) IS NOT NULL AS released FROM panel_sales GROUP BY region ORDER BY region;
FETCH 0 FROM nothing_yet;
CLOSE nothing_yet;
COMMIT;
SELECT region, dp_count(2.0) IS NOT NULL AS released FROM panel_sales GROUP BY region ORDER BY region;
SELECT region, dp_count(2.0) IS NOT NULL AS released FROM panel_sales GROUP BY region ORDER BY region;
SELECT pgdp.answered_from_cache() AS whole_answer_cached;
DO $$
DECLARE
    seen int := 0;
    r record;
BEGIN
    FOR r IN SELECT region, dp_count(2.0) IS NOT NULL AS released FROM panel_sales GROUP BY region ORDER BY region LOOP
        seen := seen + 1;
    END LOOP;
    RAISE NOTICE 'rows seen in a PL/pgSQL loop over the cached answer: %', seen;
END $$;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;

-- A holdable cursor keeps rows beyond the transaction for any code that can name it: a cached
-- answer is refused there as a release would be (nothing charged by either).
SET SESSION AUTHORIZATION cache_ana;
SELECT dp_sum(amount, 0, 100, 1.0) IS NOT NULL AS stored FROM panel_sales WHERE region = 0;
DECLARE held CURSOR WITH HOLD FOR SELECT dp_sum(amount, 0, 100, 1.0) IS NOT NULL AS stored FROM panel_sales WHERE region = 0;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;
-- What is stored: the rows a charged statement returned, under its scope.
SELECT scope ~ '^(role|group):' AS scoped, result_rows, released_by, charge_id IS NOT NULL AS charged
FROM pgdp.release_cache ORDER BY released_at, result_rows LIMIT 3;
-- A pgdp admin (not a superuser) manages the cache: epochs, groups, purge.
CREATE ROLE cache_admin;
SELECT pgdp.designate_admin('cache_admin');
SET SESSION AUTHORIZATION cache_admin;
SELECT pgdp.refresh('panel_notes') > 1 AS admin_refreshed;
SELECT (pgdp.set_refresh_policy('panel_notes', 'manual')).policy AS admin_policy;
SELECT pgdp.set_cache_group('cache_cid', NULL);
SELECT count(*) AS cid_groups FROM pgdp.cache_groups WHERE role = 'cache_cid'::regrole;
SELECT count(*) > 0 AS admin_reads_cache FROM pgdp.release_cache;
RESET SESSION AUTHORIZATION;
SELECT pgdp.revoke_admin('cache_admin');
SET SESSION AUTHORIZATION cache_admin;
SELECT pg_temp.error_of($$SELECT pgdp.refresh('panel_notes')$$);
RESET SESSION AUTHORIZATION;
DROP ROLE cache_admin;

-- Purge: an admin removes entries; the next run is a release again.
SELECT pgdp.purge_cache(relation => 'panel_notes') >= 1 AS purged_notes;
SELECT pgdp.purge_cache() >= 1 AS purged_all;
SELECT count(*) AS left_over FROM pgdp.release_cache;
SET SESSION AUTHORIZATION cache_ana;
EXECUTE by_region(1) \gset after_purge_
SELECT pgdp.answered_from_cache() AS after_purge;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('cache_ana') AS ana_charged;

DROP TABLE panel_sales, panel_notes CASCADE;
DROP ROLE cache_mallory;
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.cache_groups;
DELETE FROM pgdp.release_cache;
