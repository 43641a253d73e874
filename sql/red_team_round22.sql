-- Red team round 22 (docs/red-team/round22.md): a hostile analyst with DP-only access against the
-- classes of 0.16 (total forms, canonical keys), one release per distinct call with
-- pgdp.max_groups_contributed, the dry run pgdp.cost and the analyst's catalog. The breaks found
-- are pinned first (fixed: an array or row built from copies of a row's text raised "array size
-- exceeds the maximum allowed" / "tuple is too big" exactly when a long enough value passed the
-- WHERE condition; an analyst's operator over an allowed function had a NEGATOR over her own
-- function, which the planner ran on every row), then the attacks that held. Two relations
-- differ in one person only (customer 5000, whose note is long): every answer below must be the
-- same for both.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE r22_eve;
CREATE ROLE r22_mallory;
SELECT role FROM pgdp.set_budget('r22_eve', 1e18, 0.99);
CREATE SCHEMA r22_eve AUTHORIZATION r22_eve;
CREATE TABLE r22_twin (customer int, i int, x float8, amount numeric, d date, note text);
INSERT INTO r22_twin SELECT g, g, g % 10, g % 100, date '2025-01-01' + g % 30, 'n' || g FROM generate_series(1, 2000) g;
-- r22_sales: the same rows and customer 5000 with an 8000-byte note stored inline and a
-- 700000-byte note stored out of line.
CREATE TABLE r22_sales (LIKE r22_twin);
ALTER TABLE r22_sales ADD COLUMN long_note text;
ALTER TABLE r22_twin ADD COLUMN long_note text;
ALTER TABLE r22_sales ALTER COLUMN note SET STORAGE PLAIN;
ALTER TABLE r22_sales ALTER COLUMN long_note SET STORAGE EXTERNAL;
INSERT INTO r22_sales SELECT * FROM r22_twin;
INSERT INTO r22_sales VALUES (5000, 5000, 0, 0, date '2025-01-01', repeat('q', 8000), repeat('q', 700000));
-- The spelling of keys: 500 people with amount 1.0 and x 0, one with 1.000000 and -0.
CREATE TABLE r22_spell (customer int, amount numeric, x float8);
INSERT INTO r22_spell SELECT g, 1.0, 0 FROM generate_series(1, 500) g;
INSERT INTO r22_spell VALUES (501, 1.000000, '-0');
SELECT relation FROM pgdp.protect('r22_sales', 'customer', 1);
SELECT relation FROM pgdp.protect('r22_twin', 'customer', 1);
SELECT relation FROM pgdp.protect('r22_spell', 'customer', 1);
SELECT relation FROM pgdp.grant_access('r22_sales', 'r22_eve');
SELECT relation FROM pgdp.grant_access('r22_twin', 'r22_eve');
SELECT relation FROM pgdp.grant_access('r22_spell', 'r22_eve');
RESET client_min_messages;
SET extra_float_digits = 0;
\set VERBOSITY terse
CREATE FUNCTION pg_temp.charges() RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM pgdp.my_ledger';
SET SESSION AUTHORIZATION r22_eve;
-- The probe: a release over `relation` whose WHERE condition is `condition` with `list` standing
-- for `copies` copies of `value`; the SQLSTATE and message it ends with ('ok' when it ran).
CREATE FUNCTION r22_eve.probe(relation text, condition text, value text, copies int) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  answer float8;
BEGIN
  EXECUTE format('SELECT dp_count(1e-3) FROM %s WHERE %s', relation,
                 replace(condition, 'list', array_to_string(array_fill(value, ARRAY[copies]), ',')))
    INTO answer;
  RETURN 'ok';
EXCEPTION WHEN others THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT pg_temp.charges() AS charges_before \gset

-- Break 1 (fixed): an operator the analyst created over int4lt (on the allow-list) with a NEGATOR
-- over her own function. The check saw int4lt; the planner then turned NOT (a <<< b) into
-- a !<<< b, which ran her function on every protected row: it copied every customer into her
-- table for one release of epsilon 0.001 (and could raise or wait on any value). Now every
-- operator reachable by negation or commutation must call a function on the list.
SET max_parallel_workers_per_gather = 0;  -- her function writes: run where writing is possible
CREATE TABLE r22_eve.stolen (customer int);
CREATE FUNCTION r22_eve.keep(a int, b int) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN INSERT INTO r22_eve.stolen VALUES (a); RETURN a >= b; END $$;
CREATE OPERATOR r22_eve.!<<< (LEFTARG = int, RIGHTARG = int, FUNCTION = r22_eve.keep);
CREATE OPERATOR r22_eve.<<< (LEFTARG = int, RIGHTARG = int, FUNCTION = int4lt,
                             NEGATOR = OPERATOR(r22_eve.!<<<));
CREATE OPERATOR r22_eve.>>> (LEFTARG = int, RIGHTARG = int, FUNCTION = int4gt,
                             COMMUTATOR = OPERATOR(r22_eve.!>>>));
