-- pgdp 0.14 -> 0.15 (ALTER EXTENSION pgdp UPDATE TO '0.15'). Each part of the work that adds or
-- changes objects in 0.15 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.15'" to load this file. \quit


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
