-- Who may spend a role's budget (issue 8 part 3; docs/privacy.md "Threat model"): only queries
-- the session user issued, code that user owns, or code a pgdp admin owns. Every attempt below
-- by one role (eve) to make another (bob) release into eve's hands, or pay for eve's releases,
-- is refused before anything is charged; the legitimate patterns keep working.
\set VERBOSITY default
SET client_min_messages = warning;
CREATE TABLE authz_data AS SELECT g AS id, g % 4 AS grp, (g * 37) % 1000 AS amount FROM generate_series(1, 2000) g;
-- Readable by the admin only: analysts see it through the admin's view.
CREATE TABLE authz_hidden AS SELECT g AS id FROM generate_series(1, 300) g;
CREATE ROLE authz_eve;
CREATE ROLE authz_bob;
CREATE ROLE authz_admin;
GRANT SELECT ON authz_data TO authz_eve, authz_bob, authz_admin;
GRANT SELECT ON authz_hidden TO authz_admin;
CREATE SCHEMA authz_eve AUTHORIZATION authz_eve;
GRANT USAGE ON SCHEMA authz_eve TO authz_bob;
SELECT role FROM pgdp.set_budget('authz_eve', 1);
SELECT role FROM pgdp.set_budget('authz_bob', 10000000);
SELECT role FROM pgdp.set_budget('authz_admin', 10);
SELECT pgdp.designate_admin('authz_admin');
CREATE FUNCTION authz_spent(r text) RETURNS text LANGUAGE sql AS
  $$ SELECT format('%s releases, epsilon %s', releases, epsilon_spent) FROM pgdp.budgets WHERE role = r::regrole $$;

-- Eve's objects, each making a release when bob touches them.
SET SESSION AUTHORIZATION authz_eve;
CREATE TABLE authz_eve.loot (who name, released bigint);
GRANT INSERT ON authz_eve.loot TO PUBLIC;
CREATE TABLE authz_eve.inbox (note text);
GRANT INSERT ON authz_eve.inbox TO PUBLIC;
CREATE FUNCTION authz_eve.steal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO authz_eve.loot SELECT session_user, dp_count(0.5) FROM public.authz_data WHERE grp = 1;
    RETURN NEW;
