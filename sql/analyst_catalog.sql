-- What an analyst can find out from a SQL prompt: the argument names of every aggregate and
-- function (\da, \df), the form PostgreSQL chose for a call with a slip, which relations they may
-- release over and how (pgdp.my_relations, pgdp.my_columns), and what a refused read of a
-- relation they have DP-only access to says.
CREATE EXTENSION IF NOT EXISTS pgdp;

-- ---------------------------------------------------------------------------------------------
-- Argument names. Every argument of every aggregate and function of pgdp (in the extension's
-- schema and in pgdp) has a name; the ones listed here have none. Only the aggregates' support
-- functions are left out: each takes the aggregate state of type internal, which no SQL value
-- has, so no SQL can call them (and one transition function serves aggregates whose arguments at
-- a position mean different things).
CREATE TEMP VIEW pgdp_routines AS
SELECT p.oid, p.proname, p.prokind, p.pronargs, pg_get_function_arguments(p.oid) AS arguments,
       coalesce(p.proallargtypes, p.proargtypes::oid[]) AS types,
       coalesce(p.proargnames, array_fill(''::text, ARRAY[p.pronargs])) AS names
FROM pg_proc p
WHERE p.oid IN (SELECT d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
                WHERE d.refclassid = 'pg_extension'::regclass AND d.classid = 'pg_proc'::regclass
                  AND d.deptype = 'e' AND e.extname = 'pgdp');
SELECT count(*) FILTER (WHERE prokind = 'a') AS aggregates,
       count(*) FILTER (WHERE prokind = 'f' AND 'internal'::regtype <> ALL (types)) AS functions,
       count(*) FILTER (WHERE prokind = 'f' AND 'internal'::regtype = ANY (types)) AS support_functions,
       bool_and(proname LIKE 'pgdp\_%') FILTER (WHERE 'internal'::regtype = ANY (types)) AS support_named_pgdp_
FROM pgdp_routines;
SELECT oid::regprocedure AS without_argument_names
FROM pgdp_routines
WHERE NOT ('internal'::regtype = ANY (types) AND prokind = 'f')
  AND (cardinality(names) < cardinality(types) OR '' = ANY (names))
ORDER BY 1;

