-- pgdp 0.5 -> 0.6: the catalog of protected and public relations (pgdp.protected_relations,
-- pgdp.public_relations, the view pgdp.protections), the admin functions pgdp.protect,
-- pgdp.unprotect, pgdp.declare_public and pgdp.undeclare_public, and the event triggers that keep
-- the catalog in step with the relations. Admins designated before the update get the new
-- functions too. Written once for this update and frozen (not generated): sql/upgrade.sql checks
-- that 0.5 updated by this script has exactly the objects of a fresh 0.6 install.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.6'" to load this file. \quit

-- =============================================================================================
-- Protected and public relations (0.6; docs/privacy.md "Protected relations"). A data owner
-- (a superuser or a pgdp admin) declares which relations hold data about people (protected, with
-- the column naming each row's person: the privacy unit) and which hold public group keys.
-- Until person-level releases exist, every release over a protected relation is refused before
-- anything is charged (src/pg/protected_relations.cpp): the catalog fails closed.

-- One row per protected table or partitioned table (whose partitions it covers). The privacy
-- unit is kept by name: the name survives pg_dump and restore (column numbers do not), and a
-- DDL event trigger below refuses to rename or drop the column while the relation is protected.
CREATE TABLE pgdp.protected_relations (
    relation regclass PRIMARY KEY,
    privacy_unit name NOT NULL,             -- the column identifying each row's person (or other unit)
    max_groups_contributed int NOT NULL CHECK (max_groups_contributed >= 1),  -- m: groups per unit and query
    protected_by regrole NOT NULL,          -- the session user who protected it (last)
    protected_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE pgdp.protected_relations IS 'Relations whose rows belong to privacy units (people): releases over them are person-level';
SELECT pg_catalog.pg_extension_config_dump('pgdp.protected_relations', '');

-- One row per relation whose rows are public (usable as the group keys of a release).
CREATE TABLE pgdp.public_relations (
    relation regclass PRIMARY KEY,
    declared_by regrole NOT NULL,           -- the session user who declared it (last)
    declared_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE pgdp.public_relations IS 'Relations declared public by an admin: their rows (e.g. group keys) are not private';
SELECT pg_catalog.pg_extension_config_dump('pgdp.public_relations', '');
REVOKE ALL ON pgdp.protected_relations, pgdp.public_relations FROM PUBLIC;

-- Everyone may read which relations are protected or public (relation names are in pg_class for
-- everyone anyway; analysts need to know how a relation is released).
CREATE VIEW pgdp.protections AS
SELECT p.relation, 'protected'::text AS kind, p.privacy_unit, p.max_groups_contributed,
       p.protected_by AS declared_by, p.protected_at AS declared_at,
       CASE WHEN c.oid IS NULL THEN 'relation missing'
            WHEN NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a
                             WHERE a.attrelid = p.relation AND a.attname = p.privacy_unit AND a.attnum > 0
                               AND NOT a.attisdropped) THEN 'privacy unit missing'
            ELSE 'ok' END AS status
FROM pgdp.protected_relations p LEFT JOIN pg_catalog.pg_class c ON c.oid = p.relation
UNION ALL
SELECT r.relation, 'public', NULL, NULL, r.declared_by, r.declared_at,
       CASE WHEN c.oid IS NULL THEN 'relation missing' ELSE 'ok' END
FROM pgdp.public_relations r LEFT JOIN pg_catalog.pg_class c ON c.oid = r.relation;
GRANT SELECT ON pgdp.protections TO PUBLIC;
COMMENT ON VIEW pgdp.protections IS
    'Protected relations (privacy unit, max_groups_contributed) and public relations; status ''ok'' unless the catalog row outlived its relation or column.';

-- Raises 22004 for a NULL relation and 42809 for a relation of a kind that cannot be `what`
-- (protected: tables and partitioned tables that are not partitions; public: also views,
-- materialized views and foreign tables). Returns the relation's relkind.
CREATE FUNCTION pgdp.check_relation_argument(relation regclass, what text) RETURNS "char"
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    kind "char";
    partition boolean;
    persistence "char";
BEGIN
    IF relation IS NULL THEN
        RAISE EXCEPTION 'relation must not be NULL' USING ERRCODE = 'null_value_not_allowed',
            HINT = format('Name the relation to %s, e.g. ''sales''.', what);
    END IF;
    SELECT c.relkind, c.relispartition, c.relpersistence INTO kind, partition, persistence
    FROM pg_class c WHERE c.oid = relation;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'relation with OID % does not exist', relation::oid USING ERRCODE = 'undefined_table';
    END IF;
    IF persistence = 't' THEN
        RAISE EXCEPTION 'relation % is temporary', relation USING ERRCODE = 'wrong_object_type',
            HINT = 'Only permanent relations can be protected or declared public: pgdp''s catalog outlives the session.';
    END IF;
    IF what = 'protect' THEN
        IF kind NOT IN ('r', 'p') THEN
            RAISE EXCEPTION 'relation % is %; only tables and partitioned tables can be protected', relation,
                CASE kind WHEN 'v' THEN 'a view' WHEN 'm' THEN 'a materialized view' WHEN 'f' THEN 'a foreign table'
                          WHEN 'S' THEN 'a sequence' WHEN 'c' THEN 'a composite type' WHEN 'i' THEN 'an index'
                          WHEN 'I' THEN 'a partitioned index' WHEN 't' THEN 'a TOAST table' ELSE 'not a table' END
                USING ERRCODE = 'wrong_object_type',
                      HINT = 'Protect the tables it reads: releases through views and queries over them are guarded too.';
        END IF;
        IF partition THEN
            RAISE EXCEPTION 'relation % is a partition of %', relation, pg_partition_root(relation)
                USING ERRCODE = 'wrong_object_type',
                      HINT = format('Protect the root partitioned table: pgdp.protect(%L, ...) covers every partition.',
                                    pg_partition_root(relation)::text);
        END IF;
    ELSIF kind NOT IN ('r', 'p', 'v', 'm', 'f') THEN
        RAISE EXCEPTION 'relation % is not a table, view, materialized view or foreign table', relation
            USING ERRCODE = 'wrong_object_type',
                  HINT = 'Declare public the relation whose rows are public, e.g. a table of group keys.';
    END IF;
    RETURN kind;
END $$;

CREATE FUNCTION pgdp.protect(relation regclass, privacy_unit name, max_groups_contributed int DEFAULT 1)
RETURNS SETOF pgdp.protections
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    column_number int2;
BEGIN
    PERFORM pgdp.check_relation_argument(relation, 'protect');
    IF privacy_unit IS NULL THEN
        RAISE EXCEPTION 'privacy_unit must not be NULL' USING ERRCODE = 'null_value_not_allowed',
            HINT = 'privacy_unit names the column identifying the person (or other unit) each row belongs to, e.g. ''customer_id''.';
    END IF;
    SELECT a.attnum INTO column_number FROM pg_attribute a
    WHERE a.attrelid = protect.relation AND a.attname = protect.privacy_unit AND NOT a.attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'privacy_unit: column "%" of relation % does not exist', privacy_unit, relation
            USING ERRCODE = 'undefined_column',
                  HINT = 'privacy_unit names the column identifying the person (or other unit) each row belongs to.';
    END IF;
    IF column_number < 0 THEN
        RAISE EXCEPTION 'privacy_unit: column "%" of relation % is a system column', privacy_unit, relation
            USING ERRCODE = 'invalid_column_reference',
                  HINT = 'privacy_unit names a column of the data identifying each row''s person, e.g. ''customer_id''.';
    END IF;
    IF max_groups_contributed IS NULL THEN
        RAISE EXCEPTION 'max_groups_contributed must not be NULL' USING ERRCODE = 'null_value_not_allowed',
            HINT = 'max_groups_contributed is the number of groups of a query one unit may contribute to (default 1).';
    END IF;
    IF max_groups_contributed < 1 THEN
        RAISE EXCEPTION 'max_groups_contributed must be an integer >= 1, got %', max_groups_contributed
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'max_groups_contributed is the number of groups of a query one unit may contribute to (default 1).';
    END IF;
    IF EXISTS (SELECT FROM pgdp.public_relations r WHERE r.relation = protect.relation) THEN
        RAISE EXCEPTION 'relation % is declared public', relation USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = format('A relation is protected or public, not both: pgdp.undeclare_public(%L) first.', relation::text);
    END IF;
    INSERT INTO pgdp.protected_relations AS p (relation, privacy_unit, max_groups_contributed, protected_by)
    VALUES (protect.relation, protect.privacy_unit, protect.max_groups_contributed, session_user::regrole)
    ON CONFLICT ON CONSTRAINT protected_relations_pkey DO UPDATE
        SET privacy_unit = excluded.privacy_unit, max_groups_contributed = excluded.max_groups_contributed,
            protected_by = excluded.protected_by, protected_at = now();
    RETURN QUERY SELECT * FROM pgdp.protections s WHERE s.relation = protect.relation;
END $$;
COMMENT ON FUNCTION pgdp.protect(regclass, name, int) IS
    'Admins: protects a table or partitioned table (and its partitions), or changes its protection: privacy_unit is the column naming each row''s person, max_groups_contributed the groups one unit may contribute to per query.';

CREATE FUNCTION pgdp.unprotect(relation regclass) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF relation IS NULL THEN
        RAISE EXCEPTION 'relation must not be NULL' USING ERRCODE = 'null_value_not_allowed',
            HINT = 'Name the protected relation, e.g. ''sales''.';
    END IF;
    DELETE FROM pgdp.protected_relations p WHERE p.relation = unprotect.relation;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'relation % is not protected', relation USING ERRCODE = 'undefined_object',
            HINT = 'pgdp.protections lists the protected relations.';
    END IF;
END $$;
COMMENT ON FUNCTION pgdp.unprotect(regclass) IS 'Admins: removes a relation''s protection (its releases become row-level again).';

CREATE FUNCTION pgdp.declare_public(relation regclass) RETURNS SETOF pgdp.protections
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM pgdp.check_relation_argument(relation, 'declare public');
    IF EXISTS (SELECT FROM pgdp.protected_relations p WHERE p.relation = declare_public.relation) THEN
        RAISE EXCEPTION 'relation % is protected', relation USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = format('A relation is protected or public, not both: pgdp.unprotect(%L) first.', relation::text);
    END IF;
    INSERT INTO pgdp.public_relations AS r (relation, declared_by)
    VALUES (declare_public.relation, session_user::regrole)
    ON CONFLICT ON CONSTRAINT public_relations_pkey DO UPDATE
        SET declared_by = excluded.declared_by, declared_at = now();
    RETURN QUERY SELECT * FROM pgdp.protections s WHERE s.relation = declare_public.relation;
END $$;
COMMENT ON FUNCTION pgdp.declare_public(regclass) IS 'Admins: declares a relation''s rows public (e.g. the group keys of releases).';

CREATE FUNCTION pgdp.undeclare_public(relation regclass) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF relation IS NULL THEN
        RAISE EXCEPTION 'relation must not be NULL' USING ERRCODE = 'null_value_not_allowed',
            HINT = 'Name the public relation, e.g. ''regions''.';
    END IF;
    DELETE FROM pgdp.public_relations r WHERE r.relation = undeclare_public.relation;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'relation % is not declared public', relation USING ERRCODE = 'undefined_object',
            HINT = 'pgdp.protections lists the public relations.';
    END IF;
END $$;
COMMENT ON FUNCTION pgdp.undeclare_public(regclass) IS 'Admins: withdraws a relation''s declaration as public.';

-- The catalog follows the relations: a dropped relation's rows go with it (so a later relation
-- reusing its OID is neither protected nor public by accident), and the privacy unit column of a
-- protected relation cannot be renamed or dropped (any DDL that would leave a protection
-- without its column fails).
CREATE FUNCTION pgdp.forget_dropped_relations() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    DELETE FROM pgdp.protected_relations p USING pg_event_trigger_dropped_objects() d
    WHERE d.classid = 'pg_class'::regclass AND d.objsubid = 0 AND d.objid = p.relation::oid;
    DELETE FROM pgdp.public_relations r USING pg_event_trigger_dropped_objects() d
    WHERE d.classid = 'pg_class'::regclass AND d.objsubid = 0 AND d.objid = r.relation::oid;
END $$;
CREATE FUNCTION pgdp.keep_privacy_units() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    lost record;
BEGIN
    SELECT p.relation, p.privacy_unit INTO lost FROM pgdp.protected_relations p
    WHERE p.relation::oid IN (SELECT d.objid FROM pg_event_trigger_ddl_commands() d
                              WHERE d.classid = 'pg_class'::regclass)  -- what this statement changed
      AND EXISTS (SELECT FROM pg_class c WHERE c.oid = p.relation)
      AND NOT EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = p.relation AND a.attname = p.privacy_unit
                                                   AND a.attnum > 0 AND NOT a.attisdropped)
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'column "%" of relation % is its pgdp privacy unit', lost.privacy_unit, lost.relation
            USING ERRCODE = 'dependent_objects_still_exist',
                  DETAIL = 'The statement would rename or drop the column that identifies each row''s person.',
                  HINT = format('An admin can pgdp.unprotect(%L) first and protect it again afterwards.', lost.relation::text);
    END IF;
