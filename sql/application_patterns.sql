-- Specifies: the application patterns of issue 22 (a schema owner role, an application login role,
-- DBA helpers owned by the superuser; no DP query anywhere) run as without pgdp for a session that
-- cannot be charged; for a session that can, each one works or is refused for a reason listed in
-- docs/privacy.md ("Still refused in a session that can be charged"). Each step is typed by the
-- client (psql's \gexec), in a new session per pass (stage: trust, inert sessions).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE apps_owner;
CREATE ROLE apps_user;
CREATE SCHEMA apps AUTHORIZATION apps_owner;
CREATE SCHEMA apps_own AUTHORIZATION apps_user;
GRANT USAGE, CREATE ON SCHEMA apps TO apps_user;

-- DBA helpers, owned by the superuser.
CREATE FUNCTION public.apps_label(i int) RETURNS text LANGUAGE sql IMMUTABLE AS $$SELECT 'item ' || i$$;
CREATE FUNCTION public.apps_tenant() RETURNS text LANGUAGE plpgsql STABLE AS $$BEGIN RETURN 'acme'; END$$;

SET SESSION AUTHORIZATION apps_owner;
CREATE TABLE apps.items (id int PRIMARY KEY, tenant text DEFAULT public.apps_tenant(), note text);
INSERT INTO apps.items (id) SELECT g FROM generate_series(1, 20) g;
CREATE TABLE apps.audit (id int, what text);
CREATE TABLE apps.orders (id int, tenant text DEFAULT public.apps_tenant());
CREATE VIEW apps.labelled AS SELECT id, public.apps_label(id) AS label FROM apps.items;
CREATE VIEW apps.tenanted AS SELECT id FROM apps.items WHERE tenant = public.apps_tenant();
ALTER TABLE apps.items ENABLE ROW LEVEL SECURITY;
CREATE POLICY by_tenant ON apps.items USING (tenant = public.apps_tenant());
CREATE MATERIALIZED VIEW apps.summary AS SELECT count(*) AS n FROM apps.items;
-- The owner's SECURITY DEFINER maintenance functions.
CREATE FUNCTION apps.add_archive() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    CREATE TABLE IF NOT EXISTS apps.archive (id int PRIMARY KEY, at timestamptz DEFAULT now());
    RETURN 'archive';
END $$;
CREATE FUNCTION apps.add_index() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    CREATE INDEX IF NOT EXISTS items_note ON apps.items (note);
    RETURN 'index';
END $$;
CREATE FUNCTION apps.analyze_items() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    ANALYZE apps.items;
    RETURN 'analyzed';
END $$;
CREATE FUNCTION apps.refresh_summary() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    REFRESH MATERIALIZED VIEW apps.summary;
    RETURN 'refreshed';
END $$;
CREATE FUNCTION apps.share_items() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    GRANT SELECT ON apps.items TO apps_user;
    RETURN 'granted';
END $$;
CREATE FUNCTION apps.share_items_sql() RETURNS void LANGUAGE sql SECURITY DEFINER AS
    'GRANT SELECT ON apps.audit TO apps_user';
-- Invoker functions and a procedure of the owner.
CREATE FUNCTION apps.tune() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    SET work_mem = '8MB';
    RETURN current_setting('work_mem');
END $$;
CREATE FUNCTION apps.scratch() RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS apps_scratch (id int PRIMARY KEY, label text NOT NULL);
    INSERT INTO apps_scratch VALUES (1, 'one') ON CONFLICT DO NOTHING;
    RETURN (SELECT count(*) FROM apps_scratch);
END $$;
CREATE FUNCTION apps.prepare_lookup() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'PREPARE apps_lookup (int) AS SELECT $1 + 1';
    EXECUTE 'DEALLOCATE apps_lookup';
    RETURN 'prepared';
END $$;
CREATE PROCEDURE apps.make_day(d int) LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE TABLE IF NOT EXISTS apps.day_%s (id int PRIMARY KEY, at timestamptz DEFAULT now())', d);
END $$;
-- A partition-on-demand trigger, fired by its owner.
CREATE TABLE apps.events (day int, payload text);
CREATE FUNCTION apps.route() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE TABLE IF NOT EXISTS apps.events_%s (day int, payload text)', NEW.day);
    EXECUTE format('INSERT INTO apps.events_%s VALUES ($1, $2)', NEW.day) USING NEW.day, NEW.payload;
    RETURN NULL;
END $$;
CREATE TRIGGER route BEFORE INSERT ON apps.events FOR EACH ROW EXECUTE FUNCTION apps.route();
-- Rules: a DO ALSO audit rule, a DO INSTEAD rule on a view.
CREATE RULE audit_notes AS ON UPDATE TO apps.items DO ALSO INSERT INTO apps.audit VALUES (NEW.id, NEW.note);
CREATE VIEW apps.removable AS SELECT id, what FROM apps.audit;
CREATE RULE remove AS ON DELETE TO apps.removable DO INSTEAD DELETE FROM apps.audit WHERE id = OLD.id;
GRANT SELECT, INSERT, UPDATE ON apps.items, apps.orders TO apps_user;
GRANT SELECT, INSERT, DELETE ON apps.audit, apps.removable TO apps_user;
GRANT SELECT ON apps.labelled, apps.tenanted, apps.summary TO apps_user;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA apps TO apps_user;
RESET SESSION AUTHORIZATION;
-- The application role's own functions, called in its own statements.
SET SESSION AUTHORIZATION apps_user;
CREATE FUNCTION apps_own.tag(t text) RETURNS text LANGUAGE plpgsql AS $$BEGIN RETURN 'tag:' || t; END$$;
CREATE FUNCTION apps_own.pick(i int) RETURNS boolean LANGUAGE plpgsql AS $$BEGIN RETURN i % 2 = 0; END$$;
RESET SESSION AUTHORIZATION;

-- The steps, each typed by the client as `role`.
CREATE TABLE public.apps_steps (step int, role text, command text);
INSERT INTO public.apps_steps VALUES
    (1, 'apps_user', 'SELECT count(label) AS view_with_sql_helper FROM apps.labelled'),
    (2, 'apps_user', 'SELECT count(*) AS view_with_plpgsql_helper FROM apps.tenanted'),
    (3, 'apps_user', 'SELECT count(*) AS rows_under_policy FROM apps.items'),
    (4, 'apps_user', 'INSERT INTO apps.orders (id) VALUES (1) RETURNING tenant AS default_from_helper'),
    (5, 'apps_user', 'SELECT apps.add_archive() AS definer_creates_table'),
    (6, 'apps_user', 'SELECT apps.add_index() AS definer_creates_index'),
    (7, 'apps_user', 'SELECT apps.analyze_items() AS definer_analyzes'),
    (8, 'apps_user', 'SELECT apps.refresh_summary() AS definer_refreshes'),
    (9, 'apps_user', 'SELECT apps.share_items() AS definer_grants'),
    (10, 'apps_user', 'SELECT apps.share_items_sql() AS sql_definer_grants'),
    (11, 'apps_user', 'SELECT apps.tune() AS invoker_sets'),
    (12, 'apps_user', 'SELECT apps.scratch() AS invoker_temp_table_with_key'),
    (13, 'apps_user', 'SELECT apps.prepare_lookup() AS invoker_prepares'),
    (14, 'apps_user', 'CALL apps.make_day(1)'),
    (15, 'apps_owner', 'INSERT INTO apps.events VALUES (7, ''own trigger'')'),
    (16, 'apps_user', 'UPDATE apps.items SET note = apps_own.tag(''x'') WHERE id = 1'),
    (17, 'apps_user', 'DELETE FROM apps.removable WHERE apps_own.pick(id)'),
    (18, 'pgdp_test', 'SELECT apps.add_archive() AS migration_by_superuser'),
    (19, 'pgdp_test', 'SELECT apps.share_items() AS migration_grants');

-- Each pass runs the steps (psql's \gexec: each cell a statement typed by the client) and shows
-- what they left.
\set steps 'SELECT format(''SET SESSION AUTHORIZATION %I'', role), command, ''RESET SESSION AUTHORIZATION'' FROM public.apps_steps ORDER BY step'
CREATE VIEW public.apps_outcome AS SELECT
    (SELECT count(*) FROM apps.audit) AS audit_rows,
    (SELECT count(*) FROM apps.audit WHERE what = 'tag:x') AS tagged,
    (SELECT count(*) FROM pg_tables WHERE schemaname = 'apps' AND tablename IN ('day_1', 'events_7')) AS day_tables;

-- Pass 1: apps_user has no budget (a session that cannot be charged): every step works.
\c -
SET client_min_messages = warning;
:steps \gexec
SELECT * FROM public.apps_outcome;

-- Pass 2: apps_user and apps_owner have budgets (sessions that can be charged), a new session.
-- Refused, each for a reason docs/privacy.md lists: a view or policy of another role calling an
-- admin's PL/pgSQL helper (it could release and hand the result to the view's owner); an invoker
-- function of another role running SET or PREPARE (steers later statements), a procedure of
-- another role creating tables in the session user's name (later taken for its own code); the
-- session user's own function in a statement rewritten by another role's rule (the rule's action
-- runs it again, and could hand its result on).
SELECT role FROM pgdp.set_budget('apps_user', 10);
SELECT role FROM pgdp.set_budget('apps_owner', 10);
DROP TABLE apps.day_1, apps.events_7;
\c -
SET client_min_messages = warning;
:steps \gexec
SELECT * FROM public.apps_outcome;

DROP VIEW public.apps_outcome;
DROP TABLE public.apps_steps;
DROP TABLE IF EXISTS pg_temp.apps_scratch;
DROP SCHEMA apps, apps_own CASCADE;
DROP FUNCTION public.apps_label(int), public.apps_tenant();
DELETE FROM pgdp.budgets WHERE role IN ('apps_user'::regrole, 'apps_owner'::regrole);
DROP ROLE apps_owner, apps_user;
