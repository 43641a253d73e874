-- Person-level dp_histogram, quantiles and dp_count_distinct (issue 24 part 6) over a protected
-- relation: each privacy unit keeps at most k = pgdp.rows_per_unit rows per group (dp_count_distinct:
-- k distinct values), chosen at random, and at most m = max_groups_contributed groups; the calls
-- are calibrated for k and m. At epsilon 1e9 (Laplace) every release equals hand-written two-level
-- SQL over the same capped rows: every unit here has at most k = 3 rows per group except unit 1000,
-- whose 1000 rows in r1 all hold one value (any 3 of them are the same 3 rows) and unit 2000, whose
-- 50 distinct values all differ from everyone else's (any 3 of them add 3 distinct values).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE ps_analyst;
CREATE ROLE ps_dp_only;
SELECT role FROM pgdp.set_budget('ps_analyst', 1e18, 0.99);
SELECT role FROM pgdp.set_budget('ps_dp_only', 1e18, 0.99);
CREATE TABLE ps_visits (person int, region text, minutes int);
-- Units 1..200, each in two of r1..r4, with 1..3 rows per region.
INSERT INTO ps_visits
SELECT p, 'r' || (1 + (p + s) % 4), (p * 7 + r * 13) % 90
FROM generate_series(1, 200) p, generate_series(0, 1) s, generate_series(1, 3) r
WHERE r <= 1 + (p + s) % 3;
INSERT INTO ps_visits SELECT 1000, 'r1', 85 FROM generate_series(1, 1000);
INSERT INTO ps_visits SELECT 2000, 'r1', 100 + g FROM generate_series(1, 50) g;
-- Unit 3000 alone in 50 groups x1..x50 (one row each): with m = 2 it changes only 2 of them.
INSERT INTO ps_visits SELECT 3000, 'x' || g, 40 FROM generate_series(1, 50) g;
INSERT INTO ps_visits SELECT NULL, 'r1', 10 FROM generate_series(1, 30);  -- no unit: dropped
CREATE TABLE ps_regions (region text);
INSERT INTO ps_regions SELECT 'r' || g FROM generate_series(1, 5) g;  -- r5: no visits
INSERT INTO ps_regions SELECT 'x' || g FROM generate_series(1, 50) g;
GRANT SELECT ON ps_visits, ps_regions TO ps_analyst;
GRANT SELECT ON ps_regions TO ps_dp_only;
SELECT relation, max_groups_contributed FROM pgdp.protect('ps_visits', 'person', max_groups_contributed => 2);
SELECT relation FROM pgdp.declare_public('ps_regions');
SELECT relation FROM pgdp.grant_access('ps_visits', 'ps_dp_only');
-- The capped rows by hand: at most 3 rows per (region, unit), unit 2000's first 3 distinct values.
CREATE TABLE ps_capped AS
SELECT person, region, minutes FROM (
    SELECT v.*, row_number() OVER (PARTITION BY region, person ORDER BY minutes) AS n FROM ps_visits v
    WHERE person IS NOT NULL) s
WHERE n <= 3;
GRANT SELECT ON ps_capped TO ps_analyst;
RESET client_min_messages;
SET extra_float_digits = 0;
SET SESSION AUTHORIZATION ps_analyst;

