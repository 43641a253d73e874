-- pgdp 0.13 -> 0.14 (ALTER EXTENSION pgdp UPDATE TO '0.14'). Each part of the work that adds or
-- changes objects in 0.14 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.14'" to load this file. \quit

-- Citus: dp_sum, dp_mean, dp_variance and dp_stddev with NULL bounds over distributed tables
-- (the workers' per-row log bin and exact units; docs/privacy.md "Distributed tables").
CREATE FUNCTION pgdp.log_bin(value float8, lower float8, upper float8) RETURNS int
AS 'MODULE_PATHNAME', 'pgdp_log_bin_float8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.log_bin(float8, float8, float8) IS
    'One row''s log bin (0 to 192) for bounds estimated by pgdp, its value clamped to the given bound(s) (NULL for an estimated one); NULL for NULL and NaN; grouped on Citus workers';
CREATE FUNCTION pgdp.log_bin(value numeric, lower float8, upper float8) RETURNS int
AS 'MODULE_PATHNAME', 'pgdp_log_bin_numeric' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.log_bin(numeric, float8, float8) IS
    'One row''s log bin (0 to 192) for bounds estimated by pgdp, its value clamped to the given bound(s) (NULL for an estimated one); NULL for NULL and NaN; grouped on Citus workers';
CREATE FUNCTION pgdp.binned_units(value float8, lower float8, upper float8) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_binned_units_float8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.binned_units(float8, float8, float8) IS
    'One row''s exact units in its pgdp.log_bin (NULL for NULL and NaN); summed on Citus workers';
CREATE FUNCTION pgdp.binned_units(value numeric, lower float8, upper float8) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_binned_units_numeric' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.binned_units(numeric, float8, float8) IS
    'One row''s exact units in its pgdp.log_bin (NULL for NULL and NaN); summed on Citus workers';