-- One vocabulary: the aggregates' arguments are named from this list, and a name means the same
-- thing (the same type) in every aggregate; value is the aggregated column (its type the
-- aggregate's), q a level or an array of levels.
SELECT name, string_agg(DISTINCT format_type(type, NULL), ', ') AS types, count(*) AS uses
FROM pgdp_routines r, unnest(r.names, r.types) AS a(name, type)
WHERE r.prokind = 'a'
GROUP BY name ORDER BY min(array_position(ARRAY['value', 'lower', 'upper', 'q', 'bins', 'epsilon', 'delta',
                                                'mechanism', 'min_units', 'alpha'], name)) NULLS LAST, name;
-- The forms of every aggregate, by argument names (what \da and \df show, with the types): the
-- forms without bounds are (value, [q,] epsilon [, delta]).
SELECT proname AS aggregate,
       string_agg(DISTINCT '(' || array_to_string(names, ', ') || ')', ' ' ORDER BY '(' || array_to_string(names, ', ') || ')') AS forms
FROM pgdp_routines WHERE prokind = 'a'
GROUP BY proname ORDER BY proname;
-- \df shows them: the five dp_median forms with their names.
SELECT arguments FROM pgdp_routines WHERE proname = 'dp_median' ORDER BY pronargs, arguments;

-- ---------------------------------------------------------------------------------------------
-- A call with a slip: dp_sum(amount, 0, 2000), epsilon and delta forgotten, is a valid call of
-- the form without bounds, dp_sum(value, epsilon, delta), which reads 0 as epsilon. The error
-- says which form was read. (PostgreSQL does not accept named notation, epsilon => 1, in calls
-- of aggregates: the names are documentation.)
CREATE TABLE catalog_orders (customer int, amount int4, region text);
INSERT INTO catalog_orders SELECT i % 40, i % 1500, CASE WHEN i % 3 = 0 THEN 'north' ELSE 'south' END
FROM generate_series(1, 400) AS i;
SELECT dp_sum(amount, 0, 2000) FROM catalog_orders;
SELECT dp_sum(amount, 0, 2000, 0) FROM catalog_orders;
SELECT dp_mean_ci(amount, 0, 2000, 1, 1e-6, 'gaussian', 2) FROM catalog_orders;
SELECT dp_count(0.5, 2) FROM catalog_orders;
SELECT dp_quantile(amount, 1.5, 1) FROM catalog_orders;
-- Named notation is refused by PostgreSQL itself for aggregates.
SELECT dp_count(epsilon => 1) FROM catalog_orders;

-- ---------------------------------------------------------------------------------------------
-- The analyst's catalog. catalog_orders is protected (unit customer, kind customer, 2 groups and
-- 3 rows per unit, a declared planning size, an hourly refresh policy); catalog_dp has DP-only
-- access to it, catalog_reader SELECT on it, catalog_nobody neither. catalog_regions is declared
-- public and readable by the two analysts; catalog_visits is protected and nobody's.
SET client_min_messages = warning;
CREATE ROLE catalog_dp;
CREATE ROLE catalog_reader;
CREATE ROLE catalog_nobody;
CREATE TABLE catalog_regions (region text PRIMARY KEY, label varchar(20));
INSERT INTO catalog_regions VALUES ('north', 'North'), ('south', 'South');
CREATE TABLE catalog_visits (visitor int, page text);
SELECT relation FROM pgdp.protect('catalog_orders', 'customer', 2, 'customer', 3);
SELECT relation FROM pgdp.set_planning_rows('catalog_orders', 1000);
SELECT relation FROM pgdp.protect('catalog_visits', 'visitor');
SELECT relation FROM pgdp.declare_public('catalog_regions');
SELECT relation FROM pgdp.grant_access('catalog_orders', 'catalog_dp');
SELECT policy FROM pgdp.set_refresh_policy('catalog_orders', 'interval', '1 hour');
SELECT pgdp.set_cache_group('catalog_dp', 'analysts');
GRANT SELECT ON catalog_orders TO catalog_reader;
GRANT SELECT ON catalog_regions TO catalog_dp, catalog_reader;
SELECT role FROM pgdp.set_budget('catalog_dp', 10, 1e-5);
RESET client_min_messages;

-- The DP-only analyst: information_schema shows nothing of catalog_orders (no privilege on it);
-- pgdp.my_relations lists it with everything a release needs, pgdp.my_columns its columns.
SET SESSION AUTHORIZATION catalog_dp;
SELECT count(*) AS information_schema_columns FROM information_schema.columns WHERE table_name = 'catalog_orders';
SELECT * FROM pgdp.my_relations ORDER BY relation::text;
SELECT * FROM pgdp.my_columns ORDER BY relation::text, position;
-- The admin's tables stay closed.
SELECT * FROM pgdp.data_epochs;
-- A release over it works as before.
SELECT dp_count(1, 1e-6) >= 0 AS released FROM catalog_orders;
-- A read PostgreSQL refuses says what works instead: count(*), SELECT *, min/max, a window use
-- of dp_count, a cursor and a prepared statement; the same SQLSTATE and message as PostgreSQL's.
SELECT count(*) FROM catalog_orders;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM catalog_orders;
SELECT min(amount), max(amount) FROM catalog_orders;
SELECT region, dp_count(1, 1e-6) OVER () FROM catalog_orders;
BEGIN;
DECLARE rows_of CURSOR FOR SELECT customer FROM catalog_orders;
ROLLBACK;
PREPARE total AS SELECT sum(amount) FROM catalog_orders;
EXECUTE total;
DEALLOCATE total;
-- The first relation PostgreSQL refuses decides: catalog_orders first, the hint; catalog_visits
-- (protected, no DP-only access) first, PostgreSQL's bare refusal, as for any other relation.
SELECT * FROM catalog_orders o, catalog_visits v WHERE o.customer = v.visitor;
SELECT * FROM catalog_visits v, catalog_orders o WHERE o.customer = v.visitor;
SELECT count(*) FROM catalog_visits;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pgdp.charges;
-- Nothing of this was charged: only the release above.
SELECT count(*) AS releases FROM pgdp.my_ledger;
RESET SESSION AUTHORIZATION;

