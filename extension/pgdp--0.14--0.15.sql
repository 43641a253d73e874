-- pgdp 0.14 -> 0.15 (ALTER EXTENSION pgdp UPDATE TO '0.15'). Each part of the work that adds or
-- changes objects in 0.15 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.15'" to load this file. \quit

-- ---------------------------------------------------------------------------------------------
-- Plans independent of hidden rows (issue 33 class 1; docs/privacy.md "Plans independent of hidden
-- rows"): the size the planner assumes for a protected relation its user may not read.
ALTER TABLE pgdp.protected_relations ADD COLUMN planning_rows bigint CHECK (planning_rows >= 1);
CREATE OR REPLACE VIEW pgdp.protections AS
SELECT p.relation, 'protected'::text AS kind, p.privacy_unit, p.max_groups_contributed,
       p.protected_by AS declared_by, p.protected_at AS declared_at,
       CASE WHEN c.oid IS NULL THEN 'relation missing'
            WHEN NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a
                             WHERE a.attrelid = p.relation AND a.attname = p.privacy_unit AND a.attnum > 0
                               AND NOT a.attisdropped) THEN 'privacy unit missing'
            ELSE 'ok' END AS status,
       p.privacy_unit_kind, p.rows_per_unit, p.planning_rows
FROM pgdp.protected_relations p LEFT JOIN pg_catalog.pg_class c ON c.oid = p.relation
UNION ALL
SELECT r.relation, 'public', NULL, NULL, r.declared_by, r.declared_at,
       CASE WHEN c.oid IS NULL THEN 'relation missing' ELSE 'ok' END, NULL, NULL, NULL
FROM pgdp.public_relations r LEFT JOIN pg_catalog.pg_class c ON c.oid = r.relation;
COMMENT ON VIEW pgdp.protections IS
    'Protected relations (privacy unit, max_groups_contributed, privacy unit kind, rows_per_unit, the planning size declared public) and public relations; status ''ok'' unless the catalog row outlived its relation or column.';
CREATE FUNCTION pgdp.set_planning_rows(relation regclass, planning_rows bigint) RETURNS SETOF pgdp.protections
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF relation IS NULL THEN
        RAISE EXCEPTION 'relation must not be NULL' USING ERRCODE = 'null_value_not_allowed',
            HINT = 'Name the protected relation, e.g. ''sales''.';
    END IF;
    IF planning_rows IS NOT NULL AND planning_rows < 1 THEN
        RAISE EXCEPTION 'planning_rows must be a positive number of rows, got %', planning_rows
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Declare a round figure of the relation''s size, e.g. 1000000; NULL uses the setting pgdp.planning_rows.';
    END IF;
    UPDATE pgdp.protected_relations p SET planning_rows = set_planning_rows.planning_rows
    WHERE p.relation = set_planning_rows.relation;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'relation % is not protected', relation USING ERRCODE = 'undefined_object',
            HINT = 'Relations the user may read are planned with their real statistics; pgdp.protections lists the protected relations.';
    END IF;
    RETURN QUERY SELECT * FROM pgdp.protections s WHERE s.relation = set_planning_rows.relation;
END $$;
COMMENT ON FUNCTION pgdp.set_planning_rows(regclass, bigint) IS
    'Admins: declares public the size (rows) the planner assumes for a protected relation when the user may not read its rows (DP-only access, no access), instead of its statistics and real size; NULL: the setting pgdp.planning_rows. Everyone can read it in pgdp.protections.';
REVOKE ALL ON FUNCTION pgdp.set_planning_rows(regclass, bigint) FROM PUBLIC;
-- The admins designated before may declare it too.
DO $$
DECLARE
    admin regrole;
BEGIN
    FOR admin IN
        SELECT a.grantee::regrole
        FROM pg_catalog.pg_proc p, LATERAL pg_catalog.aclexplode(p.proacl) a
        WHERE p.oid = 'pgdp.protect(regclass, name, int, name, int)'::regprocedure AND a.privilege_type = 'EXECUTE'
          AND a.grantee <> 0 AND a.grantee <> p.proowner
    LOOP
        EXECUTE format('GRANT EXECUTE ON FUNCTION pgdp.set_planning_rows(regclass, bigint) TO %s', admin);
    END LOOP;
END $$;
CREATE OR REPLACE FUNCTION pgdp.designate_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can designate pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('GRANT EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint), '
                   'pgdp.raise_budget(regrole, numeric, numeric), pgdp.set_budget_period(regrole, interval), '
                   'pgdp.protect(regclass, name, int, name, int), pgdp.set_planning_rows(regclass, bigint), '
                   'pgdp.unprotect(regclass), pgdp.declare_public(regclass), pgdp.undeclare_public(regclass), '
                   'pgdp.grant_access(regclass, regrole), pgdp.revoke_access(regclass, regrole), '
                   'pgdp.set_refresh_policy(regclass, text, interval), pgdp.refresh(regclass), '
                   'pgdp.set_cache_group(regrole, name), pgdp.purge_cache(interval, regclass) TO %s', role);
    EXECUTE format('GRANT SELECT ON pgdp.data_epochs, pgdp.cache_groups, pgdp.release_cache TO %s', role);
    EXECUTE format('GRANT SELECT ON pgdp.access_grants TO %s', role);
    EXECUTE format('GRANT SELECT ON pgdp.budget_status, pgdp.ledger TO %s', role);
