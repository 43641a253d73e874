-- pgdp 0.2: the private aggregates dp_sum, dp_mean and dp_count.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.2'" to load this file. \quit

-- Support functions. The state is an internal fixed-point total; noise is added only by the final
-- functions, which PostgreSQL never calls twice on one state (FINALFUNC_MODIFY = READ_WRITE).
CREATE FUNCTION pgdp_state_combine(internal, internal) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_state_combine' LANGUAGE C PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_state_combine(internal, internal) IS 'pgdp aggregates: exact merge of partial states';

CREATE FUNCTION pgdp_state_serialize(internal) RETURNS bytea
AS 'MODULE_PATHNAME', 'pgdp_state_serialize' LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_state_serialize(internal) IS 'pgdp aggregates: versioned state for parallel workers';

CREATE FUNCTION pgdp_state_deserialize(bytea, internal) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_state_deserialize' LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pgdp_state_deserialize(bytea, internal) IS 'pgdp aggregates: validated state from parallel workers';

CREATE FUNCTION pgdp_sum_final_int8(internal) RETURNS int8
AS 'MODULE_PATHNAME', 'pgdp_sum_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_sum_final_float8(internal) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_sum_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_sum_final_numeric(internal) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_sum_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_mean_final_float8(internal) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_mean_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_mean_final_numeric(internal) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_mean_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_count_final(internal) RETURNS int8
AS 'MODULE_PATHNAME', 'pgdp_count_final' LANGUAGE C PARALLEL SAFE;

-- A release with its error bars, for dashboards: one call gives the value, an interval that
-- contains the exact (clamped) value with probability >= 1 - alpha, the noise's standard
-- deviation, alpha and the mechanism actually used ('auto' resolved). Computed from the noisy
-- value and public parameters only.
CREATE TYPE dp_release AS (value float8, ci_lower float8, ci_upper float8, noise_sd float8,
                           alpha float8, mechanism text);
COMMENT ON TYPE dp_release IS 'A differentially private release with its (1 - alpha) interval and noise scale';

CREATE FUNCTION pgdp_sum_ci_final(internal) RETURNS dp_release
AS 'MODULE_PATHNAME', 'pgdp_sum_ci_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_mean_ci_final(internal) RETURNS dp_release
AS 'MODULE_PATHNAME', 'pgdp_mean_ci_final' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_count_ci_final(internal) RETURNS dp_release
AS 'MODULE_PATHNAME', 'pgdp_count_ci_final' LANGUAGE C PARALLEL SAFE;

-- dp_sum and dp_mean for every value type and each of the three forms:
--   (value, lower, upper, epsilon)                   pure epsilon-DP, Laplace
--   (value, lower, upper, epsilon, delta)            mechanism 'auto'
--   (value, lower, upper, epsilon, delta, mechanism) 'gaussian', 'tlap', 'laplace' or 'auto'
DO $generate$
DECLARE
    value_type text;
    parameters text;
    sum_final text;
    mean_final text;
