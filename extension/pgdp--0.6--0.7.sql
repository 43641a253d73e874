-- pgdp 0.6 -> 0.7: private group selection, the aggregate dp_groups (HAVING dp_groups(epsilon,
-- delta [, mechanism [, min_units]])), for grouped person-level releases over protected relations
-- (docs/privacy.md "Private group selection"). Written once for this update and frozen (not
-- generated): sql/upgrade.sql checks that 0.6 updated by this script has exactly the objects of a
-- fresh 0.7 install.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.7'" to load this file. \quit

-- dp_groups: keep the group or not, from its number of privacy units (docs/privacy.md
-- "Private group selection").
CREATE FUNCTION pgdp_groups_final(internal) RETURNS boolean
AS 'MODULE_PATHNAME', 'pgdp_groups_final' LANGUAGE C PARALLEL SAFE;

CREATE FUNCTION pgdp_count_transfn(internal, float8, float8, text, int8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_count_transfn' LANGUAGE C PARALLEL SAFE;

-- dp_groups: private group selection, (epsilon, delta [, mechanism [, min_units]])
CREATE AGGREGATE dp_groups(float8, float8) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_groups_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_groups(float8, float8) IS
    'Private group selection (HAVING dp_groups(...)): true if the group may be released, decided from its number of privacy units.';
CREATE AGGREGATE dp_groups(float8, float8, text) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_groups_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_groups(float8, float8, text) IS
    'Private group selection (HAVING dp_groups(...)): true if the group may be released, decided from its number of privacy units.';
CREATE AGGREGATE dp_groups(float8, float8, text, int8) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_groups_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_groups(float8, float8, text, int8) IS
    'Private group selection (HAVING dp_groups(...)): true if the group may be released, decided from its number of privacy units.';

-- Grouped person-level releases (0.7) keep at most max_groups_contributed groups per privacy unit,
-- in the order of this rank: uniform random bits drawn per row from the release CSPRNG, so which
-- groups a unit keeps depends on no other unit's data (docs/privacy.md "Person-level releases").
-- The planner hook writes the calls; calling it directly only draws random numbers.
CREATE FUNCTION pgdp.bounding_rank() RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_bounding_rank' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION pgdp.bounding_rank() IS 'Grouped person-level releases: a random rank per (unit, group) row, for the contribution bound';

-- =============================================================================================
-- Privacy unit kinds (0.7): protected relations of one kind may be joined on their units.
ALTER TABLE pgdp.protected_relations ADD COLUMN privacy_unit_kind name;
DROP FUNCTION pgdp.protect(regclass, name, int);
CREATE OR REPLACE VIEW pgdp.protections AS
SELECT p.relation, 'protected'::text AS kind, p.privacy_unit, p.max_groups_contributed,
       p.protected_by AS declared_by, p.protected_at AS declared_at,
       CASE WHEN c.oid IS NULL THEN 'relation missing'
            WHEN NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a
                             WHERE a.attrelid = p.relation AND a.attname = p.privacy_unit AND a.attnum > 0
                               AND NOT a.attisdropped) THEN 'privacy unit missing'
            ELSE 'ok' END AS status,
       p.privacy_unit_kind
FROM pgdp.protected_relations p LEFT JOIN pg_catalog.pg_class c ON c.oid = p.relation
UNION ALL
SELECT r.relation, 'public', NULL, NULL, r.declared_by, r.declared_at,
       CASE WHEN c.oid IS NULL THEN 'relation missing' ELSE 'ok' END, NULL
FROM pgdp.public_relations r LEFT JOIN pg_catalog.pg_class c ON c.oid = r.relation;
GRANT SELECT ON pgdp.protections TO PUBLIC;
COMMENT ON VIEW pgdp.protections IS
    'Protected relations (privacy unit, max_groups_contributed, privacy unit kind) and public relations; status ''ok'' unless the catalog row outlived its relation or column.';

CREATE FUNCTION pgdp.protect(relation regclass, privacy_unit name, max_groups_contributed int DEFAULT 1,
                             privacy_unit_kind name DEFAULT NULL)
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
    INSERT INTO pgdp.protected_relations AS p (relation, privacy_unit, max_groups_contributed, protected_by,
                                               privacy_unit_kind)
    VALUES (protect.relation, protect.privacy_unit, protect.max_groups_contributed, session_user::regrole,
            protect.privacy_unit_kind)
    ON CONFLICT ON CONSTRAINT protected_relations_pkey DO UPDATE
        SET privacy_unit = excluded.privacy_unit, max_groups_contributed = excluded.max_groups_contributed,
            protected_by = excluded.protected_by, protected_at = now(),
            privacy_unit_kind = excluded.privacy_unit_kind;
    RETURN QUERY SELECT * FROM pgdp.protections s WHERE s.relation = protect.relation;
