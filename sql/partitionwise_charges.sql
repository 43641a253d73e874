-- Specifies: one charge per pgdp call over partitionwise aggregation (pipeline stage: execution, release sites).
-- Red-team round 5 (docs/red-team/round5.md): an analyst's attempts against partitionwise
-- aggregation charged once per call (docs/privacy.md "Partitionwise aggregation"). Each attack
-- shows its plan and the releases it charged (pgdp.my_budget, before and after): one charge per
-- call only where the children are one GROUP BY over disjoint partitions, else one per
-- aggregate, or a refusal that charges nothing. Values are exact at epsilon 1e6 (noise far below
-- 0.5), so sums and counts below are checked against the exact answers.
\set VERBOSITY default
SET client_min_messages = warning;
CREATE ROLE pwa_eve;
CREATE ROLE pwa_owner;
SELECT role FROM pgdp.set_budget('pwa_eve', 1e9);
CREATE SCHEMA pwa_eve AUTHORIZATION pwa_eve;
CREATE TABLE pwa_t (k int, v int) PARTITION BY RANGE (k);
CREATE TABLE pwa_t_1 PARTITION OF pwa_t FOR VALUES FROM (0) TO (100);
CREATE TABLE pwa_t_2 PARTITION OF pwa_t FOR VALUES FROM (100) TO (200);
CREATE TABLE pwa_t_3 PARTITION OF pwa_t FOR VALUES FROM (200) TO (300);
INSERT INTO pwa_t SELECT g % 300, g % 10 FROM generate_series(1, 3000) g;
-- Same partitioning, for partitionwise joins.
CREATE TABLE pwa_s (k int, w int) PARTITION BY RANGE (k);
CREATE TABLE pwa_s_1 PARTITION OF pwa_s FOR VALUES FROM (0) TO (100);
CREATE TABLE pwa_s_2 PARTITION OF pwa_s FOR VALUES FROM (100) TO (200);
CREATE TABLE pwa_s_3 PARTITION OF pwa_s FOR VALUES FROM (200) TO (300);
INSERT INTO pwa_s SELECT g % 300, g FROM generate_series(1, 600) g;
-- Two levels, default partitions at both.
CREATE TABLE pwa_m (k int, j int) PARTITION BY LIST (k);
CREATE TABLE pwa_m_1 PARTITION OF pwa_m FOR VALUES IN (1) PARTITION BY LIST (j);
CREATE TABLE pwa_m_1a PARTITION OF pwa_m_1 FOR VALUES IN (1);
CREATE TABLE pwa_m_1b PARTITION OF pwa_m_1 DEFAULT;
CREATE TABLE pwa_m_2 PARTITION OF pwa_m FOR VALUES IN (2);
CREATE TABLE pwa_m_d PARTITION OF pwa_m DEFAULT;
INSERT INTO pwa_m SELECT 1 + g % 4, g % 3 FROM generate_series(1, 1200) g;
-- Partitioned by an expression; one partition owned by another role; row security on the parent.
CREATE TABLE pwa_e (k int, v int) PARTITION BY LIST ((k % 3));
CREATE TABLE pwa_e_0 PARTITION OF pwa_e FOR VALUES IN (0);
CREATE TABLE pwa_e_1 PARTITION OF pwa_e FOR VALUES IN (1);
CREATE TABLE pwa_e_2 PARTITION OF pwa_e FOR VALUES IN (2);
ALTER TABLE pwa_e_2 OWNER TO pwa_owner;
INSERT INTO pwa_e SELECT g, g % 10 FROM generate_series(1, 900) g;
ALTER TABLE pwa_e ENABLE ROW LEVEL SECURITY;
CREATE POLICY small_v ON pwa_e FOR SELECT USING (v < 5);
CREATE VIEW pwa_view AS SELECT k, v FROM pwa_t WHERE v < 5;
-- Plain inheritance (not partitioning).
CREATE TABLE pwa_i (k int, v int);
CREATE TABLE pwa_i_1 (CHECK (k < 100)) INHERITS (pwa_i);
CREATE TABLE pwa_i_2 (CHECK (k >= 100)) INHERITS (pwa_i);
INSERT INTO pwa_i_1 SELECT g % 100, 1 FROM generate_series(1, 500) g;
INSERT INTO pwa_i_2 SELECT 100 + g % 100, 1 FROM generate_series(1, 500) g;
-- A foreign partition whose rows are the local partition's rows again (file_fdw reads whatever
-- its program prints, partition bounds or not).
CREATE EXTENSION file_fdw;
CREATE SERVER pwa_files FOREIGN DATA WRAPPER file_fdw;
CREATE TABLE pwa_f (k int, v int) PARTITION BY RANGE (k);
CREATE TABLE pwa_f_1 PARTITION OF pwa_f FOR VALUES FROM (0) TO (100);
CREATE FOREIGN TABLE pwa_f_2 PARTITION OF pwa_f FOR VALUES FROM (100) TO (200)
    SERVER pwa_files OPTIONS (program 'seq 0 99 | sed "s/$/,1/"', format 'csv');
