-- Install and update scripts: the first release (0.4, installed from its frozen script
-- test/upgrade/pgdp--0.4.sql) updated to the current version has exactly the objects of a fresh
-- install; the extension's object list is pinned (an object added or removed shows up here and
-- must be reviewed); budgets, charges, admins and the users' views survive the update. The
-- transition functions take their value as "any" since 0.5; the aggregates stay typed.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS pgdp CASCADE;
RESET client_min_messages;

-- Everything that makes up the installed extension, one row per property, as text that names
-- objects (no OIDs, no parse locations): the extension's members, functions and aggregates with
-- every property, relations, columns, constraints, indexes, triggers, rules, policies, sequences,
-- types, the schema, comments, ACLs, the initial privileges pg_dump restores, and every
-- dependency of the extension's objects and of their parts (columns, constraints, rules, ...).
-- Functions and aggregates are compared with their argument names (pg_get_function_arguments): an
-- update that leaves one unnamed differs from a fresh install.
-- Not compared: attoptions entries pg_attver=N (a per-column stamp some server builds keep) and
-- atthasmissing (a column added by ALTER TABLE keeps a stored default for old rows).
-- Left out so that the pin is the same on every major: PostgreSQL 17+ also makes the array types
-- and the row types of the extension's types and relations members of it (15 links them to their
-- element types and relations only, internally); 18 keeps NOT NULL constraints in pg_constraint
-- (the columns' attnotnull below says the same); a view's rule depends on the view itself only up
-- to 15 (through the view body's OLD entry, gone in 16).
CREATE TEMP VIEW pgdp_catalog AS
WITH RECURSIVE depend AS (
    SELECT d.* FROM pg_depend d
    WHERE NOT (d.deptype = 'e' AND d.classid = 'pg_type'::regclass AND EXISTS (
        SELECT FROM pg_type t WHERE t.oid = d.objid
          AND (t.typcategory = 'A' OR EXISTS (SELECT FROM pg_class c WHERE c.oid = t.typrelid AND c.relkind <> 'c'))))
      AND NOT (d.classid = 'pg_constraint'::regclass AND EXISTS (SELECT FROM pg_constraint c WHERE c.oid = d.objid AND c.contype = 'n'))
      AND NOT (d.classid = 'pg_rewrite'::regclass AND d.deptype = 'n' AND d.refclassid = 'pg_class'::regclass
           AND d.refobjid = (SELECT r.ev_class FROM pg_rewrite r WHERE r.oid = d.objid))
), objects(classid, objid) AS (
    SELECT d.classid, d.objid FROM depend d JOIN pg_extension e ON d.refobjid = e.oid
    WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'pgdp'
    UNION
    SELECT d.classid, d.objid FROM depend d JOIN objects o ON d.refclassid = o.classid AND d.refobjid = o.objid
    WHERE d.deptype IN ('a', 'i')
), members AS (
    SELECT d.classid, d.objid FROM depend d JOIN pg_extension e ON d.refobjid = e.oid
    WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'pgdp'
), relations AS (
    SELECT objid AS oid FROM objects WHERE classid = 'pg_class'::regclass
), named AS (
    SELECT o.classid, o.objid, regexp_replace(i.type || ' ' || i.identity, 'pg_toast_[0-9]+', 'pg_toast_N') AS name
    FROM objects o, LATERAL pg_identify_object(o.classid, o.objid, 0) i
)
SELECT 'extension' AS kind, e.extname::text AS object,
       concat_ws(' | ', e.extversion, e.extrelocatable, e.extnamespace::regnamespace, e.extowner::regrole,
                 (SELECT array_agg(x::regclass::text ORDER BY n) FROM unnest(e.extconfig) WITH ORDINALITY AS c(x, n)),
                 e.extcondition) AS definition
FROM pg_extension e WHERE e.extname = 'pgdp'
UNION ALL
SELECT 'member', pg_describe_object(classid, objid, 0), '' FROM members
UNION ALL
SELECT 'schema', n.nspname, concat_ws(' | ', n.nspowner::regrole, n.nspacl)
FROM pg_namespace n WHERE n.nspname = 'pgdp'
UNION ALL
SELECT 'function', p.oid::regprocedure::text,
       concat_ws(' | ', p.prokind, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), l.lanname,
                 p.provolatile, p.proparallel, p.proisstrict, p.prosecdef, p.proleakproof, p.proretset,
                 p.procost, p.prorows, p.provariadic::regtype, p.prosupport, p.proconfig, p.proowner::regrole,
                 p.proacl, p.probin, p.prosrc)
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.oid IN (SELECT objid FROM objects WHERE classid = 'pg_proc'::regclass)
UNION ALL
SELECT 'aggregate', a.aggfnoid::regprocedure::text,
       concat_ws(' | ', a.aggkind, a.aggnumdirectargs, a.aggtransfn::oid::regprocedure, a.aggfinalfn::oid::regprocedure,
                 a.aggcombinefn::oid::regprocedure, a.aggserialfn::oid::regprocedure,
                 a.aggdeserialfn::oid::regprocedure, a.aggmtransfn, a.aggminvtransfn, a.aggmfinalfn,
                 a.aggfinalextra, a.aggmfinalextra, a.aggfinalmodify, a.aggmfinalmodify, a.aggsortop,
                 a.aggtranstype::regtype, a.aggtransspace, a.aggmtranstype, a.aggmtransspace, a.agginitval,
                 a.aggminitval)
FROM pg_aggregate a
WHERE a.aggfnoid IN (SELECT objid FROM objects WHERE classid = 'pg_proc'::regclass)
UNION ALL
SELECT 'relation', regexp_replace(c.oid::regclass::text, 'pg_toast_[0-9]+', 'pg_toast_N'),
       concat_ws(' | ', c.relkind, c.relpersistence, c.reloptions, c.relowner::regrole, c.relacl, c.relhasindex,
                 c.relrowsecurity, c.relforcerowsecurity, c.relreplident, c.relhastriggers, c.relhasrules,
                 c.reltoastrelid <> 0, c.relam, CASE WHEN c.relkind = 'v' THEN pg_get_viewdef(c.oid) END)
FROM pg_class c WHERE c.oid IN (SELECT oid FROM relations)
UNION ALL
SELECT 'column', regexp_replace(c.oid::regclass::text, 'pg_toast_[0-9]+', 'pg_toast_N') || '.' || a.attname,
       concat_ws(' | ', a.attnum, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.atthasdef,
                 pg_get_expr(ad.adbin, ad.adrelid), a.attidentity, a.attgenerated, a.attcollation::regcollation,
                 a.attacl, (SELECT array_agg(x) FROM unnest(a.attoptions) x WHERE x NOT LIKE 'pg\_attver=%'),
                 a.attstattarget, a.attstorage, a.attcompression)
FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
     LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
WHERE c.oid IN (SELECT oid FROM relations) AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL
SELECT 'constraint', c.conrelid::regclass::text || ' ' || c.conname,
       concat_ws(' | ', c.contype, pg_get_constraintdef(c.oid), c.condeferrable, c.condeferred, c.convalidated,
                 c.conindid::regclass)
FROM pg_constraint c WHERE c.conrelid IN (SELECT oid FROM relations) AND c.contype <> 'n'
UNION ALL
SELECT 'index', regexp_replace(i.indexrelid::regclass::text, 'pg_toast_[0-9]+', 'pg_toast_N'),
       regexp_replace(pg_get_indexdef(i.indexrelid), 'pg_toast_[0-9]+', 'pg_toast_N', 'g')
FROM pg_index i WHERE i.indrelid IN (SELECT oid FROM relations)
UNION ALL
SELECT 'trigger', t.tgrelid::regclass::text || ' ' || t.tgname, concat_ws(' | ', t.tgenabled, pg_get_triggerdef(t.oid))
FROM pg_trigger t WHERE t.tgrelid IN (SELECT oid FROM relations) AND NOT t.tgisinternal
UNION ALL
SELECT 'rule', r.ev_class::regclass::text || ' ' || r.rulename, concat_ws(' | ', r.ev_type, r.ev_enabled, r.is_instead)
FROM pg_rewrite r WHERE r.ev_class IN (SELECT oid FROM relations)
UNION ALL
SELECT 'policy', p.polrelid::regclass::text || ' ' || p.polname,
       concat_ws(' | ', p.polcmd, p.polpermissive, p.polroles::regrole[], pg_get_expr(p.polqual, p.polrelid),
                 pg_get_expr(p.polwithcheck, p.polrelid))
FROM pg_policy p WHERE p.polrelid IN (SELECT oid FROM relations)
UNION ALL
SELECT 'sequence', s.seqrelid::regclass::text,
       concat_ws(' | ', s.seqtypid::regtype, s.seqstart, s.seqincrement, s.seqmax, s.seqmin, s.seqcache, s.seqcycle)
FROM pg_sequence s WHERE s.seqrelid IN (SELECT oid FROM relations)
UNION ALL
SELECT 'type', t.oid::regtype::text,
       concat_ws(' | ', t.typtype, t.typcategory, t.typowner::regrole, t.typacl, t.typarray::regtype, t.typrelid::regclass)
FROM pg_type t WHERE t.oid IN (SELECT objid FROM objects WHERE classid = 'pg_type'::regclass)
UNION ALL
SELECT 'comment', n.name || CASE WHEN d.objsubid <> 0 THEN ' column ' || d.objsubid ELSE '' END, d.description
FROM pg_description d JOIN named n ON n.classid = d.classoid AND n.objid = d.objoid
UNION ALL
SELECT 'initial privileges', n.name || CASE WHEN i.objsubid <> 0 THEN ' column ' || i.objsubid ELSE '' END,
       concat_ws(' | ', i.privtype, i.initprivs)
FROM pg_init_privs i JOIN named n ON n.classid = i.classoid AND n.objid = i.objoid
UNION ALL
SELECT 'dependency', n.name || CASE WHEN d.objsubid <> 0 THEN ' column ' || d.objsubid ELSE '' END,
       concat_ws(' | ', d.deptype, regexp_replace(r.type || ' ' || r.identity, 'pg_toast_[0-9]+', 'pg_toast_N'))
FROM depend d JOIN named n ON n.classid = d.classid AND n.objid = d.objid,
     LATERAL pg_identify_object(d.refclassid, d.refobjid, d.refobjsubid) r;

-- ---------------------------------------------------------------------------------------------
-- (a) 0.4 updated to the current version has the objects of a fresh install.
CREATE EXTENSION pgdp VERSION '0.4';
SELECT extversion,
       (SELECT count(*) FROM pg_proc WHERE proname LIKE 'pgdp\_%transfn') AS transition_functions,
       (SELECT count(*) FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid WHERE p.proname LIKE 'dp\_%') AS aggregates
FROM pg_extension WHERE extname = 'pgdp';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion,
       (SELECT count(*) FROM pg_proc WHERE proname LIKE 'pgdp\_%transfn') AS transition_functions,
       (SELECT count(*) FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid WHERE p.proname LIKE 'dp\_%') AS aggregates
FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated AS SELECT * FROM pgdp_catalog;
DROP EXTENSION pgdp;
CREATE EXTENSION pgdp;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_fresh AS SELECT * FROM pgdp_catalog;
-- What is compared, so that no difference means something (rows per kind).
SELECT kind, count(*) AS rows FROM catalog_fresh GROUP BY kind ORDER BY kind;
-- The differences, both ways: none.
(SELECT 'only updated' AS side, * FROM catalog_updated EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated)
ORDER BY 2, 3, 1;
-- The same from 0.5, 0.6, 0.7, 0.8, 0.9, 0.10, 0.11, 0.12, 0.13, 0.14 and 0.15 (the previous releases; 0.4 above went through all): no difference.
DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.5';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated_05 AS SELECT * FROM pgdp_catalog;
(SELECT 'only updated' AS side, * FROM catalog_updated_05 EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated_05)
ORDER BY 2, 3, 1;
DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.6';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated_06 AS SELECT * FROM pgdp_catalog;
(SELECT 'only updated' AS side, * FROM catalog_updated_06 EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated_06)
ORDER BY 2, 3, 1;

DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.7';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated_07 AS SELECT * FROM pgdp_catalog;
(SELECT 'only updated' AS side, * FROM catalog_updated_07 EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated_07)
ORDER BY 2, 3, 1;

DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.8';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated_08 AS SELECT * FROM pgdp_catalog;
(SELECT 'only updated' AS side, * FROM catalog_updated_08 EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated_08)
ORDER BY 2, 3, 1;

DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.9';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated_09 AS SELECT * FROM pgdp_catalog;
(SELECT 'only updated' AS side, * FROM catalog_updated_09 EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated_09)
ORDER BY 2, 3, 1;

DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.10';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated_010 AS SELECT * FROM pgdp_catalog;
(SELECT 'only updated' AS side, * FROM catalog_updated_010 EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated_010)
ORDER BY 2, 3, 1;

DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.11';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated_011 AS SELECT * FROM pgdp_catalog;
(SELECT 'only updated' AS side, * FROM catalog_updated_011 EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated_011)
ORDER BY 2, 3, 1;

DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.12';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated_012 AS SELECT * FROM pgdp_catalog;
(SELECT 'only updated' AS side, * FROM catalog_updated_012 EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated_012)
ORDER BY 2, 3, 1;

DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.13';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated_013 AS SELECT * FROM pgdp_catalog;
(SELECT 'only updated' AS side, * FROM catalog_updated_013 EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated_013)
ORDER BY 2, 3, 1;

DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.14';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated_014 AS SELECT * FROM pgdp_catalog;
(SELECT 'only updated' AS side, * FROM catalog_updated_014 EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated_014)
ORDER BY 2, 3, 1;

DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.15';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
CREATE TEMP TABLE catalog_updated_015 AS SELECT * FROM pgdp_catalog;
(SELECT 'only updated' AS side, * FROM catalog_updated_015 EXCEPT ALL SELECT 'only updated', * FROM catalog_fresh)
UNION ALL
(SELECT 'only fresh', * FROM catalog_fresh EXCEPT ALL SELECT 'only fresh', * FROM catalog_updated_015)
ORDER BY 2, 3, 1;

-- ---------------------------------------------------------------------------------------------
-- (b) Every object of the extension.
SELECT pg_describe_object(classid, objid, objsubid) AS object
FROM pg_depend d
WHERE refclassid = 'pg_extension'::regclass AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pgdp')
  AND deptype = 'e' AND NOT (d.deptype = 'e' AND d.classid = 'pg_type'::regclass AND EXISTS (
        SELECT FROM pg_type t WHERE t.oid = d.objid
          AND (t.typcategory = 'A' OR EXISTS (SELECT FROM pg_class c WHERE c.oid = t.typrelid AND c.relkind <> 'c'))))
ORDER BY 1;
-- Every aggregate is parallel safe with combine, serialize and deserialize functions and a
-- read-write final function (never shared between releases), on the internal state.
SELECT count(*) AS aggregates, bool_and(p.proparallel = 's') AS parallel_safe,
       bool_and(a.aggcombinefn <> 0 AND a.aggserialfn <> 0 AND a.aggdeserialfn <> 0) AS combinable,
       bool_and(a.aggfinalmodify = 'w') AS read_write_final, bool_and(a.aggtranstype = 'internal'::regtype) AS internal_state
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
WHERE p.proname LIKE 'dp\_%';
-- The aggregates stay typed: their signatures and result types, one row per name and result.
SELECT p.proname, pg_get_function_result(p.oid) AS result, count(*) AS signatures,
       string_agg(DISTINCT split_part(pg_get_function_identity_arguments(p.oid), ',', 1), ', ') AS first_arguments
FROM pg_proc p WHERE p.prokind = 'a' AND p.proname LIKE 'dp\_%'
GROUP BY 1, 2 ORDER BY 1, 2;
-- So a value of another type finds no aggregate (42883), at parse time, as before.
SELECT dp_sum(x, 0, 1, 1) FROM (VALUES ('a'::text)) AS t(x);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_mean(x, 0, 1, 1, 1e-6) FROM (VALUES (true)) AS t(x);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- A transition function cannot be called directly, whatever the value: no SQL value has the type
-- internal of its state (were one called outside an aggregate, AggCheckCallContext would refuse
-- it, with another SQLSTATE that fails this test). PostgreSQL refuses the call before it runs, at
-- function lookup (42883), at the cast to internal (42846) or at a value of type internal (0A000,
-- newer minor releases): which one depends on the minor release, so only the class is shown.
CREATE FUNCTION pg_temp.refused_before_running(call text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE call;
  RETURN 'ran';
EXCEPTION WHEN undefined_function OR cannot_coerce OR feature_not_supported THEN
  RETURN 'refused before running';
END $$;
SELECT call, pg_temp.refused_before_running(call) AS outcome
FROM (VALUES ('SELECT pgdp_clamped_transfn(NULL, ''a''::text, 0, 1, 1)'),
             ('SELECT pgdp_clamped_transfn(NULL::internal, ''a''::text, 0, 1, 1)')) AS c(call);

-- ---------------------------------------------------------------------------------------------
-- (c) Data survives the update: budgets in both modes, a charge as the 0.4 ledger worker wrote
-- it, a designated admin, and a user's view over a dp_sum (CREATE OR REPLACE AGGREGATE keeps the
-- aggregate, so the view is not dropped).
DROP EXTENSION pgdp;
CREATE EXTENSION pgdp VERSION '0.4';
CREATE ROLE upgrade_basic;
CREATE ROLE upgrade_gauss;
CREATE ROLE upgrade_admin;
SELECT pgdp.designate_admin('upgrade_admin');
SELECT role, accounting, release_limit FROM pgdp.set_budget('upgrade_basic', 1, 1e-5, min_epsilon => 0.01);
SELECT role, accounting, gaussian_epsilon_limit FROM pgdp.set_budget('upgrade_gauss', 2, 1e-5, 'gaussian', release_limit => 10);
INSERT INTO pgdp.charges (charge_id, role, backend_pid, query_id, query_text, aggregates, mechanisms, gaussian_part,
                          epsilons, deltas, noise_scales, sensitivities, gaussian_mu2s)
VALUES (nextval('pgdp.charge_ids'), 'upgrade_gauss', 102, 7, 'SELECT two', '{dp_count,dp_sum}', '{gaussian,laplace}',
        '{t,f}', '{0.1,0.2}', '{0.000001,0}', '{47.5,500}', '{1,100}', '{0.0004,0}');
UPDATE pgdp.budgets SET epsilon_spent = 0.2, gaussian_mu2 = 0.0004, releases = 2 WHERE role = 'upgrade_gauss'::regrole;
CREATE TABLE upgrade_salaries (salary int4);
INSERT INTO upgrade_salaries SELECT i % 150 FROM generate_series(1, 300) AS i;
-- epsilon = 1e6: the integer release equals the exact clamped sum (see sql/aggregates.sql).
CREATE VIEW upgrade_payroll AS
SELECT dp_sum(salary, 0, 100, 1e6, 1e-6, 'gaussian') = sum(least(salary, 100)) AS exact FROM upgrade_salaries;
CREATE TEMP TABLE budgets_04 AS SELECT * FROM pgdp.budgets;
CREATE TEMP TABLE charges_04 AS SELECT * FROM pgdp.charges;
CREATE TEMP TABLE ledger_04 AS SELECT * FROM pgdp.ledger;
CREATE TEMP TABLE status_04 AS SELECT * FROM pgdp.budget_status;
ALTER EXTENSION pgdp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pgdp';
-- (Budgets and their views are compared on the 0.4 columns: 0.8 appended the budget windows',
-- NULL for the lifetime budgets of before, checked below.)
CREATE TEMP VIEW budgets_04_columns AS SELECT to_jsonb(b) - '{period,period_start}'::text[] AS b FROM pgdp.budgets b;
CREATE TEMP VIEW status_04_columns AS
SELECT to_jsonb(s) - '{period,period_start,renews_at}'::text[] AS s FROM pgdp.budget_status s;
SELECT (SELECT count(*) FROM pgdp.budgets) AS budgets,
       NOT EXISTS (SELECT * FROM budgets_04_columns EXCEPT SELECT to_jsonb(o) FROM budgets_04 o)
           AND NOT EXISTS (SELECT to_jsonb(o) FROM budgets_04 o EXCEPT SELECT * FROM budgets_04_columns) AS same_budgets,
       (SELECT count(*) FROM pgdp.charges) AS charges,
       NOT EXISTS (SELECT * FROM pgdp.charges EXCEPT SELECT * FROM charges_04)
           AND NOT EXISTS (SELECT * FROM charges_04 EXCEPT SELECT * FROM pgdp.charges) AS same_charges,
       (SELECT count(*) FROM pgdp.ledger) AS releases,
       NOT EXISTS (SELECT * FROM pgdp.ledger EXCEPT SELECT * FROM ledger_04)
           AND NOT EXISTS (SELECT * FROM ledger_04 EXCEPT SELECT * FROM pgdp.ledger) AS same_releases,
       NOT EXISTS (SELECT * FROM status_04_columns EXCEPT SELECT to_jsonb(o) FROM status_04 o)
           AND NOT EXISTS (SELECT to_jsonb(o) FROM status_04 o EXCEPT SELECT * FROM status_04_columns) AS same_status;
SELECT count(*) AS lifetime_budgets FROM pgdp.budget_status
WHERE period IS NULL AND period_start IS NULL AND renews_at IS NULL AND role::text LIKE 'upgrade\_%';
SELECT role, accounting, gaussian_epsilon_limit, min_epsilon, release_limit, releases, gaussian_mu2
FROM pgdp.budgets WHERE role::text LIKE 'upgrade\_%' ORDER BY role::text;
SELECT has_function_privilege('upgrade_admin', 'pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint)', 'EXECUTE') AS admin_sets,
       has_function_privilege('upgrade_admin', 'pgdp.raise_budget(regrole, numeric, numeric)', 'EXECUTE') AS admin_raises,
       has_table_privilege('upgrade_admin', 'pgdp.ledger', 'SELECT') AS admin_reads_ledger,
       has_table_privilege('upgrade_basic', 'pgdp.charges', 'SELECT') AS analyst_reads_charges,
       has_function_privilege('upgrade_basic', 'pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint)', 'EXECUTE') AS analyst_sets;
-- An admin designated before 0.8 may set budget periods after the update; an analyst may not.
SELECT has_function_privilege('upgrade_admin', 'pgdp.set_budget_period(regrole, interval)', 'EXECUTE') AS admin_sets_periods,
       has_function_privilege('upgrade_basic', 'pgdp.set_budget_period(regrole, interval)', 'EXECUTE') AS analyst_sets_periods;
-- ... and manage the release cache.
SELECT has_function_privilege('upgrade_admin', 'pgdp.refresh(regclass)', 'EXECUTE') AS admin_refreshes,
       has_function_privilege('upgrade_admin', 'pgdp.purge_cache(interval, regclass)', 'EXECUTE') AS admin_purges,
       has_table_privilege('upgrade_admin', 'pgdp.release_cache', 'SELECT') AS admin_reads_cache,
       has_function_privilege('upgrade_basic', 'pgdp.refresh(regclass)', 'EXECUTE') AS analyst_refreshes;
-- An admin designated before 0.6 may protect relations (0.13: with the 5-argument pgdp.protect) and declare them public after the update;
-- an analyst may not (0.6).
SELECT has_function_privilege('upgrade_admin', 'pgdp.protect(regclass, name, int, name, int)', 'EXECUTE') AS admin_protects,
       has_function_privilege('upgrade_admin', 'pgdp.unprotect(regclass)', 'EXECUTE') AS admin_unprotects,
       has_function_privilege('upgrade_admin', 'pgdp.declare_public(regclass)', 'EXECUTE') AS admin_declares,
       has_function_privilege('upgrade_admin', 'pgdp.undeclare_public(regclass)', 'EXECUTE') AS admin_undeclares,
       has_function_privilege('upgrade_basic', 'pgdp.protect(regclass, name, int, name, int)', 'EXECUTE') AS analyst_protects,
       has_table_privilege('upgrade_basic', 'pgdp.protections', 'SELECT') AS analyst_reads_protections;
-- pg_dump keeps budgets, charges, the charge id sequence and the protected and public relations
-- (0.6), and nothing else.
SELECT x::regclass AS configuration_table FROM pg_extension e, unnest(e.extconfig) AS x WHERE e.extname = 'pgdp';
-- The view still calls the same dp_sum, now on the "any" transition function, and releases.
SELECT pg_describe_object(refclassid, refobjid, 0) AS view_uses
FROM pg_depend
WHERE classid = 'pg_rewrite'::regclass AND objid = (SELECT oid FROM pg_rewrite WHERE ev_class = 'upgrade_payroll'::regclass)
  AND refclassid = 'pg_proc'::regclass AND refobjid IN (SELECT oid FROM pg_proc WHERE proname LIKE 'dp\_%');
SELECT a.aggtransfn::oid::regprocedure AS transition_function
FROM pg_aggregate a WHERE a.aggfnoid = 'dp_sum(int4, float8, float8, float8, float8, text)'::regprocedure;
SELECT epsilon_limit FROM pgdp.set_budget(session_user::regrole, 1e18, 0.99);
SELECT exact FROM upgrade_payroll;
DROP VIEW upgrade_payroll;
DROP TABLE upgrade_salaries;
DELETE FROM pgdp.budgets WHERE role::text LIKE 'upgrade\_%';
SELECT pgdp.revoke_admin('upgrade_admin');
-- (from PostgreSQL 17 the initial privileges the update recorded for the admin depend on the role)
DROP OWNED BY upgrade_basic, upgrade_gauss, upgrade_admin;
DROP ROLE upgrade_basic, upgrade_gauss, upgrade_admin;

-- A release cached by 0.12 (a dp_release of nine fields) is not answered as 0.13's (eleven, with
-- the bounds used): the first run after the update is a new release, charged, which replaces the
-- stored one; the run after it is that release again. Never an error.
SET client_min_messages = warning;
DROP EXTENSION pgdp CASCADE;
RESET client_min_messages;
CREATE EXTENSION pgdp VERSION '0.12';
SELECT epsilon_limit FROM pgdp.set_budget(session_user::regrole, 1e18, 0.99);
CREATE TABLE upgrade_cached (v int4);
INSERT INTO upgrade_cached SELECT i % 7 FROM generate_series(1, 100) i;
SELECT relation FROM pgdp.set_refresh_policy('upgrade_cached');
SELECT dp_sum_ci(v, 0, 10, 1, 0.05) AS r FROM upgrade_cached \gset old_
SELECT dp_sum_ci(v, 0, 10, 1, 0.05) AS r FROM upgrade_cached \gset old_again_
SELECT (:'old_again_r'::dp_release).from_cache AS cached_by_012, (SELECT count(*) FROM pgdp.my_ledger) AS charges_012;
ALTER EXTENSION pgdp UPDATE;
SELECT dp_sum_ci(v, 0, 10, 1, 0.05) AS r FROM upgrade_cached \gset new_
SELECT dp_sum_ci(v, 0, 10, 1, 0.05) AS r FROM upgrade_cached \gset again_
SELECT n.from_cache AS first_from_cache, n.lower_bound, n.upper_bound, a.from_cache AS again_from_cache,
       a.value = n.value AND a.ci_lower = n.ci_lower AND a.lower_bound = n.lower_bound
           AND a.upper_bound = n.upper_bound AS again_the_same,
       (SELECT count(*) FROM pgdp.my_ledger) AS charges_013
FROM (SELECT (:'new_r'::dp_release).*) n, (SELECT (:'again_r'::dp_release).*) a;
DROP TABLE upgrade_cached;
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.release_cache;
