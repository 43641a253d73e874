-- pgdp 0.11 -> 0.12 (ALTER EXTENSION pgdp UPDATE TO '0.12'). Several parts of issue 24 add objects
-- in 0.12; each keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.12'" to load this file. \quit

-- ---- Citus forms of dp_histogram, the quantiles and dp_count_distinct (issue 24 part 6) ------
-- The workers group a distributed release's rows by each row's bin or leaf and count them
-- (dp_count_distinct groups by the value type's own hash function): docs/privacy.md
-- "Distributed tables (Citus)".
CREATE FUNCTION pgdp.histogram_bin(value float8, lower float8, upper float8, bins int) RETURNS int
AS 'MODULE_PATHNAME', 'pgdp_histogram_bin' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.histogram_bin(float8, float8, float8, int) IS
    'One row''s dp_histogram bin: 0 below lower, 1 to bins as width_bucket, bins + 1 from upper on and NaN; counted on Citus workers';
CREATE FUNCTION pgdp.quantile_leaf(value float8, lower float8, upper float8) RETURNS int
AS 'MODULE_PATHNAME', 'pgdp_quantile_leaf' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.quantile_leaf(float8, float8, float8) IS
    'One row''s leaf (0 to 65535) in the quantile tree of the pgdp quantiles, its value clamped to [lower, upper] (NULL for NaN); counted on Citus workers';
-- ---- end of the Citus block ----------------------------------------------------------------
