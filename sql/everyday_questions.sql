-- Everyday questions (issue 34), asked from the analyst's side: a shop whose customers and orders
-- are protected by customer; ev_dp has DP-only access, ev_select may read the rows. Each asks the
-- questions a new user writes the way the README teaches (money in numeric columns, monthly, yearly
-- and weekday series, date ranges, literals, text normalised, arithmetic in the value, CASE and
-- coalesce, joins on the unit, public keys, quantiles, histograms, intervals). Every question is
-- answered and charged one release per aggregate call, plus one for a private selection (the
-- releases column of pgdp.my_budget, read before and after). At epsilon 1e6 the answers equal what
-- the owner computes with plain SQL: each customer orders in one month only, so no bound is hit.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE ev_dp;
CREATE ROLE ev_select;
SELECT role FROM pgdp.set_budget('ev_dp', 1e12, 0.5);
SELECT role FROM pgdp.set_budget('ev_select', 1e12, 0.5);
CREATE SCHEMA ev;
CREATE TABLE ev.customers (id int PRIMARY KEY, country text NOT NULL, segment text, signup date NOT NULL);
CREATE TABLE ev.products (id int PRIMARY KEY, category text NOT NULL);
CREATE TABLE ev.orders (id int PRIMARY KEY, customer_id int NOT NULL, product_id int NOT NULL,
                        quantity int NOT NULL, amount numeric(10, 2) NOT NULL, created_at timestamptz NOT NULL,
                        delivery_days real, status text NOT NULL);
INSERT INTO ev.customers
SELECT i, (ARRAY['DE', 'de', 'FR', 'us', 'US'])[1 + i % 5], (ARRAY['retail', 'business'])[1 + i % 2],
       current_date - (i * 37 % 700)
FROM generate_series(1, 400) i;
INSERT INTO ev.products SELECT i, (ARRAY['books', 'toys', 'garden'])[1 + i % 3] FROM generate_series(1, 8) i;
-- Customer c orders only in month c % 12 of 2025 (ten orders, from the 1st to the 25th).
INSERT INTO ev.orders
SELECT i, 1 + i % 400, 1 + i % 7, 1 + i % 4, (i * 53 % 400) + 0.25 * (i % 4),
       timestamptz '2025-01-01 12:00+00' + ((1 + i % 400) % 12) * interval '1 month' + (i % 25) * interval '1 day',
       CASE WHEN i % 10 = 0 THEN NULL ELSE (i % 13) * 0.5 END, (ARRAY['shipped', 'delivered', 'cancelled', 'returned'])[1 + i % 4]
FROM generate_series(1, 4000) i;
SELECT relation FROM pgdp.protect('ev.customers', 'id', 1, 'customer');
SELECT relation FROM pgdp.protect('ev.orders', 'customer_id', 1, 'customer');
SELECT relation FROM pgdp.declare_public('ev.products');
GRANT USAGE ON SCHEMA ev TO ev_dp, ev_select;
GRANT SELECT ON ev.products TO ev_dp;
GRANT SELECT ON ALL TABLES IN SCHEMA ev TO ev_select;
SELECT relation FROM pgdp.grant_access('ev.customers', 'ev_dp');
SELECT relation FROM pgdp.grant_access('ev.orders', 'ev_dp');
-- What the owner computes (each customer's rows combined first: counts are of customers).
CREATE TABLE ev.truth_monthly AS
SELECT date_trunc('month', created_at) AS month, count(DISTINCT customer_id) AS buyers, sum(amount) AS revenue
FROM ev.orders GROUP BY 1;
CREATE TABLE ev.truth_country AS
SELECT upper(c.country) AS country, count(DISTINCT o.customer_id) AS buyers, sum(o.amount) AS revenue
FROM ev.orders o JOIN ev.customers c ON c.id = o.customer_id GROUP BY 1;
GRANT SELECT ON ev.truth_monthly, ev.truth_country TO ev_dp, ev_select;
SELECT count(DISTINCT customer_id) AS buyers, sum(amount) AS revenue FROM ev.orders \gset
SELECT count(*) AS germans FROM ev.customers WHERE lower(country) = 'de' \gset
SELECT count(DISTINCT customer_id) AS slow FROM ev.orders WHERE delivery_days > 4.5 \gset
SELECT count(DISTINCT customer_id) AS first_quarter FROM ev.orders WHERE created_at >= '2025-01-01' AND created_at < '2025-04-01' \gset
SELECT sum(quantity * 2.5) AS shipping FROM ev.orders \gset
SELECT avg(m) AS mean_of_means FROM (SELECT avg(amount) m FROM ev.orders GROUP BY customer_id) u \gset
SELECT count(*) AS recent FROM ev.customers WHERE signup > current_date - 365 \gset
SELECT count(DISTINCT customer_id) AS completed FROM ev.orders WHERE status IN ('shipped', 'delivered') \gset
SELECT sum(coalesce(delivery_days, 0)) AS delivery_total FROM ev.orders \gset
SELECT count(DISTINCT customer_id) AS last_90_days FROM ev.orders WHERE created_at >= now() - interval '90 days' \gset
RESET client_min_messages;

-- The same questions for both analysts.
\set ask '\\i test/everyday/questions.sql'
SET SESSION AUTHORIZATION ev_dp;
:ask
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION ev_select;
:ask
RESET SESSION AUTHORIZATION;