END $$;
CREATE TRIGGER steal AFTER INSERT ON authz_eve.inbox FOR EACH ROW EXECUTE FUNCTION authz_eve.steal();
CREATE FUNCTION authz_eve.helper() RETURNS bigint LANGUAGE sql AS 'SELECT dp_count(0.5) FROM public.authz_data';
CREATE FUNCTION authz_eve.definer() RETURNS bigint LANGUAGE sql SECURITY DEFINER AS 'SELECT dp_count(0.5) FROM public.authz_data';
CREATE FUNCTION authz_eve.rows() RETURNS TABLE (n bigint) LANGUAGE sql STABLE AS 'SELECT dp_count(0.5) FROM public.authz_data';
CREATE VIEW authz_eve.summary AS SELECT dp_count(0.5) AS n FROM public.authz_data;
CREATE VIEW authz_eve.plain AS SELECT * FROM public.authz_data;
CREATE PROCEDURE authz_eve.proc() LANGUAGE plpgsql AS $$
BEGIN INSERT INTO authz_eve.loot SELECT session_user, dp_count(0.5) FROM public.authz_data; END $$;
CREATE TABLE authz_eve.guarded (id int);
INSERT INTO authz_eve.guarded VALUES (1);
ALTER TABLE authz_eve.guarded ENABLE ROW LEVEL SECURITY;
CREATE POLICY peek ON authz_eve.guarded USING ((SELECT dp_count(0.5) FROM public.authz_data) IS NOT NULL);
GRANT SELECT ON authz_eve.guarded, authz_eve.summary, authz_eve.plain TO PUBLIC;
CREATE FUNCTION authz_eve.part_key(i int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS
  $$ BEGIN PERFORM dp_count(0.5) FROM public.authz_data; RETURN i % 2; END $$;
CREATE TABLE authz_eve.parted (id int) PARTITION BY LIST (authz_eve.part_key(id));
CREATE TABLE authz_eve.parted_0 PARTITION OF authz_eve.parted FOR VALUES IN (0);
CREATE TABLE authz_eve.parted_1 PARTITION OF authz_eve.parted FOR VALUES IN (1);
GRANT INSERT ON authz_eve.parted TO PUBLIC;
CREATE TABLE authz_eve.ruled (id int);
CREATE RULE copy_out AS ON INSERT TO authz_eve.ruled DO ALSO
    INSERT INTO authz_eve.loot SELECT session_user, dp_count(0.5) FROM public.authz_data;
GRANT INSERT ON authz_eve.ruled TO PUBLIC;
GRANT EXECUTE ON PROCEDURE authz_eve.proc() TO PUBLIC;
RESET SESSION AUTHORIZATION;

-- Bob runs into each of them: all refused with 42501, nothing charged, nothing stolen.
SET SESSION AUTHORIZATION authz_bob;
INSERT INTO authz_eve.inbox VALUES ('hello');
SELECT authz_eve.helper();
SELECT authz_eve.definer();
SELECT * FROM authz_eve.rows();
SELECT * FROM authz_eve.summary;
SELECT count(*) FROM authz_eve.guarded;
INSERT INTO authz_eve.ruled VALUES (1);
CALL authz_eve.proc();
INSERT INTO authz_eve.parted VALUES (1);
RESET SESSION AUTHORIZATION;
SELECT authz_spent('authz_bob') AS bob, (SELECT count(*) FROM authz_eve.loot) AS stolen;

-- Maintenance commands evaluate index expressions on behalf of whoever runs them (autovacuum
-- too): an expression index whose function releases is refused there (security-restricted
-- operation), whoever owns the function; the superuser running them is charged nothing.
CREATE FUNCTION authz_eve.indexed(x int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF current_setting('authz.armed', true) = 'on' THEN PERFORM public.dp_count(0.5) FROM public.authz_data; END IF;
    RETURN x;
END $$;
ALTER FUNCTION authz_eve.indexed(int) OWNER TO authz_eve;
CREATE INDEX authz_indexed ON authz_eve.guarded (authz_eve.indexed(id));
SELECT (pgdp.set_budget(current_user::regrole, 10)).role IS NOT NULL AS budget_set;
SET authz.armed = on;
-- (terse: from PostgreSQL 17 maintenance runs with search_path pg_catalog, pg_temp, which names
-- the function differently in the context lines)
\set VERBOSITY terse
ANALYZE authz_eve.guarded;
REINDEX INDEX authz_eve.authz_indexed;
\set VERBOSITY default
RESET authz.armed;
SELECT authz_spent(current_user) AS superuser;

-- Legitimate: bob's own query and function, an admin's view, SECURITY DEFINER function and
-- trigger-free SRF, and a plain view of eve's that bob aggregates himself.
CREATE SCHEMA authz_admin AUTHORIZATION authz_admin;
GRANT USAGE ON SCHEMA authz_admin TO PUBLIC;
SET SESSION AUTHORIZATION authz_admin;
CREATE VIEW authz_admin.counts WITH (security_barrier) AS
    SELECT grp, dp_count(1000000) AS n FROM public.authz_data GROUP BY grp;
CREATE VIEW authz_admin.leaky_counts AS SELECT grp, dp_count(1000000) AS n FROM public.authz_data GROUP BY grp;
CREATE VIEW authz_admin.hidden_count WITH (security_barrier) AS SELECT dp_count(1000000) AS n FROM public.authz_hidden;
CREATE FUNCTION authz_admin.total() RETURNS bigint LANGUAGE sql SECURITY DEFINER AS
  'SELECT dp_count(1000000) FROM public.authz_data';
GRANT SELECT ON authz_admin.counts, authz_admin.leaky_counts, authz_admin.hidden_count TO PUBLIC;
RESET SESSION AUTHORIZATION;
CREATE FUNCTION authz_bob_count() RETURNS bigint LANGUAGE plpgsql AS
  $$ BEGIN RETURN (SELECT dp_count(1000000) FROM public.authz_data); END $$;
ALTER FUNCTION authz_bob_count() OWNER TO authz_bob;
SET SESSION AUTHORIZATION authz_bob;
SELECT dp_count(1000000) AS own_query FROM authz_data;
SELECT authz_bob_count() AS own_function;
SELECT * FROM authz_admin.counts ORDER BY grp;
-- An admin's view without security_barrier: the caller's conditions could run below its
-- aggregates (a leaky function in WHERE would see the rows).
SELECT * FROM authz_admin.leaky_counts WHERE grp = 1;
-- EXPLAIN ANALYZE of the admin's view over a table bob may not read would show its exact row
-- count; over tables bob reads himself it is allowed (sql/budgets.sql).
SELECT n > 0 AS hidden_released FROM authz_admin.hidden_count;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM authz_admin.hidden_count;
-- Plain EXPLAIN shows the planner's estimates, from statistics of the same table.
EXPLAIN (COSTS OFF) SELECT * FROM authz_admin.hidden_count;
SELECT authz_admin.total() AS admin_definer;
SELECT dp_sum(amount, 0, 1000, 1000000) = (SELECT sum(amount) FROM authz_data) AS own_aggregate_over_eves_view
FROM authz_eve.plain;
RESET SESSION AUTHORIZATION;
SELECT authz_spent('authz_bob') AS bob;

-- Trusted code (bob's own functions, an admin's) called from eve's view, policy or column default
-- would run with bob's budget and hand its result to eve: refused when bob's query is planned
-- (or COPY starts). Eve's view calling only built-in functions stays usable (above: plain).
SET SESSION AUTHORIZATION authz_eve;
CREATE FUNCTION authz_eve.store(v bigint) RETURNS bigint LANGUAGE sql AS
  'INSERT INTO authz_eve.loot VALUES (session_user, v) RETURNING released';
CREATE VIEW authz_eve.relay AS SELECT authz_eve.store(authz_admin.total()) AS n;
CREATE TABLE authz_eve.form (id int, total bigint DEFAULT authz_admin.total());
CREATE TABLE authz_eve.watched (id int);
INSERT INTO authz_eve.watched VALUES (1);
ALTER TABLE authz_eve.watched ENABLE ROW LEVEL SECURITY;
CREATE POLICY relay ON authz_eve.watched USING (authz_eve.store(public.authz_bob_count()) IS NOT NULL);
GRANT SELECT ON authz_eve.relay, authz_eve.watched TO PUBLIC;
GRANT INSERT ON authz_eve.form TO PUBLIC;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION authz_bob;
SELECT * FROM authz_eve.relay;
SELECT count(*) FROM authz_eve.watched;
INSERT INTO authz_eve.form (id) VALUES (1);
-- COPY as psql's \copy with its rows from a client-side program: no inline data follows the
-- command, which newer psql minor releases (15.20) run as SQL once the server refuses the COPY.
-- The program ignores SIGPIPE and exits 0: psql may close the pipe unread after the refusal.
\copy authz_eve.form (id) from program 'trap "" PIPE; echo 1 2>/dev/null; exit 0'
RESET SESSION AUTHORIZATION;
SELECT authz_spent('authz_bob') AS bob_unchanged, (SELECT count(*) FROM authz_eve.loot) AS stolen;

-- Built-in functions that run SQL (query_to_xml), and code the executor runs outside any plan
-- (CHECK constraints, trigger WHEN clauses, domain constraints), in eve's objects: a query
-- started inside a statement that uses a table, view or domain of eve's makes no release. A
-- trusted function (an admin's) called from eve's CHECK or domain constraint is refused when bob's
-- statement is planned (0.9: constraints and trigger conditions are walked like column defaults).
SET SESSION AUTHORIZATION authz_eve;
CREATE TABLE authz_eve.mailbox (note text, loot text DEFAULT query_to_xml(
    'SELECT dp_count(0.5) AS n FROM public.authz_data', true, false, '')::text);
CREATE VIEW authz_eve.notifier AS
    SELECT 1 AS one, query_to_xml('SELECT dp_count(0.5) AS n FROM public.authz_data', true, false, '')::text AS x;
CREATE TABLE authz_eve.checked (id int CHECK (authz_admin.total() IS NOT NULL));
CREATE TABLE authz_eve.when_fired (id int);
INSERT INTO authz_eve.when_fired VALUES (1);
CREATE TRIGGER fire BEFORE UPDATE ON authz_eve.when_fired FOR EACH ROW
    WHEN (query_to_xml('SELECT dp_count(0.5) AS n FROM public.authz_data', true, false, '') IS NOT NULL)
    EXECUTE FUNCTION suppress_redundant_updates_trigger();
CREATE DOMAIN authz_eve.noted AS int
    CHECK (query_to_xml('SELECT dp_count(0.5) AS n FROM public.authz_data', true, false, '') IS NOT NULL);
GRANT USAGE ON TYPE authz_eve.noted TO PUBLIC;
GRANT INSERT ON authz_eve.mailbox, authz_eve.checked TO PUBLIC;
GRANT SELECT ON authz_eve.notifier TO PUBLIC;
GRANT SELECT, UPDATE ON authz_eve.when_fired TO PUBLIC;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION authz_bob;
INSERT INTO authz_eve.mailbox (note) VALUES ('hi');
SELECT one FROM authz_eve.notifier;
INSERT INTO authz_eve.checked VALUES (1);
UPDATE authz_eve.when_fired SET id = 2;
SELECT 1::authz_eve.noted;
-- Bob's own statement running SQL through query_to_xml: his own code, released and charged.
SELECT query_to_xml('SELECT dp_count(1000000) AS n FROM public.authz_data', true, false, '') IS NOT NULL AS own_xml;
RESET SESSION AUTHORIZATION;
SELECT authz_spent('authz_bob') AS bob_one_more;

-- Domain constraints also run before any statement does: while a literal of eve's domain (or an
-- array of it) is parsed, or a parameter of that type bound. No release is made inside a domain
-- constraint check, whatever it calls. An open cursor of bob's, fetched later by eve's code,
-- releases nothing either. A member of pg_read_all_data is no pgdp admin.
SET SESSION AUTHORIZATION authz_eve;
CREATE DOMAIN authz_eve.tag AS text
    CHECK (query_to_xml('SELECT dp_count(0.5) AS n FROM public.authz_data', true, false, '') IS NOT NULL);
CREATE DOMAIN authz_eve.stamp AS int CHECK (authz_admin.total() IS NOT NULL);
CREATE TABLE authz_eve.tagged (tags authz_eve.tag[]);
CREATE TABLE authz_eve.guestbook (note text, loot text DEFAULT
    cursor_to_xml('bobs_cursor'::refcursor, 10, false, true, '')::text);
GRANT USAGE ON TYPE authz_eve.tag, authz_eve.stamp TO PUBLIC;
GRANT SELECT, INSERT ON authz_eve.tagged, authz_eve.guestbook TO PUBLIC;
RESET SESSION AUTHORIZATION;
CREATE ROLE authz_dave;
GRANT pg_read_all_data TO authz_dave;
CREATE SCHEMA authz_dave AUTHORIZATION authz_dave;
GRANT USAGE ON SCHEMA authz_dave TO PUBLIC;
SET SESSION AUTHORIZATION authz_dave;
CREATE TABLE authz_dave.t (id int);
CREATE FUNCTION authz_dave.fire() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN PERFORM dp_count(0.5) FROM public.authz_data; RETURN NEW; END $$;
CREATE TRIGGER fire BEFORE INSERT ON authz_dave.t FOR EACH ROW EXECUTE FUNCTION authz_dave.fire();
GRANT INSERT ON authz_dave.t TO PUBLIC;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION authz_bob;
INSERT INTO authz_eve.tagged VALUES ('{hello}');
SELECT count(*) FROM authz_eve.tagged WHERE tags = '{x}';
SELECT 7::authz_eve.stamp;
PREPARE authz_tagged AS SELECT count(*) FROM authz_eve.tagged WHERE tags = '{y}';
BEGIN;
DECLARE bobs_cursor CURSOR FOR SELECT grp, dp_count(1000000) AS n FROM public.authz_data GROUP BY grp ORDER BY grp;
FETCH 1 FROM bobs_cursor;
INSERT INTO authz_eve.guestbook (note) VALUES ('hello');
ROLLBACK;
INSERT INTO authz_dave.t VALUES (1);
RESET SESSION AUTHORIZATION;
SELECT authz_spent('authz_bob') AS bob_plus_the_cursor_charge, (SELECT count(*) FROM authz_eve.guestbook) AS stolen;

-- Third round: rows of a release kept beyond the statement (WITH HOLD, RETURNING), objects that
-- eve's code creates as bob, a query_to_xml nested in a domain constraint, a text cast to an array
-- of eve's domain, EXPLAIN of an admin's view whose releases the planner pruned.
SET SESSION AUTHORIZATION authz_eve;
CREATE DOMAIN authz_eve.nested AS text CHECK (query_to_xml(
    'SELECT query_to_xml(''SELECT dp_count(0.5) AS n FROM public.authz_data'', true, false, '''') AS x',
    true, false, '') IS NOT NULL);
CREATE TABLE authz_eve.nestbox (tags authz_eve.nested[]);
CREATE TABLE authz_eve.planter (id int);
CREATE FUNCTION authz_eve.plant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'CREATE TEMP VIEW authz_data AS SELECT * FROM public.authz_data';
    RETURN NEW;
END $$;
CREATE TRIGGER plant BEFORE INSERT ON authz_eve.planter FOR EACH ROW EXECUTE FUNCTION authz_eve.plant();
GRANT USAGE ON TYPE authz_eve.nested TO PUBLIC;
GRANT SELECT, INSERT ON authz_eve.nestbox, authz_eve.planter TO PUBLIC;
RESET SESSION AUTHORIZATION;
CREATE TABLE authz_results (n bigint);
GRANT SELECT, INSERT ON authz_results TO authz_bob;
SET SESSION AUTHORIZATION authz_bob;
BEGIN;
DECLARE held CURSOR WITH HOLD FOR SELECT dp_count(1000000) FROM public.authz_data;
ROLLBACK;
INSERT INTO authz_results SELECT dp_count(1000000) FROM public.authz_data RETURNING n > 0;
INSERT INTO authz_eve.planter VALUES (1);
INSERT INTO authz_eve.nestbox VALUES ('{hello}');
SELECT count(*) FROM public.authz_data WHERE ('{' || grp || '}')::authz_eve.tag[] IS NOT NULL;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION authz_admin;
CREATE VIEW authz_admin.hidden_by_id WITH (security_barrier) AS
    SELECT id, dp_count(1000000) AS n FROM public.authz_hidden GROUP BY id;
GRANT SELECT ON authz_admin.hidden_by_id TO PUBLIC;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION authz_bob;
EXPLAIN (COSTS OFF) SELECT id FROM authz_admin.hidden_by_id WHERE id < 50;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT id FROM authz_admin.hidden_by_id WHERE id < 50;
RESET SESSION AUTHORIZATION;
SELECT authz_spent('authz_bob') AS bob_unchanged_by_round_three;
DROP TABLE authz_results;

-- Fourth round: another role's function may not replace the session's prepared statements, create
-- objects through EXPLAIN ANALYZE CREATE TABLE AS, or change a session setting; a composite built
-- at run time with another role's domain (jsonb_populate_record) counts as that role's code.
SET SESSION AUTHORIZATION authz_eve;
CREATE TABLE authz_eve.swapper (name text);
CREATE FUNCTION authz_eve.swap() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('PREPARE %I AS SELECT dp_count(0.5) FROM public.authz_data', NEW.name);
    RETURN NEW;
END $$;
CREATE TRIGGER swap BEFORE INSERT ON authz_eve.swapper FOR EACH ROW EXECUTE FUNCTION authz_eve.swap();
CREATE TABLE authz_eve.explainer (id int);
CREATE FUNCTION authz_eve.explain_create() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'EXPLAIN ANALYZE CREATE TABLE authz_planted AS SELECT 1 AS one';
    RETURN NEW;
END $$;
CREATE TRIGGER explain_create BEFORE INSERT ON authz_eve.explainer FOR EACH ROW EXECUTE FUNCTION authz_eve.explain_create();
CREATE TABLE authz_eve.setter (id int);
CREATE FUNCTION authz_eve.steer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SET search_path = authz_eve, public;
    RETURN NEW;
END $$;
CREATE TRIGGER steer BEFORE INSERT ON authz_eve.setter FOR EACH ROW EXECUTE FUNCTION authz_eve.steer();
CREATE TYPE authz_eve.comp AS (t text);
CREATE DOMAIN authz_eve.checked_comp AS authz_eve.comp
    CHECK (query_to_xml('SELECT dp_count(0.5) AS n FROM public.authz_data', true, false, '') IS NOT NULL);
CREATE TYPE authz_eve.wrap AS (d authz_eve.checked_comp);
GRANT USAGE ON TYPE authz_eve.comp, authz_eve.checked_comp, authz_eve.wrap TO PUBLIC;
GRANT INSERT ON authz_eve.swapper, authz_eve.explainer, authz_eve.setter TO PUBLIC;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION authz_bob;
INSERT INTO authz_eve.swapper VALUES ('dashboard');
INSERT INTO authz_eve.explainer VALUES (1);
INSERT INTO authz_eve.setter VALUES (1);
SELECT jsonb_populate_record(NULL::authz_eve.wrap, '{"d": {"t": "x"}}') IS NOT NULL AS populated;
RESET SESSION AUTHORIZATION;
SELECT authz_spent('authz_bob') AS bob_unchanged_by_round_four, to_regclass('authz_planted') AS planted;

-- set_config(name, value, false) is a session-level SET written as a function call: refused in
-- another role's functions (also through a non-constant is_local) and views, as SET is; a
-- transaction-local one (is_local true) and bob's own are fine.
SET SESSION AUTHORIZATION authz_eve;
CREATE TABLE authz_eve.config_setter (id int);
CREATE FUNCTION authz_eve.steer_by_call() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('search_path', 'authz_eve, public', false);
    RETURN NEW;
END $$;
CREATE TRIGGER steer_by_call BEFORE INSERT ON authz_eve.config_setter FOR EACH ROW EXECUTE FUNCTION authz_eve.steer_by_call();
CREATE FUNCTION authz_eve.steer_maybe(local boolean) RETURNS text LANGUAGE sql AS
  $$SELECT set_config('search_path', 'authz_eve, public', local)$$;
CREATE FUNCTION authz_eve.steer_locally() RETURNS text LANGUAGE sql AS
  $$SELECT set_config('search_path', 'authz_eve, public', true)$$;
CREATE VIEW authz_eve.config_view AS SELECT set_config('search_path', 'authz_eve, public', false) AS path;
GRANT INSERT ON authz_eve.config_setter TO PUBLIC;
GRANT SELECT ON authz_eve.config_view TO PUBLIC;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION authz_bob;
INSERT INTO authz_eve.config_setter VALUES (1);
-- (no context lines: PostgreSQL 18 names a SQL function's statements differently)
\set SHOW_CONTEXT never
SELECT authz_eve.steer_maybe(false);
SELECT authz_eve.steer_maybe(true);
\set SHOW_CONTEXT errors
SELECT * FROM authz_eve.config_view;
SHOW search_path;
BEGIN;
SELECT authz_eve.steer_locally() AS local_only;
COMMIT;
SHOW search_path;
SELECT set_config('search_path', current_setting('search_path'), false) AS bobs_own;
RESET SESSION AUTHORIZATION;

-- Review: another role's domain in a join condition of bob's own query (join quals are walked
-- like scan filters).
SET SESSION AUTHORIZATION authz_bob;
SELECT count(*) FROM public.authz_data a JOIN public.authz_data b
    ON a.id = b.id AND ('{' || a.grp || b.grp || '}')::authz_eve.tag[] IS NOT NULL;
RESET SESSION AUTHORIZATION;
SELECT authz_spent('authz_bob') AS bob_unchanged_by_the_join;

-- Eve's own code makes releases for eve (and eve pays).
SET SESSION AUTHORIZATION authz_eve;
SELECT authz_eve.helper() > 0 AS own_function, (SELECT n > 0 FROM authz_eve.summary) AS own_view;
RESET SESSION AUTHORIZATION;
SELECT authz_spent('authz_eve') AS eve;

DROP SCHEMA authz_eve CASCADE;
DROP SCHEMA authz_admin CASCADE;
DROP FUNCTION authz_bob_count(), authz_spent(text);
DROP TABLE authz_data, authz_hidden;
SELECT pgdp.revoke_admin('authz_admin');
DROP SCHEMA authz_dave CASCADE;
DROP ROLE authz_eve, authz_bob, authz_admin, authz_dave;