END $$;
COMMENT ON FUNCTION pgdp.protect(regclass, name, int, name) IS
    'Admins: protects a table or partitioned table (and its partitions), or changes its protection: privacy_unit is the column naming each row''s person, max_groups_contributed the groups one unit may contribute to per query, privacy_unit_kind what the unit identifies (relations of one kind may be joined on their units).';
REVOKE ALL ON FUNCTION pgdp.protect(regclass, name, int, name) FROM PUBLIC;

-- Admins are the roles with EXECUTE on pgdp.set_budget: they get the new pgdp.protect too.
CREATE OR REPLACE FUNCTION pgdp.designate_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can designate pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('GRANT EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint), '
                   'pgdp.raise_budget(regrole, numeric, numeric), pgdp.protect(regclass, name, int, name), '
                   'pgdp.unprotect(regclass), pgdp.declare_public(regclass), pgdp.undeclare_public(regclass), '
                   'pgdp.grant_access(regclass, regrole), pgdp.revoke_access(regclass, regrole) TO %s', role);
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
                   'pgdp.raise_budget(regrole, numeric, numeric), pgdp.protect(regclass, name, int, name), '
                   'pgdp.unprotect(regclass), pgdp.declare_public(regclass), pgdp.undeclare_public(regclass), '
                   'pgdp.grant_access(regclass, regrole), pgdp.revoke_access(regclass, regrole) FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.access_grants FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.budget_status, pgdp.ledger FROM %s', role);
END $$;

-- A change of a relation's protection or public status invalidates the cached plans that read it
-- (0.7): prepared statements are planned again under the new catalog (a plan made before the
-- change would be refused as stale). Fires for every change, pg_restore and direct edits included.
CREATE FUNCTION pgdp.invalidate_plans() RETURNS trigger
AS 'MODULE_PATHNAME', 'pgdp_invalidate_plans' LANGUAGE C;
REVOKE ALL ON FUNCTION pgdp.invalidate_plans() FROM PUBLIC;
CREATE TRIGGER pgdp_invalidate_plans AFTER INSERT OR UPDATE OR DELETE ON pgdp.protected_relations
    FOR EACH ROW EXECUTE FUNCTION pgdp.invalidate_plans();
CREATE TRIGGER pgdp_invalidate_plans AFTER INSERT OR UPDATE OR DELETE ON pgdp.public_relations
    FOR EACH ROW EXECUTE FUNCTION pgdp.invalidate_plans();

