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
CREATE ROLE catalog_owner;
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
