-- The questions of sql/everyday_questions.sql, asked by the session's analyst. After each: the
-- releases it was charged (pgdp.my_budget), one per aggregate call plus one per selection.
SELECT releases AS r0 FROM pgdp.my_budget \gset
-- 1. How many customers ordered?
SELECT dp_count(1e6) = :buyers AS exact FROM ev.orders;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 2. Revenue (a numeric money column; each customer's total clamped to [0, 5000]).
SELECT abs(dp_sum(amount, 0, 5000, 1e6) - :revenue) < 0.5 AS exact FROM ev.orders;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 3. The average order (each customer's mean, averaged).
SELECT abs(dp_mean(amount, 0, 500, 1e6) - :mean_of_means) < 0.05 AS exact FROM ev.orders;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 4. The median order (one order per customer).
SELECT abs(dp_median(amount, 0, 500, 1e6) - 200) < 40 AS plausible FROM ev.orders;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 5. Customers per month.
SELECT count(*) AS months, bool_and(q.buyers = t.buyers) AS exact
FROM (SELECT date_trunc('month', created_at) AS month, dp_count(1e6) AS buyers
      FROM ev.orders GROUP BY 1 HAVING dp_groups(1e6, 1e-6)) q FULL JOIN ev.truth_monthly t USING (month);
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 6. Revenue per month.
SELECT count(*) AS months, bool_and(abs(q.revenue - t.revenue) < 0.5) AS exact
FROM (SELECT date_trunc('month', created_at) AS month, dp_sum(amount, 0, 5000, 1e6) AS revenue
      FROM ev.orders GROUP BY 1 HAVING dp_groups(1e6, 1e-6)) q FULL JOIN ev.truth_monthly t USING (month);
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 7. Customers per year (extract returns numeric).
SELECT extract(year FROM created_at) AS year, dp_count(1e6) = :buyers AS exact
FROM ev.orders GROUP BY 1 HAVING dp_groups(1e6, 1e-6);
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 8. Customers per weekday (each customer counted on one of its weekdays).
SELECT count(*) AS weekdays, sum(buyers) = :buyers AS each_customer_once
FROM (SELECT extract(dow FROM created_at) AS weekday, dp_count(1e6) AS buyers
      FROM ev.orders GROUP BY 1 HAVING dp_groups(1e6, 1e-6)) q;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 9. Customers who ordered in the first quarter (a date range).
SELECT dp_count(1e6) = :first_quarter AS exact FROM ev.orders
WHERE created_at >= '2025-01-01' AND created_at < '2025-04-01';
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 10. Customers with a slow delivery (a numeric literal against a real column).
SELECT dp_count(1e6) = :slow AS exact FROM ev.orders WHERE delivery_days > 4.5;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 11. Customers in Germany, however the country was typed.
SELECT dp_count(1e6) = :germans AS exact FROM ev.customers WHERE lower(country) = 'de';
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 12. Customers who signed up in the last year.
SELECT dp_count(1e6) = :recent AS exact FROM ev.customers WHERE signup > current_date - 365;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 13. Shipping at 2.50 a unit (arithmetic in the value).
SELECT abs(dp_sum(quantity * 2.5, 0, 200, 1e6) - :shipping) < 0.5 AS exact FROM ev.orders;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 14. Order sizes in buckets of 100 (round with constant digits).
SELECT array_agg(bucket ORDER BY bucket) AS buckets, sum(orders) = :buyers AS each_customer_once
FROM (SELECT round(amount, -2) AS bucket, dp_count(1e6) AS orders
      FROM ev.orders GROUP BY 1 HAVING dp_groups(1e6, 1e-6)) q;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 15. The average order with its 95 % interval, every field of the release (one release).
SELECT value BETWEEN ci_lower AND ci_upper AS inside, alpha, mechanism, epsilon
FROM (SELECT (dp_mean_ci(amount, 0, 500, 1e6, 0, 'laplace', 0.05)).* FROM ev.orders) r;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 16. Customers per product category (the categories are public keys).
SELECT array_agg(category ORDER BY category) AS categories, sum(buyers) = :buyers AS each_customer_once
FROM (SELECT p.category, dp_count(1e6) AS buyers
      FROM ev.products p LEFT JOIN ev.orders o ON o.product_id = p.id GROUP BY p.category) q;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 17. Customers per country as typed.
SELECT country, dp_count(1e6) AS customers FROM ev.customers GROUP BY country HAVING dp_groups(1e6, 1e-6)
ORDER BY country COLLATE "C";
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 18. The average order per segment (a join on the privacy unit).
SELECT count(*) AS segments, bool_and(average BETWEEN 0 AND 400) AS plausible
FROM (SELECT c.segment, dp_mean(o.amount, 0, 500, 1e6) AS average
      FROM ev.orders o JOIN ev.customers c ON c.id = o.customer_id GROUP BY c.segment HAVING dp_groups(1e6, 1e-6)) q;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 19. Customers with a completed order (IN a list).
SELECT dp_count(1e6) = :completed AS exact FROM ev.orders WHERE status IN ('shipped', 'delivered');
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 20. Large and small orders (CASE).
SELECT array_agg(size ORDER BY size) AS sizes, sum(orders) = :buyers AS each_customer_once
FROM (SELECT CASE WHEN amount >= 200 THEN 'large' ELSE 'small' END AS size, dp_count(1e6) AS orders
      FROM ev.orders GROUP BY 1 HAVING dp_groups(1e6, 1e-6)) q;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 21. Delivery days in total, unknown ones as 0 (coalesce).
SELECT abs(dp_sum(coalesce(delivery_days, 0), 0, 100, 1e6) - :delivery_total) < 0.5 AS exact FROM ev.orders;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 22. The 90th percentile order.
SELECT abs(dp_quantile(amount, 0, 500, 0.9, 1e6) - 360) < 40 AS plausible FROM ev.orders;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 23. A histogram of order amounts (one order per customer).
SELECT sum(h.count) = :buyers AS each_customer_once
FROM unnest((SELECT dp_histogram(amount, 0, 400, 8, 1e6) FROM ev.orders)) AS h;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 24. Distinct buyers.
SELECT dp_count_distinct(customer_id, 1e6) = :buyers AS exact FROM ev.orders;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 25. Distinct buyers per month.
SELECT count(*) AS months, bool_and(q.buyers = t.buyers) AS exact
FROM (SELECT date_trunc('month', created_at) AS month, dp_count_distinct(customer_id, 1e6) AS buyers
      FROM ev.orders GROUP BY 1 HAVING dp_groups(1e6, 1e-6)) q FULL JOIN ev.truth_monthly t USING (month);
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 26. The average delivery time of delivered orders.
SELECT dp_mean(delivery_days, 0, 30, 1e6) BETWEEN 0 AND 6 AS plausible FROM ev.orders WHERE status = 'delivered';
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 27. Revenue with its interval, three fields of one release.
SELECT value BETWEEN lower AND upper AS inside FROM (
    SELECT (dp_sum_ci(amount, 0, 5000, 1e6, 0.05)).value, (dp_sum_ci(amount, 0, 5000, 1e6, 0.05)).ci_lower AS lower,
           (dp_sum_ci(amount, 0, 5000, 1e6, 0.05)).ci_upper AS upper FROM ev.orders) r;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 28. Orders in four equal buckets (width_bucket with constant bounds).
SELECT array_agg(bucket ORDER BY bucket) AS buckets, sum(orders) = :buyers AS each_customer_once
FROM (SELECT width_bucket(amount, 0, 400, 4) AS bucket, dp_count(1e6) AS orders
      FROM ev.orders GROUP BY 1 HAVING dp_groups(1e6, 1e-6)) q;
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 29. Customers in the last 90 days.
SELECT dp_count(1e6) = :last_90_days AS exact FROM ev.orders WHERE created_at >= now() - interval '90 days';
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
-- 30. Revenue and delivery per country, normalised (upper, nullif, a join on the unit).
SELECT count(*) AS countries, bool_and(abs(q.revenue - t.revenue) < 0.5) AS exact, bool_and(delivery BETWEEN 0 AND 6) AS plausible
FROM (SELECT upper(c.country) AS country, dp_sum(o.amount, 0, 5000, 1e6) AS revenue,
             dp_mean(nullif(o.delivery_days, 0), 0, 30, 1e6) AS delivery
      FROM ev.orders o JOIN ev.customers c ON c.id = o.customer_id GROUP BY 1 HAVING dp_groups(1e6, 1e-6)) q
FULL JOIN ev.truth_country t USING (country);
SELECT releases - :r0 AS charged, releases AS r0 FROM pgdp.my_budget \gset
\echo releases charged: :charged
