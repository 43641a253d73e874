-- One release per distinct call, on every path (issue 34 part 1). The parser writes
-- (dp_mean_ci(...)).* as one call per field of dp_release; PostgreSQL computes equal aggregate
-- calls of one query level once, and pgdp charges that one computation once: over plain relations,
-- over protected relations (person level, with SELECT or with DP-only access), grouped with a
-- selection, in prepared statements with generic plans, cursors, parallel plans and the release
-- cache. Every field then comes from that one release. Calls that differ in anything (an argument,
-- FILTER) are separate releases. Each statement's releases are the ledger rows it adds.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE or_analyst;
CREATE ROLE or_dp_only;
SELECT count(*) FROM (SELECT pgdp.set_budget(r::regrole, 1e9, 0.99)
                      FROM unnest(ARRAY['or_analyst', 'or_dp_only']) r) s;
RESET client_min_messages;
SET extra_float_digits = 0;

-- Customers 1..300 with orders in months 1..12 and countries a..c; the plain copy has no protection.
CREATE TABLE or_orders (customer int, month int, country text, amount int);
INSERT INTO or_orders
SELECT c, 1 + (c * 7 + o) % 12, chr(97 + c % 3), (c * 13 + o * 29) % 2500
FROM generate_series(1, 300) c, generate_series(1, 1 + c % 5) o;
CREATE TABLE or_plain AS SELECT * FROM or_orders;
CREATE TABLE or_countries (country text);
INSERT INTO or_countries VALUES ('a'), ('b'), ('c');
GRANT SELECT ON or_orders, or_plain, or_countries TO or_analyst;
GRANT SELECT ON or_plain, or_countries TO or_dp_only;
SELECT relation, max_groups_contributed FROM pgdp.protect('or_orders', 'customer', max_groups_contributed => 2);
SELECT relation FROM pgdp.declare_public('or_countries');
SELECT relation, role, can_read_rows FROM pgdp.grant_access('or_orders', 'or_dp_only');

-- Whether the fields of a dp_sum_ci or dp_count_ci are one release: its Laplace interval is
-- centred on its own value, so fields of two releases (noise of scale 2000 here) would not agree.
-- (A dp_mean_ci's interval, a ratio's, is not symmetric: only its value lies inside.) Written into
-- each statement: a function of another role's in a release is refused.
\set centred '(ci_lower <= value AND value <= ci_upper AND abs((value - ci_lower) - (ci_upper - value)) < 1e-6 * (ci_upper - ci_lower))'
\set inside '(ci_lower <= value AND value <= ci_upper)'

SET SESSION AUTHORIZATION or_analyst;

-- ---- ungrouped: the README's idiom -----------------------------------------------------------
-- Over a plain relation: one release, its 13 fields from it.
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT :inside AS inside, epsilon, delta, mechanism, alpha, lower_bound, upper_bound, max_groups_contributed,
       rows_per_unit
