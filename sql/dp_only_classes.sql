-- What an analyst with DP-only access may compute, by class (docs/privacy.md "What a DP-only
-- analyst may compute"): everyday questions over a shop whose orders are protected by customer.
-- Numeric money columns in the aggregates and in comparisons with literals, a monthly series by
-- date_trunc, yearly extract and weekday date_part keys (released in a canonical form), date
-- ranges with current_date and constant days, CASE, COALESCE, abs, buckets; numeric arithmetic,
-- round and trunc, lower and upper, timestamp +- interval. Built-ins that raise on some values run
-- as pgdp's total forms; a hidden row with extreme values (the ends of the numeric and timestamp
-- ranges, +-infinity, every time zone edge, 18 MiB of text) changes no answer's shape and raises
-- nothing. Exact sums at epsilon 1e6 (Laplace) against the owner's values.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE dc_analyst;
CREATE SCHEMA dc_analyst AUTHORIZATION dc_analyst;
CREATE TABLE dc_analyst.labels (label text COLLATE "POSIX", code text COLLATE "C");
ALTER TABLE dc_analyst.labels OWNER TO dc_analyst;
INSERT INTO dc_analyst.labels VALUES ('de', 'DE');
CREATE COLLATION dc_nondeterministic (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT role FROM pgdp.set_budget('dc_analyst', 1e12, 0.5);
CREATE SCHEMA dc_shop;
GRANT USAGE ON SCHEMA dc_shop TO dc_analyst;
CREATE TABLE dc_shop.customers (id int, country text, signup date);
CREATE TABLE dc_shop.orders (id int, customer int, amount numeric, created_at timestamptz, delivery_days real,
                             quantity int);
-- 300 customers; customer c orders in month (c - 1) % 12 of 2025, 10 orders each.
INSERT INTO dc_shop.customers SELECT g, CASE WHEN g % 3 = 0 THEN 'DE' ELSE 'fr' END, date '2024-01-01' + g
FROM generate_series(1, 300) g;
INSERT INTO dc_shop.orders
SELECT g, g % 300 + 1, (g % 97) * 10.50, timestamptz '2025-01-01 12:00+00' + (g % 12) * interval '1 month' + (g % 28) * interval '1 day',
       (g % 11)::real, g % 5 + 1
FROM generate_series(1, 3000) g;
SELECT relation FROM pgdp.protect('dc_shop.customers', 'id', 2);
SELECT relation FROM pgdp.protect('dc_shop.orders', 'customer', 10);
SELECT relation FROM pgdp.grant_access('dc_shop.customers', 'dc_analyst');
SELECT relation FROM pgdp.grant_access('dc_shop.orders', 'dc_analyst');
RESET client_min_messages;
SET TimeZone = 'UTC';
-- The owner's answers: person-level sums clamp each customer's total to [0, 2000]; dp_count
-- counts customers (each is in one month, 25 a month).
SELECT sum(least(s, 2000)) AS amount_sum, sum(least(slow, 2000)) AS slow_sum
FROM (SELECT sum(amount) s, sum(amount) FILTER (WHERE delivery_days > 6.5) slow FROM dc_shop.orders GROUP BY customer) c;
SELECT sum(least(greatest(q, 0), 2000)) AS quantity_sum, sum(least(greatest(d, 0), 200)) AS days_sum, count(*) AS customers
FROM (SELECT customer, sum(quantity * 25 + 1) q, sum(delivery_days - 1) d FROM dc_shop.orders
      WHERE abs(quantity - 3) <= 1 AND quantity / 2 >= 1 GROUP BY customer) c;
SELECT count(DISTINCT customer) FILTER (WHERE CASE WHEN amount > 1000 THEN true ELSE coalesce(nullif(quantity, 3), 0) > 4 END)
       AS slow_or_big_customers
FROM dc_shop.orders;
-- Numeric arithmetic (each customer's filtered total clamped to [0, 2000]), buckets of 100 by
-- round and trunc, case-normalised countries, interval arithmetic (customers counted once).
SELECT sum(least(s, 2000)) AS shipping_sum, sum(least(h, 2000)) AS half_sum
FROM (SELECT sum(quantity * 25.0) s, sum(amount / 2 + 0.5 - 0.5) h FROM dc_shop.orders
      WHERE amount % 2 = 0 AND -amount <= 0 GROUP BY customer) c;
CREATE TABLE dc_truth_buckets AS
SELECT 'round' AS how, round(amount, -2) AS bucket, count(DISTINCT customer) AS customers FROM dc_shop.orders GROUP BY 2
UNION ALL SELECT 'trunc', trunc(amount, -2), count(DISTINCT customer) FROM dc_shop.orders GROUP BY 2;
SELECT how, count(*) AS buckets, sum(customers) AS customers FROM dc_truth_buckets GROUP BY 1 ORDER BY 1;
SELECT count(*) FILTER (WHERE lower(country) = 'de') AS german, count(*) FILTER (WHERE upper(country) = 'FR') AS french,
       count(*) FILTER (WHERE signup + interval '1 month' < date '2024-03-01') AS signed_in_january,
       count(*) FILTER (WHERE signup - interval '1 year 1 day' >= timestamp '2023-06-30') AS signed_from_july
FROM dc_shop.customers;
SELECT count(DISTINCT customer) AS whole_amounts FROM dc_shop.orders WHERE amount = trunc(amount);
SELECT count(DISTINCT customer) FILTER (WHERE created_at - interval '1 day 2 hours' >= timestamptz '2025-12-01 00:00+00') AS december_late,
       count(DISTINCT customer) FILTER (WHERE created_at + interval '1 month' < timestamptz '2025-03-01 00:00+00') AS before_february,
       count(DISTINCT customer) FILTER (WHERE created_at >= now() - interval '30 years') AS since_thirty_years
FROM dc_shop.orders;
GRANT SELECT ON dc_truth_buckets TO dc_analyst;

SET SESSION AUTHORIZATION dc_analyst;
SELECT releases FROM pgdp.my_budget \gset before_
-- (1) Numeric values: the implicit float8(numeric) of dp_median runs as pgdp.total_float8.
SELECT round(dp_sum(amount, 0, 2000, 1e6)) AS amount_sum FROM dc_shop.orders;
SELECT dp_mean(amount, 0, 2000, 1e6) BETWEEN 500 AND 510 AS mean_near_503 FROM dc_shop.orders;
SELECT dp_median(amount, 0, 2000, 1e6) BETWEEN 400 AND 600 AS median_near_504 FROM dc_shop.orders;
SELECT round(dp_sum(amount::real, 0, 2000, 1e6)) AS as_real FROM dc_shop.orders;
-- A numeric literal against a real column (float4(6.5) is a total form too).
SELECT round(dp_sum(amount, 0, 2000, 1e6)) AS slow_sum FROM dc_shop.orders WHERE delivery_days > 6.5;
-- (2) Time: a monthly series, the year (numeric, released as 2025, not 2025.000000), weekdays.
SELECT date_trunc('month', created_at) AS month, round(dp_count(1e6)) AS customers
FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1;
SELECT extract(year FROM created_at) AS year, round(dp_count(1e6)) AS customers
FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1;
SELECT date_part('isodow', created_at) AS weekday, dp_count(1e6) > 0 AS some
FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1;
SELECT extract(epoch FROM date_trunc('quarter', created_at)) AS quarter_start, round(dp_count(1e6)) AS customers
FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1;
-- The same in a prepared statement, past its generic plan (the substitution is made in every plan).
PREPARE dc_months(float8) AS SELECT count(*) AS months, sum(round(n)) AS customers FROM (
    SELECT date_trunc('month', created_at), dp_count($1) AS n FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6)) s;
EXECUTE dc_months(1e6); EXECUTE dc_months(1e6); EXECUTE dc_months(1e6);
EXECUTE dc_months(1e6); EXECUTE dc_months(1e6); EXECUTE dc_months(1e6);
DEALLOCATE dc_months;
-- (3) Date ranges: current_date, now(), constant days.
SELECT round(dp_count(1e6)) AS customers FROM dc_shop.customers
WHERE signup > date '2024-06-01' - 31 AND signup <= current_date + 1;
SELECT round(dp_count(1e6)) AS customers_so_far FROM dc_shop.orders WHERE created_at < now() AND created_at <= current_timestamp;
SELECT round(dp_count(1e6)) AS customers FROM dc_shop.customers WHERE signup > current_date - 365000;
-- Text: lengths and prefixes (lower and upper stay refused, below).
SELECT round(dp_count(1e6)) AS german FROM dc_shop.customers WHERE left(country, 1) = 'D' AND length(country) = 2;
-- A date column in a monthly series and a year (the date's cast to timestamptz is a total form).
SELECT date_trunc('month', signup) AS month, round(dp_count(1e6)) AS customers
FROM dc_shop.customers GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1 LIMIT 3;
SELECT extract(year FROM signup::timestamp) AS year, round(dp_count(1e6)) AS customers
FROM dc_shop.customers GROUP BY 1 HAVING dp_groups(1e3, 1e-6);
-- Comparisons across date, timestamp and timestamptz (a date beyond the timestamp range orders
-- after every finite timestamp, no error).
SELECT round(dp_count(1e6)) AS customers FROM dc_shop.customers
WHERE signup < now() AND signup >= timestamp '2024-01-02' AND signup < current_timestamp;
-- (4) CASE, COALESCE, NULLIF, abs, buckets of money.
SELECT round(dp_count(1e6)) AS slow_or_big FROM dc_shop.orders
WHERE CASE WHEN amount > 1000 THEN true ELSE coalesce(nullif(quantity, 3), 0) > 4 END AND abs(delivery_days) >= 0;
-- Integer and float arithmetic (total forms: NULL where the built-in overflows or divides by 0).
SELECT round(dp_sum(quantity * 25 + 1, 0, 2000, 1e6)) AS quantity_sum,
       round(dp_sum(delivery_days::float8 * 2 / 2 - 1, 0, 200, 1e6)) AS days_sum,
       round(dp_count(1e6)) AS customers
FROM dc_shop.orders WHERE abs(quantity - 3) <= 1 AND quantity / 2 >= 1;
SELECT width_bucket(amount::float8, 0, 1000, 4) AS bin, round(dp_count(1e6)) AS customers
FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1;
-- The same buckets of the numeric amount (width_bucket of numeric).
SELECT width_bucket(amount, 0, 1000, 4) AS bin, round(dp_count(1e6)) AS customers
FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1;
SELECT pgdp.bucket(amount, 250) AS bucket, round(dp_count(1e6)) AS customers
FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1;
-- (5) Numeric arithmetic (+ - * / %, unary minus; quantity * 25.0 casts quantity to numeric):
-- total forms, NULL where the built-in overflows the numeric format or divides by zero.
SELECT round(dp_sum(quantity * 25.0, 0, 2000, 1e6)) AS shipping_sum, round(dp_sum(amount / 2 + 0.5 - 0.5, 0, 2000, 1e6)) AS half_sum
FROM dc_shop.orders WHERE amount % 2 = 0 AND -amount <= 0;
-- Buckets of 100 by round and trunc with a constant scale (released canonically: 100, not 1E+2).
SELECT 'round' AS how, count(*) AS buckets, bool_and(q.customers = t.customers) AS exact
FROM (SELECT round(amount, -2) AS bucket, round(dp_count(1e6)) AS customers FROM dc_shop.orders
      GROUP BY 1 HAVING dp_groups(1e3, 1e-6)) q FULL JOIN (SELECT * FROM dc_truth_buckets WHERE how = 'round') t USING (bucket)
UNION ALL
SELECT 'trunc', count(*), bool_and(q.customers = t.customers)
FROM (SELECT trunc(amount, -2) AS bucket, round(dp_count(1e6)) AS customers FROM dc_shop.orders
      GROUP BY 1 HAVING dp_groups(1e3, 1e-6)) q FULL JOIN (SELECT * FROM dc_truth_buckets WHERE how = 'trunc') t USING (bucket);
-- round(x) and trunc(x) (SQL functions of PostgreSQL, run as total forms): every amount is a
-- multiple of 10.5, whole for even multiples.
SELECT round(dp_count(1e6)) AS whole_amounts FROM dc_shop.orders WHERE round(amount) = trunc(amount) AND amount = trunc(amount);
-- (6) lower and upper, under the database's collation and named ones (libc C, POSIX, C.utf8, ICU).
SELECT round(dp_count(1e6)) AS german FROM dc_shop.customers WHERE lower(country) = 'de';
SELECT upper(country) AS country, round(dp_count(1e6)) AS customers
FROM dc_shop.customers GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1;
SELECT round(dp_count(1e6)) AS french FROM dc_shop.customers
WHERE upper(country COLLATE "und-x-icu") = 'FR' AND lower(country COLLATE "C") = 'fr' AND lower(country COLLATE "C.utf8") = 'fr'
  AND upper(country COLLATE dc_nondeterministic) = 'FR' AND lower(country COLLATE "POSIX") = 'fr';
-- (7) timestamp, timestamptz and date +- interval, and now() - interval (evaluated only when a
-- row reaches it: a total form too).
SELECT round(dp_count(1e6)) AS signed_in_january FROM dc_shop.customers WHERE signup + interval '1 month' < date '2024-03-01';
SELECT round(dp_count(1e6)) AS signed_from_july FROM dc_shop.customers WHERE signup - interval '1 year 1 day' >= timestamp '2023-06-30';
SELECT round(dp_count(1e6)) AS december_late FROM dc_shop.orders
WHERE created_at - interval '1 day 2 hours' >= timestamptz '2025-12-01 00:00+00';
SELECT round(dp_count(1e6)) AS before_february FROM dc_shop.orders WHERE created_at + interval '1 month' < timestamptz '2025-03-01 00:00+00';
SELECT round(dp_count(1e6)) AS since_thirty_years FROM dc_shop.orders WHERE created_at >= now() - interval '30 years';
SELECT date_trunc('month', created_at + interval '1 month') AS next_month, round(dp_count(1e6)) AS customers
FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1 LIMIT 2;
-- The interval a parameter, past the generic plan (January, February: 50 customers, then all 300).
PREPARE dc_before(interval) AS SELECT round(dp_count(1e6)) AS customers FROM dc_shop.orders
WHERE created_at + $1 < timestamptz '2025-04-01 00:00+00';
EXECUTE dc_before('1 month'); EXECUTE dc_before('1 month'); EXECUTE dc_before('1 month');
EXECUTE dc_before('1 month'); EXECUTE dc_before('1 month'); EXECUTE dc_before('-1 year');
DEALLOCATE dc_before;

-- Refused before any row is read, naming what works instead.
\set SHOW_CONTEXT never
-- A unit PostgreSQL does not know: its own error, raised while planning (the same with or
-- without rows).
SELECT date_trunc('mnth', created_at), dp_count(1) FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- A unit that is not a constant.
PREPARE dc_unit(text) AS SELECT date_trunc($1, created_at), dp_count(1) FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1, 1e-6);
EXECUTE dc_unit('year');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
DEALLOCATE dc_unit;
-- Built-ins without a total form: interval + timestamp (an SQL function of PostgreSQL), lower
-- without a determined collation (two implicit collations).
SELECT dp_count(1) FROM dc_shop.orders WHERE interval '1 day' + created_at > now();
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT dp_count(1) FROM dc_shop.customers c, dc_analyst.labels l WHERE lower(CASE WHEN c.id > 0 THEN l.label ELSE l.code END) IS NULL;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- current_user and the other SQL value functions are not accepted (not needed).
SELECT dp_count(1) FROM dc_shop.customers WHERE current_user = 'dc_analyst';
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- A total form called directly with a unit it does not know: NULL, no error.
SELECT count(*) AS groups FROM (SELECT pgdp.total_date_trunc('mnth', created_at), dp_count(1e6)
    FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6)) s;
