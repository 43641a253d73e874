-- Error texts of every SQL entry point at hostile inputs (issue 8 part 7): each failure is a
-- pgdp error in SQLSTATE 22023 (invalid argument) or 22003 (valid arguments, result out of
-- range), names the argument, has a hint, prints numbers as the shortest decimal that reads
-- back (NaN, Infinity as PostgreSQL spells them), echoes at most 40 characters of a name, and
-- never shows a library's text (Boost) or a C++ signature. A result is never NaN or Infinity.
CREATE EXTENSION IF NOT EXISTS pgdp;
\set VERBOSITY default

CREATE FUNCTION pg_temp.outcome(query text, OUT state text, OUT message text, OUT hint text, OUT result text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE query INTO result;
    state := '00000';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
END $$;

-- What is wrong with one outcome (NULL: nothing). state 53400 is the budget's own refusal.
CREATE FUNCTION pg_temp.violation(state text, message text, hint text, result text) RETURNS text
LANGUAGE sql AS $$
SELECT CASE
    WHEN $1 = '00000' AND $4 IN ('NaN', 'Infinity', '-Infinity') THEN 'result ' || $4
    WHEN $1 = '00000' AND $4 ~ '(^|[(,])(NaN|-?Infinity)([),]|$)' THEN 'result has ' || $4
    WHEN $1 = '00000' THEN NULL
    WHEN $1 NOT IN ('22023', '22003', '53400') THEN 'SQLSTATE ' || $1
    WHEN $2 ~* 'boost|::|error in function|std::|<double>' THEN 'library text'
    WHEN $2 ~ '\m(nan|inf|-inf)\M' THEN 'C spelling of a non-finite number'
    WHEN coalesce($3, '') = '' THEN 'no hint'
    WHEN $1 <> '53400' AND length($2) > 300 THEN 'message of ' || length($2) || ' characters'
END $$;

CREATE TEMP TABLE hostile(x text);
INSERT INTO hostile VALUES ('5e-324'), ('2.2250738585072014e-308'), ('1e-300'), ('1e-30'), ('1e-9'),
    ('1e-5'), ('0.25'), ('0.5'), ('0.9999999999999999'), ('1'), ('2'), ('700'), ('1e9'), ('1e300'),
    ('1.7976931348623157e308'), ('Infinity'), ('-Infinity'), ('NaN'), ('-0'), ('0'), ('-1'), ('-5e-324');
CREATE TEMP TABLE methods(x text);
INSERT INTO methods VALUES ('analytic'), ('classic'), ('dwork2006'), ('vinterbo'), ('vinterbo_closed'),
    ('zhao1'), ('zhao2'), ('pdp'), ('zhao3'), ('zhao4'), ('zcdp');
CREATE TEMP TABLE sensitivities(x text);
INSERT INTO sensitivities VALUES ('1'), ('5e-324'), ('1e-300'), ('1e300'), ('Infinity'), ('NaN'), ('-1');

-- The grid: every function over hostile values of each argument (22 values; 11 methods).
CREATE TEMP TABLE calls AS
SELECT 'gaussian_sigma' AS fn, format('SELECT gaussian_sigma(%L, %L, %L, %L)::text', e.x, d.x, s.x, m.x) AS query
FROM hostile e, hostile d, sensitivities s, methods m
UNION ALL
SELECT 'gaussian_accuracy', format('SELECT gaussian_accuracy(%L, %L, 1, %L, %L)::text', e.x, d.x, a.x, m.x)
FROM hostile e, hostile d, (VALUES ('0.05'), ('5e-324'), ('0.9999999999999999'), ('NaN'), ('1')) a(x), methods m
UNION ALL
SELECT 'gaussian_delta', format('SELECT gaussian_delta(%L, %L, %L)::text', g.x, e.x, s.x)
FROM hostile g, hostile e, hostile s
UNION ALL
SELECT 'gaussian_epsilon', format('SELECT gaussian_epsilon(%L, %L, %L)::text', g.x, d.x, s.x)
FROM hostile g, hostile d, hostile s
UNION ALL
SELECT 'tlap_params', format('SELECT tlap_params(%L, %L, %L)::text', e.x, d.x, s.x)
FROM hostile e, hostile d, hostile s
UNION ALL
SELECT 'tlap_accuracy', format('SELECT tlap_accuracy(%L, %L, %L, %L)::text', e.x, d.x, s.x, a.x)
FROM hostile e, hostile d, sensitivities s, hostile a
UNION ALL
SELECT 'tlap_noise', format('SELECT tlap_noise(%L, %L, %L)::text', e.x, d.x, s.x)
FROM hostile e, hostile d, sensitivities s
UNION ALL
SELECT 'gaussian_noise', format('SELECT gaussian_noise(%L)::text', g.x) FROM hostile g
UNION ALL
SELECT 'laplace_noise', format('SELECT laplace_noise(%L)::text', g.x) FROM hostile g
UNION ALL
SELECT 'pgdp.gaussian_part_epsilon', format('SELECT pgdp.gaussian_part_epsilon(%L, %L)::text', m.x, r.x)
FROM hostile m, hostile r;

CREATE TEMP TABLE outcomes AS
SELECT c.fn, c.query, o.* FROM calls c, LATERAL pg_temp.outcome(c.query) o;

-- Calls per function (the size of the grid) and the violations among them: none.
SELECT fn, count(*) AS calls, count(pg_temp.violation(o.state, o.message, o.hint, o.result)) AS violations
FROM outcomes o GROUP BY fn ORDER BY fn;
SELECT query, state, message, hint, result, pg_temp.violation(o.state, o.message, o.hint, o.result) AS violation
FROM outcomes o WHERE pg_temp.violation(o.state, o.message, o.hint, o.result) IS NOT NULL ORDER BY query LIMIT 20;

-- The reported cases and their texts, one by one.
-- (LATERAL: (f()).* would run f once per output column.)
SELECT t.query, o.state, o.message, o.hint, o.state = '00000' AND o.result::float8 > 0 AS positive_result
FROM (VALUES
    -- denormal epsilon and delta: the floor is stated (was "got 0" and Boost's erfc_inv text)
    ('gaussian_sigma(5e-324, 1e-5)'), ('gaussian_sigma(1, 5e-324)'), ('tlap_params(1, 1e-310)'),
    ('gaussian_epsilon(1, 5e-324)'),
    -- non-finite values as PostgreSQL spells them (was nan, inf, -inf)
    ('gaussian_sigma(''NaN'', 1e-5)'), ('gaussian_sigma(''-Infinity'', 1e-5)'), ('gaussian_sigma(1, ''Infinity'')'),
    ('gaussian_accuracy(1, 1e-5, 1, ''NaN'')'), ('gaussian_noise(''Infinity'')'),
    -- shortest round-trip decimals
    ('gaussian_sigma(-0.1, 1e-5)'), ('gaussian_sigma(1, 1.0000000000000002)'), ('gaussian_sigma(1, -0)'),
    -- zhao1 at a tiny epsilon (was XX000 with boost::math::erfc_inv<double>(double, double))
    ('gaussian_sigma(1e-300, 1e-30, 1, ''zhao1'')'),
    -- analytic solver loses the root (gave NaN or a negative sigma)
    ('gaussian_sigma(1e-20, 1e-30)'),
    -- results out of range: 22003, never Infinity
    ('gaussian_epsilon(1e-300, 1e-5)'),
    ('tlap_accuracy(1e-300, 0.1, 1e300)'),
    -- noise larger than the exact samplers can draw (was 22003 "does not fit in 64 bits", no hint)
    ('gaussian_noise(1e300)'), ('laplace_noise(1e15)'),
    -- long names are cut at 40 characters
    ('gaussian_sigma(1, 1e-5, 1, repeat(''x'', 1000))'), ('gaussian_sigma(1, 1e-5, 1, repeat(''é'', 100))'),
    -- gaussian_part_epsilon is callable by PUBLIC (was NULL or 0)
    ('pgdp.gaussian_part_epsilon(''NaN'', 1e-5)'), ('pgdp.gaussian_part_epsilon(-1, 1e-5)'),
    ('pgdp.gaussian_part_epsilon(''Infinity'', 1e-5)'), ('pgdp.gaussian_part_epsilon(1, ''NaN'')'),
    ('pgdp.gaussian_part_epsilon(1, ''-Infinity'')')
) AS t(query), LATERAL pg_temp.outcome('SELECT ' || t.query || '::text') o;

-- Its legitimate answers: no Gaussian part 0; no delta left NULL; a delta room >= 1 costs nothing.
SELECT pgdp.gaussian_part_epsilon(0, 0) AS none, pgdp.gaussian_part_epsilon(1, 0) IS NULL AS no_room,
       pgdp.gaussian_part_epsilon(1, -1e-5) IS NULL AS overspent, pgdp.gaussian_part_epsilon(1, 1) AS all_room,
       pgdp.gaussian_part_epsilon(1, 1e-5) > 0 AS some;

-- The aggregates: a dedicated session user with a budget, so that what is charged can be read.
CREATE ROLE pgdp_error_texts_analyst;
SELECT epsilon_limit, delta_limit FROM pgdp.set_budget('pgdp_error_texts_analyst', 1e18, 0.9,
    min_epsilon => 1e-300, release_limit => 100000000);
SET SESSION AUTHORIZATION pgdp_error_texts_analyst;
SELECT t.query, o.state, o.message, o.hint, o.state = '00000' AND o.result IS NOT NULL AS released
FROM (VALUES
    ('SELECT dp_count(1, 5e-324, ''gaussian'') FROM generate_series(1, 3)'),
    ('SELECT dp_count(5e-324) FROM generate_series(1, 3)'),
    ('SELECT dp_count(''NaN'') FROM generate_series(1, 3)'),
    ('SELECT dp_count(1e-300) FROM generate_series(1, 3)'),
    ('SELECT dp_count(1e-300, 1e-5, ''tlap'') FROM generate_series(1, 3)'),
    ('SELECT dp_count(1e-20, 1e-30, ''gaussian'') FROM generate_series(1, 3)'),
    ('SELECT dp_count(1e-12, 1e-5, ''gaussian'') FROM generate_series(1, 3)'),
    ('SELECT dp_sum(g, 0, 10, 1e-300) FROM generate_series(1, 3) g'),
    ('SELECT dp_mean(g, 0, 10, 1, ''-Infinity'', ''gaussian'') FROM generate_series(1, 3) g'),
    ('SELECT dp_count(1, 1e-5, repeat(''gaussian'', 200)) FROM generate_series(1, 3)')
) AS t(query), LATERAL pg_temp.outcome(t.query) o;
-- Only the two releases were charged: each failure is decided from the parameters, before the
-- charge.
SELECT releases, delta_spent FROM pgdp.my_budget;

-- A grid over the release parameters of every aggregate and mechanism.
CREATE TEMP TABLE release_values(x text);
INSERT INTO release_values VALUES ('5e-324'), ('1e-310'), ('1e-300'), ('1e-30'), ('1e-20'), ('0.25'),
    ('0.5'), ('1'), ('1e300'), ('Infinity'), ('NaN'), ('-0'), ('0'), ('-1');
CREATE TEMP TABLE release_outcomes AS
SELECT q.fn, q.query, o.*
FROM (SELECT a.fn, format(a.template, e.x, d.x, m.x) AS query
      FROM (VALUES ('dp_count', 'SELECT dp_count(%L, %L, %L)::text FROM generate_series(1, 3)'),
                   ('dp_sum', 'SELECT dp_sum(g, -10, 10, %L, %L, %L)::text FROM generate_series(1, 3) g'),
                   ('dp_mean_ci', 'SELECT dp_mean_ci(g, -10, 10, %L, %L, %L, 0.05)::text FROM generate_series(1, 3) g'))
               a(fn, template),
           release_values e,
           (SELECT x FROM release_values WHERE x NOT IN ('1e-20', '1e300')) d,
           (VALUES ('gaussian'), ('tlap'), ('laplace'), ('auto')) m(x)) q,
     LATERAL pg_temp.outcome(q.query) o;
RESET SESSION AUTHORIZATION;
SELECT fn, count(*) AS calls, count(pg_temp.violation(o.state, o.message, o.hint, o.result)) AS violations
FROM release_outcomes o GROUP BY fn ORDER BY fn;
SELECT query, state, message, hint, result, pg_temp.violation(o.state, o.message, o.hint, o.result) AS violation
FROM release_outcomes o WHERE pg_temp.violation(o.state, o.message, o.hint, o.result) IS NOT NULL ORDER BY query LIMIT 20;
