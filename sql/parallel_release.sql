-- Parallel workers never release (issue 8 part 1). 0.3 let a worker adopt the charged sites its
-- leader had published in shared memory, never cleared: a PARALLEL SAFE function running a
-- pgdp aggregate in a worker released for free, the exact value by averaging. Now only the
-- backend that charged a query releases; workers compute partial aggregates, and any final
-- call in a worker (the plan it was started for, or a query nested in a function it runs) is
-- refused before it reads a row.
SET client_min_messages = warning;
CREATE TABLE par_staff AS
    SELECT g AS id, (ARRAY['north', 'south', 'east', 'west'])[1 + g % 4] AS region, 20 + g % 45 AS age
    FROM generate_series(1, 40000) g;
ANALYZE par_staff;
CREATE ROLE par_eve;
CREATE ROLE par_none;
GRANT SELECT ON par_staff TO par_eve, par_none;
CREATE SCHEMA par_eve AUTHORIZATION par_eve;
GRANT USAGE ON SCHEMA par_eve TO par_none;
SELECT role FROM pgdp.set_budget('par_eve', 1);
CREATE FUNCTION par_releases(r text) RETURNS text LANGUAGE sql AS
  $$ SELECT format('%s releases, epsilon %s', releases, epsilon_spent) FROM pgdp.budgets WHERE role = r::regrole $$;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;

SET SESSION AUTHORIZATION par_eve;
CREATE FUNCTION par_eve.leak() RETURNS bigint LANGUAGE sql PARALLEL SAFE AS
  $$ SELECT dp_count(0.5) FROM public.par_staff WHERE region = 'north' AND age < 30 $$;
CREATE FUNCTION par_eve.leaky_filter(i int) RETURNS boolean LANGUAGE plpgsql PARALLEL SAFE AS
  $$ BEGIN IF i = 1 THEN PERFORM dp_count(0.5) FROM public.par_staff; END IF; RETURN true; END $$;
-- A charged parallel query: partial aggregates in the workers, one release by the leader.
EXPLAIN (COSTS OFF) SELECT dp_count(0.5) FROM par_staff WHERE region = 'north' AND age < 30;
SELECT dp_count(0.5) > 0 AS charged_parallel_release FROM par_staff WHERE region = 'north' AND age < 30;
-- The 0.3 repro: the function in a worker under force_parallel_mode.
-- force_parallel_mode was renamed debug_parallel_query in PostgreSQL 16
SELECT CASE WHEN current_setting('server_version_num')::int < 160000 THEN 'force_parallel_mode' ELSE 'debug_parallel_query' END AS force_parallel \gset
SET :force_parallel = on;
SELECT round(avg(v)) FROM (SELECT par_eve.leak() v FROM generate_series(1, 200)) s;
RESET :force_parallel;
-- A function in a Parallel Seq Scan filter (workers only: leader participation is off).
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_staff WHERE par_eve.leaky_filter(id);
SELECT count(*) FROM par_staff WHERE par_eve.leaky_filter(id);
RESET SESSION AUTHORIZATION;
SELECT par_releases('par_eve') AS eve_after_attacks;

-- A new session (maybe with the BackendId of the last one) of a role without budget: nothing
-- published survives, nothing is adopted.
\c -
SET client_min_messages = warning;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET SESSION AUTHORIZATION par_none;
SET :force_parallel = on;
SELECT par_eve.leak();
SELECT dp_count(0.25) FROM par_staff;
RESET SESSION AUTHORIZATION;

-- force_parallel_mode: the single-copy Gather it adds is kept off plans with pgdp aggregates
-- (they run in the leader, charged once); other plans keep it.
SET SESSION AUTHORIZATION par_eve;
SET :force_parallel = on;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT dp_count(0.25) FROM par_staff WHERE id < 10;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT dp_count(0.25) FROM (VALUES (1), (2)) v(x);
EXPLAIN (COSTS OFF) SELECT count(*) FROM (VALUES (1), (2)) v(x);
SELECT dp_count(0.25) > -1000 AS forced_mode_release FROM (VALUES (1), (2)) v(x);
RESET :force_parallel;
RESET SESSION AUTHORIZATION;
SELECT par_releases('par_eve') AS eve_final;

-- Parallel and serial plans release the same exact totals (epsilon 1e6: noise far below 0.5):
-- workers evaluate bound expressions themselves and must get the charged values.
SELECT role FROM pgdp.set_budget('par_eve', 1e8);
SET SESSION AUTHORIZATION par_eve;
SET plan_cache_mode = force_generic_plan;
PREPARE par_sum(float8) AS SELECT dp_sum(age, $1 * 10, $1 * 50, 1e6) AS released FROM par_staff;
EXPLAIN (COSTS OFF) EXECUTE par_sum(1);
EXECUTE par_sum(1) \gset parallel_
SET max_parallel_workers_per_gather = 0;
DEALLOCATE par_sum;
PREPARE par_sum(float8) AS SELECT dp_sum(age, $1 * 10, $1 * 50, 1e6) AS released FROM par_staff;
EXPLAIN (COSTS OFF) EXECUTE par_sum(1);
EXECUTE par_sum(1) \gset serial_
SELECT :parallel_released = sum(least(greatest(age, 10), 50)) AS parallel_exact,
       :serial_released = sum(least(greatest(age, 10), 50)) AS serial_exact
FROM par_staff;
RESET SESSION AUTHORIZATION;

