-- The version chain: installing 0.1 and updating gives the current extension, and every object
-- belongs to it.
DROP EXTENSION IF EXISTS pgdp CASCADE;
CREATE EXTENSION pgdp VERSION '0.1';
SELECT extversion, (SELECT count(*) FROM pg_proc WHERE proname IN ('dp_sum', 'dp_mean', 'dp_count')) AS aggregates
FROM pg_extension WHERE extname = 'pgdp';
ALTER EXTENSION pgdp UPDATE;
SELECT extversion, (SELECT count(*) FROM pg_proc WHERE proname IN ('dp_sum', 'dp_mean', 'dp_count')) AS aggregates,
       (SELECT count(*) FROM pg_proc WHERE proname IN ('dp_sum_ci', 'dp_mean_ci', 'dp_count_ci')) AS interval_aggregates
FROM pg_extension WHERE extname = 'pgdp';
-- Every aggregate is parallel safe with combine, serialize and deserialize functions and a
-- read-write final function (never shared between releases).
SELECT count(*) AS aggregates, bool_and(p.proparallel = 's') AS parallel_safe,
       bool_and(a.aggcombinefn <> 0 AND a.aggserialfn <> 0 AND a.aggdeserialfn <> 0) AS combinable,
       bool_and(a.aggfinalmodify = 'w') AS read_write_final, bool_and(a.aggtranstype = 'internal'::regtype) AS internal_state
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
WHERE p.proname LIKE 'dp\_%';
