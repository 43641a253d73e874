-- pgdp 0.12 -> 0.13 (ALTER EXTENSION pgdp UPDATE TO '0.13'). Each part of the work that adds or
-- changes objects in 0.13 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.13'" to load this file. \quit

-- ---- k declared with the protection (issue 24 part 6) ---------------------------------------
-- pgdp.protect gains rows_per_unit (k of the row-capped statistics, default 1), kept in
-- pgdp.protected_relations and shown by pgdp.protections; pgdp.rows_per_unit = 0 (its new default)
-- uses it (docs/privacy.md "Row-capped person-level statistics").
ALTER TABLE pgdp.protected_relations
    ADD COLUMN rows_per_unit int NOT NULL DEFAULT 1 CHECK (rows_per_unit BETWEEN 1 AND 1024);
CREATE OR REPLACE VIEW pgdp.protections AS
SELECT p.relation, 'protected'::text AS kind, p.privacy_unit, p.max_groups_contributed,
       p.protected_by AS declared_by, p.protected_at AS declared_at,
       CASE WHEN c.oid IS NULL THEN 'relation missing'
            WHEN NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a
                             WHERE a.attrelid = p.relation AND a.attname = p.privacy_unit AND a.attnum > 0
                               AND NOT a.attisdropped) THEN 'privacy unit missing'
            ELSE 'ok' END AS status,
       p.privacy_unit_kind, p.rows_per_unit
FROM pgdp.protected_relations p LEFT JOIN pg_catalog.pg_class c ON c.oid = p.relation
UNION ALL
SELECT r.relation, 'public', NULL, NULL, r.declared_by, r.declared_at,
       CASE WHEN c.oid IS NULL THEN 'relation missing' ELSE 'ok' END, NULL, NULL
FROM pgdp.public_relations r LEFT JOIN pg_catalog.pg_class c ON c.oid = r.relation;
COMMENT ON VIEW pgdp.protections IS
    'Protected relations (privacy unit, max_groups_contributed, privacy unit kind, rows_per_unit) and public relations; status ''ok'' unless the catalog row outlived its relation or column.';
CREATE FUNCTION pgdp.protect(relation regclass, privacy_unit name, max_groups_contributed int DEFAULT 1,
                             privacy_unit_kind name DEFAULT NULL, rows_per_unit int DEFAULT 1)
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
    IF rows_per_unit IS NULL THEN
        RAISE EXCEPTION 'rows_per_unit must not be NULL' USING ERRCODE = 'null_value_not_allowed',
            HINT = 'rows_per_unit is the number of rows one unit contributes per group to dp_histogram and the quantiles (distinct values to dp_count_distinct; default 1).';
    END IF;
    IF rows_per_unit < 1 OR rows_per_unit > 1024 THEN
        RAISE EXCEPTION 'rows_per_unit must be an integer in [1, 1024], got %', rows_per_unit
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'rows_per_unit is the number of rows one unit contributes per group to dp_histogram and the quantiles (distinct values to dp_count_distinct; default 1).';
    END IF;
    IF EXISTS (SELECT FROM pgdp.public_relations r WHERE r.relation = protect.relation) THEN
        RAISE EXCEPTION 'relation % is declared public', relation USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = format('A relation is protected or public, not both: pgdp.undeclare_public(%L) first.', relation::text);
    END IF;
    INSERT INTO pgdp.protected_relations AS p (relation, privacy_unit, max_groups_contributed, protected_by,
                                               privacy_unit_kind, rows_per_unit)
    VALUES (protect.relation, protect.privacy_unit, protect.max_groups_contributed, session_user::regrole,
            protect.privacy_unit_kind, protect.rows_per_unit)
    ON CONFLICT ON CONSTRAINT protected_relations_pkey DO UPDATE
        SET privacy_unit = excluded.privacy_unit, max_groups_contributed = excluded.max_groups_contributed,
            protected_by = excluded.protected_by, protected_at = now(),
            privacy_unit_kind = excluded.privacy_unit_kind, rows_per_unit = excluded.rows_per_unit;
    RETURN QUERY SELECT * FROM pgdp.protections s WHERE s.relation = protect.relation;
END $$;
COMMENT ON FUNCTION pgdp.protect(regclass, name, int, name, int) IS
    'Admins: protects a table or partitioned table (and its partitions), or changes its protection: privacy_unit is the column naming each row''s person, max_groups_contributed the groups one unit may contribute to per query, privacy_unit_kind what the unit identifies (relations of one kind may be joined on their units), rows_per_unit the rows one unit contributes per group to dp_histogram and the quantiles (distinct values to dp_count_distinct) unless a statement sets pgdp.rows_per_unit.';
REVOKE ALL ON FUNCTION pgdp.protect(regclass, name, int, name, int) FROM PUBLIC;
-- The admins designated with the 4-argument form keep the right to protect.
DO $$
DECLARE
    admin regrole;
BEGIN
    FOR admin IN
        SELECT a.grantee::regrole
        FROM pg_catalog.pg_proc p, LATERAL pg_catalog.aclexplode(p.proacl) a
        WHERE p.oid = 'pgdp.protect(regclass, name, int, name)'::regprocedure AND a.privilege_type = 'EXECUTE'
          AND a.grantee <> 0 AND a.grantee <> p.proowner
    LOOP
        EXECUTE format('GRANT EXECUTE ON FUNCTION pgdp.protect(regclass, name, int, name, int) TO %s', admin);
    END LOOP;
END $$;
DROP FUNCTION pgdp.protect(regclass, name, int, name);
CREATE OR REPLACE FUNCTION pgdp.designate_admin(role regrole) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'only a superuser can designate pgdp admins' USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('GRANT EXECUTE ON FUNCTION pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint), '
                   'pgdp.raise_budget(regrole, numeric, numeric), pgdp.set_budget_period(regrole, interval), '
                   'pgdp.protect(regclass, name, int, name, int), '
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
                   'pgdp.protect(regclass, name, int, name, int), '
                   'pgdp.unprotect(regclass), pgdp.declare_public(regclass), pgdp.undeclare_public(regclass), '
                   'pgdp.grant_access(regclass, regrole), pgdp.revoke_access(regclass, regrole), '
                   'pgdp.set_refresh_policy(regclass, text, interval), pgdp.refresh(regclass), '
                   'pgdp.set_cache_group(regrole, name), pgdp.purge_cache(interval, regclass) FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.data_epochs, pgdp.cache_groups, pgdp.release_cache FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.access_grants FROM %s', role);
    EXECUTE format('REVOKE SELECT ON pgdp.budget_status, pgdp.ledger FROM %s', role);
END $$;
-- ---- end of the k block ----------------------------------------------------------------------

-- =============================================================================================
-- The *_ci forms report the bounds used (issue 24 part 5; docs/privacy.md "Bounds the analyst
-- need not guess"): dp_release gains the clamping bounds of the release, the given ones or those
-- estimated for NULL bounds (dp_sum_ci and dp_mean_ci accept NULL bounds since 0.13); NULL for
-- dp_count_ci. A release cached before the update is answered afresh once (release_cache.cpp
-- reports_have_current_fields).
ALTER TYPE dp_release ADD ATTRIBUTE lower_bound float8, ADD ATTRIBUTE upper_bound float8;