CREATE OPERATOR r22_eve.!>>> (LEFTARG = int, RIGHTARG = int, FUNCTION = r22_eve.keep);
SELECT r22_eve.probe('r22_sales', 'NOT (customer OPERATOR(r22_eve.<<<) 3)', '', 0);
SELECT r22_eve.probe('r22_sales', 'NOT (customer OPERATOR(r22_eve.<<<) ANY(ARRAY[3, 4]))', '', 0);
SELECT r22_eve.probe('r22_sales', 'customer OPERATOR(r22_eve.>>>) 3', '', 0);
SELECT count(*) AS stolen FROM r22_eve.stolen;
-- Break 2 (fixed), arrays: ARRAY[note, note, ...] with 140000 copies of the 8000-byte note
-- passes 1 GB: construct_md_array raised "array size exceeds the maximum allowed" (54000) over
-- r22_sales and ran over r22_twin; `customer = c AND ...` made it a membership and length oracle
-- for one person, at one small charge per probe. Now an array built from a row's
-- variable-length value is refused while planning (42501), the same for both relations, nothing
-- charged.
SELECT r22_eve.probe(relation, $$'zz' = ANY(ARRAY[list])$$, 'note', 140000)
FROM unnest(ARRAY['r22_sales', 'r22_twin']) relation;
-- Break 2 (fixed), rows: ROW(long_note, ...) with 1650 copies of the 700000-byte note, kept from
-- constant folding by a CASE: flattening the row's out-of-line values raised "tuple is too big"
-- (54000) exactly when customer 5000 was present. Refused the same way.
SELECT r22_eve.probe(relation, $$(CASE WHEN customer = 5000 THEN ROW(list) END) IS NULL$$, 'long_note', 1650)
FROM unnest(ARRAY['r22_sales', 'r22_twin']) relation;
-- Break 2 (fixed), parameters: in a generic plan ARRAY[$1, ...] is not folded while planning,
-- and a CASE builds it only when customer 5000's row reaches it (11000 copies of a 100000-byte
-- $1): the same oracle without a column in the array. Refused the same way.
SET plan_cache_mode = force_generic_plan;
\set ECHO none
SELECT format('PREPARE r22_%s(text) AS SELECT dp_count(1e-3) IS NOT NULL AS ran FROM %s '
              'WHERE (CASE WHEN customer = 5000 THEN ARRAY[%s] END) IS NULL',
              relation, relation, array_to_string(array_fill('$1'::text, ARRAY[11000]), ','))
FROM unnest(ARRAY['r22_sales', 'r22_twin']) relation \gexec
\set ECHO all
EXECUTE r22_r22_sales(repeat('z', 100000));
EXECUTE r22_r22_twin(repeat('z', 100000));
RESET plan_cache_mode;
SELECT pg_temp.charges() - :charges_before AS charged_for_refusals;
-- The built-in comparisons stay (their negators and commutators are on the list).
SELECT r22_eve.probe('r22_sales', 'NOT (customer < 3) AND NOT (note = ANY(ARRAY[''n1''])) AND 3 < i', '', 0);
RESET max_parallel_workers_per_gather;
-- Still accepted: arrays and rows of constants or of fixed-length values (IN lists, x = ANY);
-- with parameters, an array parameter (note = ANY($1)) instead of a list of them.
SELECT r22_eve.probe('r22_sales', $$note IN ('n1', 'n2') AND i = ANY(ARRAY[i, 1]) AND ROW(i, x) IS NOT NULL$$, '', 0);
SELECT r22_eve.probe('r22_sales', $$(CASE WHEN customer = 5000 THEN ROW(list) END) IS NULL$$, 'i', 1600);
PREPARE r22_listed(text[]) AS SELECT dp_count(1e9) > 0 AS counted FROM r22_sales WHERE note = ANY($1);
EXECUTE r22_listed(ARRAY['n1', 'n2']);
DEALLOCATE r22_listed;

-- Held: a total form in a generic plan. The division by a parameter that is 0 runs as
-- pgdp.total_div in the plan cached for every value (NULL, not "division by zero").
PREPARE r22_divide(int) AS SELECT dp_count(1e9) > 1000 AS counted FROM r22_sales WHERE i / $1 IS NULL;
SET plan_cache_mode = force_generic_plan;
EXECUTE r22_divide(0);
EXECUTE r22_divide(0);
RESET plan_cache_mode;
DEALLOCATE r22_divide;