INSERT INTO pwa_f SELECT g, 1 FROM generate_series(0, 99) g;
ANALYZE pwa_t, pwa_s, pwa_m, pwa_e, pwa_i, pwa_f_1;
GRANT SELECT ON pwa_t, pwa_s, pwa_m, pwa_e, pwa_view, pwa_i, pwa_f TO pwa_eve;
SET max_parallel_workers_per_gather = 0;
SET enable_partitionwise_aggregate = on;
SET enable_partitionwise_join = on;

SET SESSION AUTHORIZATION pwa_eve;
-- 1. The feature itself: one call over three partitions, charged once.
EXPLAIN (COSTS OFF) SELECT k, dp_count(1e6) FROM pwa_t GROUP BY k;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 3000 AS exact FROM (SELECT k, dp_count(1e6) AS n FROM pwa_t GROUP BY k) g;
SELECT releases - :before AS charged_once FROM pgdp.my_budget;
-- The same call twice in the select list is computed once; another epsilon is another call.
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(a) = 3000 AND sum(b) = 3000 AND sum(c) = 3000 AS exact
FROM (SELECT k, dp_count(1e6) AS a, dp_count(1e6) AS b, dp_count(2e6) AS c FROM pwa_t GROUP BY k) g;
SELECT releases - :before AS two_calls FROM pgdp.my_budget;

-- 2. UNION ALL of two partitionwise aggregations of the same table: each branch is an Append of
-- its own inside the UNION's Append (which carries the branches' relids): two charges.
EXPLAIN (COSTS OFF)
SELECT k, dp_count(1e6) FROM pwa_t GROUP BY k UNION ALL SELECT k, dp_count(1e6) FROM pwa_t GROUP BY k;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT k, dp_count(1e6) FROM pwa_t GROUP BY k UNION ALL SELECT k, dp_count(1e6) FROM pwa_t GROUP BY k \g /dev/null
SELECT releases - :before AS union_top_level FROM pgdp.my_budget;
-- The same inside a subquery (an append relation of two subqueries): two charges.
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 6000 AS exact
FROM (SELECT k, dp_count(1e6) AS n FROM pwa_t GROUP BY k UNION ALL SELECT k, dp_count(1e6) FROM pwa_t GROUP BY k) u;
SELECT releases - :before AS union_subquery FROM pgdp.my_budget;
-- Two partitionwise aggregations of the same table joined on the key: two charges.
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(a.n + b.n) = 6000 AS exact
FROM (SELECT k, dp_count(1e6) AS n FROM pwa_t GROUP BY k) a JOIN (SELECT k, dp_count(1e6) AS n FROM pwa_t GROUP BY k) b USING (k);
SELECT releases - :before AS joined_aggregations FROM pgdp.my_budget;

