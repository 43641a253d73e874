-- pgdp 0.13 -> 0.14 (ALTER EXTENSION pgdp UPDATE TO '0.14'). Each part of the work that adds or
-- changes objects in 0.14 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.14'" to load this file. \quit

-- ---------------------------------------------------------------------------------------------
-- Bounds that may be omitted (issue 24 part 5): the forms without bounds, as written by
-- scripts/install-script.sh (omitted_bounds_aggregates).
-- Forms without bounds (0.14): dp_sum(value, epsilon [, delta]) is dp_sum(value, NULL, NULL,
-- epsilon [, delta]), likewise dp_mean, dp_variance, dp_stddev, dp_median, dp_quantile(value, q, ...)
-- and dp_quantiles(value, q[], ...). pgdp's planner rewrites each call into that form; these
-- functions only refuse a call planned without pgdp.
CREATE FUNCTION pgdp_omitted_bounds_final_int8(internal) RETURNS int8
AS 'MODULE_PATHNAME', 'pgdp_omitted_bounds_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_omitted_bounds_final_float8(internal) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_omitted_bounds_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_omitted_bounds_final_numeric(internal) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_omitted_bounds_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_omitted_bounds_final_float8_array(internal) RETURNS float8[]
AS 'MODULE_PATHNAME', 'pgdp_omitted_bounds_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_omitted_bounds_transfn(internal, "any", float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_omitted_bounds_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_omitted_bounds_transfn(internal, "any", float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_omitted_bounds_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_omitted_bounds_transfn(internal, "any", float8, float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_omitted_bounds_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_omitted_bounds_transfn(internal, "any", float8[], float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_omitted_bounds_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_omitted_bounds_transfn(internal, "any", float8[], float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_omitted_bounds_transfn' LANGUAGE C PARALLEL SAFE;
CREATE AGGREGATE dp_sum(int2, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(int2, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(int2, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(int2, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(int2, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int2, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(int2, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int2, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_sum(int2, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(int2, float8, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(int2, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(int2, float8, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(int2, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int2, float8, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(int2, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int2, float8, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_sum(int4, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(int4, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(int4, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(int4, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(int4, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int4, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(int4, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int4, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_sum(int4, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(int4, float8, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(int4, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(int4, float8, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(int4, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int4, float8, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(int4, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int4, float8, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_sum(int8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(int8, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(int8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(int8, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(int8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int8, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(int8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int8, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_sum(int8, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(int8, float8, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(int8, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(int8, float8, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(int8, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int8, float8, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(int8, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int8, float8, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_sum(float4, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(float4, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(float4, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(float4, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(float4, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(float4, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(float4, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(float4, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_sum(float4, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(float4, float8, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(float4, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(float4, float8, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(float4, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(float4, float8, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(float4, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(float4, float8, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_sum(float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(float8, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(float8, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(float8, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(float8, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_sum(float8, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(float8, float8, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(float8, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(float8, float8, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(float8, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(float8, float8, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(float8, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(float8, float8, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_sum(numeric, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(numeric, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(numeric, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(numeric, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(numeric, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(numeric, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(numeric, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(numeric, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_sum(numeric, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum(numeric, float8, float8) IS
    'dp_sum with its bounds omitted: the planner rewrites the call into dp_sum(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_mean(numeric, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean(numeric, float8, float8) IS
    'dp_mean with its bounds omitted: the planner rewrites the call into dp_mean(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_variance(numeric, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(numeric, float8, float8) IS
    'dp_variance with its bounds omitted: the planner rewrites the call into dp_variance(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_stddev(numeric, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(numeric, float8, float8) IS
    'dp_stddev with its bounds omitted: the planner rewrites the call into dp_stddev(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_median(float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_median(float8, float8) IS
    'dp_median with its bounds omitted: the planner rewrites the call into dp_median(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_quantile(float8, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_quantile(float8, float8, float8) IS
    'dp_quantile with its bounds omitted: the planner rewrites the call into dp_quantile(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_quantiles(float8, float8[], float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8_array,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_quantiles(float8, float8[], float8) IS
    'dp_quantiles with its bounds omitted: the planner rewrites the call into dp_quantiles(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_median(float8, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_median(float8, float8, float8) IS
    'dp_median with its bounds omitted: the planner rewrites the call into dp_median(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_quantile(float8, float8, float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_quantile(float8, float8, float8, float8) IS
    'dp_quantile with its bounds omitted: the planner rewrites the call into dp_quantile(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';
CREATE AGGREGATE dp_quantiles(float8, float8[], float8, float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8_array,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_quantiles(float8, float8[], float8, float8) IS
    'dp_quantiles with its bounds omitted: the planner rewrites the call into dp_quantiles(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves).';

-- ---- Quantiles with NULL bounds over Citus tables ------------------------------------------
-- pgdp.quantile_leaf (the workers' state key) takes a NULL bound: the log-linear leaf map of the
-- single-node quantiles (docs/privacy.md "Distributed tables (Citus, 0.8)"); only its comment
-- changes in the catalog.
COMMENT ON FUNCTION pgdp.quantile_leaf(float8, float8, float8) IS
    'One row''s leaf (0 to 65535) in the quantile tree of the pgdp quantiles, its value clamped to [lower, upper], a NULL bound selecting the log-linear leaf map (NULL for a NULL or NaN value); counted on Citus workers';

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
