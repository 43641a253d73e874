-- Specifies: a role that gets its budget while sessions of it run is charged for nothing that ran
-- in them without pgdp's release-authority rules, and for no code another role's code made in its
-- name before (stage: trust, trust/chargeable_session, trust/utility_trust). Red team round 14 of
-- 0.10's first form, which skipped the rules in sessions without a budget: each attack below made
-- releases charged to the victim and read by eve (docs/privacy.md "Sessions that cannot be
-- charged"); each must now make no charge. Sessions without a budget still skip the rules: a
-- release planned there is refused (40001) and a backend that ran eve's code there makes no release
-- (55000); code run by eve's code may not plant code in the victim's name (42501).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE EXTENSION IF NOT EXISTS dblink;
CREATE ROLE rt_eve;
CREATE ROLE rt_bob;
CREATE TABLE public.rt_data AS SELECT g AS id FROM generate_series(1, 1000) g;
GRANT SELECT ON public.rt_data TO rt_bob, rt_eve;
CREATE SCHEMA rt_eve AUTHORIZATION rt_eve;
GRANT USAGE ON SCHEMA rt_eve TO PUBLIC;
SET SESSION AUTHORIZATION rt_eve;
CREATE TABLE rt_eve.loot (who name, n bigint, note text);
GRANT INSERT ON rt_eve.loot TO PUBLIC;
-- eve's helper: tries a release charged to whoever runs it, keeps the result in eve's table.
CREATE FUNCTION rt_eve.f(i int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
  BEGIN
    SELECT dp_count(0.5) INTO n FROM public.rt_data;
    INSERT INTO rt_eve.loot VALUES (session_user, n, 'call ' || i);
    RETURN 'RELEASED ' || n;
  EXCEPTION WHEN others THEN
    RETURN 'refused: ' || SQLSTATE || ' ' || left(SQLERRM, 70);
  END;
END $$;
RESET SESSION AUTHORIZATION;
DO $$ BEGIN FOR i IN 1..100 LOOP EXIT WHEN pgdp.ledger_ready(); PERFORM pg_sleep(0.1); END LOOP; END $$;
SELECT dblink_connect('admin', format('dbname=%s host=%s port=%s user=%s', current_database(),
    split_part(current_setting('unix_socket_directories'), ',', 1), current_setting('port'), current_user)) AS admin_link;

-- Attack 1: bob (no budget yet) has an open cursor over eve's function; an admin grants bob a
-- budget; the cursor's executor state (eve's FmgrInfo, built without the fmgr hook) survives the turn.
SET SESSION AUTHORIZATION rt_bob;
BEGIN;
DECLARE c CURSOR FOR SELECT rt_eve.f(i) FROM generate_series(1, 3) i;
FETCH 1 FROM c;
SELECT dblink_exec('admin', $$DO 'BEGIN PERFORM pgdp.set_budget(''rt_bob'', 10); END'$$) AS admin_grants_bob_a_budget;
FETCH 1 FROM c;
FETCH 1 FROM c;
COMMIT;
-- Control: a fresh statement after the turn: the backend ran eve's code without the rules.
SELECT rt_eve.f(99) AS control_after_turn;
RESET SESSION AUTHORIZATION;
SELECT who, n IS NOT NULL AS has_value, note FROM rt_eve.loot ORDER BY note;
SELECT count(*) AS bob_charges FROM pgdp.ledger WHERE role = 'rt_bob'::regrole;
SET SESSION AUTHORIZATION rt_eve;
SELECT who, n IS NOT NULL AS eve_reads_bobs_release, note FROM rt_eve.loot;
RESET SESSION AUTHORIZATION;

-- Attack 1b: the same without a cursor: one statement of bob2 that runs while the admin grants
-- the budget (the admin's grant simulated by dblink inside the statement, at row 2).
CREATE ROLE rt_bob2;
GRANT SELECT ON public.rt_data TO rt_bob2;
GRANT EXECUTE ON FUNCTION dblink_exec(text, text) TO rt_bob2;
SET SESSION AUTHORIZATION rt_bob2;
SELECT i, CASE WHEN i = 2 THEN dblink_exec('admin', $$DO 'BEGIN PERFORM pgdp.set_budget(''rt_bob2'', 10); END'$$) END AS admin,
       rt_eve.f(i) FROM generate_series(1, 4) i;
RESET SESSION AUTHORIZATION;
SELECT count(*) AS bob2_charges FROM pgdp.ledger WHERE role = 'rt_bob2'::regrole;

-- Attack 2: objects planted while the session could not be charged outlive the turn. carol (no
-- budget) calls eve's helper once; it creates, owned by carol, a function that makes a release and
-- hands it to eve, and a view in carol's schema shadowing public.rt_data. After carol gets a budget,
-- her own plain query of rt_data runs "her own" code: nothing is under eve's frame.
CREATE ROLE rt_carol;
GRANT SELECT ON public.rt_data TO rt_carol;
CREATE SCHEMA rt_carol AUTHORIZATION rt_carol;
SET SESSION AUTHORIZATION rt_eve;
CREATE FUNCTION rt_eve.tidy() RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
  EXECUTE $$CREATE FUNCTION rt_carol.leak() RETURNS boolean LANGUAGE plpgsql AS '
    BEGIN INSERT INTO rt_eve.loot SELECT session_user, dp_count(0.5), ''planted'' FROM public.rt_data;
          RETURN true; END' $$;
  EXECUTE 'CREATE VIEW rt_carol.rt_data AS SELECT id FROM public.rt_data WHERE (SELECT rt_carol.leak())';
  RETURN 'tidied';
END $f$;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION rt_carol;
SELECT rt_eve.tidy() AS carol_without_budget_calls_eve;
RESET SESSION AUTHORIZATION;
SELECT role FROM pgdp.set_budget('rt_carol', 10);
SET SESSION AUTHORIZATION rt_carol;
SELECT count(*) AS carols_own_query FROM rt_data;
RESET SESSION AUTHORIZATION;
SELECT count(*) AS carol_charges FROM pgdp.ledger WHERE role = 'rt_carol'::regrole;
SET SESSION AUTHORIZATION rt_eve;
SELECT who, n IS NOT NULL AS eve_reads_release, note FROM rt_eve.loot WHERE note = 'planted';
RESET SESSION AUTHORIZATION;

-- Attack 3: a function call cached in the type cache while dave could not be charged: the
-- subtype_diff of eve's range type (GiST penalty), kept in TypeCacheEntry.rng_subdiff_finfo,
-- built without the fmgr hook and never rebuilt by InvalidateSystemCaches.
CREATE ROLE rt_dave;
GRANT SELECT ON public.rt_data TO rt_dave;
CREATE SCHEMA rt_dave AUTHORIZATION rt_dave;
SET SESSION AUTHORIZATION rt_eve;
CREATE SEQUENCE rt_eve.s;
GRANT ALL ON SEQUENCE rt_eve.s TO PUBLIC;
CREATE FUNCTION rt_eve.diff(a float8, b float8) RETURNS float8 LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE n bigint;
BEGIN
  IF a < 5 AND b < 5 THEN RETURN a - b; END IF;  -- PoC trigger: only for values >= 5
  SELECT dp_count(0.5) INTO n FROM public.rt_data;
  PERFORM setval('rt_eve.s', n);
  RETURN a - b;
END $$;
CREATE TYPE rt_eve.fr AS RANGE (subtype = float8, subtype_diff = rt_eve.diff);
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION rt_dave;
CREATE TABLE rt_dave.t (r rt_eve.fr);
CREATE INDEX ON rt_dave.t USING gist (r);
-- Warm-up while dave cannot be charged: building the values loads the type cache entry.
INSERT INTO rt_dave.t SELECT rt_eve.fr(g / 1000.0, g / 1000.0 + 0.001) FROM generate_series(1, 3000) g;
RESET SESSION AUTHORIZATION;
SELECT role FROM pgdp.set_budget('rt_dave', 10);
SET SESSION AUTHORIZATION rt_dave;
INSERT INTO rt_dave.t VALUES (rt_eve.fr(10, 11));
RESET SESSION AUTHORIZATION;
SELECT count(*) AS dave_charges FROM pgdp.ledger WHERE role = 'rt_dave'::regrole;
SET SESSION AUTHORIZATION rt_eve;
SELECT last_value > 1 AS eve_reads_daves_release FROM rt_eve.s;
RESET SESSION AUTHORIZATION;

-- Attack 2b: the other ways eve's code could leave code in carol2's name while she has no budget:
-- her own function's search_path, a rule, a policy, an operator, an owner change, membership in
-- carol2 (PostgreSQL 15 lets a session user grant its own role), an aggregate, a materialized view.
-- Each is refused; a SECURITY DEFINER function of eve creates in eve's own name (allowed).
CREATE ROLE rt_carol2;
CREATE SCHEMA rt_carol2 AUTHORIZATION rt_carol2;
GRANT rt_eve TO rt_carol2;  -- so that eve's objects can be handed to carol2 (ALTER ... OWNER)
SET SESSION AUTHORIZATION rt_eve;
CREATE FUNCTION rt_eve.run(command text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE command;
    RETURN 'ok';
EXCEPTION WHEN insufficient_privilege THEN
    RETURN 'refused: ' || SQLSTATE;
END $$;
CREATE FUNCTION rt_eve.own_plant() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    CREATE FUNCTION rt_eve.made_by_eve() RETURNS int LANGUAGE sql AS 'SELECT 1';
    RETURN 'created in eve''s name';
END $$;
CREATE FUNCTION rt_eve.gift() RETURNS int LANGUAGE sql AS 'SELECT 2';
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION rt_carol2;
CREATE TABLE rt_carol2.t (id int);
CREATE FUNCTION rt_carol2.mine() RETURNS int LANGUAGE sql AS 'SELECT 1';
SELECT command, rt_eve.run(command) AS outcome FROM (VALUES
    ('ALTER FUNCTION rt_carol2.mine() SET search_path = rt_eve'),
    ('CREATE RULE r AS ON INSERT TO rt_carol2.t DO ALSO NOTIFY rt'),
    ('CREATE POLICY p ON rt_carol2.t USING (true)'),
    ('CREATE OPERATOR rt_carol2.+ (FUNCTION = int4pl, LEFTARG = int, RIGHTARG = int)'),
    ('ALTER FUNCTION rt_eve.gift() OWNER TO rt_carol2'),
    ('GRANT rt_carol2 TO rt_eve'),
    ('CREATE AGGREGATE rt_carol2.agg(int) (SFUNC = int4pl, STYPE = int)'),
    ('CREATE MATERIALIZED VIEW rt_carol2.mv AS SELECT 1 AS one'),
    ('CREATE SCHEMA rt_c2 CREATE VIEW v AS SELECT 1 AS one')
) c(command);
SELECT rt_eve.own_plant() AS eve_definer_function;
-- A SECURITY DEFINER function of another role creates code for its owner although this backend ran
-- eve's code (PostgreSQL's rule: what a definer function runs is its owner's choice); eve's code
-- looked up inside it may not.
RESET SESSION AUTHORIZATION;
CREATE ROLE rt_owner;
CREATE SCHEMA rt_owner AUTHORIZATION rt_owner;
GRANT USAGE ON SCHEMA rt_owner TO PUBLIC;
SET SESSION AUTHORIZATION rt_owner;
CREATE FUNCTION rt_owner.make() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    CREATE OR REPLACE FUNCTION rt_owner.made() RETURNS int LANGUAGE sql AS 'SELECT 1';
    RETURN 'created in rt_owner''s name';
END $$;
CREATE FUNCTION rt_owner.make_through_eve() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    RETURN rt_eve.run('CREATE FUNCTION rt_owner.planted() RETURNS int LANGUAGE sql AS ''SELECT 1''');
END $$;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION rt_carol2;
SELECT rt_owner.make() AS owners_definer_function;
SELECT rt_owner.make_through_eve() AS eve_inside_owners_definer_function;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION rt_carol2;
SELECT pg_get_userbyid(proowner) AS gift_owner FROM pg_proc WHERE proname = 'gift';
RESET SESSION AUTHORIZATION;
REVOKE rt_eve FROM rt_carol2;

-- Attack 4 (red team round 15, docs/red-team/round15.md): code planted through DDL a list of
-- code-planting statements missed: a column default, a CHECK constraint and a domain constraint on
-- the victim's own objects that run a release from SQL text (query_to_xml), a table shadowing one
-- the victim habitually writes, a role setting (search_path) steering the victim's later releases to
-- eve's function, default privileges handing the victim's later tables to eve; also a trigger, a
-- range type and an index expression. Code run by code may now only create what leaves no code, so
-- each is refused; after its budget, the victim's new session (a fresh backend) charges nothing for
-- its plain inserts and its own release goes to no function of eve.
CREATE ROLE rt_vic LOGIN;
CREATE TABLE public.rt_results (id int, note text);
GRANT ALL ON public.rt_results TO PUBLIC;
GRANT SELECT ON public.rt_data TO rt_vic;
CREATE SCHEMA rt_vic AUTHORIZATION rt_vic;
SET SESSION AUTHORIZATION rt_eve;
CREATE SEQUENCE rt_eve.s1;
GRANT ALL ON SEQUENCE rt_eve.s1 TO PUBLIC;
CREATE FUNCTION rt_eve.to_char(v bigint, f text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN INSERT INTO rt_eve.loot VALUES (session_user, v, 'to_char'); RETURN pg_catalog.to_char(v, f); END $$;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION rt_vic;
CREATE TABLE rt_vic.log (id int, note text);
CREATE FUNCTION rt_vic.fire() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END';
SELECT command, rt_eve.run(command) AS outcome FROM (VALUES
    ($$ALTER TABLE rt_vic.log ALTER COLUMN note SET DEFAULT query_to_xml('SELECT setval(''rt_eve.s1'', dp_count(0.5)) FROM public.rt_data', false, false, '')::text$$),
    ($$CREATE TABLE rt_vic.rt_results (id int, note text, CHECK (query_to_xml('SELECT setval(''rt_eve.s1'', dp_count(0.5)) FROM public.rt_data', false, false, '') IS NOT NULL))$$),
    ($$CREATE DOMAIN rt_vic.d AS int CHECK (query_to_xml('SELECT setval(''rt_eve.s1'', dp_count(0.5)) FROM public.rt_data', false, false, '') IS NOT NULL)$$),
    ('ALTER ROLE CURRENT_USER SET search_path = rt_eve, pg_catalog, "$user", public'),
    ('ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO rt_eve'),
    ('CREATE TRIGGER t BEFORE INSERT ON rt_vic.log FOR EACH ROW EXECUTE FUNCTION rt_vic.fire()'),
    ('CREATE TYPE rt_vic.r AS RANGE (subtype = float8)'),
    ('CREATE INDEX ON rt_vic.log (abs(id))'),
    -- allowed: no code, or simple expressions of constants and a few built-ins
    ('CREATE TABLE rt_vic.plain (id int PRIMARY KEY, note text NOT NULL)'),
    ('ALTER TABLE rt_vic.log ADD COLUMN extra int DEFAULT 1 CHECK (extra > 0)'),
    ('ALTER TABLE rt_vic.log ADD COLUMN plain_extra int'),
    ('CREATE INDEX ON rt_vic.log (id)')
) c(command);
RESET SESSION AUTHORIZATION;
SELECT role FROM pgdp.set_budget('rt_vic', 10);
SELECT dblink_connect('vic', format('dbname=%s host=%s port=%s user=rt_vic', current_database(),
    split_part(current_setting('unix_socket_directories'), ',', 1), current_setting('port'))) AS victims_new_session;
SELECT dblink_exec('vic', 'INSERT INTO rt_vic.log (id) VALUES (1)') AS plain_insert;
SELECT dblink_exec('vic', 'INSERT INTO rt_results VALUES (1, ''x'')') AS habitual_insert;
SELECT count(*) AS victim_charges_for_inserts FROM pgdp.ledger WHERE role = 'rt_vic'::regrole;
SELECT * FROM dblink('vic', 'SELECT to_char(dp_count(5), ''FM999999'') IS NOT NULL FROM public.rt_data') AS t(own_release_made boolean);
SELECT dblink_disconnect('vic');
SELECT count(*) AS victim_charges FROM pgdp.ledger WHERE role = 'rt_vic'::regrole;
SELECT count(*) AS eve_received FROM rt_eve.loot WHERE who = 'rt_vic' OR note = 'to_char';
SELECT last_value > 1 AS eve_reads_a_release FROM rt_eve.s1;

-- A superuser is a member of every role: its session may run eve's code and then a DO block that
-- creates a function (PostgreSQL's own model: a superuser who runs a role's code gives it
-- everything).
SELECT rt_eve.gift() AS superuser_ran_eves_code;
DO $$ BEGIN CREATE FUNCTION public.rt_superuser_made() RETURNS int LANGUAGE sql AS 'SELECT 3'; END $$;
SELECT public.rt_superuser_made() AS superuser_created_in_do_block;
DROP FUNCTION public.rt_superuser_made();

SELECT dblink_disconnect('admin');
DROP SCHEMA rt_eve, rt_carol, rt_carol2, rt_dave, rt_vic, rt_owner CASCADE;
DROP TABLE public.rt_results;
DROP TABLE public.rt_data;
DROP EXTENSION dblink;
DELETE FROM pgdp.budgets WHERE role::text LIKE 'rt\_%';
DROP ROLE rt_eve, rt_bob, rt_bob2, rt_carol, rt_carol2, rt_dave, rt_vic, rt_owner;