-- 3. Grouping sets are never partitionwise: ROLLUP (k, v) is three grouping sets, three charges.
EXPLAIN (COSTS OFF) SELECT k, v, dp_count(1e6) FROM pwa_t GROUP BY ROLLUP (k, v);
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 9000 AS exact FROM (SELECT k, v, dp_count(1e6) AS n FROM pwa_t GROUP BY ROLLUP (k, v)) g;
SELECT releases - :before AS rollup_sets FROM pgdp.my_budget;

-- 4. HAVING and FILTER: a call only in HAVING is a release too (its epsilon differs: two calls).
EXPLAIN (COSTS OFF) SELECT k, v, dp_count(1e6) FROM pwa_t GROUP BY k, v HAVING dp_count(1e5) > -1e9;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 3000 AS exact
FROM (SELECT k, v, dp_count(1e6) AS n FROM pwa_t GROUP BY k, v HAVING dp_count(1e5) > -1e9) g;
SELECT releases - :before AS having_two_calls FROM pgdp.my_budget;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 1500 AS exact
FROM (SELECT k, dp_count(1e6) FILTER (WHERE v >= 5) AS n FROM pwa_t GROUP BY k) g;
SELECT releases - :before AS filtered_once FROM pgdp.my_budget;

-- 5. Partitionwise join then aggregation: each child joins matching partitions only (a row of
-- either table meets one child), one charge; a self-join likewise.
EXPLAIN (COSTS OFF) SELECT t.k, dp_count(1e6) FROM pwa_t t JOIN pwa_s s ON t.k = s.k GROUP BY t.k;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = (SELECT count(*) FROM pwa_t t JOIN pwa_s s ON t.k = s.k) AS exact
FROM (SELECT t.k, dp_count(1e6) AS n FROM pwa_t t JOIN pwa_s s ON t.k = s.k GROUP BY t.k) g;
SELECT releases - :before AS join_once FROM pgdp.my_budget;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 30000 AS exact
FROM (SELECT a.k, dp_count(1e6) AS n FROM pwa_t a JOIN pwa_t b ON a.k = b.k AND a.v = b.v GROUP BY a.k) g;
SELECT releases - :before AS self_join_once FROM pgdp.my_budget;

-- 6. Two levels with default partitions: grouped by the top key only, the sub-partitioned child
-- is a Finalize Aggregate over partial ones (its own Append has relids); by both keys, one Agg
-- per leaf. One charge each.
EXPLAIN (COSTS OFF) SELECT k, dp_count(1e6) FROM pwa_m GROUP BY k;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT k, dp_count(1e6) AS n FROM pwa_m GROUP BY k ORDER BY k;
SELECT releases - :before AS top_key_once FROM pgdp.my_budget;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, min(n) = 100 AND max(n) = 100 AS exact FROM (SELECT k, j, dp_count(1e6) AS n FROM pwa_m GROUP BY k, j) g;
SELECT releases - :before AS both_keys_once FROM pgdp.my_budget;