FROM (SELECT (dp_mean_ci(amount, 0, 2000, 1, 0, 'laplace', 0.05)).* FROM or_plain) r;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
-- Over the protected relation (person level: each customer's mean, one value per customer): one
-- release, not one per field; it reports each customer bounded to 1 group and 1 value.
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT :inside AS inside, epsilon, lower_bound, upper_bound, max_groups_contributed, rows_per_unit
FROM (SELECT (dp_mean_ci(amount, 0, 2000, 1, 0, 'laplace', 0.05)).* FROM or_orders) r;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT :centred AS one_release FROM (SELECT (dp_sum_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders) r;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
-- The same call written twice (in the select list, in HAVING, in ORDER BY) is one release: equal
-- values; a call with another argument is another release.
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT dp_sum(amount, 0, 2000, 1) = dp_sum(amount, 0, 2000, 1) AS same_value,
       dp_sum(amount, 0, 2000, 1) IS NOT NULL AS released
FROM or_orders HAVING dp_sum(amount, 0, 2000, 1) > -1e12 ORDER BY dp_sum(amount, 0, 2000, 1);
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT dp_sum(amount, 0, 2000, 1) IS NOT NULL AS first, dp_sum(amount, 0, 2000, 0.5) IS NOT NULL AS second,
       dp_sum(amount, 0, 1000, 1) IS NOT NULL AS third, dp_count(1) IS NOT NULL AS fourth
FROM or_orders;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
-- (dp_sum_ci(...)).value and a field of the same call elsewhere in the select list: one release.
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT (dp_sum_ci(amount, 0, 2000, 1, 0.05)).value - (dp_sum_ci(amount, 0, 2000, 1, 0.05)).ci_lower
       = (dp_sum_ci(amount, 0, 2000, 1, 0.05)).ci_upper - (dp_sum_ci(amount, 0, 2000, 1, 0.05)).value AS one_release
FROM or_orders;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
-- Over a plain relation a FILTER makes another call.
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT dp_sum(amount, 0, 2000, 1) IS NOT NULL AS all_rows,
       dp_sum(amount, 0, 2000, 1) FILTER (WHERE month = 1) IS NOT NULL AS january
FROM or_plain;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
-- Equal calls over a volatile expression are computed once each by PostgreSQL (their values may
-- differ), so they are separate releases over plain and protected relations alike.
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT dp_sum(amount * (random() < 2)::int, 0, 2000, 1) IS NOT NULL AS first,
       dp_sum(amount * (random() < 2)::int, 0, 2000, 1) IS NOT NULL AS second
FROM or_plain;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT dp_sum(amount * (random() < 2)::int, 0, 2000, 1) IS NOT NULL AS first,
       dp_sum(amount * (random() < 2)::int, 0, 2000, 1) IS NOT NULL AS second
FROM or_orders;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
-- The row-capped statistics too: the median written twice is one release.
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT dp_median(amount, 0, 2500, 1) = dp_median(amount, 0, 2500, 1) AS same_value FROM or_orders;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;

-- ---- grouped ---------------------------------------------------------------------------------
-- With the selection: one release per call (the sum once, whatever the fields, in HAVING and ORDER
-- BY too) and the selection once; every group's fields from its one release; each customer bounded
-- to the protection's 2 groups.
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT country, :centred AS one_release, max_groups_contributed, rows_per_unit
FROM (SELECT country, (dp_sum_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders GROUP BY country
      HAVING dp_groups(1, 1e-6) AND dp_sum_ci(amount, 0, 2000, 1, 0.05) IS NOT NULL
      ORDER BY (dp_sum_ci(amount, 0, 2000, 1, 0.05)).value) r
ORDER BY country;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
SELECT aggregate FROM pgdp.my_ledger ORDER BY charge_id DESC, release LIMIT 2;
-- With public keys: the same.
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT country, max_groups_contributed, :centred AS one_release
FROM (SELECT k.country, (dp_count_ci(1, 0.05)).* FROM or_countries k LEFT JOIN or_orders o USING (country)
      GROUP BY k.country) r
ORDER BY country;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;

-- ---- prepared statements (custom and generic plans), cursors ---------------------------------
PREPARE or_sum(int) AS
SELECT :centred AS one_release, upper_bound
FROM (SELECT (dp_sum_ci(amount, 0, $1, 1, 0.05)).* FROM or_orders) r;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
EXECUTE or_sum(2000);
SET plan_cache_mode = force_generic_plan;
EXECUTE or_sum(1500);
RESET plan_cache_mode;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
DEALLOCATE or_sum;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
BEGIN;
DECLARE or_cursor CURSOR FOR
SELECT :centred AS one_release FROM (SELECT (dp_sum_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders) r;
FETCH or_cursor;
COMMIT;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
RESET SESSION AUTHORIZATION;

-- ---- DP-only access: the same, for a role that may not read the rows ---------------------------
SET SESSION AUTHORIZATION or_dp_only;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT :centred AS one_release, max_groups_contributed, rows_per_unit
FROM (SELECT (dp_sum_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders) r;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT country, :centred AS one_release
FROM (SELECT country, (dp_sum_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders GROUP BY country
      HAVING dp_groups(1, 1e-6)) r
ORDER BY country;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
RESET SESSION AUTHORIZATION;

-- ---- parallel plans: partial aggregates in the workers, one release by the leader --------------
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET SESSION AUTHORIZATION or_analyst;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT :centred AS one_release
FROM (SELECT (dp_sum_ci(amount, 0, 2000, 1, 0.05)).* FROM or_plain) r;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT :centred AS one_release
FROM (SELECT (dp_sum_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders) r;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
RESET SESSION AUTHORIZATION;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- ---- the release cache: the first run one release, the repetition none, the same rows, the
-- from_cache field true (a column of anything else called from_cache is left as it was) ---------
SELECT relation, policy FROM pgdp.set_refresh_policy('or_orders', 'manual');
SET SESSION AUTHORIZATION or_analyst;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT (dp_mean_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders \gset first_
SELECT :'first_from_cache' AS from_cache, count(*) - :before AS releases FROM pgdp.my_ledger;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT (dp_mean_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders \gset again_
SELECT :'again_from_cache' AS from_cache, count(*) - :before AS releases,
       (:'again_value', :'again_ci_lower', :'again_ci_upper') = (:'first_value', :'first_ci_lower', :'first_ci_upper')
           AS same_release,
       :'again_max_groups_contributed' AS max_groups_contributed, :'again_rows_per_unit' AS rows_per_unit
FROM pgdp.my_ledger;
-- from_cache written as a column of its own says where the answer came from, also through a
-- subquery or a CTE.
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT from_cache, max_groups_contributed FROM (SELECT (dp_sum_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders) r;
SELECT from_cache, max_groups_contributed FROM (SELECT (dp_sum_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders) r;
WITH r AS MATERIALIZED (SELECT (dp_sum_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders) SELECT from_cache FROM r;
WITH r AS MATERIALIZED (SELECT (dp_sum_ci(amount, 0, 2000, 1, 0.05)).* FROM or_orders) SELECT from_cache FROM r;
SELECT dp_sum_ci(amount, 0, 2000, 1, 0.05) IS NOT NULL AS released, false AS from_cache FROM or_orders;
SELECT dp_sum_ci(amount, 0, 2000, 1, 0.05) IS NOT NULL AS released, false AS from_cache FROM or_orders;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;  -- the first of each pair
RESET SESSION AUTHORIZATION;
DELETE FROM pgdp.release_cache;
DELETE FROM pgdp.data_epochs;

-- ---- pgdp.max_groups_contributed: the statement's own groups per unit --------------------------
-- Customer 1000 has orders in 5 months of its own (20..24), nobody else there: with public keys,
-- each of those months counts it once if it kept that month, so the counts over them add up to the
-- months it kept: min(m, 5). Exact at epsilon 1e6 (Laplace of scale m / 1e6 on the integer grid).
INSERT INTO or_orders SELECT 1000, m, 'a', 10 FROM generate_series(20, 24) m;
CREATE TABLE or_months (month int);
INSERT INTO or_months SELECT generate_series(20, 24);
GRANT SELECT ON or_months TO or_analyst;
SELECT relation FROM pgdp.declare_public('or_months');
\set months_kept 'SELECT sum(value)::numeric AS months_kept, min(max_groups_contributed) AS reported, max(max_groups_contributed) = min(max_groups_contributed) AS every_group_reports_it FROM (SELECT k.month, (dp_count_ci(1e6, 0.05)).* FROM or_months k LEFT JOIN or_orders o USING (month) GROUP BY k.month) r'
SET SESSION AUTHORIZATION or_analyst;
SHOW pgdp.max_groups_contributed;
:months_kept;      -- the protection's 2
SET pgdp.max_groups_contributed = 4;
:months_kept;
SET pgdp.max_groups_contributed = 1;
:months_kept;
SET pgdp.max_groups_contributed = 50;    -- above the protection's: any m is enforced and calibrated
:months_kept;
-- The selection is calibrated for it too: about 45 customers a month (each keeps at most 2 of its 1 to 5
-- months) are far above its threshold for m = 2 and far below that for m = 10^6.
\set months_selected 'SELECT count(*) AS months_selected FROM (SELECT month, dp_count(1) FROM or_orders WHERE month <= 12 GROUP BY month HAVING dp_groups(1, 1e-6)) s'
SET pgdp.max_groups_contributed = 2;
:months_selected;
SET pgdp.max_groups_contributed = 1000000;
:months_selected;
-- An m a mechanism cannot serve is refused before anything is charged, naming it.
SELECT count(*) AS before FROM pgdp.my_ledger \gset
SELECT month, dp_median(amount, 0, 2500, 1) FROM or_orders GROUP BY month HAVING dp_groups(1, 1e-6);
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
-- An ungrouped release: one group, whatever the setting.
SELECT (dp_count_ci(1, 0.05)).max_groups_contributed FROM or_orders;
-- Over a plain relation it bounds nothing (each row is its own unit): NULL.
SELECT (dp_count_ci(1, 0.05)).max_groups_contributed IS NULL AS not_person_level FROM or_plain;
RESET pgdp.max_groups_contributed;
:months_kept;
RESET SESSION AUTHORIZATION;
-- The setting is part of the statement for the release cache: the same text under another m is a
-- new release (charged, with its own bounding), never the answer stored for the first m.
SELECT relation, policy FROM pgdp.set_refresh_policy('or_orders', 'manual');
SELECT relation, policy FROM pgdp.set_refresh_policy('or_months', 'manual');
SET SESSION AUTHORIZATION or_analyst;
SET pgdp.max_groups_contributed = 3;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
:months_kept;
:months_kept;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;  -- the repetition from the cache
SET pgdp.max_groups_contributed = 4;
SELECT count(*) AS before FROM pgdp.my_ledger \gset
:months_kept;
SELECT count(*) - :before AS releases FROM pgdp.my_ledger;
RESET pgdp.max_groups_contributed;
RESET SESSION AUTHORIZATION;
DELETE FROM pgdp.release_cache;
DELETE FROM pgdp.data_epochs;
-- Bad values: a clear error (22023) naming the setting and its range, nothing changed.
CREATE FUNCTION pg_temp.error_of(statement text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
BEGIN
    EXECUTE statement;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
    RETURN state || ': ' || message;
END $$;
SET pgdp.max_groups_contributed = 3;
SELECT pg_temp.error_of($$SET pgdp.max_groups_contributed = -1$$);
SELECT pg_temp.error_of($$SET pgdp.max_groups_contributed = 1000001$$);
SELECT pg_temp.error_of($$SET pgdp.max_groups_contributed = 'many'$$);
SHOW pgdp.max_groups_contributed;
RESET pgdp.max_groups_contributed;