-- k is a setting in [0, 1024] (0, the default: the protection's rows_per_unit, below); out of range
-- is refused by PostgreSQL.
SET pgdp.rows_per_unit = 0;
SET pgdp.rows_per_unit = 1025;
SET pgdp.rows_per_unit = 3;

-- The plan: the rows ranked per (unit, group) by pgdp.bounding_rank(), then the capped release.
EXPLAIN (COSTS OFF) SELECT dp_histogram(minutes, 0, 90, 9, 1e9) FROM ps_visits WHERE region = 'r1';

-- Ungrouped (WHERE region = 'r1'): the histogram equals width_bucket over the capped rows.
WITH released AS (
    SELECT (unnest(h)).* FROM (SELECT dp_histogram(minutes, 0, 90, 9, 1e9) AS h FROM ps_visits
                               WHERE region = 'r1') s),
     exact AS (
    SELECT b.bin, count(c.minutes) AS n FROM generate_series(0, 10) b(bin)
    LEFT JOIN ps_capped c ON c.region = 'r1' AND width_bucket(c.minutes, 0, 90, 9) = b.bin GROUP BY b.bin)
SELECT r.bin, r.count, e.n AS width_bucket_count, r.count = e.n AS equal
FROM released r JOIN exact e USING (bin) ORDER BY r.bin;

-- Unit 1000 (1000 rows at 85) counts 3 times in bin 9; at k = 1 once.
SELECT (h[10]).count AS bin_9_k3 FROM (SELECT dp_histogram(minutes, 0, 90, 9, 1e9) AS h FROM ps_visits
                                     WHERE region = 'r1' AND person IN (1000, 1)) s;
SET pgdp.rows_per_unit = 1;
SELECT (h[10]).count AS bin_9_k1 FROM (SELECT dp_histogram(minutes, 0, 90, 9, 1e9) AS h FROM ps_visits
                                     WHERE region = 'r1' AND person IN (1000, 1)) s;
SET pgdp.rows_per_unit = 3;

-- Quantiles: within one leaf ((upper - lower) / 65536) of percentile_disc over the capped rows.
WITH released AS (
    SELECT dp_quantiles(minutes, 0, 90, ARRAY[0.1, 0.25, 0.5, 0.75, 0.9], 1e9) AS q, dp_median(minutes, 0, 90, 1e9) AS median
    FROM ps_visits WHERE region = 'r1'),
     exact AS (
    SELECT percentile_disc(ARRAY[0.1, 0.25, 0.5, 0.75, 0.9]) WITHIN GROUP (ORDER BY minutes) AS q,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY minutes) AS median
    FROM ps_capped WHERE region = 'r1')
SELECT i, abs(r.q[i] - e.q[i]) <= 90.0 / 65536 AS within_a_leaf,
       abs(r.median - e.median) <= 90.0 / 65536 AS median_within_a_leaf
FROM released r, exact e, generate_series(1, 5) i ORDER BY i;

-- dp_count_distinct: count(DISTINCT) over the capped values (unit 2000 adds 3 of its 50).
SELECT (SELECT dp_count_distinct(minutes, 1e9) FROM ps_visits WHERE region = 'r1') AS released,
       (SELECT count(DISTINCT minutes) FROM ps_capped WHERE region = 'r1') AS count_distinct;
-- At k = 1 unit 2000 adds one value; the others' values stay.
SET pgdp.rows_per_unit = 1;
SELECT (SELECT dp_count_distinct(minutes, 1e9) FROM ps_visits WHERE region = 'r1' AND person IN (2000, 1000)) AS released;
SET pgdp.rows_per_unit = 3;

-- Grouped with private selection, mixed with dp_sum and dp_count in one rewrite: every region
-- equals the hand-written per-unit sums (clamped to [0, 100]), unit counts and capped histograms.
-- The x groups (one unit each) are not selected.
CREATE TEMP TABLE ps_grouped AS
SELECT region, dp_sum(minutes, 0, 100, 1e9) AS s, dp_count(1e9) AS units,
       dp_histogram(minutes, 0, 90, 3, 1e9) AS h, dp_median(minutes, 0, 90, 1e9) AS median
FROM ps_visits GROUP BY region HAVING dp_groups(1, 1e-6);
SELECT g.region, g.s = e.s AS sum_equal, g.units = e.units AS units_equal,
       (SELECT bool_and(b.count = (SELECT count(*) FROM ps_capped c WHERE c.region = g.region
                                   AND width_bucket(c.minutes, 0, 90, 3) = b.bin)) FROM unnest(g.h) b) AS histogram_equal,
       abs(g.median - (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY minutes) FROM ps_capped c
                       WHERE c.region = g.region)) <= 90.0 / 65536 AS median_within_a_leaf
FROM ps_grouped g
JOIN (SELECT region, sum(least(greatest(s, 0), 100)) AS s, count(*) AS units
      FROM (SELECT region, person, sum(minutes) s FROM ps_visits WHERE person IS NOT NULL GROUP BY 1, 2) u
      GROUP BY region) e USING (region)
ORDER BY g.region;

-- Public keys: every key of ps_regions, r5 with no unit (all bins 0); unit 3000 keeps m = 2 of
-- its 50 groups: the x groups' histograms hold 2 rows in all.
CREATE TEMP TABLE ps_public AS
SELECT r.region, dp_histogram(v.minutes, 0, 90, 3, 1e9) AS h, dp_count(1e9) AS units
FROM ps_regions r LEFT JOIN ps_visits v ON v.region = r.region GROUP BY r.region;
SELECT count(*) AS keys,
       (SELECT sum(b.count) FROM ps_public p, unnest(p.h) b WHERE p.region LIKE 'x%') AS x_rows,
       (SELECT sum(units) FROM ps_public WHERE region LIKE 'x%') AS x_units,
       (SELECT sum(b.count) FROM ps_public p, unnest(p.h) b WHERE p.region = 'r5') AS r5_rows,
       bool_and(p.region NOT LIKE 'r%' OR p.region = 'r5' OR
                (SELECT bool_and(b.count = (SELECT count(*) FROM ps_capped c WHERE c.region = p.region
                                            AND width_bucket(c.minutes, 0, 90, 3) = b.bin)) FROM unnest(p.h) b)) AS r_equal
