-- pgdp demo, part 2: the private aggregates dp_count, dp_sum and dp_mean.
-- An analyst's session on a generated staff table: releases next to the true values for the
-- three forms and four mechanisms, overall and per region; what clamping costs; empty groups;
-- prepared statements; and releases with 95% intervals (dp_sum_ci, dp_mean_ci, dp_count_ci).
-- Run by scripts/demo.sh (psql, extension pgdp created). Everything lives in pg_temp and
-- vanishes with the session. The noise is real (pg_strong_random): numbers change on every run.
\set QUIET on
\set ON_ERROR_STOP on
\pset footer off
\pset null '-'

-- Every release is charged to the session user's privacy budget (part 3 shows budgets at work);
-- this demo session gets a generous one.
SELECT pgdp.set_budget(session_user::regrole, 1000, 0.01) \gset

-- Helpers ------------------------------------------------------------------------------------
-- A whole number with thousands separators, right-aligned in a column of the given width.
CREATE FUNCTION pg_temp.num(x float8, width int DEFAULT 16) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT lpad(t, greatest(width, length(t)))
    FROM (SELECT CASE WHEN x IS NULL THEN '-' ELSE ltrim(to_char(round(x::numeric), '999,999,999,999,990')) END) AS s(t)
$$;

-- A number with 2 decimals and thousands separators, right-aligned in a column of the given width.
CREATE FUNCTION pg_temp.dec(x float8, width int DEFAULT 12) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT lpad(t, greatest(width, length(t)))
    FROM (SELECT CASE WHEN x IS NULL THEN '-' ELSE ltrim(to_char(round(x::numeric, 2), '999,999,999,990.00')) END) AS s(t)
$$;

-- x clamped to [lower, upper], NULL for NULL (LEAST/GREATEST alone would turn NULL into a bound):
-- the true value a pgdp aggregate estimates, row by row. A plain SQL expression, inlined.
CREATE FUNCTION pg_temp.clamp(x float8, lower float8, upper float8) RETURNS float8
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN x IS NULL THEN NULL ELSE least(greatest(x, lower), upper) END
$$;

-- Relative error of a release against the true value, in percent.
CREATE FUNCTION pg_temp.err(released float8, truth float8) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT lpad(CASE WHEN truth IS NULL OR truth = 0 THEN '-'
                     ELSE to_char(100 * (released - truth) / abs(truth), 'FMSG990.000') || ' %' END, 10)
$$;

