-- pgdp 0.10 -> 0.11 (ALTER EXTENSION pgdp UPDATE TO '0.11'): dp_variance and dp_stddev (population)
-- and their *_ci forms (issue 24; docs/privacy.md "Aggregates"). They share the transition,
-- combine, serialize and deserialize functions of dp_sum and dp_mean; new are their final
-- functions, the aggregates, and pgdp.centred_squares, which Citus workers sum for them.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.11'" to load this file. \quit
CREATE FUNCTION pgdp.centred_squares(value float8, lower float8, upper float8) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_centred_squares_float8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.centred_squares(float8, float8, float8) IS
    'One row''s squared offset of its clamped value from the midpoint of [lower, upper], in the exact square units of dp_variance (NULL for NaN); summed on Citus workers';
CREATE FUNCTION pgdp.centred_squares(value numeric, lower float8, upper float8) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_centred_squares_numeric' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.centred_squares(numeric, float8, float8) IS
    'One row''s squared offset of its clamped value from the midpoint of [lower, upper], in the exact square units of dp_variance (NULL for NaN); summed on Citus workers';
CREATE FUNCTION pgdp_variance_final_float8(internal) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_variance_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_variance_final_numeric(internal) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_variance_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_stddev_final_float8(internal) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_stddev_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_stddev_final_numeric(internal) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_stddev_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_variance_ci_final(internal) RETURNS dp_release
AS 'MODULE_PATHNAME', 'pgdp_variance_ci_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_stddev_ci_final(internal) RETURNS dp_release
AS 'MODULE_PATHNAME', 'pgdp_stddev_ci_final' LANGUAGE C PARALLEL SAFE;

