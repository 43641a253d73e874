-- Specifies: pgdp recognises a view wherever it asks "is this a view?", on every PostgreSQL major.
-- The three places ask it through one function, compat::view_of_entry / is_view_reference
-- (src/pg/base/pg_compat.hpp), because PostgreSQL 16 changed how a view appears in a query tree
-- (no OLD entry in the view's body; the view's own entry is an RTE_SUBQUERY with relkind 'v'). A
-- check that missed a view would fail OPEN, so each use is pinned by the refusal it must make:
--   1. the release authority: another role's view that makes a release is that role's code;
--   2. the release cache: a statement over a view is never answered across a cache group;
--   3. EXPLAIN: a view whose releases the planner pruned is not explained to a role that may not
--      read its table;
--   4. the running statement: a release nested in a statement over another role's view is refused.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE TABLE vr_data AS SELECT g AS id, g % 2 AS half, CASE WHEN g % 2 = 0 THEN 100 ELSE 0 END AS amount,
       CASE WHEN g % 2 = 0 THEN 'vr_bob' ELSE 'vr_cid' END::name AS seller
FROM generate_series(1, 2000) g;
CREATE TABLE vr_hidden AS SELECT g AS id FROM generate_series(1, 300) g;
CREATE ROLE vr_eve;
CREATE ROLE vr_bob;
CREATE ROLE vr_cid;
CREATE ROLE vr_admin;
GRANT SELECT ON vr_data TO vr_eve, vr_bob, vr_cid, vr_admin;
GRANT SELECT ON vr_hidden TO vr_admin;
CREATE SCHEMA vr_eve AUTHORIZATION vr_eve;
CREATE SCHEMA vr_admin AUTHORIZATION vr_admin;
GRANT USAGE ON SCHEMA vr_eve, vr_admin TO PUBLIC;
SELECT count(*) FROM (SELECT pgdp.set_budget(r::regrole, 10000000, 0.5)
                      FROM unnest(ARRAY['vr_eve', 'vr_bob', 'vr_cid', 'vr_admin']) r) s;
SELECT pgdp.designate_admin('vr_admin');
CREATE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE;
    RETURN state;
END $$;
CREATE FUNCTION pg_temp.charged(who name) RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM pgdp.ledger l WHERE l.role = who::regrole
$$;

-- 1. Eve's view makes a release; bob reading it would spend bob's budget for eve: refused (42501)
-- at plan time, nothing charged. Bob's own query over the same rows is fine.
SET SESSION AUTHORIZATION vr_eve;
CREATE VIEW vr_eve.summary AS SELECT dp_count(1000000) AS n FROM public.vr_data;
GRANT SELECT ON vr_eve.summary TO PUBLIC;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION vr_bob;
SELECT pg_temp.error_of('SELECT * FROM vr_eve.summary') AS eve_view_read_by_bob;
SELECT pg_temp.error_of('SELECT * FROM (SELECT * FROM vr_eve.summary) s') AS eve_view_in_a_subquery;
SELECT pg_temp.error_of('WITH w AS (SELECT * FROM vr_eve.summary) SELECT * FROM w') AS eve_view_in_a_cte;
SELECT dp_count(1000000) BETWEEN 1990 AND 2010 AS bob_own_release FROM public.vr_data;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('vr_bob') AS bob_charged_once;

-- 2. A security_barrier view filtering on current_user shows bob and cid different rows. With
-- both in one cache group, cid must get her own release (charged to her), never bob's answer.
CREATE VIEW vr_my_sales WITH (security_barrier) AS SELECT id, amount FROM vr_data WHERE seller = current_user;
GRANT SELECT ON vr_my_sales TO vr_bob, vr_cid;
SELECT relation, epoch FROM pgdp.set_refresh_policy('vr_data');
SELECT pgdp.set_cache_group('vr_bob', 'vr_dash'), pgdp.set_cache_group('vr_cid', 'vr_dash');
SET SESSION AUTHORIZATION vr_bob;
SELECT dp_sum(amount, 0, 100, 1000000) > 90000 AS bob_sees_his_rows FROM vr_my_sales;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION vr_cid;
SELECT dp_sum(amount, 0, 100, 1000000) < 1000 AS cid_sees_her_rows FROM vr_my_sales;
SELECT pgdp.answered_from_cache() AS cid_answered_from_cache;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('vr_cid') AS cid_charged_once;
SELECT pgdp.set_cache_group('vr_bob', NULL), pgdp.set_cache_group('vr_cid', NULL);

-- 3. The admin's view over a table bob may not read: selecting only the id column lets the planner
-- prune the release, leaving a plan over the hidden table. EXPLAIN would show its row estimates:
-- refused (0A000) for bob, plain and with ANALYZE; the admin, who may read it, is shown the plan.
SET SESSION AUTHORIZATION vr_admin;
CREATE VIEW vr_admin.hidden_by_id WITH (security_barrier) AS
    SELECT id, dp_count(1000000) AS n FROM public.vr_hidden GROUP BY id;
GRANT SELECT ON vr_admin.hidden_by_id TO PUBLIC;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION vr_bob;
SELECT pg_temp.error_of('EXPLAIN (COSTS OFF) SELECT id FROM vr_admin.hidden_by_id WHERE id < 50') AS bob_explain;
SELECT pg_temp.error_of('EXPLAIN (ANALYZE, COSTS OFF) SELECT id FROM vr_admin.hidden_by_id WHERE id < 50')
       AS bob_explain_analyze;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION vr_admin;
SELECT pg_temp.error_of('EXPLAIN (COSTS OFF) SELECT id FROM vr_admin.hidden_by_id WHERE id < 50') AS admin_explain;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('vr_bob') AS bob_charged_for_his_two_releases;

-- 4. The running statement: eve's view runs a query that makes a release (query_to_xml); bob's
-- statement over the view runs eve's code, so the nested release is refused (42501), nothing
-- charged. (On 16+ the plan keeps the view as an RTE_SUBQUERY entry: a check of RTE_RELATION
-- entries alone let this release through and charged bob on 17.)
SET SESSION AUTHORIZATION vr_eve;
CREATE VIEW vr_eve.notifier AS
    SELECT 1 AS one, query_to_xml('SELECT dp_count(1000000) AS n FROM public.vr_data', true, false, '')::text AS x;
GRANT SELECT ON vr_eve.notifier TO PUBLIC;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION vr_bob;
SELECT pg_temp.error_of('SELECT one FROM vr_eve.notifier') AS eve_view_running_a_release;
RESET SESSION AUTHORIZATION;
SELECT pg_temp.charged('vr_bob') AS bob_still_charged_for_two;

DROP SCHEMA vr_eve CASCADE;
DROP SCHEMA vr_admin CASCADE;
DROP TABLE vr_data, vr_hidden CASCADE;
SELECT pgdp.revoke_admin('vr_admin');
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.release_cache;