\set SHOW_CONTEXT errors
-- One release per pgdp call of the accepted statements: 5 values, 4 grouped series (dp_count and
-- dp_groups), the prepared one 6 times (2 calls), 5 counts, the buckets (2 calls), the direct
-- total form (1: the outer query reads no column of its dp_count, which PostgreSQL drops, so only
-- dp_groups is released), the arithmetic (3 calls), width_bucket and the date series (2 each), the
-- text prefix (1): 5 + 8 + 12 + 5 + 2 + 1 + 3 + 6 + 1 = 43; numeric arithmetic (2), the round
-- and trunc buckets (2 x 2), whole amounts (1), lower and upper (1 + 2 + 1), the intervals (5
-- counts, the next month's series 2), the prepared interval 6 times, the numeric width_bucket
-- series (2): 43 + 2 + 4 + 1 + 4 + 7 + 6 + 2 = 69; none for the refusals.
SELECT releases - :before_releases AS releases_since FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

-- ---- A hidden row at every extreme changes nothing the analyst sees ---------------------------
-- Each query runs under time zones at the edges of the offsets (+14, -12, +5:45, -3:30, +-15:59,
-- DST zones), first without, then with customer 301 (one person), whose rows hold the values that
-- made the built-ins raise: numeric beyond float8's range and below its smallest value, timestamps
-- at the ends of the range (local times beyond them in the zones east and west of UTC) and at
-- +-infinity, dates at the limits. Nothing may raise, and the answers (booleans and keys that no
-- single person passes dp_groups with; 301's customer rows are filtered out after the date
-- arithmetic ran on them) must be the same.
CREATE TABLE dc_zones (zone text);
INSERT INTO dc_zones VALUES ('UTC'), ('Pacific/Kiritimati'), ('Etc/GMT+12'), ('Asia/Kathmandu'),
    ('America/St_Johns'), ('Europe/Berlin'), ('Australia/Lord_Howe'), ('<+1559>-15:59'), ('<-1559>+15:59');
CREATE TABLE dc_queries (name text, query text);
INSERT INTO dc_queries VALUES
    ('sum of numeric', 'SELECT dp_sum(amount, 0, 2000, 1e6) > 0 FROM dc_shop.orders'),
    ('median of numeric', 'SELECT dp_median(amount, 0, 2000, 1e6) > 0 FROM dc_shop.orders'),
    ('real against a literal', 'SELECT dp_count(1e6) > 0 FROM dc_shop.orders WHERE delivery_days > 6.5'),
    ('months', 'SELECT extract(month FROM date_trunc(''month'', created_at)) FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6)'),
    ('years', 'SELECT date_part(''year'', date_trunc(''year'', created_at)) FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6)'),
    ('millennia', 'SELECT extract(millennium FROM created_at) FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6)'),
    ('zone hours', 'SELECT date_part(''timezone_hour'', created_at) BETWEEN -16 AND 16 FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6)'),
    ('julian days', 'SELECT extract(julian FROM created_at) > 0 FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6)'),
    ('weeks', 'SELECT date_trunc(''week'', created_at) > ''2024-12-01'' FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6)'),
    ('date +- days', 'SELECT dp_count(1e6) > 0 FROM dc_shop.customers WHERE (signup + 2147483647 > date ''2000-01-01'' OR signup - 2147483647 < date ''2000-01-01'' OR signup + 1 > signup - 1) AND country <> ''x'''),
    ('since a date', 'SELECT dp_count(1e6) > 0 FROM dc_shop.customers WHERE signup > current_date - 365000'),
    ('numeric arithmetic', 'SELECT dp_sum(amount * 2.5 + 1 - amount / 3, 0, 2000, 1e6) > 0 FROM dc_shop.orders WHERE amount % 7 <> 1 OR -amount < 0'),
    ('round buckets', 'SELECT round(amount, -2) >= 0 FROM dc_shop.orders GROUP BY 1 HAVING dp_groups(1e3, 1e-6)'),
    ('round anywhere', 'SELECT dp_count(1e6) > 0 FROM dc_shop.orders WHERE round(amount) IS NOT NULL OR round(amount, -131072) IS NULL OR trunc(amount) IS NULL'),
    ('lower and upper', 'SELECT upper(country) FROM dc_shop.customers WHERE lower(country) <> ''x'' OR lower(country COLLATE "und-x-icu") IS NULL GROUP BY 1 HAVING dp_groups(1e3, 1e-6)'),
    ('timestamptz +- interval', 'SELECT dp_count(1e6) > 0 FROM dc_shop.orders WHERE created_at + interval ''1 month 1 day 1 hour'' > now() - interval ''300000 years'' OR created_at - interval ''1 month'' < created_at'),
    ('date +- interval', 'SELECT dp_count(1e6) > 0 FROM dc_shop.customers WHERE (signup + interval ''1 year'' > timestamp ''2000-01-01'' OR signup - interval ''1 mon -1 day'' < timestamp ''2000-01-01'') AND country <> ''x''');
GRANT SELECT ON dc_zones, dc_queries TO dc_analyst;
SET SESSION AUTHORIZATION dc_analyst;
-- Per query: its distinct answers over the time zones ('|' between them), or the error.
CREATE FUNCTION dc_in_every_zone() RETURNS TABLE (name text, answers text) LANGUAGE plpgsql AS $$
DECLARE
    q record;
    z text;
    answer text;
    seen text[];
BEGIN
    FOR q IN SELECT * FROM dc_queries ORDER BY 1 LOOP
        seen := '{}';
        FOR z IN SELECT zone FROM dc_zones LOOP
            PERFORM set_config('TimeZone', z, true);
            BEGIN
                EXECUTE 'SELECT string_agg(k::text, '','' ORDER BY k) FROM (' || q.query || ') s(k)' INTO answer;
            EXCEPTION WHEN OTHERS THEN
                answer := 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
            END;
            IF NOT coalesce(answer, '') = ANY (seen) THEN seen := seen || coalesce(answer, ''); END IF;
        END LOOP;
        name := q.name;
        answers := array_to_string(seen, ' | ');
        RETURN NEXT;
    END LOOP;
END $$;
CREATE TABLE dc_without AS SELECT * FROM dc_in_every_zone();
RESET SESSION AUTHORIZATION;
INSERT INTO dc_shop.customers VALUES (301, 'x', '5874897-12-31'), (301, 'x', '4714-11-24 BC'),
    (301, 'x', 'infinity'), (301, 'x', '-infinity'), (301, 'x', '294276-12-31'),
    (301, repeat('é', 9 * 1024 * 1024), '2024-02-01');
INSERT INTO dc_shop.orders VALUES
    (9001, 301, 9.99e131071, '294276-12-31 23:59:59.999999+00', '3.4028235e38', 2147483647),
    (9002, 301, -9.99e131071, '4714-11-24 00:00:00+00 BC', '-3.4028235e38', -2147483648),
    (9003, 301, 1e-16383, 'infinity', 'NaN', NULL),
    (9004, 301, 'NaN', '-infinity', '-0', 0),
    (9005, 301, '1.7976931348623159e308', '294276-12-31 10:00:00+00', 'Infinity', 1),
    (9006, 301, '2.4703282292062327e-324', '4714-11-24 10:00:00+00 BC', '1e-45', 1),
    (9007, 301, 'Infinity', '2021-03-28 02:30:00+00', '-Infinity', 1),
    (9008, 301, '-1e-400', '294276-12-31 00:00:00+00', '0', 1),
    (9009, 301, repeat('9', 131072)::numeric, '294276-12-01 00:00:00+00', '1', 1),
    (9010, 301, ('-' || repeat('9', 131072) || '.5')::numeric, '4714-12-01 00:00:00+00 BC', '1', 1),
    (9011, 301, '5e131071', '2025-01-31 00:00:00+00', '1', 1);
SET SESSION AUTHORIZATION dc_analyst;
SELECT releases FROM pgdp.my_budget \gset before_
CREATE TABLE dc_with AS SELECT * FROM dc_in_every_zone();
SELECT name, w.answers AS with_the_row, o.answers AS without, w.answers = o.answers AS same
FROM dc_with w JOIN dc_without o USING (name) ORDER BY name;
-- 17 queries, one pgdp call each, in 9 time zones: 153 releases, every one made.
SELECT releases - :before_releases AS releases_since FROM pgdp.my_budget;
DROP TABLE dc_with, dc_without;
DROP FUNCTION dc_in_every_zone();
RESET SESSION AUTHORIZATION;

-- ---- Group keys whose equal values print differently, with SELECT access too ------------------
-- numeric 5.0 and 5.000, float 0 and -0 and NaN: the key released is the canonical one, whatever
-- row the group's first is.
CREATE TABLE dc_keys (person int, price numeric, ratio float8, r real);
INSERT INTO dc_keys SELECT g, CASE WHEN g % 2 = 0 THEN 5.0 ELSE 5.000 END, CASE WHEN g % 2 = 0 THEN 0 ELSE '-0' END,
    CASE WHEN g % 2 = 0 THEN 'NaN'::real ELSE '-0' END FROM generate_series(1, 400) g;
INSERT INTO dc_keys SELECT g, 'NaN', 'NaN', 'NaN' FROM generate_series(401, 800) g;
SELECT relation FROM pgdp.protect('dc_keys', 'person', 1);
GRANT SELECT ON dc_keys TO dc_analyst;
SET SESSION AUTHORIZATION dc_analyst;
SELECT price, ratio, round(dp_count(1e6)) AS n FROM dc_keys GROUP BY 1, 2 HAVING dp_groups(1e3, 1e-6) ORDER BY 1, 2;
SELECT r, round(dp_count(1e6)) AS n FROM dc_keys GROUP BY 1 HAVING dp_groups(1e3, 1e-6) ORDER BY 1;
-- Still refused: interval ('1 day' = '24 hours'), with a hint naming the types that work.
\set SHOW_CONTEXT never
SELECT price * interval '1 day', dp_count(1) FROM dc_keys GROUP BY 1 HAVING dp_groups(1, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\set SHOW_CONTEXT errors
RESET SESSION AUTHORIZATION;

-- ---- Each total form against its built-in, over the extremes -----------------------------------
-- Wherever the built-in answers, the total form gives the same answer; wherever the built-in
-- raises, the total form gives NULL (the float casts: the saturated value); the total form never
-- raises. Every unit PostgreSQL knows (and some it does not), instants at and near the ends of
-- the range and at DST changes, in time zones at the edges of the offsets.
CREATE TABLE dc_units (unit text);
INSERT INTO dc_units SELECT unnest(ARRAY['microseconds', 'milliseconds', 'second', 'minute', 'hour', 'day', 'week',
    'month', 'quarter', 'year', 'decade', 'century', 'millennium', 'julian', 'isoyear', 'dow', 'isodow', 'doy',
    'epoch', 'timezone', 'timezone_hour', 'timezone_minute', 'MONTH', 'mnth', '', 'infinity', 'now']);
CREATE TABLE dc_instants (t text);
-- With an explicit UTC offset: read alike in every session zone (timestamp ignores the offset).
INSERT INTO dc_instants SELECT unnest(ARRAY['infinity', '-infinity', '4714-11-24 00:00:00+00 BC', '4714-11-24 00:00:00.000001+00 BC',
    '4714-11-24 15:59:59+00 BC', '4714-12-31 23:00:00+00 BC', '4713-01-01 00:00:00+00 BC', '0001-01-01 00:00:00+00 BC',
    '0001-01-01 00:00:00+00', '2000-02-29 12:00:00+00', '2021-03-28 01:30:00+00', '2021-10-31 00:30:00+00',
    '294276-01-01 00:00:00+00', '294276-12-31 00:00:00+00', '294276-12-31 08:00:00+00', '294276-12-31 23:59:59.999999+00']);
CREATE TABLE dc_mismatches (call text, builtin text, total text);
CREATE FUNCTION dc_against(builtin text, total text, saturates boolean DEFAULT false) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    b text;
    t text;
    raised boolean := false;
BEGIN
    BEGIN
        EXECUTE 'SELECT (' || builtin || ')::text' INTO b;
    EXCEPTION WHEN OTHERS THEN
        raised := true;
    END;
    BEGIN
        EXECUTE 'SELECT (' || total || ')::text' INTO t;
    EXCEPTION WHEN OTHERS THEN
        INSERT INTO dc_mismatches VALUES (total, b, 'ERROR ' || SQLERRM);
        RETURN 0;
    END;
    IF raised AND NOT saturates AND t IS NOT NULL THEN
        INSERT INTO dc_mismatches VALUES (total, 'ERROR', t);
    ELSIF raised AND saturates AND t NOT IN ('Infinity', '-Infinity', '0', '-0') THEN
        INSERT INTO dc_mismatches VALUES (total, 'ERROR', t);
    ELSIF NOT raised AND b IS DISTINCT FROM t THEN
        INSERT INTO dc_mismatches VALUES (total, b, t);
    END IF;
    RETURN CASE WHEN raised THEN 1 ELSE 0 END;
END $$;
-- Per function: the calls made and how many of them the built-in raised on.
CREATE FUNCTION dc_time_sweep() RETURNS TABLE (function text, calls bigint, builtin_raised bigint) LANGUAGE plpgsql AS $$
DECLARE
    f text;
    zone text;
    u record;
    i record;
    value text;
BEGIN
    FOREACH f IN ARRAY ARRAY['date_trunc', 'extract', 'date_part'] LOOP
        FOREACH value IN ARRAY ARRAY['timestamptz', 'timestamp'] LOOP
            function := format('%s(text, %s)', f, value);
            calls := 0;
            builtin_raised := 0;
            FOREACH zone IN ARRAY ARRAY['UTC', 'Pacific/Kiritimati', 'Etc/GMT+12', 'Europe/Berlin', '<+1559>-15:59', '<-1559>+15:59'] LOOP
                PERFORM set_config('TimeZone', zone, true);
                FOR u IN SELECT unit FROM dc_units LOOP
                    FOR i IN SELECT t FROM dc_instants LOOP
                        calls := calls + 1;
                        builtin_raised := builtin_raised + dc_against(
                            format('%s(%L, %L::%s)', CASE f WHEN 'extract' THEN 'pg_catalog.extract' ELSE f END, u.unit, i.t, value),
                            format('pgdp.total_%s(%L, %L::%s)', f, u.unit, i.t, value));
                    END LOOP;
                END LOOP;
            END LOOP;
            RETURN NEXT;
        END LOOP;
    END LOOP;
END $$;
SELECT * FROM dc_time_sweep();
-- Comparisons across date, timestamp and timestamptz (on the allow-list) never raise, in any of
-- the zones, over dates beyond the timestamp range and instants at its ends.
CREATE FUNCTION dc_cross_sweep() RETURNS TABLE (calls bigint, raised bigint) LANGUAGE plpgsql AS $$
DECLARE
    zone text;
    d text;
    i record;
    o text;
BEGIN
    calls := 0;
    raised := 0;
    FOREACH zone IN ARRAY ARRAY['UTC', 'Pacific/Kiritimati', 'Etc/GMT+12', 'Europe/Berlin', '<+1559>-15:59', '<-1559>+15:59'] LOOP
        PERFORM set_config('TimeZone', zone, true);
        FOREACH d IN ARRAY ARRAY['infinity', '-infinity', '4714-11-24 BC', '294276-12-31', '294277-01-01', '5874897-12-31'] LOOP
            FOR i IN SELECT t FROM dc_instants LOOP
                FOREACH o IN ARRAY ARRAY['=', '<>', '<', '<=', '>', '>='] LOOP
                    calls := calls + 4;
                    BEGIN
                        EXECUTE format('SELECT %L::date %s %L::timestamptz, %L::timestamptz %s %L::date, %L::date %s %L::timestamp, %L::timestamp %s %L::timestamptz',
                                       d, o, i.t, i.t, o, d, d, o, i.t, i.t, o, i.t);
                    EXCEPTION WHEN OTHERS THEN
                        raised := raised + 1;
                    END;
                END LOOP;
            END LOOP;
        END LOOP;
    END LOOP;
    RETURN NEXT;
END $$;
SELECT * FROM dc_cross_sweep();
DROP FUNCTION dc_cross_sweep();
SET TimeZone = 'UTC';
-- The numeric casts over numeric and float extremes (saturating: +-Infinity beyond the range, 0
-- below the smallest value), date +- days over the ends of the date range.
CREATE TABLE dc_numbers (v text);
INSERT INTO dc_numbers SELECT unnest(ARRAY['0', '-0', 'NaN', 'Infinity', '-Infinity', '9.99e131071', '-9.99e131071',
    '1e-16383', '-1e-16383', '1.7976931348623157e308', '1.7976931348623158e308', '1.7976931348623159e308',
    '-1.7976931348623159e308', '2.4703282292062327e-324', '2.4703282292062328e-324', '4.9406564584124654e-324',
    '2.2250738585072014e-308', '3.4028234663852886e38', '3.4028235677973366e38', '3.4028236e38', '-3.4028236e38',
    '1.401298464324817e-45', '7.006492321624085e-46', '7.006492321624087e-46', '1e-46', '-1e-46',
    '123456789012345678901234567890.123456789', '0.000000000000000000000000000001']);
SELECT count(*) AS calls,
       sum(dc_against(format('float8(%L::numeric)', v), format('pgdp.total_float8(%L::numeric)', v), true)) AS float8_raised,
       sum(dc_against(format('float4(%L::numeric)', v), format('pgdp.total_float4(%L::numeric)', v), true)) AS float4_raised,
       sum(dc_against(format('float4(float8(%L::numeric))', v), format('pgdp.total_float4(pgdp.total_float8(%L::numeric))', v), true))
           AS float4_of_float8_raised
FROM dc_numbers;
SELECT count(*) AS calls,
       sum(dc_against(format('%L::date + %s', d, n), format('pgdp.total_date_pl(%L, %s)', d, n))) AS plus_raised,
       sum(dc_against(format('%L::date - %s', d, n), format('pgdp.total_date_mi(%L, %s)', d, n))) AS minus_raised
FROM unnest(ARRAY['infinity', '-infinity', '4714-11-24 BC', '4714-11-25 BC', '2000-01-01', '5874897-12-30', '5874897-12-31']) d,
     unnest(ARRAY['0', '1', '-1', '2147483647', '(-2147483648)']) n;
-- Integer and float arithmetic over the extremes of each type.
SELECT count(*) AS calls, sum(dc_against(format('(%s)::int4 %s (%s)::int4', a, o, b), format('pgdp.%s((%s)::int4, (%s)::int4)', f, a, b)))
           AS int4_raised,
       sum(dc_against(format('(%s)::int8 %s (%s)::int8', a, o, b), format('pgdp.%s((%s)::int8, (%s)::int8)', f, a, b)))
           AS int8_raised
FROM (VALUES ('+', 'total_add'), ('-', 'total_sub'), ('*', 'total_mul'), ('/', 'total_div')) op(o, f),
     unnest(ARRAY['0', '1', '-1', '2', '-2147483648', '2147483647', '46341']) a, unnest(ARRAY['0', '1', '-1', '2', '-2147483648', '2147483647', '46341']) b;
SELECT count(*) AS calls, sum(dc_against(format('(%s)::int8 %s (%s)::int8', a, o, b), format('pgdp.%s((%s)::int8, (%s)::int8)', f, a, b)))
           AS int8_raised
FROM (VALUES ('+', 'total_add'), ('-', 'total_sub'), ('*', 'total_mul'), ('/', 'total_div')) op(o, f),
     unnest(ARRAY['0', '-1', '(-9223372036854775808)', '9223372036854775807', '3037000500']) a,
     unnest(ARRAY['0', '-1', '(-9223372036854775808)', '9223372036854775807', '3037000500']) b;
SELECT count(*) AS calls, sum(dc_against(format('%L::float8 %s %L::float8', a, o, b), format('pgdp.%s(%L::float8, %L::float8)', f, a, b)))
           AS float8_raised
FROM (VALUES ('+', 'total_add'), ('-', 'total_sub'), ('*', 'total_mul'), ('/', 'total_div')) op(o, f),
     unnest(ARRAY['0', '-0', '1', 'NaN', 'Infinity', '-Infinity', '1.7976931348623157e308', '-1.7976931348623157e308',
                  '4.9e-324', '1e-200', '1e200']) a,
     unnest(ARRAY['0', '-0', '1', 'NaN', 'Infinity', '-Infinity', '1.7976931348623157e308', '-1.7976931348623157e308',
                  '4.9e-324', '1e-200', '1e200']) b;
SELECT count(*) AS calls, sum(dc_against(format('abs((%s)::%s)', v, t), format('pgdp.total_abs((%s)::%s)', v, t))) AS abs_raised
FROM unnest(ARRAY['int4', 'int8']) t, unnest(ARRAY['0', '-1', '(-2147483648)', '2147483647', '(-9223372036854775808)']) v
WHERE t = 'int8' OR v NOT LIKE '%922%';
SELECT count(*) AS calls,
       sum(dc_against(format('width_bucket(%L::float8, %L, %L, %s)', x, b1, b2, n), format('pgdp.total_width_bucket(%L, %L, %L, %s)', x, b1, b2, n)))
           AS width_bucket_raised
FROM unnest(ARRAY['0', '5', '10', 'NaN', 'Infinity', '-Infinity', '1.7976931348623157e308']) x,
     (VALUES ('0', '10'), ('10', '0'), ('0', '0'), ('NaN', '10'), ('0', 'Infinity'), ('-1.7976931348623157e308', '1.7976931348623157e308')) b(b1, b2),
     unnest(ARRAY['1', '0', '-1', '2147483647']) n;
SELECT count(*) AS calls,
       sum(dc_against(format('width_bucket(%L::numeric, %L::numeric, %L::numeric, %s)', x, b1, b2, n),
                      format('pgdp.total_width_bucket(%L::numeric, %L::numeric, %L::numeric, %s)', x, b1, b2, n)))
           AS numeric_width_bucket_raised
FROM unnest(ARRAY['0', '5', '10', 'NaN', 'Infinity', '-Infinity', '9.99e131071', '-9.99e131071', '1e-16383']) x,
     (VALUES ('0', '10'), ('10', '0'), ('0', '0'), ('NaN', '10'), ('0', 'Infinity'), ('-9.99e131071', '9.99e131071'),
             ('0', '1e-16383')) b(b1, b2),
     unnest(ARRAY['1', '0', '-1', '100']) n;
-- With count 2147483647 the built-in may round an operand inside the range to count + 1 and raise
-- (at extreme scales); the total form is NULL for every bucket above 0 there, 0 below the range.
SELECT count(*) AS calls, count(*) FILTER (WHERE b IS NULL) AS null_buckets, count(*) FILTER (WHERE b = 0) AS below
FROM (SELECT pgdp.total_width_bucket(x::numeric, b1::numeric, b2::numeric, 2147483647) AS b
      FROM unnest(ARRAY['-1', '0', '5', '10', '11', '1e-16383', '9.99e131071', '-9.99e131071']) x,
           (VALUES ('0', '10'), ('10', '0')) r(b1, b2)) t;
-- The casts of a date to timestamp and timestamptz, in every zone, over the ends of both ranges.
CREATE FUNCTION dc_date_cast_sweep() RETURNS TABLE (calls bigint, builtin_raised bigint) LANGUAGE plpgsql AS $$
DECLARE
    zone text;
    d text;
    t text;
BEGIN
    calls := 0;
    builtin_raised := 0;
    FOREACH zone IN ARRAY ARRAY['UTC', 'Pacific/Kiritimati', 'Etc/GMT+12', 'Europe/Berlin', '<+1559>-15:59', '<-1559>+15:59'] LOOP
        PERFORM set_config('TimeZone', zone, true);
        FOREACH d IN ARRAY ARRAY['infinity', '-infinity', '4714-11-24 BC', '4714-11-25 BC', '2000-01-01', '2021-03-28',
                                 '294276-12-31', '294277-01-01', '5874897-12-31'] LOOP
            FOREACH t IN ARRAY ARRAY['timestamp', 'timestamptz'] LOOP
                calls := calls + 1;
                builtin_raised := builtin_raised + dc_against(format('%L::date::%s', d, t), format('pgdp.total_%s(%L::date)', t, d));
            END LOOP;
        END LOOP;
    END LOOP;
    RETURN NEXT;
END $$;
SELECT * FROM dc_date_cast_sweep();
DROP FUNCTION dc_date_cast_sweep();
-- Numeric + - * / % over the numeric format's extremes (the largest weight, the smallest scale,
-- NaN, +-Infinity, zero divisors).
CREATE TABLE dc_numeric (v text);
INSERT INTO dc_numeric SELECT unnest(ARRAY['0', '1', '-1', '0.5', '0.001', '1e-16383', '9.99e131071', '-9.99e131071',
    '5e131071', '''NaN''', '''Infinity''', '''-Infinity''']);
SELECT count(*) AS calls,
       sum(dc_against(format('(%s)::numeric %s (%s)::numeric', a.v, o, b.v), format('pgdp.%s((%s)::numeric, (%s)::numeric)', f, a.v, b.v)))
           AS numeric_raised
FROM (VALUES ('+', 'total_add'), ('-', 'total_sub'), ('*', 'total_mul'), ('/', 'total_div'), ('%', 'total_mod')) op(o, f),
     dc_numeric a, dc_numeric b;
-- The largest numeric (131072 nines) and its neighbours: + and - by one unit at either end.
SELECT count(*) AS calls,
       sum(dc_against(format('(%s)::numeric %s (%s)::numeric', a, o, b), format('pgdp.%s((%s)::numeric, (%s)::numeric)', f, a, b)))
           AS numeric_raised
FROM (VALUES ('+', 'total_add'), ('-', 'total_sub')) op(o, f),
     unnest(ARRAY['repeat(''9'', 131072)', '''-'' || repeat(''9'', 131072)']) a, unnest(ARRAY['1', '-1', '0.5', '1e-16383']) b;
-- round(numeric, n), round(numeric), trunc(numeric) against the built-ins, and trunc(numeric, n)
-- (on the allow-list) never raising: values whose rounding carries to 10^131072 at every scale
-- PostgreSQL clamps to (-131073 .. 16383) and beyond.
CREATE TABLE dc_rounded (v text);
INSERT INTO dc_rounded SELECT unnest(ARRAY['0', '0.5', '-0.5', '1.45', '-1.45', '9.99e131071', '5e131071', '4.99e131071',
    'repeat(''9'', 131072)', '''-'' || repeat(''9'', 131072)', 'repeat(''9'', 131072) || ''.4''', '''-'' || repeat(''9'', 131072) || ''.5''',
    '1e-16383', '''NaN''', '''Infinity''', '''-Infinity''']);
SELECT count(*) AS calls,
       sum(dc_against(format('round((%s)::numeric, %s)', v, n), format('pgdp.total_round((%s)::numeric, %s)', v, n))) AS round_raised,
       sum(dc_against(format('trunc((%s)::numeric, %s)', v, n), format('trunc((%s)::numeric, %s)', v, n))) AS trunc_raised
FROM dc_rounded, unnest(ARRAY['0', '1', '-1', '-2', '16383', '16384', '-131071', '-131072', '-131073', '2147483647', '(-2147483648)']) n;
SELECT count(*) AS calls,
       sum(dc_against(format('round((%s)::numeric)', v), format('pgdp.total_round((%s)::numeric)', v))) AS round_raised,
       sum(dc_against(format('trunc((%s)::numeric)', v), format('pgdp.total_trunc((%s)::numeric)', v))) AS trunc_raised
FROM dc_rounded;
-- lower and upper under the database's collation, libc's C, POSIX and C.utf8, ICU's root and a
-- nondeterministic ICU collation, over letters whose case mapping changes their length.
SELECT count(*) AS calls,
       sum(dc_against(format('lower(%L COLLATE %s)', v, c), format('pgdp.total_lower(%L COLLATE %s)', v, c))) AS lower_raised,
       sum(dc_against(format('upper(%L COLLATE %s)', v, c), format('pgdp.total_upper(%L COLLATE %s)', v, c))) AS upper_raised
FROM unnest(ARRAY['', 'a', 'DE', 'ß', 'straße', 'İstanbul', 'ΐ', 'ǅ', 'ﬃ', 'ΣΑΣ', 'ŉ', repeat('é', 1000)]) v,
     unnest(ARRAY['"default"', '"C"', '"POSIX"', '"C.utf8"', '"und-x-icu"', 'dc_nondeterministic']) c;
-- The bound: text of 16 MiB is mapped, longer text is NULL (the built-in may still answer).
SELECT length(pgdp.total_upper(repeat('a', 16 * 1024 * 1024) COLLATE "und-x-icu")) AS at_the_bound,
       pgdp.total_lower(repeat('A', 16 * 1024 * 1024 + 1)) IS NULL AS beyond;
-- timestamp and timestamptz +- interval over the instants above and intervals at the ends of
-- their fields, in every zone; date +- interval over the ends of the date range.
CREATE TABLE dc_intervals (i text);
-- (SQL expressions: the smallest time field has no literal. From PostgreSQL 17 on, the smallest
-- interval is -infinity and one microsecond below it is out of range: an expression that fails
-- to evaluate here is left out, so the sweep never counts an error of its own inputs.)
INSERT INTO dc_intervals SELECT format('interval %L', i) FROM unnest(ARRAY['0', '1 month', '-1 month', '1 day', '-1 day', '1 hour',
    '-1 hour', '1 mon 1 day 00:00:00.000001', '178956970 years 7 mons', '-178956970 years -8 mons', '2147483647 days',
    '-2147483648 days', '2562047788:00:54.775807']) i;
DO $$
DECLARE
    e text;
BEGIN
    FOREACH e IN ARRAY ARRAY['(interval ''-2562047788:00:54.775807'' - interval ''1 microsecond'')',
                             '(interval ''-178956970 years -8 mons -2147483648 days -2562047788:00:54.775807'' - interval ''1 microsecond'')'] LOOP
        BEGIN
            EXECUTE 'SELECT ' || e;
            INSERT INTO dc_intervals VALUES (e);
        EXCEPTION WHEN OTHERS THEN
            NULL;
        END;
    END LOOP;
END $$;
CREATE FUNCTION dc_interval_sweep() RETURNS TABLE (function text, calls bigint, builtin_raised bigint) LANGUAGE plpgsql AS $$
DECLARE
    value text;
    op text;
    zone text;
    i record;
    j record;
BEGIN
    FOREACH value IN ARRAY ARRAY['timestamptz', 'timestamp'] LOOP
        FOREACH op IN ARRAY ARRAY['+', '-'] LOOP
            function := format('%s %s interval', value, op);
            calls := 0;
            builtin_raised := 0;
            FOREACH zone IN ARRAY ARRAY['UTC', 'Pacific/Kiritimati', 'Etc/GMT+12', 'Europe/Berlin', '<+1559>-15:59', '<-1559>+15:59'] LOOP
                PERFORM set_config('TimeZone', zone, true);
                FOR i IN SELECT t FROM dc_instants LOOP
                    FOR j IN SELECT dc_intervals.i FROM dc_intervals LOOP
                        calls := calls + 1;
                        builtin_raised := builtin_raised + dc_against(
                            format('%L::%s %s %s', i.t, value, op, j.i),
                            format('pgdp.total_%s(%L::%s, %s)', CASE op WHEN '+' THEN 'add' ELSE 'sub' END, i.t, value, j.i));
                    END LOOP;
                END LOOP;
            END LOOP;
            RETURN NEXT;
        END LOOP;
    END LOOP;
END $$;
SELECT * FROM dc_interval_sweep();
DROP FUNCTION dc_interval_sweep();
SET TimeZone = 'UTC';
SELECT count(*) AS calls,
       sum(dc_against(format('%L::date + %s', d, i), format('pgdp.total_add(%L::date, %s)', d, i))) AS plus_raised,
       sum(dc_against(format('%L::date - %s', d, i), format('pgdp.total_sub(%L::date, %s)', d, i))) AS minus_raised
FROM unnest(ARRAY['infinity', '-infinity', '4714-11-24 BC', '2000-01-01', '294276-12-31', '294277-01-01', '5874897-12-31']) d,
     dc_intervals;
SELECT count(*) AS mismatches FROM dc_mismatches;
SELECT * FROM dc_mismatches ORDER BY 1 LIMIT 10;
-- Canonical keys: equal values print alike.
SELECT left(a::text, 8) AS a, left(b::text, 8) AS b, a::text <> b::text AS spelled_differently, a = b AS equal,
       pgdp.canonical_key(a)::text = pgdp.canonical_key(b)::text AS printed_alike, left(pgdp.canonical_key(b)::text, 8) AS canonical
FROM (VALUES (1.0, 1.00), (0, -0.000), (5.10, 5.1000), ('NaN', 'NaN'), (0.10, 0.1), (9.99e131071, 9.99e131071 + 0.000)) v(a, b);
SELECT a, b, a::text <> b::text AS spelled_differently, a = b AS equal,
       pgdp.canonical_key(a)::text = pgdp.canonical_key(b)::text AS printed_alike
FROM (VALUES (0::float8, '-0'::float8), ('NaN', '-NaN'), ('Infinity', 'Infinity')) v(a, b);
SELECT pgdp.canonical_key('-0'::real)::text AS real_zero, pgdp.canonical_key(1.10::numeric)::text AS scaled;
RESET TimeZone;
DROP FUNCTION dc_time_sweep(), dc_against(text, text, boolean);
DROP TABLE dc_units, dc_instants, dc_numbers, dc_mismatches, dc_numeric, dc_rounded, dc_intervals;

SET client_min_messages = warning;
RESET TimeZone;
SELECT pgdp.unprotect('dc_shop.orders'), pgdp.unprotect('dc_shop.customers'), pgdp.unprotect('dc_keys');
DELETE FROM pgdp.budgets WHERE role::text = 'dc_analyst';
DROP TABLE dc_shop.orders, dc_shop.customers, dc_zones, dc_queries, dc_keys, dc_truth_buckets;
DROP COLLATION dc_nondeterministic;
DROP SCHEMA dc_shop;
DROP SCHEMA dc_analyst CASCADE;
DROP OWNED BY dc_analyst;
DROP ROLE dc_analyst;
RESET client_min_messages;