CREATE AGGREGATE dp_variance(int2, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int2, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(int2, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int2, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(int2, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int2, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(int2, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int2, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(int2, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int2, float8, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(int2, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int2, float8, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(int2, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int2, float8, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(int2, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int2, float8, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(int2, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int2, float8, float8, float8, float8, text) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(int2, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int2, float8, float8, float8, float8, text) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(int2, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int2, float8, float8, float8, float8, text, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(int2, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int2, float8, float8, float8, float8, text, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(int4, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int4, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(int4, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int4, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(int4, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int4, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(int4, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int4, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(int4, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int4, float8, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(int4, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int4, float8, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(int4, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int4, float8, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(int4, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int4, float8, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(int4, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int4, float8, float8, float8, float8, text) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(int4, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int4, float8, float8, float8, float8, text) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(int4, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int4, float8, float8, float8, float8, text, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(int4, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int4, float8, float8, float8, float8, text, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(int8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int8, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(int8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int8, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(int8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int8, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(int8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int8, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(int8, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int8, float8, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(int8, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int8, float8, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(int8, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int8, float8, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(int8, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int8, float8, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(int8, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(int8, float8, float8, float8, float8, text) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(int8, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(int8, float8, float8, float8, float8, text) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(int8, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int8, float8, float8, float8, float8, text, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(int8, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int8, float8, float8, float8, float8, text, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(float4, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(float4, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(float4, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(float4, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(float4, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(float4, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(float4, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(float4, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(float4, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(float4, float8, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(float4, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(float4, float8, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(float4, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(float4, float8, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(float4, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(float4, float8, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(float4, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(float4, float8, float8, float8, float8, text) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(float4, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(float4, float8, float8, float8, float8, text) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(float4, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(float4, float8, float8, float8, float8, text, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(float4, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(float4, float8, float8, float8, float8, text, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(float8, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(float8, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(float8, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(float8, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(float8, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(float8, float8, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(float8, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(float8, float8, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(float8, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(float8, float8, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(float8, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(float8, float8, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(float8, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(float8, float8, float8, float8, float8, text) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(float8, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(float8, float8, float8, float8, float8, text) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(float8, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(float8, float8, float8, float8, float8, text, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(float8, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(float8, float8, float8, float8, float8, text, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(numeric, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(numeric, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(numeric, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(numeric, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(numeric, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(numeric, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(numeric, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(numeric, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(numeric, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(numeric, float8, float8, float8, float8) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(numeric, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(numeric, float8, float8, float8, float8) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(numeric, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(numeric, float8, float8, float8, float8, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(numeric, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(numeric, float8, float8, float8, float8, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_variance(numeric, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance(numeric, float8, float8, float8, float8, text) IS
    'Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.';
CREATE AGGREGATE dp_stddev(numeric, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev(numeric, float8, float8, float8, float8, text) IS
    'Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].';
CREATE AGGREGATE dp_variance_ci(numeric, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(numeric, float8, float8, float8, float8, text, float8) IS
    'dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(numeric, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(numeric, float8, float8, float8, float8, text, float8) IS
    'dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.';

-- dp_histogram (written from the install script's dp_histogram sections)
-- dp_histogram (0.11): the counts of equal-width bins between lower and upper and of the two
-- outer bins, noised at once (one release, one charge; docs/privacy.md "dp_histogram"). Its own
-- state: the exact count of every bin.
CREATE TYPE dp_histogram_bin AS (bin int4, bin_lower float8, bin_upper float8, count int8,
                                 interval_low int8, interval_high int8, mechanism text);
COMMENT ON TYPE dp_histogram_bin IS
'One bin of a dp_histogram: its number (width_bucket''s: 0 below lower, bins + 1 from upper on and NaN), its bounds, the noisy count (at least 0) and the integers that hold the exact count with probability >= 0.95';

CREATE FUNCTION pgdp_histogram_combine(internal, internal) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_histogram_combine' LANGUAGE C PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_histogram_combine(internal, internal) IS 'dp_histogram: exact merge of partial counts';

CREATE FUNCTION pgdp_histogram_serialize(internal) RETURNS bytea
AS 'MODULE_PATHNAME', 'pgdp_histogram_serialize' LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_histogram_serialize(internal) IS 'dp_histogram: versioned counts for parallel workers';

CREATE FUNCTION pgdp_histogram_deserialize(bytea, internal) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_histogram_deserialize' LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_histogram_deserialize(bytea, internal) IS 'dp_histogram: validated counts from parallel workers';

CREATE FUNCTION pgdp_histogram_final(internal) RETURNS dp_histogram_bin[]
AS 'MODULE_PATHNAME', 'pgdp_histogram_final' LANGUAGE C PARALLEL SAFE;
-- dp_histogram: (value, lower, upper, bins, epsilon [, delta [, mechanism]]); other value types are cast to float8
CREATE FUNCTION pgdp_histogram_transfn(internal, float8, float8, float8, int4, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_histogram_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_histogram_transfn(internal, float8, float8, float8, int4, float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_histogram_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_histogram_transfn(internal, float8, float8, float8, int4, float8, float8, text) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_histogram_transfn' LANGUAGE C PARALLEL SAFE;
CREATE AGGREGATE dp_histogram(float8, float8, float8, int4, float8) (
    SFUNC = pgdp_histogram_transfn, FINALFUNC = pgdp_histogram_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_histogram_combine, SERIALFUNC = pgdp_histogram_serialize,
    DESERIALFUNC = pgdp_histogram_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_histogram(float8, float8, float8, int4, float8) IS
    'Differentially private histogram: the counts of bins equal-width bins over [lower, upper) and of the values below lower and from upper on, one release; sensitivity 1 per row.';
CREATE AGGREGATE dp_histogram(float8, float8, float8, int4, float8, float8) (
    SFUNC = pgdp_histogram_transfn, FINALFUNC = pgdp_histogram_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_histogram_combine, SERIALFUNC = pgdp_histogram_serialize,
    DESERIALFUNC = pgdp_histogram_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_histogram(float8, float8, float8, int4, float8, float8) IS
    'Differentially private histogram: the counts of bins equal-width bins over [lower, upper) and of the values below lower and from upper on, one release; sensitivity 1 per row.';
CREATE AGGREGATE dp_histogram(float8, float8, float8, int4, float8, float8, text) (
    SFUNC = pgdp_histogram_transfn, FINALFUNC = pgdp_histogram_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_histogram_combine, SERIALFUNC = pgdp_histogram_serialize,
    DESERIALFUNC = pgdp_histogram_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_histogram(float8, float8, float8, int4, float8, float8, text) IS
    'Differentially private histogram: the counts of bins equal-width bins over [lower, upper) and of the values below lower and from upper on, one release; sensitivity 1 per row.';


-- dp_quantile, dp_quantiles, dp_median (written from the install script's sections)
-- dp_quantile, dp_quantiles, dp_median (0.11): quantiles of values clamped to [lower, upper] from
-- one noisy quantile tree per call (docs/privacy.md "Statistics beyond sums, means and counts").
-- Their own state: the tree's exact leaf counts.
CREATE FUNCTION pgdp_quantile_combine(internal, internal) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_quantile_combine' LANGUAGE C PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_quantile_combine(internal, internal) IS 'pgdp quantiles: exact merge of partial trees';

CREATE FUNCTION pgdp_quantile_serialize(internal) RETURNS bytea
AS 'MODULE_PATHNAME', 'pgdp_quantile_serialize' LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_quantile_serialize(internal) IS 'pgdp quantiles: versioned tree for parallel workers';

CREATE FUNCTION pgdp_quantile_deserialize(bytea, internal) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_quantile_deserialize' LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_quantile_deserialize(bytea, internal) IS 'pgdp quantiles: validated tree from parallel workers';

CREATE FUNCTION pgdp_quantile_final(internal) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_quantile_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_quantiles_final(internal) RETURNS float8[]
AS 'MODULE_PATHNAME', 'pgdp_quantiles_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_median_final(internal) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_median_final' LANGUAGE C PARALLEL SAFE;
-- dp_quantile, dp_quantiles, dp_median; other value types are cast to float8
CREATE FUNCTION pgdp_quantile_transfn(internal, float8, float8, float8, float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_quantile_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_quantile_transfn(internal, float8, float8, float8, float8[], float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_quantile_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_quantile_transfn(internal, float8, float8, float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_quantile_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_quantile_transfn(internal, float8, float8, float8, float8, float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_quantile_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_quantile_transfn(internal, float8, float8, float8, float8[], float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_quantile_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_quantile_transfn(internal, float8, float8, float8, float8, float8, float8, text) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_quantile_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_quantile_transfn(internal, float8, float8, float8, float8[], float8, float8, text) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_quantile_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_quantile_transfn(internal, float8, float8, float8, float8, float8, text) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_quantile_transfn' LANGUAGE C PARALLEL SAFE;
CREATE AGGREGATE dp_quantile(float8, float8, float8, float8, float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantile_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_quantile(float8, float8, float8, float8, float8) IS
    'Differentially private quantile of values clamped to [lower, upper] (q in [0, 1]), from a noisy quantile tree (branching 16, height 4).';
CREATE AGGREGATE dp_quantiles(float8, float8, float8, float8[], float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantiles_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_quantiles(float8, float8, float8, float8[], float8) IS
    'Differentially private quantiles of values clamped to [lower, upper], one per level of q, all from one noisy quantile tree: one release.';
CREATE AGGREGATE dp_median(float8, float8, float8, float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_median_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_median(float8, float8, float8, float8) IS
    'Differentially private median of values clamped to [lower, upper], from a noisy quantile tree.';
CREATE AGGREGATE dp_quantile(float8, float8, float8, float8, float8, float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantile_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_quantile(float8, float8, float8, float8, float8, float8) IS
    'Differentially private quantile of values clamped to [lower, upper] (q in [0, 1]), from a noisy quantile tree (branching 16, height 4).';
CREATE AGGREGATE dp_quantiles(float8, float8, float8, float8[], float8, float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantiles_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_quantiles(float8, float8, float8, float8[], float8, float8) IS
    'Differentially private quantiles of values clamped to [lower, upper], one per level of q, all from one noisy quantile tree: one release.';
CREATE AGGREGATE dp_median(float8, float8, float8, float8, float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_median_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_median(float8, float8, float8, float8, float8) IS
    'Differentially private median of values clamped to [lower, upper], from a noisy quantile tree.';
CREATE AGGREGATE dp_quantile(float8, float8, float8, float8, float8, float8, text) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantile_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_quantile(float8, float8, float8, float8, float8, float8, text) IS
    'Differentially private quantile of values clamped to [lower, upper] (q in [0, 1]), from a noisy quantile tree (branching 16, height 4).';
CREATE AGGREGATE dp_quantiles(float8, float8, float8, float8[], float8, float8, text) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantiles_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_quantiles(float8, float8, float8, float8[], float8, float8, text) IS
    'Differentially private quantiles of values clamped to [lower, upper], one per level of q, all from one noisy quantile tree: one release.';
CREATE AGGREGATE dp_median(float8, float8, float8, float8, float8, text) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_median_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_median(float8, float8, float8, float8, float8, text) IS
    'Differentially private median of values clamped to [lower, upper], from a noisy quantile tree.';


-- dp_count_distinct (written from the install script's sections)
-- dp_count_distinct (0.11): the number of distinct values (not units), from a set of the values'
-- 64-bit hashes (docs/privacy.md "Statistics beyond sums, means and counts").
CREATE FUNCTION pgdp_count_distinct_combine(internal, internal) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_count_distinct_combine' LANGUAGE C PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_count_distinct_combine(internal, internal) IS 'dp_count_distinct: union of partial sets';

CREATE FUNCTION pgdp_count_distinct_serialize(internal) RETURNS bytea
AS 'MODULE_PATHNAME', 'pgdp_count_distinct_serialize' LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_count_distinct_serialize(internal) IS 'dp_count_distinct: versioned set for parallel workers';

CREATE FUNCTION pgdp_count_distinct_deserialize(bytea, internal) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_count_distinct_deserialize' LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_count_distinct_deserialize(bytea, internal) IS 'dp_count_distinct: validated set from parallel workers';

CREATE FUNCTION pgdp_count_distinct_final(internal) RETURNS int8
AS 'MODULE_PATHNAME', 'pgdp_count_distinct_final' LANGUAGE C PARALLEL SAFE;
-- dp_count_distinct: (value, epsilon [, delta [, mechanism]]), a value of any hashable type
CREATE FUNCTION pgdp_count_distinct_transfn(internal, anyelement, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_count_distinct_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_count_distinct_transfn(internal, anyelement, float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_count_distinct_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_count_distinct_transfn(internal, anyelement, float8, float8, text) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_count_distinct_transfn' LANGUAGE C PARALLEL SAFE;
CREATE AGGREGATE dp_count_distinct(anyelement, float8) (
    SFUNC = pgdp_count_distinct_transfn, FINALFUNC = pgdp_count_distinct_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_count_distinct_combine, SERIALFUNC = pgdp_count_distinct_serialize,
    DESERIALFUNC = pgdp_count_distinct_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_count_distinct(anyelement, float8) IS
    'Differentially private number of distinct non-NULL values (count(DISTINCT value)); sensitivity 1 per row.';
CREATE AGGREGATE dp_count_distinct(anyelement, float8, float8) (
    SFUNC = pgdp_count_distinct_transfn, FINALFUNC = pgdp_count_distinct_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_count_distinct_combine, SERIALFUNC = pgdp_count_distinct_serialize,
    DESERIALFUNC = pgdp_count_distinct_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_count_distinct(anyelement, float8, float8) IS
    'Differentially private number of distinct non-NULL values (count(DISTINCT value)); sensitivity 1 per row.';
CREATE AGGREGATE dp_count_distinct(anyelement, float8, float8, text) (
    SFUNC = pgdp_count_distinct_transfn, FINALFUNC = pgdp_count_distinct_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_count_distinct_combine, SERIALFUNC = pgdp_count_distinct_serialize,
    DESERIALFUNC = pgdp_count_distinct_deserialize, PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_count_distinct(anyelement, float8, float8, text) IS
    'Differentially private number of distinct non-NULL values (count(DISTINCT value)); sensitivity 1 per row.';