-- Partitionwise aggregation: a Finalize Aggregate over an Append of partial aggregates finds its
-- arguments through the Append (0.3 refused it with a message about parallel workers); one
-- charge per call, exact at epsilon 1e6.
CREATE TABLE par_parts (id int, grp int, v int) PARTITION BY RANGE (id);
CREATE TABLE par_parts_1 PARTITION OF par_parts FOR VALUES FROM (0) TO (5000);
CREATE TABLE par_parts_2 PARTITION OF par_parts FOR VALUES FROM (5000) TO (10001);
INSERT INTO par_parts SELECT g, g % 3, g % 100 FROM generate_series(1, 10000) g;
ANALYZE par_parts;
GRANT SELECT ON par_parts, par_parts_1, par_parts_2 TO par_eve;
SET SESSION AUTHORIZATION par_eve;
SET enable_partitionwise_aggregate = on;
SET max_parallel_workers_per_gather = 0;
SELECT pgdp_releases_before FROM (SELECT releases AS pgdp_releases_before FROM pgdp.my_budget) b;
EXPLAIN (COSTS OFF) SELECT dp_sum(v, 0, 100, 1e6) FROM par_parts;
SELECT dp_count(1e6) = 10000 AS count_exact, dp_sum(v, 0, 100, 1e6) = 495000 AS sum_exact FROM par_parts;
SELECT grp, dp_count(1e6) AS n FROM par_parts GROUP BY grp ORDER BY grp;
SELECT releases FROM pgdp.my_budget;
-- Two single-row releases joined in FROM (one ends up on a nested loop's inner side, which does
-- not depend on the outer row): allowed, each charged once; a plain aggregate rescanned there
-- would refuse its second final call.
SELECT a.n + b.n = 10000 AS joined_exact
FROM (SELECT dp_count(1e6) AS n FROM par_parts WHERE grp = 0) a
CROSS JOIN (SELECT dp_count(1e6) AS n FROM par_parts WHERE grp <> 0) b;
SELECT releases FROM pgdp.my_budget;
-- Each branch of a UNION ALL is a release of its own (charged twice); a CTE read twice is
-- computed once (charged once, its rows reused as post-processing).
SELECT count(*) AS rows FROM (SELECT dp_count(1e6) FROM par_parts UNION ALL SELECT dp_count(1e6) FROM par_parts) u;
WITH c AS (SELECT dp_count(1e6) AS n FROM par_parts) SELECT c1.n = c2.n AS same_release FROM c c1, c c2;
SELECT releases FROM pgdp.my_budget;
-- Grouped by the partition key, partitionwise aggregation computes each partition's groups in an
-- Agg of its own under an Append: one release over disjoint groups, charged once per call (0.4
-- charged it once per partition). Two calls are two charges; the same call with other parameters
-- is another release.
EXPLAIN (COSTS OFF) SELECT id, dp_count(1e6) FROM par_parts GROUP BY id;
SELECT releases AS before_grouped FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 10000 AS counts_exact
FROM (SELECT id, dp_count(1e6) AS n FROM par_parts GROUP BY id) g;
SELECT releases - :before_grouped AS charged_once FROM pgdp.my_budget;
SELECT releases AS before_two FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 10000 AND sum(s) = 495000 AS exact
FROM (SELECT id, dp_count(1e6) AS n, dp_sum(v, 0, 100, 1e6) AS s FROM par_parts GROUP BY id) g;
SELECT releases - :before_two AS two_calls FROM pgdp.my_budget;
SELECT releases AS before_other FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(a) = 10000 AND sum(b) = 10000 AS exact
FROM (SELECT id, dp_count(1e6) AS a, dp_count(1e5) AS b FROM par_parts GROUP BY id) g;
SELECT releases - :before_other AS two_parameters FROM pgdp.my_budget;
-- UNION ALL branches are separate aggregates in SQL, even over different partitions: one charge each.
SELECT releases AS before_union FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 10000 AS exact
FROM (SELECT id, dp_count(1e6) AS n FROM par_parts_1 GROUP BY id
      UNION ALL SELECT id, dp_count(1e6) FROM par_parts_2 GROUP BY id) u;
SELECT releases - :before_union AS union_branches FROM pgdp.my_budget;
RESET enable_partitionwise_aggregate;
RESET SESSION AUTHORIZATION;
DROP TABLE par_parts;
-- Many partitions: one release, not one per partition (0.4 refused more than 64).
CREATE TABLE par_many (k int, v int) PARTITION BY LIST (k);
DO $$ BEGIN
    FOR g IN 1..100 LOOP
        EXECUTE format('CREATE TABLE par_many_%s PARTITION OF par_many FOR VALUES IN (%s)', g, g);
    END LOOP;
END $$;
INSERT INTO par_many SELECT 1 + g % 100, g FROM generate_series(1, 1000) g;
ANALYZE par_many;
GRANT SELECT ON par_many TO par_eve;
SET enable_partitionwise_aggregate = on;
-- The plan has one aggregate node per partition.
CREATE FUNCTION par_aggregate_nodes(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    line text;
    nodes bigint := 0;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        IF line ~ 'Aggregate' THEN nodes := nodes + 1; END IF;
    END LOOP;
    RETURN nodes;
END $$;
SELECT par_aggregate_nodes('SELECT k, dp_count(1e6) AS n FROM par_many GROUP BY k') AS aggregate_nodes;
SET SESSION AUTHORIZATION par_eve;
SELECT releases AS before_many FROM pgdp.my_budget \gset
SELECT count(*) AS groups, min(n) = 10 AND max(n) = 10 AS counts_exact
FROM (SELECT k, dp_count(1e6) AS n FROM par_many GROUP BY k) g;
SELECT releases - :before_many AS charged_once FROM pgdp.my_budget;
RESET enable_partitionwise_aggregate;
RESET SESSION AUTHORIZATION;
DROP TABLE par_many;
DROP FUNCTION par_aggregate_nodes(text);

DROP SCHEMA par_eve CASCADE;
DROP FUNCTION par_releases(text);
DROP TABLE par_staff;
DROP ROLE par_eve, par_none;