END $$;
CREATE OR REPLACE FUNCTION pgdp.revoke_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can revoke pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('REVOKE EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint), '
                   'pgdp.raise_budget(regrole, numeric, numeric), pgdp.set_budget_period(regrole, interval), '
                   'pgdp.protect(regclass, name, int, name, int), pgdp.set_planning_rows(regclass, bigint), '
                   'pgdp.unprotect(regclass), pgdp.declare_public(regclass), pgdp.undeclare_public(regclass), '
                   'pgdp.grant_access(regclass, regrole), pgdp.revoke_access(regclass, regrole), '
                   'pgdp.set_refresh_policy(regclass, text, interval), pgdp.refresh(regclass), '
                   'pgdp.set_cache_group(regrole, name), pgdp.purge_cache(interval, regclass) FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.data_epochs, pgdp.cache_groups, pgdp.release_cache FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.access_grants FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.budget_status, pgdp.ledger FROM %s', role);
END $$;
-- ---- end of the planning size block ---------------------------------------------------------


-- Trigger authors (0.15, issue 33; docs/privacy.md "Triggers are their creator's code"). PostgreSQL's
-- TRIGGER privilege lets a role put a trigger (its WHEN clause, function and arguments) on another
-- role's table, where it runs in the statements of whoever writes the table; PostgreSQL records no
-- creator. pgdp records one row per CREATE [OR REPLACE] [CONSTRAINT] TRIGGER (the current user that
-- ran it), written by the library; a statement that writes a table with a trigger whose author the
-- session user does not trust makes no release. Partition clones take their parent's author; a
-- trigger without a record (made before pgdp was installed) is of unknown authorship until its
-- table's owner or an admin adopts it.
CREATE TABLE pgdp.trigger_creators (
    trigger_oid oid PRIMARY KEY,       -- pg_trigger.oid
    relation regclass NOT NULL,        -- pg_trigger.tgrelid and tgname when recorded: a record
    trigger_name name NOT NULL,        -- counts only while both still match (no reused OID)
    creator regrole NOT NULL,          -- the role whose code the trigger is
    how text NOT NULL CHECK (how IN ('created', 'adopted')),
    recorded_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON pgdp.trigger_creators FROM PUBLIC;
-- Dumped (relation and creator by name): a restore's CREATE TRIGGER, run by a superuser, takes the
-- creator of the restored row for its table and name instead of the restoring role.
SELECT pg_catalog.pg_extension_config_dump('pgdp.trigger_creators', '');
COMMENT ON TABLE pgdp.trigger_creators IS
    'Who created (or adopted) each trigger, written by the pgdp library; read through pgdp.trigger_authors.';

CREATE FUNCTION pgdp.trigger_author(trigger oid, OUT author regrole, OUT source text)
AS 'MODULE_PATHNAME', 'pgdp_trigger_author' LANGUAGE C STRICT STABLE;
COMMENT ON FUNCTION pgdp.trigger_author(oid) IS
    'The author of a trigger as pgdp decides it: source created or adopted (recorded), partition clone (its parent''s author), pgdp (pgdp''s own), internal (foreign keys), unknown (author NULL: treated as another role''s code).';

CREATE VIEW pgdp.trigger_authors AS
SELECT t.tgrelid::regclass AS relation, t.tgname AS trigger, a.author, a.source, c.relowner::regrole AS table_owner
FROM pg_catalog.pg_trigger t
JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
CROSS JOIN LATERAL pgdp.trigger_author(t.oid) a
WHERE NOT t.tgisinternal;
GRANT SELECT ON pgdp.trigger_authors TO PUBLIC;
COMMENT ON VIEW pgdp.trigger_authors IS
    'Every trigger that is not internal, with its author: a table written by a statement makes no release charged to a role that does not trust the author of one of its triggers (NULL author: unknown).';

CREATE FUNCTION pgdp.adopt_trigger(relation regclass, trigger name) RETURNS void
AS 'MODULE_PATHNAME', 'pgdp_adopt_trigger' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION pgdp.adopt_trigger(regclass, name) IS
    'The table''s owner or a pgdp admin takes a trigger (e.g. one made before pgdp was installed or restored from a dump) as their own code.';

-- The catalog follows the relations and triggers: a dropped trigger's record, or its table's, goes too.
CREATE OR REPLACE FUNCTION pgdp.forget_dropped_relations() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    DELETE FROM pgdp.protected_relations p USING pg_event_trigger_dropped_objects() d
    WHERE d.classid = 'pg_class'::regclass AND d.objsubid = 0 AND d.objid = p.relation::oid;
    DELETE FROM pgdp.public_relations r USING pg_event_trigger_dropped_objects() d
    WHERE d.classid = 'pg_class'::regclass AND d.objsubid = 0 AND d.objid = r.relation::oid;
    -- (0.15) A dropped trigger's record, or its table's, goes too.
    DELETE FROM pgdp.trigger_creators t USING pg_event_trigger_dropped_objects() d
    WHERE (d.classid = 'pg_trigger'::regclass AND d.objid = t.trigger_oid)
       OR (d.classid = 'pg_class'::regclass AND d.objsubid = 0 AND d.objid = t.relation::oid);
END $$;