-- The error a query raises (SQLSTATE and message), or 'no error'.
CREATE FUNCTION pg_temp.error_of(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
    RETURN state || ': ' || message;
END
$$;

\echo
\echo '######## Part 2: the private aggregates dp_count, dp_sum, dp_mean ########'

-- The data -------------------------------------------------------------------------------------
-- 200000 employees in 5 regions of very different sizes. Salaries mostly in [20000, 250000],
-- 0.5 % executives far above; some NULL salaries, ages and bonuses. setseed makes the *data*
-- the same on every run (the noise is not seeded).
SELECT setseed(0.2024) \gset
CREATE TEMP TABLE staff (id int, region text, salary float8, age int4, bonus numeric);
INSERT INTO staff
SELECT i,
       CASE WHEN i <= 70000 THEN 'north' WHEN i <= 130000 THEN 'south' WHEN i <= 170000 THEN 'east'
            WHEN i <= 199500 THEN 'west' ELSE 'island' END,
       CASE WHEN i IN (199601, 199802, 199953) THEN 1500000 + (i % 7) * 100000  -- the island's executives
            WHEN random() < 0.01 THEN NULL
            WHEN random() < 0.005 THEN round(300000 + 3000000 * random() ^ 3)
            ELSE round(20000 + 180000 * random() ^ 2 + (i % 5) * 5000) END,
       CASE WHEN random() < 0.02 THEN NULL ELSE 18 + floor(random() * 50)::int END,
       CASE WHEN random() < 0.1 THEN NULL ELSE round((random() * 8000)::numeric, 2) END
FROM generate_series(1, 200000) AS i;
ANALYZE staff;

\echo
\echo '== 0. The data: staff(id, region, salary float8, age int4, bonus numeric), 200000 rows =='
\echo '   (true values: what an analyst without pgdp would see, shown here only to judge the releases)'
SELECT region, count(*) AS rows,
       count(*) - count(salary) AS "NULL salaries",
       count(*) FILTER (WHERE salary > 250000) AS "salary > 250000",
       pg_temp.num(max(salary)) AS "max salary",
       pg_temp.dec(avg(salary)) AS "avg salary",
       count(*) - count(age) AS "NULL ages",
       count(*) - count(bonus) AS "NULL bonuses"
FROM staff GROUP BY region ORDER BY count(*) DESC;

-- 1 --------------------------------------------------------------------------------------------
\echo
\echo '== 1. dp_count: rows per region, epsilon = 0.5, delta = 1e-6 =='
\echo '   dp_count(0.5)                 laplace, pure epsilon-DP (1-argument form)'
\echo '   dp_count(0.5, 1e-6)           auto: the least noise variance for (epsilon, delta)'
\echo '   dp_count(0.5, 1e-6, ''gaussian'') and dp_count(0.5, 1e-6, ''tlap'')'
\echo '   Sensitivity 1: the error is a few rows whatever the group size. "all" is GROUP BY ROLLUP:'
\echo '   a second release over the same rows, so the table as a whole spends epsilon twice.'
WITH r AS (
    SELECT region, count(*) AS truth,
           dp_count(0.5) AS laplace, dp_count(0.5, 1e-6) AS auto,
           dp_count(0.5, 1e-6, 'gaussian') AS gaussian, dp_count(0.5, 1e-6, 'tlap') AS tlap
    FROM staff GROUP BY ROLLUP (region)
)
SELECT coalesce(region, 'all') AS region, truth AS "true count",
       laplace, pg_temp.err(laplace, truth) AS "err",
       auto, pg_temp.err(auto, truth) AS "err",
       gaussian, pg_temp.err(gaussian, truth) AS "err",
       tlap, pg_temp.err(tlap, truth) AS "err"
FROM r ORDER BY region IS NULL, truth DESC;

-- 2 --------------------------------------------------------------------------------------------
\echo
\echo '== 2. dp_sum: total salary per region, clamped to [20000, 250000], epsilon = 0.5, delta = 1e-6 =='
\echo '   dp_sum(salary, 20000, 250000, 0.5)                      laplace (4-argument form)'
\echo '   dp_sum(salary, 20000, 250000, 0.5, 1e-6)                auto (5-argument form)'
\echo '   dp_sum(salary, 20000, 250000, 0.5, 1e-6, ''gaussian'')    and ''tlap'' (6-argument form)'
\echo '   Sensitivity max(|lower|, |upper|) = 250000: one row moves the clamped sum by at most that.'
\echo '   Errors are against the true clamped sum (what the aggregate estimates; see section 5).'
WITH r AS (
    SELECT region,
           sum(pg_temp.clamp(salary, 20000, 250000)) AS truth,
           dp_sum(salary, 20000, 250000, 0.5) AS laplace,
           dp_sum(salary, 20000, 250000, 0.5, 1e-6) AS auto,
           dp_sum(salary, 20000, 250000, 0.5, 1e-6, 'gaussian') AS gaussian,
           dp_sum(salary, 20000, 250000, 0.5, 1e-6, 'tlap') AS tlap
    FROM staff GROUP BY ROLLUP (region)
)
SELECT coalesce(region, 'all') AS region, pg_temp.num(truth) AS "true clamped sum",
       pg_temp.num(laplace) AS laplace, pg_temp.err(laplace, truth) AS "err",
       pg_temp.num(auto) AS auto, pg_temp.err(auto, truth) AS "err",
       pg_temp.num(gaussian) AS gaussian, pg_temp.err(gaussian, truth) AS "err",
       pg_temp.num(tlap) AS tlap, pg_temp.err(tlap, truth) AS "err"
FROM r ORDER BY region IS NULL, truth DESC;

-- 3 --------------------------------------------------------------------------------------------
\echo
\echo '== 3. dp_mean: average salary per region, clamped to [20000, 250000], epsilon = 1, delta = 1e-6 =='
\echo '   Half the budget on the sum of (salary - midpoint), half on the count; the result is'
\echo '   clamped to [lower, upper]. Errors against the true mean of the clamped salaries.'
WITH r AS (
    SELECT region,
           avg(salary) AS raw,
           avg(pg_temp.clamp(salary, 20000, 250000)) AS truth,
           dp_mean(salary, 20000, 250000, 1) AS laplace,
           dp_mean(salary, 20000, 250000, 1, 1e-6) AS auto,
           dp_mean(salary, 20000, 250000, 1, 1e-6, 'gaussian') AS gaussian,
           dp_mean(salary, 20000, 250000, 1, 1e-6, 'tlap') AS tlap
    FROM staff GROUP BY ROLLUP (region)
)
SELECT coalesce(region, 'all') AS region, pg_temp.dec(raw, 15) AS "avg (unclamped)",
       pg_temp.dec(truth, 17) AS "true clamped mean",
       pg_temp.dec(laplace) AS laplace, pg_temp.err(laplace, truth) AS "err",
       pg_temp.dec(auto) AS auto, pg_temp.err(auto, truth) AS "err",
       pg_temp.dec(gaussian) AS gaussian, pg_temp.err(gaussian, truth) AS "err",
       pg_temp.dec(tlap) AS tlap, pg_temp.err(tlap, truth) AS "err"
FROM r ORDER BY region IS NULL, truth DESC;

\echo '   Other value types: integer sums are bigint (releases are integers), numeric stays numeric.'
SELECT region,
       sum(pg_temp.clamp(age, 18, 70)) AS "true age sum", dp_sum(age, 18, 70, 1) AS "dp_sum(age, 18, 70, 1)",
       pg_temp.dec(avg(age)) AS "true avg age", pg_temp.dec(dp_mean(age, 18, 70, 1), 23) AS "dp_mean(age, 18, 70, 1)",
       pg_temp.dec(sum(bonus), 14) AS "true bonus sum", pg_temp.dec(dp_sum(bonus, 0, 8000, 1), 25) AS "dp_sum(bonus, 0, 8000, 1)"
FROM staff GROUP BY region ORDER BY count(*) DESC;

-- 4 --------------------------------------------------------------------------------------------
\echo
\echo '== 4. What auto picks: noise standard deviation of a sum with sensitivity 250000, delta = 1e-6 =='
\echo '   laplace: sqrt(2) Delta / epsilon; gaussian: gaussian_sigma(epsilon, delta, Delta);'
\echo '   tlap: sqrt of the power of tlap_params(epsilon, delta, Delta). auto takes the smallest'
\echo '   (Geng et al., Section 6: the truncated Laplace usually wins for a single query).'
SELECT e.eps AS epsilon,
       pg_temp.num(sqrt(2) * 250000 / e.eps) AS laplace,
       pg_temp.num(gaussian_sigma(e.eps, 1e-6, 250000)) AS gaussian,
       pg_temp.num(sqrt((tlap_params(e.eps, 1e-6, 250000)).power)) AS tlap,
       CASE WHEN (tlap_params(e.eps, 1e-6, 250000)).power < least(2 * (250000 / e.eps) ^ 2, gaussian_sigma(e.eps, 1e-6, 250000) ^ 2)
                 THEN 'tlap'
            WHEN gaussian_sigma(e.eps, 1e-6, 250000) ^ 2 < 2 * (250000 / e.eps) ^ 2 THEN 'gaussian'
            ELSE 'laplace' END AS "auto picks"
FROM (VALUES (0.1::float8), (0.5), (1), (5), (20)) AS e(eps) ORDER BY e.eps;

-- 5 --------------------------------------------------------------------------------------------
\echo
\echo '== 5. Clamping: the bounds trade bias against noise (total salary, epsilon = 0.5, laplace) =='
\echo '   Each row is clamped to [lower, upper] before summing, so the release estimates the clamped'
\echo '   sum; the noise grows with the sensitivity max(|lower|, |upper|). A high upper bound keeps the'
\echo '   executives but drowns the small island in noise; a low one cuts real salaries.'
WITH r AS (
    SELECT 'all' AS scope, 100000 AS upper, sum(salary) AS truth, sum(pg_temp.clamp(salary, 20000, 100000)) AS clamped,
           dp_sum(salary, 20000, 100000, 0.5) AS released FROM staff
    UNION ALL
    SELECT 'all', 250000, sum(salary), sum(pg_temp.clamp(salary, 20000, 250000)),
           dp_sum(salary, 20000, 250000, 0.5) FROM staff
    UNION ALL
    SELECT 'all', 4000000, sum(salary), sum(pg_temp.clamp(salary, 20000, 4000000)),
           dp_sum(salary, 20000, 4000000, 0.5) FROM staff
    UNION ALL
    SELECT 'island', 100000, sum(salary), sum(pg_temp.clamp(salary, 20000, 100000)),
           dp_sum(salary, 20000, 100000, 0.5) FROM staff WHERE region = 'island'
    UNION ALL
    SELECT 'island', 250000, sum(salary), sum(pg_temp.clamp(salary, 20000, 250000)),
           dp_sum(salary, 20000, 250000, 0.5) FROM staff WHERE region = 'island'
    UNION ALL
    SELECT 'island', 4000000, sum(salary), sum(pg_temp.clamp(salary, 20000, 4000000)),
           dp_sum(salary, 20000, 4000000, 0.5) FROM staff WHERE region = 'island'
)
SELECT scope, '[20000, ' || upper || ']' AS bounds,
       pg_temp.num(truth) AS "true sum", pg_temp.num(clamped) AS "true clamped sum",
       pg_temp.err(clamped, truth) AS "clamping",
       pg_temp.num(released) AS "dp_sum", pg_temp.err(released, clamped) AS "noise",
       pg_temp.err(released, truth) AS "vs true sum"
FROM r;

-- 6 --------------------------------------------------------------------------------------------
\echo
\echo '== 6. An empty group still releases a number (WHERE false) =='
\echo '   count/sum/avg give 0, NULL, NULL; a NULL (or an exact 0) would tell that nobody matched.'
\echo '   The pgdp aggregates release noise around 0 (dp_mean: clamped to the bounds).'
SELECT count(*) AS "count(*)", sum(salary) AS "sum(salary)", avg(salary) AS "avg(salary)",
       dp_count(0.5) AS "dp_count",
       pg_temp.num(dp_sum(salary, 20000, 250000, 0.5, 1e-6)) AS "dp_sum",
       pg_temp.dec(dp_mean(salary, 20000, 250000, 0.5, 1e-6)) AS "dp_mean"
FROM staff WHERE false;

-- 7 --------------------------------------------------------------------------------------------
\echo
\echo '== 7. Prepared statements: the privacy parameters may be bind parameters =='
\echo '   PREPARE island(float8, float8, text) AS SELECT dp_count($1, $2, $3), dp_sum(salary, 20000, 250000, $1, $2, $3),'
\echo '          dp_mean(salary, 20000, 250000, $1, $2, $3) FROM staff WHERE region = ''island'''
\echo '   (one EXECUTE per line; the island has 500 rows, so the noise is visible)'
PREPARE island(float8, float8, text) AS
    SELECT $1 AS epsilon, $2 AS delta, $3 AS mechanism,
           count(*) AS "true count", dp_count($1, $2, $3) AS dp_count,
           pg_temp.num(sum(pg_temp.clamp(salary, 20000, 250000))) AS "true clamped sum",
           pg_temp.num(dp_sum(salary, 20000, 250000, $1, $2, $3)) AS dp_sum,
           pg_temp.dec(avg(pg_temp.clamp(salary, 20000, 250000)), 17) AS "true clamped mean",
           pg_temp.dec(dp_mean(salary, 20000, 250000, $1, $2, $3)) AS dp_mean
    FROM staff WHERE region = 'island';
CREATE TEMP TABLE run1 AS EXECUTE island(0.1, 1e-6, 'auto');
CREATE TEMP TABLE run2 AS EXECUTE island(0.5, 1e-6, 'auto');
CREATE TEMP TABLE run3 AS EXECUTE island(1, 1e-6, 'auto');
CREATE TEMP TABLE run4 AS EXECUTE island(1, 1e-6, 'gaussian');
CREATE TEMP TABLE run5 AS EXECUTE island(1, 0, 'laplace');
CREATE TEMP TABLE run6 AS EXECUTE island(5, 1e-6, 'tlap');
SELECT * FROM run1 UNION ALL SELECT * FROM run2 UNION ALL SELECT * FROM run3
UNION ALL SELECT * FROM run4 UNION ALL SELECT * FROM run5 UNION ALL SELECT * FROM run6;
DEALLOCATE island;

\echo '   The parameters must be the same for every row: columns and volatile expressions are refused'
\echo '   before any row is read, and so are invalid values.'
SELECT query, pg_temp.error_of(query) AS error
FROM (VALUES
    ('SELECT dp_sum(salary, 0, age * 1000, 1) FROM staff'),
    ('SELECT dp_count(random()) FROM staff'),
    ('SELECT dp_sum(salary, 20000, 250000, 1, 1e-6, ''laplace'') FROM staff'),
    ('SELECT dp_mean(salary, 250000, 20000, 1) FROM staff WHERE false')
) AS t(query);

-- 8 --------------------------------------------------------------------------------------------
\echo
\echo '== 8. Releases with 95% intervals: dp_sum_ci, dp_mean_ci, dp_count_ci (epsilon = 0.5, delta = 1e-6) =='
\echo '   The same arguments plus alpha; one dp_release record: value, ci_lower, ci_upper, noise_sd, alpha,'
\echo '   mechanism (auto resolved). The interval holds the exact clamped value with probability >= 1 - alpha'
\echo '   and is computed from the noisy value and the parameters only (dp_mean: union bound over sum and count;'
\echo '   count intervals shown rounded inwards to integers, which keeps every integer they contain).'
WITH r AS (
    SELECT region,
           sum(pg_temp.clamp(salary, 20000, 250000)) AS sum_truth,
           dp_sum_ci(salary, 20000, 250000, 0.5, 1e-6, 0.05) AS s,
           avg(pg_temp.clamp(salary, 20000, 250000)) AS mean_truth,
           dp_mean_ci(salary, 20000, 250000, 0.5, 1e-6, 'gaussian', 0.05) AS m,
           count(*) AS count_truth,
           dp_count_ci(0.5, 0.05) AS c
    FROM staff GROUP BY region
)
SELECT region,
       pg_temp.num(sum_truth) AS "true clamped sum",
       pg_temp.num((s).ci_lower) || ' .. ' || ltrim(pg_temp.num((s).ci_upper)) AS "dp_sum_ci 95% (auto)",
       (s).mechanism AS "auto =",
       CASE WHEN sum_truth BETWEEN (s).ci_lower AND (s).ci_upper THEN 'yes' ELSE 'NO' END AS covers,
       pg_temp.dec(mean_truth, 17) AS "true clamped mean",
       pg_temp.dec((m).ci_lower) || ' .. ' || ltrim(pg_temp.dec((m).ci_upper)) AS "dp_mean_ci 95% (gaussian)",
       CASE WHEN mean_truth BETWEEN (m).ci_lower AND (m).ci_upper THEN 'yes' ELSE 'NO' END AS covers,
       count_truth AS "true count",
       (c).value AS "dp_count_ci",
       ceil((c).ci_lower) || ' .. ' || floor((c).ci_upper) AS "95% (laplace)",
       CASE WHEN count_truth BETWEEN (c).ci_lower AND (c).ci_upper THEN 'yes' ELSE 'NO' END AS covers
FROM r ORDER BY count_truth DESC;

\echo '   For comparison, the documented noise of the sum: gaussian_accuracy / tlap_accuracy at sensitivity'
\echo '   250000 = max(|lower|, |upper|) (the aggregate adds one grid step for discreteness and rounding):'
SELECT pg_temp.num(gaussian_accuracy(0.5, 1e-6, 250000, 0.05)) AS "gaussian half-width",
       pg_temp.num(tlap_accuracy(0.5, 1e-6, 250000, 0.05)) AS "tlap half-width",
       pg_temp.num(ln(1 / 0.05) * 250000 / 0.5) AS "laplace half-width";

\echo '   Coverage over 2000 independent releases on the island (one per generate_series group):'
\echo '   at least 95% of the intervals should contain the true value (standard error about 0.5 %).'
-- MATERIALIZED: computed once; pgdp refuses plans that could evaluate a release twice per charge.
WITH releases AS MATERIALIZED (
    SELECT g,
           dp_sum_ci(salary, 20000, 250000, 0.5, 1e-6, 'gaussian', 0.05) AS gauss,
           dp_sum_ci(salary, 20000, 250000, 0.5, 1e-6, 'tlap', 0.05) AS tlap,
           dp_mean_ci(salary, 20000, 250000, 0.5, 0.05) AS mean,
           dp_count_ci(0.5, 1e-6, 'gaussian', 0.05) AS counted
    FROM staff, generate_series(1, 2000) AS g
    WHERE region = 'island'
    GROUP BY g
), truth AS (
    SELECT sum(pg_temp.clamp(salary, 20000, 250000)) AS s, avg(pg_temp.clamp(salary, 20000, 250000)) AS m,
           count(*) AS n
    FROM staff WHERE region = 'island'
)
SELECT to_char(100.0 * avg((t.s BETWEEN (gauss).ci_lower AND (gauss).ci_upper)::int), 'FM990.0') || ' %'
           AS "dp_sum_ci gaussian",
       to_char(100.0 * avg((t.s BETWEEN (tlap).ci_lower AND (tlap).ci_upper)::int), 'FM990.0') || ' %'
           AS "dp_sum_ci tlap",
       to_char(100.0 * avg((t.m BETWEEN (mean).ci_lower AND (mean).ci_upper)::int), 'FM990.0') || ' %'
           AS "dp_mean_ci laplace",
       to_char(100.0 * avg((t.n BETWEEN (counted).ci_lower AND (counted).ci_upper)::int), 'FM990.0') || ' %'
           AS "dp_count_ci gaussian",
       pg_temp.num(max(abs((tlap).value - t.s))) AS "max tlap error",
       pg_temp.num((tlap_params(0.5, 1e-6, 250000)).bound) AS "tlap bound A"
FROM releases, truth t
GROUP BY t.s, t.m, t.n;

-- 9 --------------------------------------------------------------------------------------------
\echo
\echo '== 9. Spread and shape (0.11): dp_stddev, dp_median, dp_histogram next to PostgreSQL''s own =='
\echo '   dp_stddev: epsilon 1 split 0.28 : 0.44 : 0.28 over the centred sum of squares, sum and count.'
SELECT region, pg_temp.dec(stddev_pop(pg_temp.clamp(salary, 20000, 250000)), 17) AS "true stddev (clamped)",
       pg_temp.dec(dp_stddev(salary, 20000, 250000, 1), 17) AS "dp_stddev(salary, 20000, 250000, 1)"
FROM staff GROUP BY region ORDER BY count(*) DESC;
\echo '   dp_median and dp_quantiles: any number of levels from one noisy quantile tree (one release).'
SELECT region, pg_temp.dec(percentile_disc(0.5) WITHIN GROUP (ORDER BY pg_temp.clamp(salary, 20000, 250000)), 17)
           AS "true median (clamped)",
       pg_temp.dec(dp_median(salary, 20000, 250000, 1), 17) AS "dp_median(salary, 20000, 250000, 1)"
FROM staff GROUP BY region ORDER BY count(*) DESC;
SELECT d.truth AS "true deciles 1, 5, 9",
       (SELECT array_agg(round(x::numeric)) FROM unnest(d.released) x) AS "dp_quantiles(..., ARRAY[0.1, 0.5, 0.9], 1)"
FROM (SELECT percentile_disc(ARRAY[0.1, 0.5, 0.9]) WITHIN GROUP (ORDER BY pg_temp.clamp(salary, 20000, 250000)) AS truth,
             dp_quantiles(salary, 20000, 250000, ARRAY[0.1, 0.5, 0.9], 1) AS released
      FROM staff) d;
\echo '   dp_histogram(age, 20, 70, 5, 0.5): five bins of 10 years and the two outer bins, one release'
\echo '   (epsilon 0.5 for all seven counts: a row is in one bin), each with its 95% interval.'
SELECT h.bin, h.bin_lower, h.bin_upper, coalesce(t.n, 0) AS "true count (width_bucket)", h.count AS "dp_histogram",
       '[' || h.interval_low || ', ' || h.interval_high || ']' AS "95% interval"
FROM unnest((SELECT dp_histogram(age, 20, 70, 5, 0.5) FROM staff)) AS h
LEFT JOIN (SELECT width_bucket(age, 20, 70, 5) AS bin, count(*) AS n FROM staff GROUP BY 1) t ON t.bin = h.bin
ORDER BY h.bin;
\echo '   Bounds left out (0.14): dp_mean(salary, 1) estimates its clamping bounds privately inside the'
\echo '   release (a quarter of epsilon, one charge); dp_mean_ci(salary, NULL, NULL, 1, 0.05), the same'
\echo '   release with its interval, reports them. dp_median(salary, 1) needs none: a log-linear quantile'
\echo '   tree, within 0.4 % of percentile_disc at a huge epsilon.'
WITH released AS (
    SELECT region, dp_mean_ci(salary, NULL, NULL, 1, 0.05) AS r, dp_median(salary, 1) AS median
    FROM staff GROUP BY region)
SELECT d.region, (d.r).lower_bound AS "estimated lower", (d.r).upper_bound AS "estimated upper",
       pg_temp.dec((SELECT avg(pg_temp.clamp(salary, (d.r).lower_bound, (d.r).upper_bound))
                    FROM staff s WHERE s.region = d.region), 17) AS "true mean (clamped to them)",
       pg_temp.dec((d.r).value, 17) AS "dp_mean",
       pg_temp.dec((SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY salary) FROM staff s WHERE s.region = d.region), 17)
           AS "true median",
       pg_temp.dec(d.median, 17) AS "dp_median(salary, 1)"
FROM released d ORDER BY d.region;
\echo
\echo '   Every query above is a separate release: their privacy costs add up, and each was charged'
\echo '   to this session''s budget (part 3 shows budgets at work). See docs/privacy.md.'
