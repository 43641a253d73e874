-- pgdp 0.7 -> 0.8: private aggregates on Citus distributed tables (docs/architecture.md
-- "Distributed tables (Citus)").
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.8'" to load this file. \quit

-- With shared_preload_libraries = 'citus,pgdp', a query level computing pgdp aggregates over
-- distributed tables is split: the workers compute exact totals with the built-in sum() and
-- count() over pgdp.clamped_units, and the releases are charged and noised once, here.
CREATE FUNCTION pgdp.clamped_units(value float8, lower float8, upper float8) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_clamped_units_float8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.clamped_units(float8, float8, float8) IS
    'One row''s value clamped to [lower, upper] in the exact fixed-point units of the pgdp aggregates (NULL for NaN); summed on Citus workers';
CREATE FUNCTION pgdp.clamped_units(value numeric, lower float8, upper float8) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_clamped_units_numeric' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.clamped_units(numeric, float8, float8) IS
    'One row''s value clamped to [lower, upper] in the exact fixed-point units of the pgdp aggregates (NULL for NaN); summed on Citus workers';
CREATE FUNCTION pgdp.distributed_partials(query text) RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgdp_distributed_partials' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION pgdp.distributed_partials(text) IS
    'Internal: the exact totals of a distributed release; runs only inside the plans pgdp builds, for a charged execution';
