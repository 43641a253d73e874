-- dp_variance and dp_stddev (population) and their *_ci forms (issue 24): at a huge epsilon
-- equal to PostgreSQL's own var_pop / stddev_pop of the clamped values for every value type and
-- mechanism; never negative, never above (upper - lower)^2/4; bad input refused with a SQLSTATE
-- naming the argument and nothing charged; one ledger charge per release; parallel plans;
-- person-level releases (ungrouped, public keys, private group selection, DP-only access) against
-- hand-written two-level SQL; the release cache. Every number shown is PostgreSQL's own (var_pop,
-- stddev_pop) or a count; each release is compared with it in the same query. Noise comes from
-- the superuser-only test seed.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE var_analyst;
SELECT role FROM pgdp.set_budget('var_analyst', 1e18, 0.99);
SELECT epsilon_limit FROM pgdp.set_budget(session_user::regrole, 1e18, 0.99);
RESET client_min_messages;
-- Seeded noise is for superusers only: the analyst's parts below need no seed (their outputs do
-- not depend on the noise).
SET pgdp.test_seed = 24;
SET extra_float_digits = 0;

CREATE TABLE var_staff (id int, salary float8, age int4, bonus numeric, small int2, big int8, ratio float4);
INSERT INTO var_staff
SELECT i, (i * 37 % 1000)::float8, 20 + i % 50, (i % 17)::numeric / 4, (i % 9)::int2, (i * 1000)::int8,
       (i % 10)::float4 / 8
FROM generate_series(1, 999) AS i;
INSERT INTO var_staff VALUES (1000, NULL, NULL, NULL, NULL, NULL, NULL),
                             (1001, 'NaN', 30, 'NaN', 1, 2, 'NaN');
GRANT SELECT ON var_staff TO var_analyst;

-- The references: PostgreSQL's var_pop and stddev_pop of least(greatest(x, lower), upper); NULL
-- and NaN values are no rows (as for dp_mean; least and greatest ignore NULLs, hence the CASEs).
CREATE TEMP VIEW var_clamped AS
SELECT CASE WHEN salary <> 'NaN' THEN least(greatest(salary, 100), 900) END AS salary,
       CASE WHEN age IS NOT NULL THEN least(greatest(age, 25), 60) END AS age,
       CASE WHEN bonus <> 'NaN' THEN least(greatest(bonus, 0.5), 3) END AS bonus,
       CASE WHEN small IS NOT NULL THEN least(greatest(small, 0), 5) END AS small,
       CASE WHEN big IS NOT NULL THEN least(greatest(big, 0), 500000) END AS big,
       CASE WHEN ratio <> 'NaN' THEN least(greatest(ratio, 0), 1)::float8 END AS ratio
FROM var_staff;

-- epsilon = 1e9: the Laplace and truncated Laplace noise is far below 1e-6 (upper - lower)^2; the
-- Gaussian's (sigma ~ Delta / sqrt(2 epsilon) at large epsilon) too at epsilon = 1e12. Per
-- value type: PostgreSQL's var_pop and whether each release is within 1e-6 (upper - lower)^2 of
-- it (the standard deviation within 1e-6 (upper - lower) of stddev_pop).
CREATE FUNCTION pg_temp.exactness(value_type text, lower float8, upper float8)
RETURNS TABLE (type text, var_pop float8, stddev_pop float8, range float8, laplace float8, tlap float8,
               gaussian float8, stddev float8, stddev_gaussian float8)
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE format(
        'SELECT %1$L::text, r.*, d.* FROM (SELECT var_pop(%2$I)::float8, stddev_pop(%2$I)::float8, (%4$s - %3$s)::float8
                                         FROM var_clamped) r,
           (SELECT dp_variance(%2$I, %3$s, %4$s, 1e9)::float8, dp_variance(%2$I, %3$s, %4$s, 1e9, 1e-6, ''tlap'')::float8,
                   dp_variance(%2$I, %3$s, %4$s, 1e12, 1e-6, ''gaussian'')::float8,
                   dp_stddev(%2$I, %3$s, %4$s, 1e9)::float8,
                   dp_stddev(%2$I, %3$s, %4$s, 1e12, 1e-6, ''gaussian'')::float8 FROM var_staff) d',
        value_type, CASE value_type WHEN 'float8' THEN 'salary' WHEN 'int4' THEN 'age' WHEN 'numeric' THEN 'bonus'
                                    WHEN 'int2' THEN 'small' WHEN 'int8' THEN 'big' ELSE 'ratio' END, lower, upper);