FROM ps_public p;

-- The cap draws uniformly (400 releases each, at epsilon 1e9: no noise). Rows: unit 5000 has 10
-- rows in group u, values 0..9; at k = 1 each release keeps one of them: Pearson's chi-square of
-- the 10 counts (9 degrees of freedom) stays below 33.72, its 0.9999 quantile. Groups: unit 6000
-- is in 4 groups with 10, 1, 1, 1 rows; m = 2 keeps 2 of them, each with probability 1/2 whatever
-- its rows: group g1 is kept in 200 +- 44 releases (4.4 standard deviations, p < 1e-5; a draw
-- that favoured units' larger groups, e.g. the minimum of their rows' draws, would keep g1
-- in about 380).
RESET SESSION AUTHORIZATION;
SET client_min_messages = warning;
CREATE TABLE ps_draws (person int, grp text, v int);
INSERT INTO ps_draws SELECT 5000, 'u', g FROM generate_series(0, 9) g;
INSERT INTO ps_draws SELECT 6000, 'g1', 1 FROM generate_series(1, 10);
INSERT INTO ps_draws VALUES (6000, 'g2', 1), (6000, 'g3', 1), (6000, 'g4', 1);
CREATE TABLE ps_draw_groups (grp text);
INSERT INTO ps_draw_groups VALUES ('g1'), ('g2'), ('g3'), ('g4');
GRANT SELECT ON ps_draws, ps_draw_groups TO ps_analyst;
SELECT relation FROM pgdp.protect('ps_draws', 'person', max_groups_contributed => 2);
SELECT relation FROM pgdp.declare_public('ps_draw_groups');
RESET client_min_messages;
SET SESSION AUTHORIZATION ps_analyst;
SET pgdp.rows_per_unit = 1;
CREATE TEMP TABLE ps_kept_rows (release int, bin int, n bigint);
CREATE TEMP TABLE ps_kept_groups (release int, grp text, units bigint);
DO $$
BEGIN
    FOR i IN 1..400 LOOP
        INSERT INTO ps_kept_rows SELECT i, b.bin, b.count
        FROM (SELECT dp_histogram(v, 0, 10, 10, 1e9) AS h FROM ps_draws WHERE grp = 'u') s, unnest(s.h) b;
        INSERT INTO ps_kept_groups SELECT i, r.grp, dp_count(1e9)
        FROM ps_draw_groups r LEFT JOIN ps_draws d USING (grp) GROUP BY r.grp;
    END LOOP;
END $$;
SELECT (SELECT bool_and(total = 1) FROM (SELECT sum(n) AS total FROM ps_kept_rows GROUP BY release) t)
           AS one_row_per_release,
       (SELECT sum((kept - 40.0) ^ 2 / 40.0) FROM (SELECT b AS bin, coalesce(sum(n), 0) AS kept
            FROM generate_series(1, 10) b LEFT JOIN ps_kept_rows r ON r.bin = b GROUP BY b) t) < 33.72
           AS rows_uniform;
SELECT (SELECT bool_and(total = 2) FROM (SELECT sum(units) AS total FROM ps_kept_groups GROUP BY release) t)
           AS two_groups_per_release,
       abs((SELECT sum(units) FROM ps_kept_groups WHERE grp = 'g1') - 200) <= 44 AS large_group_not_favoured;
SET pgdp.rows_per_unit = 3;

-- One charge per call.
SELECT releases AS releases_before FROM pgdp.my_budget \gset
SELECT dp_histogram(minutes, 0, 90, 3, 1) IS NOT NULL AS released FROM ps_visits;
SELECT releases - :releases_before AS charged FROM pgdp.my_budget;
SELECT releases AS releases_before FROM pgdp.my_budget \gset
SELECT dp_quantiles(minutes, 0, 90, ARRAY[0.5, 0.9], 1) IS NOT NULL, dp_count_distinct(minutes, 1) >= 0 FROM ps_visits;
SELECT releases - :releases_before AS charged FROM pgdp.my_budget;