-- 7. Key expression, partition owned by another role, row security on the parent, a view over
-- the partitioned table: the release follows what the parent shows; one charge each. (EXPLAIN is
-- refused: row security hides rows from eve that the planner's statistics describe.)
EXPLAIN (COSTS OFF) SELECT k % 3, dp_count(1e6) FROM pwa_e GROUP BY k % 3;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT k % 3 AS key, dp_count(1e6) AS n FROM pwa_e GROUP BY k % 3 ORDER BY 1;
SELECT releases - :before AS expression_key_once FROM pgdp.my_budget;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 1500 AS exact FROM (SELECT k, dp_count(1e6) AS n FROM pwa_view GROUP BY k) g;
SELECT releases - :before AS view_once FROM pgdp.my_budget;

-- 8. Not partitions: inheritance children are one Append under one Agg (one charge); a foreign
-- partition may return rows of another partition (here all of them): no call is covered, one
-- charge per partition's Agg.
EXPLAIN (COSTS OFF) SELECT k, dp_count(1e6) FROM pwa_i GROUP BY k;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 1000 AS exact FROM (SELECT k, dp_count(1e6) AS n FROM pwa_i GROUP BY k) g;
SELECT releases - :before AS inheritance_once FROM pgdp.my_budget;
EXPLAIN (COSTS OFF) SELECT k, dp_count(1e6) FROM pwa_f GROUP BY k;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, count(DISTINCT k) AS keys, sum(n) = 200 AS exact
FROM (SELECT k, dp_count(1e6) AS n FROM pwa_f GROUP BY k) g;
SELECT releases - :before AS foreign_partition_each FROM pgdp.my_budget;

-- 9. Prepared statements: a bind parameter as epsilon is evaluated once per call (same value in
-- every partition: covered); a bind parameter in WHERE gives no run-time pruning of the upper
-- Append (each partition's Agg is started; partitions without rows release no group).
SET plan_cache_mode = force_generic_plan;
PREPARE pwa_q(float8, int) AS SELECT k, dp_count($1) AS n FROM pwa_t WHERE k >= $2 GROUP BY k;
EXPLAIN (COSTS OFF) EXECUTE pwa_q(1e6, 250);
SELECT releases AS before FROM pgdp.my_budget \gset
EXECUTE pwa_q(1e6, 250) \g /dev/null
SELECT releases - :before AS generic_once FROM pgdp.my_budget;
-- Custom plan: the first partitions pruned at planning; the rest still charged once.
SET plan_cache_mode = force_custom_plan;
EXPLAIN (COSTS OFF) EXECUTE pwa_q(1e6, 150);
SELECT releases AS before FROM pgdp.my_budget \gset
EXECUTE pwa_q(1e6, 150) \g /dev/null
SELECT releases - :before AS custom_once FROM pgdp.my_budget;
-- A bind parameter on the sub-partition key: no run-time pruning below per-partition aggregates
-- either (PostgreSQL 15 prunes only Appends of scans); every child is started, one charge.
SET plan_cache_mode = force_generic_plan;
PREPARE pwa_r(int) AS SELECT k, dp_count(1e6) AS n FROM pwa_m WHERE j = $1 GROUP BY k ORDER BY k;
EXPLAIN (COSTS OFF) EXECUTE pwa_r(1);
SELECT releases AS before FROM pgdp.my_budget \gset
EXECUTE pwa_r(1);
SELECT releases - :before AS pruned_inside_once FROM pgdp.my_budget;
RESET plan_cache_mode;
DEALLOCATE pwa_q;
DEALLOCATE pwa_r;

-- 10. Cursors: a SCROLL cursor materializes the released rows; rewinding re-reads them (one
-- charge for all fetches); WITH HOLD is refused before the charge.
SELECT releases AS before FROM pgdp.my_budget \gset
BEGIN;
DECLARE pwa_c SCROLL CURSOR FOR SELECT k, dp_count(1e6) AS n FROM pwa_t GROUP BY k ORDER BY k;
FETCH 2 FROM pwa_c;
MOVE LAST IN pwa_c;
FETCH ABSOLUTE 1 FROM pwa_c;
MOVE ABSOLUTE 0 IN pwa_c;
FETCH 1 FROM pwa_c;
COMMIT;
SELECT releases - :before AS scroll_once FROM pgdp.my_budget;
SELECT releases AS before FROM pgdp.my_budget \gset
BEGIN;
DECLARE pwa_h CURSOR WITH HOLD FOR SELECT k, dp_count(1e6) FROM pwa_t GROUP BY k;
ROLLBACK;
SELECT releases - :before AS hold_refused FROM pgdp.my_budget;

-- 11. EXPLAIN ANALYZE runs (and charges) the query once.
SELECT releases AS before FROM pgdp.my_budget \gset
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT k, dp_count(1e6) FROM pwa_t GROUP BY k;
SELECT releases - :before AS analyze_once FROM pgdp.my_budget;

-- 12. Re-evaluation: correlated, the aggregation runs once per outer row: refused, nothing
-- charged; uncorrelated, it is an InitPlan run once: one charge.
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT g, (SELECT sum(n) FROM (SELECT k, dp_count(1e6) AS n FROM pwa_t WHERE k > g GROUP BY k) s)
FROM generate_series(1, 3) g;
SELECT releases - :before AS correlated_refused FROM pgdp.my_budget;
SELECT g, (SELECT sum(n) FROM (SELECT k, dp_count(1e6) AS n FROM pwa_t GROUP BY k) s) AS total
FROM generate_series(1, 3) g;
SELECT releases - :before AS initplan_once FROM pgdp.my_budget;

-- 13. Parallel plans: complete Aggs under a Parallel Append would release in workers: refused,
-- nothing charged. Finalize Aggs per partition over Gather Merge release in the leader: once.
RESET SESSION AUTHORIZATION;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;
SET SESSION AUTHORIZATION pwa_eve;
EXPLAIN (COSTS OFF) SELECT k, dp_count(1e6) FROM pwa_t GROUP BY k;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups FROM (SELECT k, dp_count(1e6) AS n FROM pwa_t GROUP BY k) g WHERE n > -1e9;
SELECT releases - :before AS parallel_append_refused FROM pgdp.my_budget;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT k, dp_count(1e6) FROM pwa_t GROUP BY k;
SELECT releases AS before FROM pgdp.my_budget \gset
SELECT count(*) AS groups, sum(n) = 3000 AS exact FROM (SELECT k, dp_count(1e6) AS n FROM pwa_t GROUP BY k) g;
SELECT releases - :before AS gather_merge_once FROM pgdp.my_budget;
RESET enable_hashagg;
RESET SESSION AUTHORIZATION;
SET max_parallel_workers_per_gather = 0;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET parallel_leader_participation;

-- 14. Many partitions: 64 calls over 1024 partitions are 65536 calls in the plan and 64 releases
-- (allowed); over 1025 partitions the plan holds more calls than pgdp tracks: refused with that
-- reason (before, the refusal claimed more than 64 releases), nothing charged.
CREATE TABLE pwa_big (k int) PARTITION BY LIST (k);
DO $$ BEGIN
    FOR g IN 1..1025 LOOP
        EXECUTE format('CREATE TABLE pwa_big_%s PARTITION OF pwa_big FOR VALUES IN (%s)', g, g);
    END LOOP;
END $$;
INSERT INTO pwa_big SELECT g FROM generate_series(1, 1025) g;
ANALYZE pwa_big;
GRANT SELECT ON pwa_big TO pwa_eve;
SET SESSION AUTHORIZATION pwa_eve;
SELECT format('SELECT count(*) AS groups, sum(%s) = 64 * count(*) AS exact FROM (SELECT k, %s FROM pwa_big %%s GROUP BY k) g',
              string_agg(format('c%s', i), ' + '), string_agg(format('dp_count(%s) AS c%s', 1e6 + i, i), ', ')) AS calls
FROM generate_series(1, 64) i \gset
SELECT format(:'calls', 'WHERE k <= 1024') AS query_1024, format(:'calls', '') AS query_1025 \gset
SELECT releases AS before FROM pgdp.my_budget \gset
:query_1024 ;
SELECT releases - :before AS releases_64 FROM pgdp.my_budget;
SELECT releases AS before FROM pgdp.my_budget \gset
:query_1025 ;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT releases - :before AS too_many_refused FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;

RESET enable_partitionwise_aggregate;
RESET enable_partitionwise_join;
RESET max_parallel_workers_per_gather;
DROP TABLE pwa_t, pwa_s, pwa_m, pwa_e, pwa_i, pwa_f, pwa_big CASCADE;
DROP SERVER pwa_files;
DROP EXTENSION file_fdw;
DROP SCHEMA pwa_eve CASCADE;