-- =============================================================================================
-- DP-only access (0.7; docs/privacy.md "Untrusted analysts"). An admin lets a role make person-level
-- releases over a protected relation without any SELECT privilege on it: the role cannot read the
-- rows (PostgreSQL's own permission check refuses every other query, with or without pgdp loaded),
-- and pgdp lets the executor read the relation as its owner only for plans pgdp accepted (a
-- person-level release whose expressions over the rows cannot fail or leak).
CREATE TABLE pgdp.access_grants (
    relation regclass NOT NULL,
    role regrole NOT NULL,
    granted_by regrole NOT NULL,            -- the session user who granted it (last)
    granted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (relation, role)
);
COMMENT ON TABLE pgdp.access_grants IS 'Roles with DP-only access to protected relations: releases without SELECT on the rows';
SELECT pg_catalog.pg_extension_config_dump('pgdp.access_grants', '');
REVOKE ALL ON pgdp.access_grants FROM PUBLIC;
CREATE TRIGGER pgdp_invalidate_plans AFTER INSERT OR UPDATE OR DELETE ON pgdp.access_grants
    FOR EACH ROW EXECUTE FUNCTION pgdp.invalidate_plans();

-- Who has DP-only access (everyone may read it, as pgdp.protections): and whether the role can
-- also read rows directly (SELECT on the table or a column, its own or of any role it is a member
-- of, NOINHERIT included: it may SET ROLE to it); then the access adds nothing.
CREATE VIEW pgdp.dp_access AS
SELECT g.relation, g.role, g.granted_by, g.granted_at,
       CASE WHEN c.oid IS NULL OR r.oid IS NULL THEN NULL
            ELSE EXISTS (SELECT FROM pg_catalog.pg_roles m
                         WHERE pg_catalog.pg_has_role(g.role, m.oid, 'MEMBER')
                           AND pg_catalog.has_any_column_privilege(m.oid, g.relation, 'SELECT')) END AS can_read_rows
FROM pgdp.access_grants g
LEFT JOIN pg_catalog.pg_class c ON c.oid = g.relation
LEFT JOIN pg_catalog.pg_roles r ON r.oid = g.role;
GRANT SELECT ON pgdp.dp_access TO PUBLIC;
COMMENT ON VIEW pgdp.dp_access IS 'Roles with DP-only access to protected relations; can_read_rows: the role also has SELECT (the access then adds nothing).';

CREATE FUNCTION pgdp.grant_access(relation regclass, role regrole) RETURNS SETOF pgdp.dp_access
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF relation IS NULL OR role IS NULL THEN
        RAISE EXCEPTION '% must not be NULL', CASE WHEN relation IS NULL THEN 'relation' ELSE 'role' END
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'pgdp.grant_access(relation, role) names a protected relation and the analyst role.';
    END IF;
    IF NOT EXISTS (SELECT FROM pgdp.protected_relations p WHERE p.relation = grant_access.relation) THEN
        RAISE EXCEPTION 'relation % is not protected', relation USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = format('DP-only access is to a protected relation: pgdp.protect(%L, privacy_unit => ...) first.',
                          relation::text);
    END IF;
    IF (SELECT rolsuper FROM pg_roles WHERE oid = role) THEN
        RAISE EXCEPTION 'role % is a superuser', role USING ERRCODE = 'invalid_parameter_value',
            HINT = 'A superuser reads every relation; DP-only access is for roles that cannot.';
    END IF;
    INSERT INTO pgdp.access_grants AS g (relation, role, granted_by)
    VALUES (grant_access.relation, grant_access.role, session_user::regrole)
    ON CONFLICT ON CONSTRAINT access_grants_pkey DO UPDATE
        SET granted_by = excluded.granted_by, granted_at = now();
    IF (SELECT a.can_read_rows FROM pgdp.dp_access a WHERE a.relation = grant_access.relation AND a.role = grant_access.role) THEN
        RAISE WARNING 'role % can read the rows of % directly: DP-only access protects nothing while it has SELECT', role, relation
            USING HINT = format('REVOKE SELECT ON %s FROM %s (and from PUBLIC and the roles it belongs to).', relation, role);
    END IF;
    RETURN QUERY SELECT * FROM pgdp.dp_access a WHERE a.relation = grant_access.relation AND a.role = grant_access.role;
END $$;
COMMENT ON FUNCTION pgdp.grant_access(regclass, regrole) IS
    'Admins: lets a role make person-level releases over a protected relation without SELECT on it.';

CREATE FUNCTION pgdp.revoke_access(relation regclass, role regrole) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    DELETE FROM pgdp.access_grants g WHERE g.relation = revoke_access.relation AND g.role = revoke_access.role;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'role % has no DP-only access to %', coalesce(role::text, 'NULL'), coalesce(relation::text, 'NULL')
            USING ERRCODE = 'undefined_object', HINT = 'pgdp.dp_access lists who has DP-only access.';
    END IF;
END $$;
COMMENT ON FUNCTION pgdp.revoke_access(regclass, regrole) IS 'Admins: withdraws a role''s DP-only access to a relation.';
REVOKE ALL ON FUNCTION pgdp.grant_access(regclass, regrole), pgdp.revoke_access(regclass, regrole) FROM PUBLIC;

-- Access goes with the relation: dropped or unprotected relations lose their grants.
CREATE FUNCTION pgdp.forget_access() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    DELETE FROM pgdp.access_grants g WHERE g.relation = OLD.relation;
    RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION pgdp.forget_access() FROM PUBLIC;
CREATE TRIGGER pgdp_forget_access AFTER DELETE ON pgdp.protected_relations
    FOR EACH ROW EXECUTE FUNCTION pgdp.forget_access();

-- Admins are the roles with EXECUTE on pgdp.set_budget: they get the new functions too.
DO $$
DECLARE
    admin regrole;
BEGIN
    FOR admin IN
        SELECT DISTINCT a.grantee::regrole FROM pg_catalog.pg_proc p, pg_catalog.aclexplode(p.proacl) a
        WHERE p.oid = 'pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint)'::pg_catalog.regprocedure
          AND a.privilege_type = 'EXECUTE' AND a.grantee <> 0 AND a.grantee <> p.proowner
    LOOP
        EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION pgdp.protect(regclass, name, int, name), '
                                  'pgdp.grant_access(regclass, regrole), pgdp.revoke_access(regclass, regrole) TO %s', admin);
        EXECUTE pg_catalog.format('GRANT SELECT ON pgdp.access_grants TO %s', admin);
    END LOOP;
END $$;

