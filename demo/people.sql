-- pgdp demo, part 4: people, not rows. A shop's orders table has many rows per customer; a
-- row-level release protects one order, not a customer with 200 orders. Once the owner declares
-- the table protected with its privacy unit, pgdp combines each customer's rows before releasing:
-- a customer counts once and contributes at most the clamping bound to a sum, however many orders
-- they placed (docs/privacy.md "Person-level releases"). Grouped releases either select their groups
-- privately (HAVING dp_groups: a group that exists because of one customer is dropped) or take
-- them from a table the owner declared public (every key appears, empty ones with noise).
\set QUIET on
\set ON_ERROR_STOP on
\pset footer off

CREATE TABLE demo_orders AS
SELECT i AS id, CASE WHEN i % 50 = 0 THEN 1 ELSE 2 + i % 997 END AS customer,
       (5 + (i * 13) % 60)::int AS amount, 'city ' || (1 + (i % 997) % 8) AS city
FROM generate_series(1, 50000) AS i;
-- Three customers who live in villages of their own: their villages identify them.
INSERT INTO demo_orders VALUES (50001, 2001, 40, 'Aston'), (50002, 2002, 35, 'Brill'), (50003, 2003, 20, 'Cley');
CREATE TABLE demo_orders_rows AS SELECT * FROM demo_orders;  -- the same rows, not protected
SELECT pgdp.set_budget(session_user::regrole, 1000, 0.01) \gset

\echo '== Customer 1 placed 1000 orders; the others about 49 each =='
SELECT count(*) AS orders, count(DISTINCT customer) AS customers,
       (SELECT count(*) FROM demo_orders WHERE customer = 1) AS orders_of_customer_1
FROM demo_orders;

\echo
\echo '== Row level (an unprotected copy): counts orders; one customer can move the sum by 1000 x 100 =='
SELECT round(dp_count(1.0)) AS orders, round(dp_sum(amount, 0, 100, 1.0)) AS revenue FROM demo_orders_rows;

\echo
\echo '== The owner protects the table: the privacy unit is the customer =='
SELECT relation, privacy_unit, status FROM pgdp.protect('demo_orders', 'customer');

\echo
\echo '== Person level: counts customers; each customer''s total is clamped to [0, 5000] =='
SELECT round(dp_count(1.0)) AS customers, round(dp_sum(amount, 0, 5000, 1.0)) AS revenue_bounded,
       round(dp_mean(amount, 0, 100, 1.0)::numeric, 1) AS mean_order_of_a_customer
FROM demo_orders;
\echo 'The plan: one row per customer, then the release:'
EXPLAIN (COSTS OFF) SELECT dp_count(1.0), dp_sum(amount, 0, 5000, 1.0) FROM demo_orders;

\echo
\echo '== Grouped: each customer counts in at most max_groups_contributed places =='
SELECT relation, privacy_unit, max_groups_contributed
FROM pgdp.protect('demo_orders', 'customer', max_groups_contributed => 2);
\echo 'The exact picture (an admin''s view): 8 cities of about 125 customers, 3 villages of one customer each'
SELECT city, count(DISTINCT customer) AS customers FROM demo_orders GROUP BY city ORDER BY city;

\echo
\echo '== Private group selection: the villages (one customer each) are dropped, the cities kept =='
SELECT city, round(dp_count(0.5)) AS customers, round(dp_sum(amount, 0, 2000, 0.5)) AS revenue_bounded
FROM demo_orders GROUP BY city HAVING dp_groups(0.5, 1e-6) ORDER BY city;

\echo
\echo '== Public keys: the owner declares a table of places public; every place appears =='
CREATE TABLE demo_places (city text);
INSERT INTO demo_places SELECT 'city ' || g FROM generate_series(1, 9) AS g;  -- city 9: no orders
SELECT relation, kind FROM pgdp.declare_public('demo_places');
SELECT p.city, round(dp_count(0.5)) AS customers FROM demo_places p LEFT JOIN demo_orders o USING (city)
GROUP BY p.city ORDER BY p.city;
\echo 'city 9 has no customers: its count is noise on 0. Villages are not places: their orders are dropped.'

\echo
\echo '== Without selection or public keys a grouped release is refused, nothing charged =='
\set ON_ERROR_STOP off
SELECT city, dp_count(1.0) FROM demo_orders GROUP BY city;
\set ON_ERROR_STOP on
SELECT round(epsilon_spent, 2) AS epsilon_spent, releases FROM pgdp.my_budget;
SELECT pgdp.undeclare_public('demo_places');
DROP TABLE demo_places;
SELECT pgdp.unprotect('demo_orders');
DROP TABLE demo_orders, demo_orders_rows;