-- Refused before any charge: a value type without an ordering (its distinct values cannot be
-- capped), and the forms person-level releases refuse for every aggregate.
SELECT releases AS releases_before FROM pgdp.my_budget \gset
\set VERBOSITY sqlstate
SELECT dp_count_distinct(minutes::text::xid, 1) FROM ps_visits;
SELECT dp_histogram(minutes, 0, 90, 3, 1) FILTER (WHERE minutes > 1) FROM ps_visits;
SELECT region, dp_histogram(minutes, 0, 90, 3, 1) FROM ps_visits GROUP BY region;
\set VERBOSITY default
SELECT releases - :releases_before AS charged FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

-- DP-only access: ps_dp_only cannot read ps_visits but releases from it, the same as the analyst.
SET SESSION AUTHORIZATION ps_dp_only;
SELECT count(*) FROM ps_visits;
SET pgdp.rows_per_unit = 3;
SELECT (SELECT dp_count_distinct(minutes, 1e9) FROM ps_visits WHERE region = 'r1') AS released;
-- The value of each row-capped statistic must be leakproof too (0.13): a function of the
-- analyst's that raises on one person's value (85: unit 1000) would be an existence oracle, run
-- on the protected rows after the charge. Refused (42501) before any charge.
CREATE FUNCTION pg_temp.leaky(x int) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS 'SELECT x + 1 / (x - 85)';
SELECT releases AS releases_before FROM pgdp.my_budget \gset
\set VERBOSITY sqlstate
SELECT dp_histogram(pg_temp.leaky(minutes), 0, 90, 3, 1) FROM ps_visits;
SELECT dp_median(pg_temp.leaky(minutes), 0, 90, 1) FROM ps_visits;
SELECT dp_count_distinct(pg_temp.leaky(minutes), 1) FROM ps_visits;
\set VERBOSITY default
SELECT releases - :releases_before AS charged FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

-- The release cache: with a data epoch, the same histogram asked again is the stored answer and
-- charges nothing more; another k is another release.
SELECT relation FROM pgdp.set_refresh_policy('ps_visits');
SELECT count(*) AS charged_before FROM pgdp.ledger WHERE role = 'ps_analyst'::regrole \gset
SET SESSION AUTHORIZATION ps_analyst;
SET pgdp.rows_per_unit = 3;
SELECT dp_histogram(minutes, 0, 90, 3, 0.5) AS answer FROM ps_visits \gset first_
SELECT dp_histogram(minutes, 0, 90, 3, 0.5) AS answer FROM ps_visits \gset again_
RESET SESSION AUTHORIZATION;
SELECT :'first_answer' = :'again_answer' AS same_histogram,
       (SELECT count(*) FROM pgdp.ledger WHERE role = 'ps_analyst'::regrole) - :charged_before AS charged;
SET SESSION AUTHORIZATION ps_analyst;
SET pgdp.rows_per_unit = 2;
SELECT dp_histogram(minutes, 0, 90, 3, 0.5) IS NOT NULL AS released FROM ps_visits;
RESET SESSION AUTHORIZATION;
SELECT (SELECT count(*) FROM pgdp.ledger WHERE role = 'ps_analyst'::regrole) - :charged_before AS charged_with_other_k;

-- k declared with the protection (0.13): pgdp.protect(..., rows_per_unit => k) is the k of every
-- statement that leaves pgdp.rows_per_unit at 0 (its default); a statement's own k replaces it.
-- The release cache is off for these (another epoch would be another key, but the point is k).
SET client_min_messages = warning;
DELETE FROM pgdp.release_cache;
DELETE FROM pgdp.data_epochs WHERE relation = 'ps_visits'::regclass;
RESET client_min_messages;
RESET pgdp.rows_per_unit;
SHOW pgdp.rows_per_unit;
SELECT relation, max_groups_contributed, rows_per_unit
FROM pgdp.protect('ps_visits', 'person', max_groups_contributed => 2, rows_per_unit => 3);
SELECT relation, rows_per_unit FROM pgdp.protections WHERE relation = 'ps_visits'::regclass;
SET SESSION AUTHORIZATION ps_analyst;
RESET pgdp.rows_per_unit;
-- Unit 1000 counts 3 times in bin 9 (as with SET pgdp.rows_per_unit = 3 above), unit 2000 adds 3 values.
SELECT (h[10]).count AS bin_9_protection_k3 FROM (SELECT dp_histogram(minutes, 0, 90, 9, 1e9) AS h FROM ps_visits
                                                WHERE region = 'r1' AND person IN (1000, 1)) s;