END $$;
CREATE EVENT TRIGGER pgdp_forget_dropped_relations ON sql_drop EXECUTE FUNCTION pgdp.forget_dropped_relations();
CREATE EVENT TRIGGER pgdp_keep_privacy_units ON ddl_command_end EXECUTE FUNCTION pgdp.keep_privacy_units();
REVOKE ALL ON FUNCTION pgdp.protect(regclass, name, int), pgdp.unprotect(regclass), pgdp.declare_public(regclass),
                       pgdp.undeclare_public(regclass), pgdp.check_relation_argument(regclass, text),
                       pgdp.forget_dropped_relations(), pgdp.keep_privacy_units()
    FROM PUBLIC;

-- Admins are the roles with EXECUTE on pgdp.set_budget: they get the new functions too.
CREATE OR REPLACE FUNCTION pgdp.designate_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can designate pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('GRANT EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint), '
                   'pgdp.raise_budget(regrole, numeric, numeric), pgdp.protect(regclass, name, int), '
                   'pgdp.unprotect(regclass), pgdp.declare_public(regclass), pgdp.undeclare_public(regclass) TO %s', role);
    EXECUTE format('GRANT SELECT ON pgdp.budget_status, pgdp.ledger TO %s', role);
END $$;
CREATE OR REPLACE FUNCTION pgdp.revoke_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can revoke pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('REVOKE EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint), '
                   'pgdp.raise_budget(regrole, numeric, numeric), pgdp.protect(regclass, name, int), '
                   'pgdp.unprotect(regclass), pgdp.declare_public(regclass), pgdp.undeclare_public(regclass) FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.budget_status, pgdp.ledger FROM %s', role);
END $$;
COMMENT ON FUNCTION pgdp.designate_admin(regrole) IS 'Superusers only: lets a role set and raise budgets, read every budget and the ledger, and protect relations or declare them public.';
DO $$
DECLARE
    admin regrole;
BEGIN
    FOR admin IN
        SELECT DISTINCT a.grantee::regrole FROM pg_catalog.pg_proc p, pg_catalog.aclexplode(p.proacl) a
        WHERE p.oid = 'pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint)'::pg_catalog.regprocedure
          AND a.privilege_type = 'EXECUTE' AND a.grantee <> 0 AND a.grantee <> p.proowner
    LOOP
        EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION pgdp.protect(regclass, name, int), pgdp.unprotect(regclass), '
                                  'pgdp.declare_public(regclass), pgdp.undeclare_public(regclass) TO %s', admin);
    END LOOP;
END $$;
