-- Error oracles (issue 20, section 2): nothing evaluated on the rows of a person-level level read
-- with DP-only access may raise an error for some rows and not others. (1) The per-unit partial
-- sums cannot overflow (numeric saturated at 1e131000, floats summed as numeric, integers as
-- bigint); (2) only functions on pgdp's allow-list (pgdp.row_safe_functions()) are accepted, with
-- a determined collation for collatable arguments, checked at plan time (42501, nothing charged);
-- (3) every function on the list is called here over adversarial values of its argument types
-- and every collation of the cluster, and must never raise.
SET client_min_messages = warning;
CREATE ROLE eo_alice;
SELECT role FROM pgdp.set_budget('eo_alice', 1e12, 0.5);
CREATE TABLE eo_sales (customer int, region int, amount int, note text, diag text, price numeric, f float8);
INSERT INTO eo_sales SELECT g % 500, g % 5, g % 100, 'n', 'x', g, g FROM generate_series(1, 1000) g;
INSERT INTO eo_sales VALUES (777, 1, 40, 'n', 'hiv', 1, 1), (777, 1, 30, 'n', 'hiv', 1, 1), (777, 1, 20, 'n', 'hiv', 1, 1);
SELECT relation FROM pgdp.protect('eo_sales', 'customer', 2);
SELECT relation FROM pgdp.grant_access('eo_sales', 'eo_alice');
CREATE SCHEMA eo_alice AUTHORIZATION eo_alice;
CREATE COLLATION eo_nondeterministic (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
-- A function a superuser marked LEAKPROOF: not on the list, so refused (fail closed).
CREATE FUNCTION eo_marked(int) RETURNS boolean LANGUAGE sql IMMUTABLE LEAKPROOF AS $$SELECT $1 > 0$$;
RESET client_min_messages;

-- ---- The allow-list --------------------------------------------------------------------------
SELECT count(*) AS functions, count(DISTINCT f) = count(*) AS distinct_entries FROM pgdp.row_safe_functions() f;
-- Only built-in internal functions of pg_catalog and pgdp's own C functions.
SELECT count(*) AS outside FROM pgdp.row_safe_functions() f JOIN pg_proc p ON p.oid = f
WHERE NOT ((p.pronamespace = 'pg_catalog'::regnamespace AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'internal'))
           OR (p.pronamespace = 'pgdp'::regnamespace AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')));
-- What docs/privacy.md says the list holds.
SELECT w::regprocedure AS claimed, w::regprocedure IN (SELECT * FROM pgdp.row_safe_functions()) AS listed
FROM unnest(ARRAY['int4eq(int4,int4)', 'int48lt(int4,int8)', 'float8ge(float8,float8)', 'numeric_lt(numeric,numeric)',
                  'texteq(text,text)', 'text_lt(text,text)', 'bpchareq(bpchar,bpchar)', 'nameeq(name,name)',
                  'booleq(bool,bool)', 'date_lt(date,date)', 'timestamptz_ge(timestamptz,timestamptz)',
                  'pg_catalog.int8(int4)', 'pg_catalog.float8(int8)', 'pg_catalog.numeric(float8)',
                  'pgdp.bucket(float8,float8)', 'pgdp.bucket(int8,int8)', 'pgdp.clamp(float8,float8,float8)']) w;
-- What it leaves out: LEAKPROOF built-ins that can fail or need no place here, arithmetic.
SELECT w::regprocedure AS left_out, w::regprocedure IN (SELECT * FROM pgdp.row_safe_functions()) AS listed
FROM unnest(ARRAY['int4div(int4,int4)', 'int4pl(int4,int4)', 'float8mul(float8,float8)', 'numeric_add(numeric,numeric)',
                  'textlike(text,text)', 'textcat(text,text)', 'pg_catalog.int4(int8)', 'int4in(cstring)',
                  'md5(text)', 'starts_with(text,text)', 'text_larger(text,text)', 'eo_marked(int)']) w;

-- ---- Every listed function over adversarial values -----------------------------------------
CREATE TABLE eo_values (type regtype, value text);  -- value: an SQL expression of that type
INSERT INTO eo_values
SELECT 'bool'::regtype, v FROM unnest(ARRAY['NULL', 'true', 'false']) v
UNION ALL SELECT 'int2', v FROM unnest(ARRAY['NULL', '0', '1', '-1', '32767', '-32768']) v
UNION ALL SELECT 'int4', v FROM unnest(ARRAY['NULL', '0', '-1', '2147483647', '-2147483648']) v
UNION ALL SELECT 'int8', v FROM unnest(ARRAY['NULL', '0', '-1', '9223372036854775807', '-9223372036854775808']) v
UNION ALL SELECT 'float4', v FROM unnest(ARRAY['NULL', '0', '''-0''', '''NaN''', '''Infinity''', '''-Infinity''',
                                              '''3.4028235e38''', '''-3.4028235e38''', '''1.4e-45''']) v
UNION ALL SELECT 'float8', v FROM unnest(ARRAY['NULL', '0', '''-0''', '''NaN''', '''Infinity''', '''-Infinity''',
                                              '''1.7976931348623157e308''', '''-1.7976931348623157e308''', '''4.9e-324''']) v
UNION ALL SELECT 'numeric', v FROM unnest(ARRAY['NULL', '0', '''-0''', '''NaN''', '''Infinity''', '''-Infinity''',
                                               '9e131071', '-9e131071', '1e-16383', '123456789012345678901234567890.123456789']) v
UNION ALL SELECT t, v FROM unnest(ARRAY['text', 'bpchar', 'name']::regtype[]) t,
    unnest(ARRAY['NULL', '''''', '''a''', '''A''', '''a  ''', '''é''', '''e'' || U&''\0301''', '''日本語''', '''ß''', '''SS''',
                 'repeat(''x'', 100000)', 'repeat(''é'', 5000) || ''z''', 'E''\t''']) v
UNION ALL SELECT t, v FROM unnest(ARRAY['date', 'timestamp', 'timestamptz']::regtype[]) t,
    unnest(ARRAY['NULL', '''infinity''', '''-infinity''', '''4713-01-01 BC''', '''2000-02-29''',
                 CASE t WHEN 'date'::regtype THEN '''5874897-12-31''' WHEN 'timestamp'::regtype THEN '''294276-12-31 23:59:59.999999'''
                      ELSE '''294276-12-31 23:59:59.999999+00''' END]) v
UNION ALL SELECT 'interval', v FROM unnest(ARRAY['NULL', '''0''', '''-1 month''', '''178956970 years 7 mons''', '''-2147483648 days''',
                                                'interval ''-2562047788:00:54.775807'' - interval ''1 microsecond''']) v;
CREATE TABLE eo_failures (call text, error text);

-- Each function over every combination of values of its argument types; collatable calls under
-- "default", "C", "POSIX", ICU's root collation and a nondeterministic ICU collation.
CREATE FUNCTION eo_sweep(collations text[]) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    f record;
    arguments text[];
    coll text;
    call text;
    calls bigint := 0;
BEGIN
    FOR f IN SELECT p.oid::regprocedure AS fn, p.pronamespace::regnamespace AS schema, p.proname, (SELECT array_agg(t::regtype ORDER BY o) FROM unnest(p.proargtypes) WITH ORDINALITY u(t, o)) AS types,
                    EXISTS (SELECT FROM unnest(p.proargtypes) t JOIN pg_type y ON y.oid = t WHERE y.typcollation <> 0) AS collatable
             FROM pgdp.row_safe_functions() r JOIN pg_proc p ON p.oid = r ORDER BY 1::text LOOP
        FOR arguments IN
            WITH RECURSIVE combination(position, list) AS (
                SELECT 0, ARRAY[]::text[]
                UNION ALL
                SELECT c.position + 1, c.list || format('(%s)::%s', v.value, f.types[c.position + 1])
                FROM combination c JOIN eo_values v ON v.type = f.types[c.position + 1]
                WHERE c.position < array_length(f.types, 1))
            SELECT list FROM combination WHERE position = array_length(f.types, 1)
        LOOP
            FOREACH coll IN ARRAY CASE WHEN f.collatable THEN collations ELSE ARRAY[NULL] END LOOP
                calls := calls + 1;
                call := format('%I.%I(%s)', f.schema, f.proname,
                               array_to_string(CASE WHEN coll IS NULL THEN arguments
                                                    ELSE (arguments[1] || ' COLLATE ' || coll) || arguments[2:] END, ', '));
                BEGIN
                    EXECUTE 'SELECT ' || call;
                EXCEPTION WHEN OTHERS THEN
                    INSERT INTO eo_failures VALUES (call, SQLERRM);
                END;
            END LOOP;
        END LOOP;
    END LOOP;
    RETURN calls;
END $$;
SELECT eo_sweep(ARRAY['"default"', '"C"', '"POSIX"', '"und-x-icu"', 'eo_nondeterministic']) AS calls;
SELECT count(*) AS failures FROM eo_failures;
SELECT left(call, 120) AS call, error FROM eo_failures ORDER BY 1 LIMIT 20;

-- Every collation of the cluster usable in this database, over the functions of two collatable
-- arguments (the comparisons): one statement per function and collation over pairs of hard
-- strings. (The total forms' unit is collatable too; dp_only_classes sweeps them over units.)
CREATE TABLE eo_strings AS SELECT a, b FROM (VALUES ('', 'a'), ('é', 'e' || U&'\0301'), ('ß', 'SS'), ('A', 'a'),
    ('日本語', '日本'), (repeat('é', 3000), repeat('é', 3000) || 'z'), ('a  ', 'a'), (NULL, 'a')) v(a, b);
DO $$
DECLARE
    f record;
    c record;
    statements bigint := 0;
BEGIN
    FOR f IN SELECT p.oid::regprocedure AS fn, p.pronamespace::regnamespace AS schema, p.proname, (SELECT array_agg(t::regtype ORDER BY o) FROM unnest(p.proargtypes) WITH ORDINALITY u(t, o)) AS types
             FROM pgdp.row_safe_functions() r JOIN pg_proc p ON p.oid = r
             WHERE EXISTS (SELECT FROM unnest(p.proargtypes) t JOIN pg_type y ON y.oid = t WHERE y.typcollation <> 0)
               AND NOT EXISTS (SELECT FROM unnest(p.proargtypes) t JOIN pg_type y ON y.oid = t WHERE y.typcollation = 0)
               AND p.pronargs = 2 LOOP
        FOR c IN SELECT oid, collname FROM pg_collation
                 WHERE collencoding IN (-1, pg_char_to_encoding(getdatabaseencoding())) LOOP
            statements := statements + 1;
            BEGIN
                EXECUTE format('SELECT count(%I.%I(a::%s COLLATE %I.%I, b::%s)) FROM eo_strings', f.schema, f.proname,
                               f.types[1], (SELECT nspname FROM pg_namespace n JOIN pg_collation k ON k.collnamespace = n.oid WHERE k.oid = c.oid),
                               c.collname, f.types[2]);
            EXCEPTION WHEN OTHERS THEN
                INSERT INTO eo_failures VALUES (format('%s COLLATE %s', f.fn, c.collname), SQLERRM);
            END;
        END LOOP;
    END LOOP;
    IF statements < 18 * 5 THEN RAISE WARNING 'only % statements', statements; END IF;
END $$;
SELECT count(*) AS failures_any_collation FROM eo_failures;
SELECT (SELECT count(*) FROM pg_collation WHERE collencoding IN (-1, pg_char_to_encoding(getdatabaseencoding()))) >= 5 AS collations;

-- ---- The repros of issue 20 and variants: each fails closed ----------------------------------
SET SESSION AUTHORIZATION eo_alice;
SELECT releases AS before_releases FROM pgdp.my_budget \gset
CREATE TABLE eo_alice.t (a text COLLATE "C", b text COLLATE "POSIX", n int);
INSERT INTO eo_alice.t VALUES ('a', 'b', 1);
-- A value that overflowed the per-unit numeric sum only when the victim matched: now both
-- thresholds release (the victim's saturated sum is clamped to the upper bound, as any sum over 1;
-- epsilon 1e6 and rounding to 3 digits show the exact clamped totals).
SELECT round(dp_sum(CASE WHEN customer = 777 AND amount > 35 THEN 9e131071 ELSE 0 END, 0, 1, 1e6), 3) AS victim_35
FROM eo_sales, (VALUES (1), (2)) v(x);
SELECT round(dp_sum(CASE WHEN customer = 777 AND amount > 45 THEN 9e131071 ELSE 0 END, 0, 1, 1e6), 3) AS victim_45
FROM eo_sales, (VALUES (1), (2)) v(x);
-- Variants: negative, the mean, grouped by a public key, a numeric column, many rows per unit,
-- floats near their limit (summed as numeric), integers at their limit.
SELECT round(dp_sum(CASE WHEN customer = 777 THEN -9e131071 ELSE 0 END, -1, 0, 1e6), 3) AS negative FROM eo_sales, (VALUES (1), (2)) v(x);
SELECT dp_mean(CASE WHEN customer = 777 THEN 9e131071 ELSE 0 END, 0, 1, 1e6) <= 1 AS mean FROM eo_sales, (VALUES (1), (2)) v(x);
SELECT region, round(dp_sum(CASE WHEN customer = 777 THEN 9e131071 ELSE 0 END, 0, 1, 1e6), 3) AS grouped
FROM eo_sales, (VALUES (1), (2)) v(x) GROUP BY region HAVING dp_groups(1, 1e-6) ORDER BY region;
SELECT dp_sum(CASE WHEN customer = 777 THEN 'Infinity'::numeric WHEN customer = 1 THEN '-Infinity' ELSE 'NaN' END, 0, 1, 1e6) IS NOT NULL AS infinities
FROM eo_sales, (VALUES (1), (2)) v(x);
SELECT round(dp_sum(CASE WHEN customer = 777 THEN '1.7976931348623157e308'::float8 ELSE 0 END, 0, 1, 1e6)::numeric, 3) AS float_limit
FROM eo_sales, (VALUES (1), (2)) v(x);
SELECT dp_sum(CASE WHEN customer = 777 THEN 2147483647 ELSE 0 END, 0, 1, 1e6) AS int_limit,
       dp_sum(CASE WHEN customer = 777 THEN 9223372036854775807 ELSE 0::bigint END, 0, 1, 1e6) AS bigint_limit
FROM eo_sales, (VALUES (1), (2)) v(x);
-- Refused before any row is read (42501), naming the function.
\set SHOW_CONTEXT never
-- The collation left undetermined by two of her columns (a LEAKPROOF text comparison raised).
SELECT dp_count(1e6) FROM eo_sales, eo_alice.t WHERE CASE WHEN customer = 777 THEN t.a < t.b ELSE false END;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_sum(CASE WHEN customer = 777 AND t.a = t.b THEN 1 ELSE 0 END, 0, 1, 1e6) FROM eo_sales, eo_alice.t;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM eo_sales JOIN eo_alice.t ON customer = 777 AND t.a IS DISTINCT FROM t.b;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM eo_sales, eo_alice.t WHERE NULLIF(t.a, t.b) IS NULL AND customer = 777;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM eo_sales, eo_alice.t WHERE t.a IN (t.b, 'x') AND customer = 777;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT CASE WHEN customer = 777 THEN t.a ELSE t.b END AS k, dp_count(1e6) FROM eo_sales, eo_alice.t GROUP BY 1 HAVING dp_groups(1, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- (The parser itself refuses that key: 42P21, before anything is read.)
-- Named collations are accepted.
SELECT dp_count(1e6) >= 0 AS named FROM eo_sales, eo_alice.t WHERE CASE WHEN customer = 777 THEN t.a < t.b COLLATE "C" ELSE false END;
-- Other constructs that can raise: GREATEST, a row comparison, subscripting, an array cast, a
-- narrowing cast, a cast through text, a function a superuser marked LEAKPROOF, LEAKPROOF md5.
SELECT dp_count(1e6) FROM eo_sales, eo_alice.t WHERE greatest(t.a, t.b) = 'a';
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM eo_sales WHERE (customer, amount) < (777, 40);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM eo_sales WHERE (ARRAY[customer, amount])[2] = 40;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM eo_sales WHERE ARRAY[price]::int[] = ARRAY[1];
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM eo_sales WHERE price::int = 1;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM eo_sales WHERE diag::int = 1;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM eo_sales WHERE public.eo_marked(amount);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1e6) FROM eo_sales WHERE md5(diag) = 'x';
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
-- Refusals charged nothing: 11 releases, one per pgdp call of the 9 accepted statements above
-- (the grouped one has dp_sum and dp_groups, int_limit and bigint_limit are two calls).
SELECT releases - :before_releases AS releases_since FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

-- With SELECT (no DP-only access) the numeric partial is saturated too: no overflow error.
GRANT SELECT ON eo_sales TO eo_alice;
SET SESSION AUTHORIZATION eo_alice;
SELECT round(dp_sum(CASE WHEN customer = 777 THEN 9e131071 ELSE 0 END, 0, 1, 1e6), 3) AS with_select FROM eo_sales, (VALUES (1), (2)) v(x);
RESET SESSION AUTHORIZATION;

SET client_min_messages = warning;
DROP SCHEMA eo_alice CASCADE;
DROP TABLE eo_sales, eo_values, eo_failures, eo_strings;
DROP FUNCTION eo_sweep(text[]), eo_marked(int);
DROP COLLATION eo_nondeterministic;
RESET client_min_messages;