-- The SELECT analyst: the same relation, access select (it may also read the rows).
SET SESSION AUTHORIZATION catalog_reader;
SELECT relation, kind, access, privacy_unit, refresh_policy, cache_group FROM pgdp.my_relations ORDER BY relation::text;
SELECT count(*) AS columns FROM pgdp.my_columns;
RESET SESSION AUTHORIZATION;

-- A role with no access sees nothing, and its refusals are PostgreSQL's own.
SET SESSION AUTHORIZATION catalog_nobody;
SELECT count(*) AS relations FROM pgdp.my_relations;
SELECT count(*) AS columns FROM pgdp.my_columns;
SELECT count(*) FROM catalog_orders;
RESET SESSION AUTHORIZATION;

-- Column privileges stay PostgreSQL's to honour. With SELECT on region, catalog_dp reads that
-- column (and count(*), for which any column privilege suffices), so pgdp.my_relations says
-- select (DP-only access protects nothing more); a read of another column is refused, with the hint.
GRANT SELECT (region) ON catalog_orders TO catalog_dp;
SET SESSION AUTHORIZATION catalog_dp;
SELECT region, count(*) AS rows FROM catalog_orders GROUP BY region ORDER BY region;
SELECT count(*) FROM catalog_orders;
SELECT region, amount FROM catalog_orders LIMIT 1;
SELECT relation, access FROM pgdp.my_relations WHERE kind = 'protected';
RESET SESSION AUTHORIZATION;
REVOKE SELECT (region) ON catalog_orders FROM catalog_dp;

-- A partitioned relation: listed by its root; a partition read directly is refused with the hint
-- (the grant is on the root, which covers every partition).
SET client_min_messages = warning;
CREATE TABLE catalog_events (person int, day int) PARTITION BY RANGE (day);
CREATE TABLE catalog_events_early PARTITION OF catalog_events FOR VALUES FROM (0) TO (100);
SELECT relation FROM pgdp.protect('catalog_events', 'person');
SELECT relation FROM pgdp.grant_access('catalog_events', 'catalog_dp');
RESET client_min_messages;
SET SESSION AUTHORIZATION catalog_dp;
SELECT relation, kind, access, privacy_unit FROM pgdp.my_relations ORDER BY relation::text;
SELECT * FROM catalog_events_early;
RESET SESSION AUTHORIZATION;

-- A revoked grant takes the relation out of the DP-only analyst's catalog, and the hint with it.
SELECT pgdp.revoke_access('catalog_orders', 'catalog_dp');
SET SESSION AUTHORIZATION catalog_dp;
SELECT relation, access FROM pgdp.my_relations ORDER BY relation::text;
SELECT count(*) FROM catalog_orders;
RESET SESSION AUTHORIZATION;

SET client_min_messages = warning;
DROP TABLE catalog_orders, catalog_regions, catalog_visits, catalog_events;
SELECT pgdp.set_cache_group('catalog_dp', NULL);
DELETE FROM pgdp.budgets WHERE role = 'catalog_dp'::regrole;
DROP OWNED BY catalog_dp, catalog_reader, catalog_nobody;
DROP ROLE catalog_dp, catalog_reader, catalog_nobody;
RESET client_min_messages;
