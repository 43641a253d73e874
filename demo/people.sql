-- pgdp demo, part 4: people, not rows. A shop's orders table has many rows per customer; a
-- row-level release protects one order, not a customer with 200 orders. Once the owner declares
-- the table protected with its privacy unit, pgdp combines each customer's rows before releasing:
-- a customer counts once and contributes at most the clamping bound to a sum, however many orders
-- they placed (docs/privacy.md "Person-level releases"). Grouped releases over protected tables
-- (private group selection, public keys) are still to come and are refused meanwhile.
\set QUIET on
\set ON_ERROR_STOP on
\pset footer off

CREATE TABLE demo_orders AS
SELECT i AS id, CASE WHEN i % 50 = 0 THEN 1 ELSE 2 + i % 997 END AS customer,
       (5 + (i * 13) % 60)::int AS amount
FROM generate_series(1, 50000) AS i;
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
\echo '== A grouped release over the protected table is refused (for now), nothing charged =='
\set ON_ERROR_STOP off
SELECT amount % 2 AS parity, dp_count(1.0) FROM demo_orders GROUP BY 1;
\set ON_ERROR_STOP on
SELECT pgdp.unprotect('demo_orders');
DROP TABLE demo_orders, demo_orders_rows;
