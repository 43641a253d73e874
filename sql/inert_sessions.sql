-- Specifies: pgdp's bookkeeping of a session never changes how a transaction behaves; in a session
-- that cannot be charged other roles' code runs as without pgdp (inlined, no frame, no refusal) but
-- may not plant code in the session user's name; in one that can, the utilities another role's
-- function may run (stage: trust, trust/utility_trust, trust/chargeable_session). test/regress.conf preloads pg_stat_statements too (query ids set).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE inert_owner;
CREATE ROLE inert_user;
CREATE ROLE inert_analyst;
SELECT role FROM pgdp.set_budget('inert_analyst', 10);
CREATE SCHEMA inert_owner AUTHORIZATION inert_owner;
GRANT USAGE ON SCHEMA inert_owner TO PUBLIC;

-- Deciding whether a session can be charged takes no snapshot of the transaction: isolation
-- levels can still be set after BEGIN, for a role with a budget and for one without.
SET SESSION AUTHORIZATION inert_analyst;
BEGIN;
SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;
SHOW transaction_isolation;
COMMIT;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION inert_user;
BEGIN;
SET TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SET TRANSACTION READ ONLY;
SHOW transaction_isolation;
COMMIT;
RESET SESSION AUTHORIZATION;
-- Deciding takes no predicate lock on pgdp's tables in a SERIALIZABLE transaction (PostgreSQL's
-- tidscan test lists the transaction's locks): a schema created in the transaction makes the
-- session decide again inside it.
BEGIN ISOLATION LEVEL SERIALIZABLE;
CREATE SCHEMA inert_probe;
SELECT 1 AS decided_again;
SELECT count(*) AS predicate_locks_on_pgdp FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
WHERE l.pid = pg_backend_pid() AND l.mode = 'SIReadLock' AND c.relnamespace = 'pgdp'::regnamespace;
ROLLBACK;

-- Another role's SECURITY DEFINER maintenance function that creates an index on plain columns and
-- runs ANALYZE: allowed under its frame (nothing it creates can run code).
SET SESSION AUTHORIZATION inert_owner;
CREATE TABLE inert_owner.items (id int);
CREATE FUNCTION inert_owner.add_index() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    CREATE INDEX IF NOT EXISTS items_id ON inert_owner.items (id);
    ANALYZE inert_owner.items;
    RETURN 'done';
END $$;
GRANT EXECUTE ON FUNCTION inert_owner.add_index() TO PUBLIC;
-- An inlinable SQL function over the table.
CREATE FUNCTION inert_owner.item_ids(lo int) RETURNS SETOF int LANGUAGE sql STABLE AS
    'SELECT id FROM inert_owner.items WHERE id >= lo';