END $$;
CREATE TEMP TABLE var_exact AS
SELECT e.* FROM (VALUES ('float8', 100, 900), ('int4', 25, 60), ('numeric', 0.5, 3), ('int2', 0, 5),
                        ('int8', 0, 500000), ('float4', 0, 1)) AS t(type, lower, upper),
     LATERAL pg_temp.exactness(t.type, t.lower::float8, t.upper::float8) e;
SELECT type, round(var_pop::numeric, 6) AS var_pop, round(stddev_pop::numeric, 6) AS stddev_pop,
       abs(laplace - var_pop) < 1e-6 * range ^ 2 AS laplace, abs(tlap - var_pop) < 1e-6 * range ^ 2 AS tlap,
       abs(gaussian - var_pop) < 1e-6 * range ^ 2 AS gaussian, abs(stddev - stddev_pop) < 1e-6 * range AS stddev,
       abs(stddev_gaussian - stddev_pop) < 1e-6 * range AS stddev_gaussian
FROM var_exact;

-- Result types follow dp_mean: numeric for numeric values, double precision otherwise; the *_ci
-- forms return a dp_release whose interval holds var_pop and whose value is the release.
SELECT pg_typeof(dp_variance(age, 0, 60, 1)) AS int_variance, pg_typeof(dp_stddev(big, 0, 60, 1)) AS bigint_stddev,
       pg_typeof(dp_variance(bonus, 0, 1, 1)) AS numeric_variance, pg_typeof(dp_stddev(bonus, 0, 1, 1)) AS numeric_stddev,
       pg_typeof(dp_variance_ci(salary, 0, 1, 1, 0.05)) AS ci
FROM var_staff;
SELECT round(r.v::numeric, 6) AS var_pop, (c).ci_lower <= r.v AND r.v <= (c).ci_upper AS variance_covered,
       (c).ci_lower <= (c).value AND (c).value <= (c).ci_upper AS value_inside, (c).mechanism, (c).epsilon,
       (d).ci_lower <= r.sd AND r.sd <= (d).ci_upper AS stddev_covered, (d).mechanism AS stddev_mechanism,
       (d).delta AS stddev_delta
FROM (SELECT var_pop(salary) v, stddev_pop(salary) sd FROM var_clamped) r,
     (SELECT dp_variance_ci(salary, 100, 900, 1e9, 1e-6) c, dp_stddev_ci(salary, 100, 900, 1e12, 1e-6, 'gaussian', 1e-6) d
      FROM var_staff) x;

-- An empty group releases like any other, inside the range; one value has variance 0.
SELECT dp_variance(salary, 0, 1000, 1) BETWEEN 0 AND 250000 AS empty_variance,
       dp_stddev(salary, 0, 1000, 1) BETWEEN 0 AND 500 AS empty_stddev
FROM var_staff WHERE false;
SELECT var_pop(salary) AS var_pop, abs(dp_variance(salary, 0, 1000, 1e9)) < 1e-6 * 1000 ^ 2 AS released_zero
FROM var_staff WHERE id = 7;

-- Never negative, never above (upper - lower)^2 / 4 (nor a standard deviation above half the
-- range), at a small epsilon over 2000 groups of 1 to 3 rows at the bounds, where the noise
-- dominates: the counts of releases outside are 0, the intervals too.
SELECT count(*) AS releases,
       count(*) FILTER (WHERE v < 0 OR v > 100 ^ 2 / 4) AS variance_outside,
       count(*) FILTER (WHERE s < 0 OR s > 100 / 2) AS stddev_outside,
       count(*) FILTER (WHERE (c).ci_lower < 0 OR (c).ci_upper > 100 ^ 2 / 4) AS interval_outside
FROM (SELECT g, dp_variance(x, 0, 100, 0.1) v, dp_stddev(x, 0, 100, 0.1, 1e-6, 'gaussian') s,
             dp_variance_ci(x, 0, 100, 0.1, 1e-6, 'tlap', 0.1) c
      FROM generate_series(1, 2000) g, LATERAL (VALUES (1, 0.0), (2, 100.0), (3, g % 2 * 100.0)) t(k, x)
      WHERE t.k <= 1 + g % 3
      GROUP BY g) r;

-- Bad input: a SQLSTATE and a message naming the argument; nothing charged.
CREATE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
    RETURN state || ': ' || message;