BEGIN
    FOREACH value_type IN ARRAY ARRAY['int2', 'int4', 'int8', 'float4', 'float8', 'numeric'] LOOP
        sum_final := CASE WHEN value_type IN ('int2', 'int4', 'int8') THEN 'pgdp_sum_final_int8'
                          WHEN value_type = 'numeric' THEN 'pgdp_sum_final_numeric'
                          ELSE 'pgdp_sum_final_float8' END;
        mean_final := CASE WHEN value_type = 'numeric' THEN 'pgdp_mean_final_numeric'
                           ELSE 'pgdp_mean_final_float8' END;
        FOREACH parameters IN ARRAY ARRAY['float8, float8, float8', 'float8, float8, float8, float8',
                                          'float8, float8, float8, float8, text'] LOOP
            EXECUTE format('CREATE FUNCTION pgdp_clamped_transfn(internal, %s, %s) RETURNS internal '
                           'AS ''MODULE_PATHNAME'', ''pgdp_clamped_transfn'' LANGUAGE C PARALLEL SAFE',
                           value_type, parameters);
            EXECUTE format('CREATE AGGREGATE dp_sum(%s, %s) (SFUNC = pgdp_clamped_transfn, STYPE = internal, '
                           'SSPACE = 32, FINALFUNC = %s, FINALFUNC_MODIFY = READ_WRITE, '
                           'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                           'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)',
                           value_type, parameters, sum_final);
            EXECUTE format('CREATE AGGREGATE dp_mean(%s, %s) (SFUNC = pgdp_clamped_transfn, STYPE = internal, '
                           'SSPACE = 32, FINALFUNC = %s, FINALFUNC_MODIFY = READ_WRITE, '
                           'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                           'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)',
                           value_type, parameters, mean_final);
            EXECUTE format('CREATE FUNCTION pgdp_clamped_ci_transfn(internal, %s, %s, float8) RETURNS internal '
                           'AS ''MODULE_PATHNAME'', ''pgdp_clamped_ci_transfn'' LANGUAGE C PARALLEL SAFE',
                           value_type, parameters);
            EXECUTE format('CREATE AGGREGATE dp_sum_ci(%s, %s, alpha float8) (SFUNC = pgdp_clamped_ci_transfn, '
                           'STYPE = internal, SSPACE = 32, FINALFUNC = pgdp_sum_ci_final, FINALFUNC_MODIFY = READ_WRITE, '
                           'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                           'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)', value_type, parameters);
            EXECUTE format('CREATE AGGREGATE dp_mean_ci(%s, %s, alpha float8) (SFUNC = pgdp_clamped_ci_transfn, '
                           'STYPE = internal, SSPACE = 32, FINALFUNC = pgdp_mean_ci_final, FINALFUNC_MODIFY = READ_WRITE, '
                           'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                           'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)', value_type, parameters);
            EXECUTE format('COMMENT ON AGGREGATE dp_sum_ci(%s, %s, float8) IS %L', value_type, parameters,
                           'dp_sum with its (1 - alpha) interval and noise scale, as a dp_release record.');
            EXECUTE format('COMMENT ON AGGREGATE dp_mean_ci(%s, %s, float8) IS %L', value_type, parameters,
                           'dp_mean with its (1 - alpha) interval (union bound over sum and count) and noise scale.');
            EXECUTE format('COMMENT ON AGGREGATE dp_sum(%s, %s) IS %L', value_type, parameters,
                           'Differentially private sum of values clamped to [lower, upper]; sensitivity max(|lower|, |upper|).');
            EXECUTE format('COMMENT ON AGGREGATE dp_mean(%s, %s) IS %L', value_type, parameters,
                           'Differentially private mean of values clamped to [lower, upper]; half the budget on the centred sum, half on the count.');
        END LOOP;
    END LOOP;
    FOREACH parameters IN ARRAY ARRAY['float8', 'float8, float8', 'float8, float8, text'] LOOP
        EXECUTE format('CREATE FUNCTION pgdp_count_transfn(internal, %s) RETURNS internal '
                       'AS ''MODULE_PATHNAME'', ''pgdp_count_transfn'' LANGUAGE C PARALLEL SAFE', parameters);
        EXECUTE format('CREATE AGGREGATE dp_count(%s) (SFUNC = pgdp_count_transfn, STYPE = internal, '
                       'SSPACE = 32, FINALFUNC = pgdp_count_final, FINALFUNC_MODIFY = READ_WRITE, '
                       'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                       'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)', parameters);
        EXECUTE format('CREATE FUNCTION pgdp_count_ci_transfn(internal, %s, float8) RETURNS internal '
                       'AS ''MODULE_PATHNAME'', ''pgdp_count_ci_transfn'' LANGUAGE C PARALLEL SAFE', parameters);
        EXECUTE format('CREATE AGGREGATE dp_count_ci(%s, alpha float8) (SFUNC = pgdp_count_ci_transfn, '
                       'STYPE = internal, SSPACE = 32, FINALFUNC = pgdp_count_ci_final, FINALFUNC_MODIFY = READ_WRITE, '
                       'COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, '
                       'DESERIALFUNC = pgdp_state_deserialize, PARALLEL = SAFE)', parameters);
        EXECUTE format('COMMENT ON AGGREGATE dp_count_ci(%s, float8) IS %L', parameters,
                       'dp_count with its (1 - alpha) interval and noise scale, as a dp_release record.');
        EXECUTE format('COMMENT ON AGGREGATE dp_count(%s) IS %L', parameters,
                       'Differentially private count of the rows of the group; sensitivity 1.');
    END LOOP;
END
$generate$;