GRANT SELECT ON inert_owner.items TO PUBLIC;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION inert_user;
SELECT inert_owner.add_index() AS user_without_budget;
-- In a session that cannot be charged another role's SQL function is inlined as without pgdp (a
-- scan of its table, not a Function Scan).
EXPLAIN (COSTS OFF) SELECT * FROM inert_owner.item_ids(5);
RESET SESSION AUTHORIZATION;
-- For a session that can be charged, utilities that create no code are allowed under another
-- role's frame too (an index on plain columns, ANALYZE, REVOKE, a temporary table with a primary
-- key); what could plant code that pgdp would take for the analyst's own, hand the analyst's
-- objects (and the releases stored in them later) to another role (GRANT, red team round 16), or
-- make someone a pgdp admin stays refused (42501).
SET SESSION AUTHORIZATION inert_owner;
CREATE FUNCTION inert_owner.run(command text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE command;
    RETURN 'ok';
EXCEPTION WHEN insufficient_privilege THEN
    RETURN 'refused: ' || SQLERRM;
END $$;
GRANT EXECUTE ON FUNCTION inert_owner.run(text) TO PUBLIC;
RESET SESSION AUTHORIZATION;
GRANT SELECT ON inert_owner.items TO inert_analyst;
CREATE SCHEMA inert_analyst AUTHORIZATION inert_analyst;
SET SESSION AUTHORIZATION inert_owner;
-- The owner's SECURITY DEFINER maintenance function: what it creates is the owner's (a role the
-- analyst does not trust), so it may create a table, also called by a session that can be charged;
-- a session-level SET in it would steer the caller's later statements and stays refused.
CREATE FUNCTION inert_owner.maintain() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    CREATE TABLE IF NOT EXISTS inert_owner.archive (id int DEFAULT 0 CHECK (id >= 0));
    RETURN 'maintained';
END $$;
CREATE FUNCTION inert_owner.steer() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    SET search_path = inert_owner, public;
    RETURN 'steered';
END $$;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION inert_analyst;
SELECT inert_owner.add_index() AS analyst_with_budget;
SELECT inert_owner.maintain() AS owners_definer_function;
SELECT pg_get_userbyid(relowner) AS archive_owner FROM pg_class WHERE relname = 'archive';
SELECT inert_owner.steer() AS owners_definer_sets;
CREATE TABLE inert_analyst.own (id int);
SELECT command, left(inert_owner.run(command), 60) AS outcome FROM (VALUES
    ('ANALYZE inert_analyst.own'),
    ('CREATE TEMP TABLE scratch (id int PRIMARY KEY, label text NOT NULL UNIQUE)'),
    ('CREATE INDEX ON inert_analyst.own (id)'),
    ('REVOKE SELECT ON inert_analyst.own FROM inert_owner'),
    -- refused:
    ('GRANT SELECT ON inert_analyst.own TO inert_owner'),
    ('CREATE INDEX ON inert_analyst.own ((id + 1))'),
    ('CREATE INDEX ON inert_analyst.own (id) WHERE id > 0'),
    ('CREATE TABLE inert_analyst.planted (id int)'),
    ('CREATE TEMP TABLE checked (id int CHECK (id > 0))'),
    ('CREATE TEMP TABLE defaulted (id int DEFAULT 1)'),
    ('GRANT inert_analyst TO inert_owner'),
    ('GRANT EXECUTE ON FUNCTION inert_owner.run(text) TO inert_user'),
    ('GRANT SELECT ON pgdp.budgets TO inert_owner'),
    ('GRANT USAGE ON SCHEMA pgdp TO inert_owner'),
    ('SET search_path = inert_owner, public')
) c(command);
-- Another role's SQL function whose body provably makes no release (one SELECT of built-in
-- functions over tables) is inlined in a session that can be charged too; one whose body could
-- release (a pgdp aggregate, a view with one, SQL run from text, a setting changed, another user
-- function, a user's domain) runs under its frame (a Function Scan) and its release is refused.
EXPLAIN (COSTS OFF) SELECT * FROM inert_owner.item_ids(5);
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION inert_owner;
CREATE VIEW inert_owner.counted AS SELECT dp_count(1e6) AS n FROM inert_owner.items;
CREATE DOMAIN inert_owner.positive AS int CHECK (VALUE > 0);
CREATE FUNCTION inert_owner.helper(i int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT i';
CREATE FUNCTION inert_owner.releases() RETURNS SETOF bigint LANGUAGE sql AS
    'SELECT dp_count(1e6) FROM inert_owner.items';
CREATE FUNCTION inert_owner.through_view() RETURNS SETOF bigint LANGUAGE sql AS
    'SELECT n FROM inert_owner.counted';
CREATE FUNCTION inert_owner.from_text() RETURNS SETOF xml LANGUAGE sql AS
    $$SELECT query_to_xml('SELECT dp_count(1e6) FROM inert_owner.items', false, false, '')$$;
CREATE FUNCTION inert_owner.sets() RETURNS SETOF text LANGUAGE sql AS
    $$SELECT set_config('search_path', 'inert_owner', false)$$;
CREATE FUNCTION inert_owner.calls_user(lo int) RETURNS SETOF int LANGUAGE sql AS
    'SELECT id FROM inert_owner.items WHERE id >= inert_owner.helper(lo)';
CREATE FUNCTION inert_owner.domain_of(lo int) RETURNS SETOF int LANGUAGE sql AS
    'SELECT id FROM inert_owner.items WHERE id >= lo::inert_owner.positive';
-- Red team round 16: a domain whose CHECK releases from SQL text, hidden in a column definition
-- list or a table function's columns (no cast in the tree).
CREATE SEQUENCE inert_owner.loot;
GRANT ALL ON SEQUENCE inert_owner.loot TO PUBLIC;
CREATE DOMAIN inert_owner.leaky AS int CHECK (query_to_xml(
    'SELECT setval(''inert_owner.loot'', dp_count(1)) FROM inert_owner.items', false, false, '') IS NOT NULL);
CREATE FUNCTION inert_owner.from_record() RETURNS TABLE (n bigint) LANGUAGE sql STABLE AS
    $$SELECT count(*) FROM jsonb_to_record('{"a": 1}') AS t(a inert_owner.leaky)$$;
CREATE FUNCTION inert_owner.from_xml() RETURNS TABLE (n bigint) LANGUAGE sql STABLE AS
    $$SELECT count(*) FROM XMLTABLE('/r' PASSING xmlparse(document '<r><a>1</a></r>')
      COLUMNS a inert_owner.leaky PATH 'a')$$;
GRANT USAGE ON TYPE inert_owner.leaky TO PUBLIC;
GRANT SELECT ON inert_owner.counted TO PUBLIC;
RESET SESSION AUTHORIZATION;
-- A new session: this one ran inert_owner's code while it could not be charged (inert_user's calls).
\c -
SET client_min_messages = warning;
SET SESSION AUTHORIZATION inert_analyst;
EXPLAIN (COSTS OFF) SELECT * FROM inert_owner.releases();
EXPLAIN (COSTS OFF) SELECT * FROM inert_owner.through_view();
EXPLAIN (COSTS OFF) SELECT * FROM inert_owner.from_text();
EXPLAIN (COSTS OFF) SELECT * FROM inert_owner.sets();
EXPLAIN (COSTS OFF) SELECT * FROM inert_owner.calls_user(5);
EXPLAIN (COSTS OFF) SELECT * FROM inert_owner.domain_of(5);
EXPLAIN (COSTS OFF) SELECT * FROM inert_owner.from_record();
EXPLAIN (COSTS OFF) SELECT * FROM inert_owner.from_xml();
SELECT * FROM inert_owner.from_record();
SELECT * FROM inert_owner.from_xml();
-- The same in the analyst's own query: the values are built in another role's domain (42501).
SELECT count(*) FROM jsonb_to_record('{"a": 1}') AS t(a inert_owner.leaky);
SELECT * FROM inert_owner.releases();
SELECT * FROM inert_owner.from_text();
SELECT releases AS analyst_releases FROM pgdp.my_budget;
SELECT is_called AS owner_got_a_release FROM inert_owner.loot;
-- The analyst's own trigger on its own table runs without a frame (a partition-on-demand trigger
-- creates its table and may release). Attached by another role to that role's table, the same
-- function releases nothing there: the statement writes another role's table.
CREATE TABLE inert_analyst.incoming (day int);
CREATE FUNCTION inert_analyst.on_arrival() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE TABLE IF NOT EXISTS inert_analyst.day_%s (id int)', NEW.day);
    PERFORM dp_count(1) FROM inert_owner.items;
    RETURN NEW;