END $$;
RESET pgdp.test_seed;
SELECT releases AS releases_before FROM pgdp.my_budget \gset
SELECT call, pg_temp.error_of('SELECT ' || call || ' FROM var_staff') AS error
FROM (VALUES ('dp_variance(salary, 900, 100, 1)'), ('dp_stddev(salary, ''NaN'', 100, 1)'),
             ('dp_variance(salary, 0, ''Infinity'', 1)'), ('dp_variance(salary, 0, 100, NULL)'),
             ('dp_variance_ci(salary, 1e-30, NULL, 1, 0.05)'), ('dp_stddev(salary, 0, 100, 0)'),
             ('dp_variance(salary, 0, 100, ''NaN'')'), ('dp_variance(salary, 0, 100, 1, 1e-6, ''gauss'')'),
             ('dp_variance(salary, 0, 100, 1, 1.5, ''gaussian'')'), ('dp_variance_ci(salary, 0, 100, 1, 1.5)'),
             ('dp_stddev_ci(salary, 0, 100, 1, NULL)'), ('dp_variance(salary, -1e160, 1e160, 1)'),
             ('dp_variance(salary, 0, 1e-200, 1)'), ('dp_variance(salary, 0, salary, 1)')) AS t(call);
SELECT releases - :releases_before AS charged_by_bad_input FROM pgdp.my_budget;
SET pgdp.test_seed = 24;

-- One ledger charge per release: a call is one release (its three noisy totals are one charge
-- of the call's epsilon and delta), a grouped call one release over all its groups.
SELECT dp_variance(salary, 0, 1000, 0.5) >= 0 AS released FROM var_staff;
SELECT aggregate, mechanism, epsilon, delta, sensitivity FROM pgdp.my_ledger
WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger) ORDER BY release;
SELECT count(*) AS groups, count(*) FILTER (WHERE (c).value >= 0) AS released
FROM (SELECT id % 5, dp_stddev_ci(age, 20, 70, 0.5, 1e-6, 'gaussian', 0.1) c FROM var_staff GROUP BY id % 5) g;
SELECT aggregate, mechanism, epsilon, delta, sensitivity, accounting FROM pgdp.my_ledger
WHERE charge_id = (SELECT max(charge_id) FROM pgdp.my_ledger) ORDER BY release;

-- Parallel plans: partial states in workers, combined exactly; with the same seed a parallel and
-- a serial plan release the same values.
CREATE TABLE var_wide AS SELECT i, (i % 1000)::float8 AS x FROM generate_series(1, 200000) AS i;
ANALYZE var_wide;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT dp_variance(x, 0, 1000, 1), dp_stddev_ci(x, 0, 1000, 1, 0.1) FROM var_wide;
SET pgdp.test_seed = 5;
CREATE TEMP TABLE var_parallel AS SELECT dp_variance(x, 0, 1000, 1) AS v, dp_stddev(x, 0, 1000, 1, 1e-6) AS s FROM var_wide;
SET max_parallel_workers_per_gather = 0;
SET pgdp.test_seed = 5;
CREATE TEMP TABLE var_serial AS SELECT dp_variance(x, 0, 1000, 1) AS v, dp_stddev(x, 0, 1000, 1, 1e-6) AS s FROM var_wide;
SELECT p.v = s.v AND p.s = s.s AS identical FROM var_parallel p, var_serial s;
SELECT round(var_pop(x)::numeric, 4) AS var_pop, abs((SELECT dp_variance(x, 0, 1000, 1e9) FROM var_wide) - var_pop(x)) < 1
       AS parallel_exact
FROM var_wide;
RESET max_parallel_workers_per_gather;