-- Held: canonical keys. 1.0 and 1.000000 are one group released as 1; 0 and -0 as 0.
SELECT amount AS k, dp_count(1e3) > 0 AS kept FROM r22_spell GROUP BY amount HAVING dp_groups(1e3, 1e-6);
SELECT x AS k, dp_count(1e3) > 0 AS kept FROM r22_spell GROUP BY x HAVING dp_groups(1e3, 1e-6);
-- A key's column under another expression (abs(amount), amount::float8) would show the row's
-- spelling beside the canonical key: refused.
SELECT abs(amount) AS k, dp_count(1e3) > 0 AS kept FROM r22_spell GROUP BY amount HAVING dp_groups(1e3, 1e-6);
SELECT x::numeric AS k, dp_count(1e3) > 0 AS kept FROM r22_spell GROUP BY x HAVING dp_groups(1e3, 1e-6);

-- Held: pgdp.max_groups_contributed. The dry run's noise scale of the sum is 50 times that for
-- m = 1 (sensitivity 10 * m over epsilon 0.5), a release made with m = 1 does not answer the
-- same statement with m = 50 (not cached, charged again), and running it charges what the dry
-- run listed.
SELECT noise_scale FROM pgdp.cost('SELECT d, dp_sum(x, 0, 10, 0.5) FROM r22_twin GROUP BY d HAVING dp_groups(0.5, 1e-6)')
WHERE aggregate = 'dp_sum';
SELECT count(*) AS groups FROM (SELECT d, dp_sum(x, 0, 10, 0.5) FROM r22_twin GROUP BY d HAVING dp_groups(0.5, 1e-6)) q;
SET pgdp.max_groups_contributed = 50;
SELECT aggregate, noise_scale, cached FROM pgdp.cost('SELECT d, dp_sum(x, 0, 10, 0.5) FROM r22_twin GROUP BY d HAVING dp_groups(0.5, 1e-6)')
WHERE release IS NOT NULL ORDER BY release;
SELECT pg_temp.charges() AS charges_before \gset
SET client_min_messages = warning;  -- the NOTICE of a selection that kept no group, by chance
SELECT count(*) >= 0 AS ran
FROM (SELECT d, dp_sum(x, 0, 10, 0.5) s FROM r22_twin GROUP BY d HAVING dp_groups(0.5, 1e-6)) q
WHERE s IS NULL OR s IS NOT NULL;
RESET client_min_messages;
-- What the dry run listed: two releases.
SELECT pg_temp.charges() - :charges_before AS charged_with_m_50;
RESET pgdp.max_groups_contributed;
-- A plan keeps the m it was made with: a generic plan made at m = 50 (PREPARE plans nothing; the
-- first EXECUTE does) and run again after SET m = 1 still bounds each unit to 50 groups and is
-- charged (and dry-run) for 50, never for 1.
SET plan_cache_mode = force_generic_plan;
SET pgdp.max_groups_contributed = 50;
PREPARE r22_grouped AS SELECT d, dp_sum(x, 0, 10, 0.5) FROM r22_twin GROUP BY d HAVING dp_groups(0.5, 1e-6);
SET client_min_messages = warning;
EXECUTE r22_grouped \g /dev/null
RESET client_min_messages;
SET pgdp.max_groups_contributed = 1;
SELECT noise_scale FROM pgdp.cost('EXECUTE r22_grouped') WHERE aggregate = 'dp_sum';
SELECT max(charge_id) AS last_charge FROM pgdp.my_ledger \gset
SET client_min_messages = warning;
EXECUTE r22_grouped \g /dev/null
RESET client_min_messages;
SELECT noise_scale FROM pgdp.my_ledger WHERE charge_id > :last_charge AND aggregate = 'dp_sum';
DEALLOCATE r22_grouped;
RESET pgdp.max_groups_contributed;
RESET plan_cache_mode;

-- Held: the dry run's bad inputs are refused before anything runs, nothing charged.
SELECT pg_temp.charges() AS charges_before \gset
SELECT * FROM pgdp.cost('SELECT 1; SELECT dp_count(1) FROM r22_sales');
SELECT * FROM pgdp.cost('EXPLAIN SELECT dp_count(1) FROM r22_sales');
SELECT * FROM pgdp.cost('DECLARE c CURSOR FOR SELECT dp_count(1) FROM r22_sales');
SELECT * FROM pgdp.cost('CREATE TABLE r22_eve.t AS SELECT dp_count(1) FROM r22_sales');
SELECT * FROM pgdp.cost('SELECT dp_count(1) INTO r22_eve.t FROM r22_sales');
SELECT * FROM pgdp.cost('TABLE r22_sales');
SELECT aggregate, epsilon FROM pgdp.cost('SELECT dp_count(1) FROM r22_sales') WHERE release IS NOT NULL;
SELECT pg_temp.charges() - :charges_before AS charged_by_dry_runs;

-- Held: the analyst's catalog shows a role without grants nothing protected.
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION r22_mallory;
SELECT count(*) AS relations FROM pgdp.my_relations WHERE relation::text LIKE 'r22%';
SELECT count(*) AS columns FROM pgdp.my_columns WHERE relation::text LIKE 'r22%';
RESET SESSION AUTHORIZATION;