END $$;
CREATE TRIGGER on_arrival BEFORE INSERT ON inert_analyst.incoming FOR EACH ROW
    EXECUTE FUNCTION inert_analyst.on_arrival();
INSERT INTO inert_analyst.incoming VALUES (1);
SELECT count(*) AS day_tables FROM pg_tables WHERE schemaname = 'inert_analyst' AND tablename = 'day_1';
SELECT releases AS analyst_releases FROM pgdp.my_budget;
GRANT USAGE ON SCHEMA inert_analyst TO inert_owner;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION inert_owner;
CREATE TABLE inert_owner.inbox (day int);
CREATE TRIGGER borrowed BEFORE INSERT ON inert_owner.inbox FOR EACH ROW
    EXECUTE FUNCTION inert_analyst.on_arrival();
GRANT INSERT ON inert_owner.inbox TO inert_analyst;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION inert_analyst;
INSERT INTO inert_owner.inbox VALUES (2);
SELECT releases AS analyst_releases FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
-- Another role's view calling a DBA's helper: an SQL helper that provably makes no release is
-- allowed; a PL/pgSQL one (it could release, charged to the analyst, and hand it to the view's
-- owner) is refused (42501).
CREATE FUNCTION public.inert_doubled(i int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT i * 2';
CREATE FUNCTION public.inert_tripled(i int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS 'BEGIN RETURN i * 3; END';
SET SESSION AUTHORIZATION inert_owner;
CREATE VIEW inert_owner.doubled AS SELECT public.inert_doubled(id) AS v FROM inert_owner.items;
CREATE VIEW inert_owner.tripled AS SELECT public.inert_tripled(id) AS v FROM inert_owner.items;
GRANT SELECT ON inert_owner.doubled, inert_owner.tripled TO inert_analyst;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION inert_analyst;
SELECT count(v) AS through_sql_helper FROM inert_owner.doubled;
SELECT count(v) AS through_plpgsql_helper FROM inert_owner.tripled;
RESET SESSION AUTHORIZATION;
DROP FUNCTION public.inert_doubled(int), public.inert_tripled(int) CASCADE;
DROP SCHEMA inert_analyst CASCADE;

-- The same function in the session of a role that cannot be charged: what PostgreSQL allows runs
-- as without pgdp, except what would leave code in inert_user's name (a function, a view, a rule, a
-- policy, a default or CHECK constraint calling more than a few simple built-ins, an index
-- expression, membership in inert_user), which pgdp
-- would take for inert_user's own code once it has a budget (docs/privacy.md "Sessions that cannot
-- be charged"). Temporary objects, settings and prepared statements end with the session;
-- inert_user's own statements create anything.
CREATE SCHEMA inert_user AUTHORIZATION inert_user;
SET SESSION AUTHORIZATION inert_user;
CREATE TABLE inert_user.own (id int);
SELECT command, left(inert_owner.run(command), 60) AS outcome FROM (VALUES
    ('CREATE TABLE inert_user.made (id int PRIMARY KEY, label text NOT NULL)'),
    ('CREATE TABLE inert_user.stamped (id int DEFAULT 1 CHECK (id > 0), at timestamptz DEFAULT now())'),
    ('ALTER TABLE inert_user.own ALTER COLUMN id SET DEFAULT 0'),
    ('CREATE TEMP TABLE defaulted (id int DEFAULT 1 CHECK (id > 0))'),
    ('CREATE INDEX ON inert_user.own (id)'),
    ('ALTER TABLE inert_user.own ADD COLUMN label text'),
    ('CREATE TEMP VIEW tv AS SELECT 1 AS one'),
    ('PREPARE inert_p AS SELECT 1'),
    ('SET search_path = inert_owner, public'),
    -- refused:
    ('GRANT SELECT ON inert_user.own TO inert_owner'),
    ('CREATE TABLE inert_user.checked (note text DEFAULT query_to_xml(''SELECT 1'', false, false, '''')::text)'),
    ('CREATE INDEX ON inert_user.own ((id + 1))'),
    ('ALTER TABLE inert_user.own ALTER COLUMN id SET DEFAULT length(pg_catalog.current_query())'),
    ('CREATE FUNCTION inert_user.f() RETURNS int LANGUAGE sql AS ''SELECT 1'''),
    ('CREATE VIEW inert_user.v AS SELECT 1 AS one'),
    ('CREATE RULE r AS ON INSERT TO inert_user.own DO ALSO NOTIFY inert'),
    ('CREATE POLICY p ON inert_user.own USING (true)'),
    ('GRANT inert_user TO inert_owner')
) c(command);
RESET search_path;
CREATE FUNCTION inert_user.f() RETURNS int LANGUAGE sql AS 'SELECT 1';
SELECT inert_user.f() AS own_function_created_directly;
RESET SESSION AUTHORIZATION;
DROP SCHEMA inert_user CASCADE;

-- A budget granted while the session runs changes nothing of the above.
SET SESSION AUTHORIZATION inert_user;
SELECT inert_owner.add_index() AS before_the_budget;
RESET SESSION AUTHORIZATION;
SELECT role FROM pgdp.set_budget('inert_user', 10);
SET SESSION AUTHORIZATION inert_user;
SELECT inert_owner.add_index() AS after_the_budget;
RESET SESSION AUTHORIZATION;

-- Executions pgdp stays out of (a plan without pgdp marks in a session that cannot be charged)
-- are on none of its books, so no release starts while one is open (40001, nothing charged): a
-- cursor opened before the session could be charged, or a statement that began then. (A new
-- session, the temporary objects made above dropped first.)
DROP TABLE IF EXISTS pg_temp.defaulted, pg_temp.scratch;
DROP VIEW IF EXISTS pg_temp.tv;
\c -
SET client_min_messages = warning;
CREATE ROLE inert_latecomer;
SELECT releases AS analyst_releases_before FROM pgdp.budgets WHERE role = 'inert_analyst'::regrole;
SET SESSION AUTHORIZATION inert_latecomer;
BEGIN;
DECLARE early CURSOR FOR SELECT i FROM generate_series(1, 3) i;
FETCH 1 FROM early;
SET SESSION AUTHORIZATION inert_analyst;
SELECT dp_count(1) IS NOT NULL AS released FROM inert_owner.items;
ROLLBACK;
SET SESSION AUTHORIZATION inert_latecomer;
BEGIN;
DECLARE early CURSOR FOR SELECT i FROM generate_series(1, 3) i;
FETCH 1 FROM early;
SET SESSION AUTHORIZATION inert_analyst;
CLOSE early;
SELECT dp_count(1) IS NOT NULL AS released_once_closed FROM inert_owner.items;
COMMIT;
RESET SESSION AUTHORIZATION;
CREATE FUNCTION public.inert_turn() RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE released boolean;
BEGIN
    SET SESSION AUTHORIZATION inert_analyst;
    SELECT dp_count(1) IS NOT NULL INTO released FROM inert_owner.items;
    RETURN released;
END $$;
SET SESSION AUTHORIZATION inert_latecomer;
SELECT public.inert_turn() AS released_inside_inert_statement;
RESET SESSION AUTHORIZATION;
DROP FUNCTION public.inert_turn();
-- A cursor of releases (charged when it was opened) is not read from inside such a statement
-- either (42501): whose code runs there is unknown.
CREATE FUNCTION public.inert_fetch() RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    released boolean;
    charged refcursor := 'charged';
BEGIN
    FETCH charged INTO released;
    RETURN released;
END $$;
SET SESSION AUTHORIZATION inert_analyst;
BEGIN;
DECLARE charged CURSOR FOR SELECT dp_count(1) IS NOT NULL FROM inert_owner.items;
SET SESSION AUTHORIZATION inert_latecomer;
SELECT public.inert_fetch() AS read_inside_inert_statement;
ROLLBACK;
RESET SESSION AUTHORIZATION;
DROP FUNCTION public.inert_fetch();
SELECT releases AS analyst_releases_after FROM pgdp.budgets WHERE role = 'inert_analyst'::regrole;

-- ExecutorStart runs code of the statement too: initial partition pruning evaluates a cast to
-- another role's domain, whose CHECK releases from SQL text (red team round 17). The statement is
-- running (or, in a session that cannot be charged, open as inert) from its start: the nested
-- release is refused (42501), nothing charged, nothing handed to the domain's owner.
SET SESSION AUTHORIZATION inert_owner;
CREATE TABLE inert_owner.parted (k int) PARTITION BY LIST (k);
CREATE TABLE inert_owner.parted_1 PARTITION OF inert_owner.parted FOR VALUES IN (1);
CREATE TABLE inert_owner.parted_2 PARTITION OF inert_owner.parted FOR VALUES IN (2);
CREATE VIEW inert_owner.pruned AS SELECT k FROM inert_owner.parted WHERE k = 0::inert_owner.leaky;
GRANT SELECT ON inert_owner.pruned TO PUBLIC;
RESET SESSION AUTHORIZATION;
SELECT last_value AS loot_before FROM inert_owner.loot;
SET SESSION AUTHORIZATION inert_analyst;
\set VERBOSITY terse
EXPLAIN (COSTS OFF) SELECT * FROM inert_owner.pruned;
DO $$ BEGIN PERFORM * FROM inert_owner.pruned; END $$;
PREPARE pruned_reader AS SELECT * FROM inert_owner.pruned;
EXECUTE pruned_reader;
DEALLOCATE pruned_reader;
-- EXECUTE casts its parameters to the prepared statement's types: another role's domain runs there.
PREPARE leaky_parameter(inert_owner.leaky) AS SELECT $1 AS cast_parameter;
EXECUTE leaky_parameter(0);
DEALLOCATE leaky_parameter;
-- The same statement started in a session that cannot be charged, reading the analyst's cursor of
-- releases from the domain's CHECK while it starts.
SET SESSION AUTHORIZATION inert_owner;
CREATE DOMAIN inert_owner.reader AS int CHECK (cursor_to_xml('charged', 1, false, false, '') IS NOT NULL);
CREATE VIEW inert_owner.pruned_reader AS SELECT k FROM inert_owner.parted WHERE k = 0::inert_owner.reader;
GRANT USAGE ON TYPE inert_owner.reader TO PUBLIC;
GRANT SELECT ON inert_owner.pruned_reader TO PUBLIC;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION inert_analyst;
BEGIN;
DECLARE charged CURSOR FOR SELECT dp_count(1) FROM inert_owner.items;
SET SESSION AUTHORIZATION inert_latecomer;
PREPARE pruned_reader AS SELECT * FROM inert_owner.pruned_reader;
EXECUTE pruned_reader;
ROLLBACK;
\set VERBOSITY default
RESET SESSION AUTHORIZATION;
SELECT last_value AS loot_after FROM inert_owner.loot;
SELECT releases AS analyst_releases_at_end FROM pgdp.budgets WHERE role = 'inert_analyst'::regrole;

DROP SCHEMA inert_owner CASCADE;
DELETE FROM pgdp.budgets WHERE role::text LIKE 'inert\_%';
DROP ROLE inert_owner, inert_user, inert_analyst, inert_latecomer;