-- Person-level releases over a protected relation: each person's mean (level 1, their rows in
-- one group combined), clamped, then the variance over the people, against the two levels
-- written by hand. Persons 0..56 with hundreds of rows each, rows without a person, and
-- persons in one region each (region = person % 3) so that m = 1 drops no row.
SET client_min_messages = warning;
CREATE TABLE var_visits (id int, person int, region int, minutes float8);
INSERT INTO var_visits
SELECT g, CASE WHEN g % 101 = 0 THEN NULL ELSE g % 57 END, g % 57 % 3, (g % 57) * 0.7 + g % 5
FROM generate_series(1, 20000) g;
CREATE TABLE var_regions (region int);
INSERT INTO var_regions VALUES (0), (1), (2), (3);
GRANT SELECT ON var_visits, var_regions TO var_analyst;
SELECT relation FROM pgdp.protect('var_visits', 'person');
SELECT relation FROM pgdp.declare_public('var_regions');
CREATE ROLE var_dp_only;
SELECT role FROM pgdp.set_budget('var_dp_only', 1e18, 0.99);
GRANT SELECT ON var_regions TO var_dp_only;
SELECT relation, role FROM pgdp.grant_access('var_visits', 'var_dp_only');
RESET client_min_messages;
RESET pgdp.test_seed;
SET SESSION AUTHORIZATION var_analyst;
CREATE TEMP VIEW var_units AS
SELECT region, person, least(greatest(avg(minutes), 5), 40) AS m FROM var_visits WHERE person IS NOT NULL
GROUP BY region, person;
CREATE TEMP TABLE var_person_releases (form text, region int, value float8, ci_lower float8, ci_upper float8);
-- Ungrouped: the variance and standard deviation over the persons' clamped means.
INSERT INTO var_person_releases SELECT 'variance', NULL, dp_variance(minutes, 5, 40, 1e9) FROM var_visits;
INSERT INTO var_person_releases SELECT 'stddev', NULL, dp_stddev(minutes, 5, 40, 1e9, 1e-6, 'tlap') FROM var_visits;
INSERT INTO var_person_releases
SELECT 'variance_ci', NULL, (c).value, (c).ci_lower, (c).ci_upper
FROM (SELECT dp_variance_ci(minutes, 5, 40, 1e9, 0.05) c FROM var_visits) x;
-- Public keys: every key, the empty region 3 too (noise on no persons, inside the range).
INSERT INTO var_person_releases
SELECT 'public keys', r.region, dp_variance(v.minutes, 5, 40, 1e9)
FROM var_regions r LEFT JOIN var_visits v ON v.region = r.region GROUP BY r.region;
-- Private group selection: the three regions of 19 persons each are kept at this epsilon.
INSERT INTO var_person_releases
SELECT 'selected', region, dp_stddev(minutes, 5, 40, 1e9) FROM var_visits GROUP BY region HAVING dp_groups(1e9, 1e-6);
SELECT r.form, r.region, round(var_pop(u.m)::numeric, 6) AS var_pop, round(stddev_pop(u.m)::numeric, 6) AS stddev_pop,
       count(u.m) AS persons,
       CASE WHEN count(u.m) = 0 THEN r.value BETWEEN 0 AND 35 ^ 2 / 4
            WHEN r.form IN ('stddev', 'selected') THEN abs(r.value - stddev_pop(u.m)) < 1e-6 * 35
            ELSE abs(r.value - var_pop(u.m)) < 1e-6 * 35 ^ 2 END AS released,
       r.ci_lower IS NULL OR (r.ci_lower <= var_pop(u.m) AND var_pop(u.m) <= r.ci_upper) AS covered
FROM var_person_releases r LEFT JOIN var_units u ON r.region IS NULL OR u.region = r.region
GROUP BY r.form, r.region, r.value, r.ci_lower, r.ci_upper ORDER BY r.form, r.region;
RESET SESSION AUTHORIZATION;
-- DP-only access: a role that may not read the rows gets the release, not the rows.
SET SESSION AUTHORIZATION var_dp_only;
SELECT dp_variance(minutes, 5, 40, 1e9) AS released FROM var_visits \gset
SELECT pg_temp.error_of('SELECT minutes FROM var_visits LIMIT 1') AS reading_rows;
RESET SESSION AUTHORIZATION;
SELECT abs(:released - var_pop(m)) < 1e-6 * 35 ^ 2 AS dp_only_variance FROM var_units;

-- The release cache: with a data epoch on the relation, the same release asked again is the
-- stored answer (from_cache, the same values) and charges nothing more.
SELECT relation FROM pgdp.set_refresh_policy('var_staff');
SELECT count(*) AS charged_before FROM pgdp.ledger WHERE role = 'var_analyst'::regrole \gset
SET SESSION AUTHORIZATION var_analyst;
SELECT dp_stddev_ci(age, 20, 70, 0.5, 1e-6, 'gaussian', 0.05) AS answer FROM var_staff \gset first_
SELECT dp_stddev_ci(age, 20, 70, 0.5, 1e-6, 'gaussian', 0.05) AS answer FROM var_staff \gset again_
RESET SESSION AUTHORIZATION;
SELECT (:'first_answer'::dp_release).from_cache AS first_from_cache,
       (:'again_answer'::dp_release).from_cache AS again_from_cache,
       (:'first_answer'::dp_release).value = (:'again_answer'::dp_release).value AS same_value,
       (SELECT count(*) FROM pgdp.ledger WHERE role = 'var_analyst'::regrole) - :charged_before AS charged;

-- Leave nothing behind for the tests after this one.
SET client_min_messages = warning;
SELECT pgdp.revoke_access('var_visits', 'var_dp_only');
SELECT pgdp.unprotect('var_visits');
SELECT pgdp.undeclare_public('var_regions');
DROP TABLE var_visits, var_regions, var_staff, var_wide CASCADE;
DELETE FROM pgdp.budgets WHERE role IN ('var_analyst'::regrole, 'var_dp_only'::regrole);
DELETE FROM pgdp.data_epochs;
DELETE FROM pgdp.release_cache;
DROP OWNED BY var_analyst, var_dp_only;
DROP ROLE var_analyst, var_dp_only;
RESET client_min_messages;