-- Functions that cannot fail (0.7), LEAKPROOF, for expressions over rows read with DP-only access
-- (built-in division, casts and arithmetic may raise errors that depend on a person's values).
CREATE FUNCTION pgdp.bucket(value float8, width float8) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_bucket_float8' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.bucket(float8, float8) IS 'floor(value / width) * width, or NULL (width <= 0, not finite); never an error';
CREATE FUNCTION pgdp.bucket(value bigint, width bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_bucket_int8' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.bucket(bigint, bigint) IS 'The largest multiple of width <= value, or NULL (width <= 0, out of range); never an error';
CREATE FUNCTION pgdp.clamp(value float8, lower float8, upper float8) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_clamp_float8' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.clamp(float8, float8, float8) IS 'value limited to [lower, upper], or NULL (NaN, lower > upper); never an error';

-- Statistics side channels (0.7): PostgreSQL shows every role the row counts and sizes of every
-- table (pg_class.reltuples and relpages, the pg_stat_* and pg_statio_* views and the functions
-- behind them, pg_relation_size). An admin who gives untrusted roles DP-only access can restrict
-- them to members of pg_read_all_stats (and superusers) with pgdp.harden_statistics(), and undo it
-- with pgdp.unharden_statistics(). Changes pg_catalog privileges for the whole cluster's database:
-- tools run by ordinary roles that read these columns (pg_dump does) need pg_read_all_stats.
CREATE FUNCTION pgdp.statistics_objects() RETURNS TABLE (kind text, object text)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT 'view', c.oid::regclass::text FROM pg_class c
    WHERE c.relnamespace = 'pg_catalog'::regnamespace AND c.relkind = 'v'
      AND (c.relname LIKE 'pg\_stat\_%tables' OR c.relname LIKE 'pg\_statio\_%tables'
           OR c.relname LIKE 'pg\_stat\_%indexes' OR c.relname LIKE 'pg\_statio\_%indexes')
    UNION ALL
    SELECT 'function', p.oid::regprocedure::text FROM pg_proc p
    WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.pronargs = 1 AND p.proargtypes[0] = 'oid'::regtype
      AND (p.proname LIKE 'pg\_stat\_get\_%' OR p.proname IN ('pg_relation_size', 'pg_total_relation_size',
                                                               'pg_table_size', 'pg_indexes_size'))
    UNION ALL
    SELECT 'function', p.oid::regprocedure::text FROM pg_proc p
    WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname = 'pg_relation_size' AND p.pronargs = 2
    ORDER BY 1, 2
$$;
CREATE FUNCTION pgdp.harden_statistics() RETURNS SETOF text
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    item record;
    columns text;
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can change pg_catalog privileges' USING ERRCODE = 'insufficient_privilege';
    END IF;
    FOR item IN SELECT * FROM pgdp.statistics_objects() LOOP
        EXECUTE format('REVOKE ALL ON %s %s FROM PUBLIC', CASE item.kind WHEN 'view' THEN 'TABLE' ELSE 'FUNCTION' END, item.object);
        EXECUTE format('GRANT %s ON %s %s TO pg_read_all_stats', CASE item.kind WHEN 'view' THEN 'SELECT' ELSE 'EXECUTE' END,
                       CASE item.kind WHEN 'view' THEN 'TABLE' ELSE 'FUNCTION' END, item.object);
        RETURN NEXT format('%s %s: pg_read_all_stats only', item.kind, item.object);
    END LOOP;
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO columns FROM pg_attribute a
    WHERE a.attrelid = 'pg_catalog.pg_class'::regclass AND a.attnum > 0 AND NOT a.attisdropped
      AND a.attname NOT IN ('reltuples', 'relpages', 'relallvisible');
    REVOKE SELECT ON pg_catalog.pg_class FROM PUBLIC;
    EXECUTE format('GRANT SELECT (%s) ON pg_catalog.pg_class TO PUBLIC', columns);
    GRANT SELECT ON pg_catalog.pg_class TO pg_read_all_stats;
    RETURN NEXT 'pg_class.reltuples, relpages, relallvisible: pg_read_all_stats only';
END $$;
CREATE FUNCTION pgdp.unharden_statistics() RETURNS SETOF text
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    item record;
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can change pg_catalog privileges' USING ERRCODE = 'insufficient_privilege';
    END IF;
    FOR item IN SELECT * FROM pgdp.statistics_objects() LOOP
        EXECUTE format('GRANT %s ON %s %s TO PUBLIC', CASE item.kind WHEN 'view' THEN 'SELECT' ELSE 'EXECUTE' END,
                       CASE item.kind WHEN 'view' THEN 'TABLE' ELSE 'FUNCTION' END, item.object);
        RETURN NEXT format('%s %s: PUBLIC again', item.kind, item.object);
    END LOOP;
    GRANT SELECT ON pg_catalog.pg_class TO PUBLIC;
    RETURN NEXT 'pg_class: PUBLIC again';
END $$;
REVOKE ALL ON FUNCTION pgdp.harden_statistics(), pgdp.unharden_statistics() FROM PUBLIC;
COMMENT ON FUNCTION pgdp.harden_statistics() IS
    'Superusers: restricts row counts and sizes of tables (pg_class.reltuples/relpages, pg_stat_*/pg_statio_* views and functions, relation sizes) to pg_read_all_stats.';
COMMENT ON FUNCTION pgdp.unharden_statistics() IS 'Superusers: undoes pgdp.harden_statistics().';