SELECT dp_count_distinct(minutes, 1e9) AS distinct_protection_k3 FROM ps_visits WHERE region = 'r1' AND person IN (2000, 1000);
PREPARE ps_bin_9 AS SELECT (h[10]).count AS bin_9 FROM (SELECT dp_histogram(minutes, 0, 90, 9, 1e9) AS h
                                                         FROM ps_visits WHERE region = 'r1' AND person IN (1000, 1)) s;
EXECUTE ps_bin_9;
-- The statement's k replaces the protection's.
SET pgdp.rows_per_unit = 1;
SELECT (h[10]).count AS bin_9_statement_k1 FROM (SELECT dp_histogram(minutes, 0, 90, 9, 1e9) AS h FROM ps_visits
                                               WHERE region = 'r1' AND person IN (1000, 1)) s;
RESET pgdp.rows_per_unit;
RESET SESSION AUTHORIZATION;
-- Changing the protection's k: a statement prepared before is planned again with the new k.
SELECT relation, rows_per_unit FROM pgdp.protect('ps_visits', 'person', max_groups_contributed => 2, rows_per_unit => 1);
SET SESSION AUTHORIZATION ps_analyst;
EXECUTE ps_bin_9;
DEALLOCATE ps_bin_9;
RESET SESSION AUTHORIZATION;
-- Protected relations joined on their units: the smallest k (unit 1000's 1000 joined rows at 85
-- count min(3, 5) = 3 times, then min(3, 2) = 2).
SET client_min_messages = warning;
CREATE TABLE ps_tags (person int, tag int);
INSERT INTO ps_tags VALUES (1000, 1), (1, 1);
GRANT SELECT ON ps_tags TO ps_analyst;
RESET client_min_messages;
SELECT relation, rows_per_unit FROM pgdp.protect('ps_visits', 'person', 2, 'person', rows_per_unit => 3);
SELECT relation, rows_per_unit FROM pgdp.protect('ps_tags', 'person', 2, 'person', rows_per_unit => 5);
SET SESSION AUTHORIZATION ps_analyst;
SELECT (h[10]).count AS bin_9_smallest_k FROM (SELECT dp_histogram(v.minutes, 0, 90, 9, 1e9) AS h
                                             FROM ps_visits v JOIN ps_tags t ON t.person = v.person
                                             WHERE v.region = 'r1') s;
RESET SESSION AUTHORIZATION;
SELECT relation, rows_per_unit FROM pgdp.protect('ps_tags', 'person', 2, 'person', rows_per_unit => 2);
SET SESSION AUTHORIZATION ps_analyst;
SELECT (h[10]).count AS bin_9_smallest_k FROM (SELECT dp_histogram(v.minutes, 0, 90, 9, 1e9) AS h
                                             FROM ps_visits v JOIN ps_tags t ON t.person = v.person
                                             WHERE v.region = 'r1') s;
RESET SESSION AUTHORIZATION;
SELECT pgdp.unprotect('ps_tags');
DROP TABLE ps_tags;
SELECT relation, rows_per_unit FROM pgdp.protect('ps_visits', 'person', 2, rows_per_unit => 1);
-- Out of range or NULL: refused by pgdp.protect (the catalog keeps 1 <= k <= 1024 too).
\set VERBOSITY sqlstate
SELECT pgdp.protect('ps_visits', 'person', 2, rows_per_unit => 0);
SELECT pgdp.protect('ps_visits', 'person', 2, rows_per_unit => 1025);
SELECT pgdp.protect('ps_visits', 'person', 2, rows_per_unit => NULL);
UPDATE pgdp.protected_relations SET rows_per_unit = 0 WHERE relation = 'ps_visits'::regclass;
\set VERBOSITY default
SELECT pgdp.protect('ps_visits', 'person', 2, rows_per_unit => 0);
SELECT relation, rows_per_unit FROM pgdp.protections WHERE relation = 'ps_visits'::regclass;

SET client_min_messages = warning;
DELETE FROM pgdp.release_cache;
DELETE FROM pgdp.data_epochs WHERE relation = 'ps_visits'::regclass;
SELECT pgdp.unprotect('ps_visits');
SELECT pgdp.undeclare_public('ps_regions');
SELECT pgdp.unprotect('ps_draws');
SELECT pgdp.undeclare_public('ps_draw_groups');
DROP TABLE ps_visits, ps_regions, ps_capped, ps_draws, ps_draw_groups;
DROP OWNED BY ps_analyst, ps_dp_only;
DROP ROLE ps_analyst, ps_dp_only;
