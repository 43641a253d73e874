-- pgdp 0.15 -> 0.16 (ALTER EXTENSION pgdp UPDATE TO '0.16'). Each part of the work that adds or
-- changes objects in 0.16 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.16'" to load this file. \quit

-- ---------------------------------------------------------------------------------------------
-- Argument names on every aggregate (issue 34 part 6: \da and \df show value, lower, upper, q,
-- bins, epsilon, delta, mechanism, min_units, alpha). PostgreSQL lets CREATE OR REPLACE name a
-- parameter that had no name (it refuses only to change a name); everything else is as in 0.15.
-- Written by scripts/install-script.sh (its aggregates, CREATE becoming CREATE OR REPLACE).
CREATE OR REPLACE AGGREGATE dp_sum(value int2, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int2, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value int2, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value int2, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int2, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int2, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value int2, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value int2, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int2, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int2, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value int2, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value int2, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int2, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int2, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value int2, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value int2, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int2, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int2, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value int2, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value int2, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int2, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int2, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value int2, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value int2, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value int4, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value int4, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value int4, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value int4, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int4, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int4, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value int4, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value int4, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int4, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int4, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value int4, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value int4, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int4, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int4, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value int4, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value int4, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int4, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int4, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value int4, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value int4, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value int8, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value int8, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value int8, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value int8, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int8, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int8, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value int8, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value int8, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int8, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int8, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value int8, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value int8, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int8, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int8, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value int8, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value int8, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int8, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int8, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value int8, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value int8, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value float4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value float4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value float4, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value float4, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value float4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value float4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value float4, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value float4, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value float4, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value float4, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value float4, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value float4, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value float4, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value float4, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value float4, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value float4, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value float4, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value float4, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value float4, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value float4, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value float4, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value float4, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value float4, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value float4, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value float8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value float8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value float8, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value float8, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value float8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value float8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value float8, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value float8, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value float8, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value float8, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value float8, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value float8, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value float8, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value float8, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value float8, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value float8, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value float8, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value float8, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value float8, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value float8, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value float8, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value float8, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value float8, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value float8, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value numeric, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value numeric, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value numeric, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value numeric, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value numeric, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value numeric, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value numeric, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value numeric, lower float8, upper float8, epsilon float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value numeric, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value numeric, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value numeric, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value numeric, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value numeric, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value numeric, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value numeric, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value numeric, lower float8, upper float8, epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value numeric, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value numeric, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(value numeric, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(value numeric, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value numeric, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_variance_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value numeric, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_stddev_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance_ci(value numeric, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev_ci(value numeric, lower float8, upper float8, epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_count(epsilon float8) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_count_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_count_ci(epsilon float8, alpha float8) (
    SFUNC = pgdp_count_ci_transfn, FINALFUNC = pgdp_count_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_count(epsilon float8, delta float8) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_count_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_count_ci(epsilon float8, delta float8, alpha float8) (
    SFUNC = pgdp_count_ci_transfn, FINALFUNC = pgdp_count_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_count(epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_count_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_count_ci(epsilon float8, delta float8, mechanism text, alpha float8) (
    SFUNC = pgdp_count_ci_transfn, FINALFUNC = pgdp_count_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_groups(epsilon float8, delta float8) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_groups_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_groups(epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_groups_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_groups(epsilon float8, delta float8, mechanism text, min_units int8) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_groups_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_histogram(value float8, lower float8, upper float8, bins int4, epsilon float8) (
    SFUNC = pgdp_histogram_transfn, FINALFUNC = pgdp_histogram_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_histogram_combine, SERIALFUNC = pgdp_histogram_serialize,
    DESERIALFUNC = pgdp_histogram_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_histogram(value float8, lower float8, upper float8, bins int4, epsilon float8, delta float8) (
    SFUNC = pgdp_histogram_transfn, FINALFUNC = pgdp_histogram_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_histogram_combine, SERIALFUNC = pgdp_histogram_serialize,
    DESERIALFUNC = pgdp_histogram_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_histogram(value float8, lower float8, upper float8, bins int4, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_histogram_transfn, FINALFUNC = pgdp_histogram_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_histogram_combine, SERIALFUNC = pgdp_histogram_serialize,
    DESERIALFUNC = pgdp_histogram_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_quantile(value float8, lower float8, upper float8, q float8, epsilon float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantile_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_quantiles(value float8, lower float8, upper float8, q float8[], epsilon float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantiles_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_median(value float8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_median_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_quantile(value float8, lower float8, upper float8, q float8, epsilon float8, delta float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantile_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_quantiles(value float8, lower float8, upper float8, q float8[], epsilon float8, delta float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantiles_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_median(value float8, lower float8, upper float8, epsilon float8, delta float8) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_median_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_quantile(value float8, lower float8, upper float8, q float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantile_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_quantiles(value float8, lower float8, upper float8, q float8[], epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_quantiles_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_median(value float8, lower float8, upper float8, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_quantile_transfn, FINALFUNC = pgdp_median_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_count_distinct(value anyelement, epsilon float8) (
    SFUNC = pgdp_count_distinct_transfn, FINALFUNC = pgdp_count_distinct_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_count_distinct_combine, SERIALFUNC = pgdp_count_distinct_serialize,
    DESERIALFUNC = pgdp_count_distinct_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_count_distinct(value anyelement, epsilon float8, delta float8) (
    SFUNC = pgdp_count_distinct_transfn, FINALFUNC = pgdp_count_distinct_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_count_distinct_combine, SERIALFUNC = pgdp_count_distinct_serialize,
    DESERIALFUNC = pgdp_count_distinct_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_count_distinct(value anyelement, epsilon float8, delta float8, mechanism text) (
    SFUNC = pgdp_count_distinct_transfn, FINALFUNC = pgdp_count_distinct_final,
    STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_count_distinct_combine, SERIALFUNC = pgdp_count_distinct_serialize,
    DESERIALFUNC = pgdp_count_distinct_deserialize, PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int2, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int2, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int2, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int2, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int2, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int2, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int2, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int2, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int4, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int4, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int4, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int4, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int4, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int4, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int4, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int4, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int8, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int8, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int8, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int8, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value int8, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value int8, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value int8, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value int8, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value float4, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value float4, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value float4, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value float4, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value float4, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value float4, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value float4, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value float4, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value float8, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value float8, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value float8, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value float8, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value float8, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value float8, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value float8, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value float8, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value numeric, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value numeric, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value numeric, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value numeric, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(value numeric, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(value numeric, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_variance(value numeric, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_stddev(value numeric, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_median(value float8, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_quantile(value float8, q float8, epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_quantiles(value float8, q float8[], epsilon float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8_array,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_median(value float8, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_quantile(value float8, q float8, epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_quantiles(value float8, q float8[], epsilon float8, delta float8) (
    SFUNC = pgdp_omitted_bounds_transfn, FINALFUNC = pgdp_omitted_bounds_final_float8_array,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);

-- ---------------------------------------------------------------------------------------------
-- The analyst's catalog (issue 34 part 7): pgdp.my_relations and pgdp.my_columns, as in
-- extension/pgdp.sql.in.
CREATE VIEW pgdp.my_relations WITH (security_barrier) AS
SELECT r.relation, r.kind, r.access, r.privacy_unit, r.privacy_unit_kind, r.max_groups_contributed, r.rows_per_unit,
       r.planning_rows, coalesce(e.policy, 'none') AS refresh_policy, e.refresh_interval, g.cache_group
FROM (SELECT p.relation, 'protected'::text AS kind,
             CASE WHEN pg_catalog.has_any_column_privilege(p.relation::oid, 'SELECT') THEN 'select' ELSE 'dp_only' END
                 AS access,
             p.privacy_unit, p.privacy_unit_kind, p.max_groups_contributed, p.rows_per_unit, p.planning_rows
      FROM pgdp.protected_relations p JOIN pg_catalog.pg_class c ON c.oid = p.relation
      WHERE pg_catalog.has_any_column_privilege(p.relation::oid, 'SELECT')
         OR EXISTS (SELECT FROM pgdp.access_grants a WHERE a.relation = p.relation AND a.role = current_user::regrole)
      UNION ALL
      SELECT u.relation, 'public', 'select', NULL, NULL, NULL, NULL, NULL
      FROM pgdp.public_relations u JOIN pg_catalog.pg_class c ON c.oid = u.relation
      WHERE pg_catalog.has_any_column_privilege(u.relation::oid, 'SELECT')) r
LEFT JOIN pgdp.data_epochs e ON e.relation = r.relation
LEFT JOIN pgdp.cache_groups g ON g.role = session_user::regrole;
COMMENT ON VIEW pgdp.my_relations IS
    'The protected relations the current role may release over (access dp_only: releases only; select: it also reads the rows) with their privacy unit, its kind, max_groups_contributed, rows_per_unit and planning size, and the public relations it can read (group keys); refresh_policy of the release cache (none: not cached) and the session user''s cache group.';

CREATE VIEW pgdp.my_columns WITH (security_barrier) AS
SELECT m.relation, a.attnum AS position, a.attname AS column_name,
       pg_catalog.format_type(a.atttypid, a.atttypmod) AS data_type, a.attnotnull AS not_null,
       a.attname IS NOT DISTINCT FROM m.privacy_unit AS privacy_unit
FROM pgdp.my_relations m JOIN pg_catalog.pg_attribute a ON a.attrelid = m.relation
WHERE a.attnum > 0 AND NOT a.attisdropped;
COMMENT ON VIEW pgdp.my_columns IS
    'The columns of the relations of pgdp.my_relations (position as information_schema.columns.ordinal_position), also of those under DP-only access, which information_schema does not show.';
GRANT SELECT ON pgdp.my_relations, pgdp.my_columns TO PUBLIC;
-- One release per distinct call; contribution bounds in the open (docs/privacy.md "One release
-- per distinct call" and "The statement's own groups per unit"): dp_release gains how each
-- privacy unit's contribution was bounded in a person-level release, NULL over plain relations.
-- A release cached before the update is answered afresh once (release_cache.cpp
-- reports_have_current_fields; its expanded fields are other result columns).
ALTER TYPE dp_release ADD ATTRIBUTE max_groups_contributed integer, ADD ATTRIBUTE rows_per_unit integer;
-- ---- end of the onerelease block ------------------------------------------------------------
-- What a DP-only analyst may compute, by class: total forms of built-ins, canonical group keys
-- Total forms of built-ins (0.16), LEAKPROOF: the built-in's value wherever it has one, NULL (the
-- float casts: the saturated value) exactly where it would raise an error. The planner puts them
-- in place of the built-ins on rows read with DP-only access (docs/privacy.md "Total forms of
-- built-in functions"); canonical_key releases group keys whose equal values print differently.
CREATE FUNCTION pgdp.total_float8(value numeric) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_total_float8_numeric' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_float8(numeric) IS 'float8(value), +-Infinity beyond its range, 0 below its smallest value; never an error';
CREATE FUNCTION pgdp.total_float4(value numeric) RETURNS real
AS 'MODULE_PATHNAME', 'pgdp_total_float4_numeric' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_float4(numeric) IS 'real(value), +-Infinity beyond its range, 0 below its smallest value; never an error';
CREATE FUNCTION pgdp.total_float4(value float8) RETURNS real
AS 'MODULE_PATHNAME', 'pgdp_total_float4_float8' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_float4(float8) IS 'real(value), +-Infinity beyond its range, 0 below its smallest value; never an error';
CREATE FUNCTION pgdp.total_add(a integer, b integer) RETURNS integer
AS 'MODULE_PATHNAME', 'pgdp_total_int4_add' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_add(integer, integer) IS 'a + b, or NULL where it overflows; never an error';
CREATE FUNCTION pgdp.total_sub(a integer, b integer) RETURNS integer
AS 'MODULE_PATHNAME', 'pgdp_total_int4_sub' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_sub(integer, integer) IS 'a - b, or NULL where it overflows; never an error';
CREATE FUNCTION pgdp.total_mul(a integer, b integer) RETURNS integer
AS 'MODULE_PATHNAME', 'pgdp_total_int4_mul' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_mul(integer, integer) IS 'a * b, or NULL where it overflows; never an error';
CREATE FUNCTION pgdp.total_div(a integer, b integer) RETURNS integer
AS 'MODULE_PATHNAME', 'pgdp_total_int4_div' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_div(integer, integer) IS 'a / b, or NULL for a zero divisor or where it overflows; never an error';
CREATE FUNCTION pgdp.total_abs(a integer) RETURNS integer
AS 'MODULE_PATHNAME', 'pgdp_total_int4_abs' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_abs(integer) IS 'abs(a), or NULL where it overflows; never an error';
CREATE FUNCTION pgdp.total_add(a bigint, b bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_total_int8_add' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_add(bigint, bigint) IS 'a + b, or NULL where it overflows; never an error';
CREATE FUNCTION pgdp.total_sub(a bigint, b bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_total_int8_sub' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_sub(bigint, bigint) IS 'a - b, or NULL where it overflows; never an error';
CREATE FUNCTION pgdp.total_mul(a bigint, b bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_total_int8_mul' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_mul(bigint, bigint) IS 'a * b, or NULL where it overflows; never an error';
CREATE FUNCTION pgdp.total_div(a bigint, b bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_total_int8_div' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_div(bigint, bigint) IS 'a / b, or NULL for a zero divisor or where it overflows; never an error';
CREATE FUNCTION pgdp.total_abs(a bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_total_int8_abs' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_abs(bigint) IS 'abs(a), or NULL where it overflows; never an error';
CREATE FUNCTION pgdp.total_add(a float8, b float8) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_total_float8_add' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_add(float8, float8) IS 'a + b, or NULL where it overflows; never an error';
CREATE FUNCTION pgdp.total_sub(a float8, b float8) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_total_float8_sub' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_sub(float8, float8) IS 'a - b, or NULL where it overflows; never an error';
CREATE FUNCTION pgdp.total_mul(a float8, b float8) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_total_float8_mul' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_mul(float8, float8) IS 'a * b, or NULL where it overflows or underflows; never an error';
CREATE FUNCTION pgdp.total_div(a float8, b float8) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_total_float8_div' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_div(float8, float8) IS 'a / b, or NULL for a zero divisor, overflow or underflow; never an error';
CREATE FUNCTION pgdp.total_width_bucket(operand float8, low float8, high float8, count integer) RETURNS integer
AS 'MODULE_PATHNAME', 'pgdp_total_width_bucket_float8' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_width_bucket(float8, float8, float8, integer) IS 'width_bucket(operand, low, high, count), or NULL where it raises (NaN, bad bounds or count); never an error';
CREATE FUNCTION pgdp.total_timestamp(value date) RETURNS timestamp
AS 'MODULE_PATHNAME', 'pgdp_total_timestamp_date' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_timestamp(date) IS 'value::timestamp, or NULL beyond the timestamp range; never an error';
CREATE FUNCTION pgdp.total_timestamptz(value date) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'pgdp_total_timestamptz_date' LANGUAGE C STABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_timestamptz(date) IS 'value::timestamptz (midnight in the session''s zone), or NULL beyond the timestamp range; never an error';
CREATE FUNCTION pgdp.total_date_pl(value date, days integer) RETURNS date
AS 'MODULE_PATHNAME', 'pgdp_total_date_pl_int4' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_date_pl(date, integer) IS 'value + days, or NULL outside the date range; never an error';
CREATE FUNCTION pgdp.total_date_mi(value date, days integer) RETURNS date
AS 'MODULE_PATHNAME', 'pgdp_total_date_mi_int4' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_date_mi(date, integer) IS 'value - days, or NULL outside the date range; never an error';
CREATE FUNCTION pgdp.total_date_trunc(unit text, value timestamptz) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'pgdp_total_date_trunc_timestamptz' LANGUAGE C STABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_date_trunc(text, timestamptz) IS 'date_trunc(unit, value), or NULL where it raises (unit, out of range); never an error';
CREATE FUNCTION pgdp.total_date_trunc(unit text, value timestamp) RETURNS timestamp
AS 'MODULE_PATHNAME', 'pgdp_total_date_trunc_timestamp' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_date_trunc(text, timestamp) IS 'date_trunc(unit, value), or NULL where it raises (unit, out of range); never an error';
CREATE FUNCTION pgdp.total_extract(unit text, value timestamptz) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_total_extract_timestamptz' LANGUAGE C STABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_extract(text, timestamptz) IS 'extract(unit FROM value), or NULL where it raises (unit, out of range); never an error';
CREATE FUNCTION pgdp.total_extract(unit text, value timestamp) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_total_extract_timestamp' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_extract(text, timestamp) IS 'extract(unit FROM value), or NULL where it raises (unit, out of range); never an error';
CREATE FUNCTION pgdp.total_date_part(unit text, value timestamptz) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_total_date_part_timestamptz' LANGUAGE C STABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_date_part(text, timestamptz) IS 'date_part(unit, value), or NULL where it raises (unit, out of range); never an error';
CREATE FUNCTION pgdp.total_date_part(unit text, value timestamp) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_total_date_part_timestamp' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_date_part(text, timestamp) IS 'date_part(unit, value), or NULL where it raises (unit, out of range); never an error';
CREATE FUNCTION pgdp.canonical_key(value numeric) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_canonical_key_numeric' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.canonical_key(numeric) IS 'value at its smallest scale (1.0 and 1.00 print as 1); never an error';
CREATE FUNCTION pgdp.canonical_key(value float8) RETURNS float8
AS 'MODULE_PATHNAME', 'pgdp_canonical_key_float8' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.canonical_key(float8) IS 'value with -0 as 0 and one NaN; never an error';
CREATE FUNCTION pgdp.canonical_key(value real) RETURNS real
AS 'MODULE_PATHNAME', 'pgdp_canonical_key_float4' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.canonical_key(real) IS 'value with -0 as 0 and one NaN; never an error';
-- Dry run: pgdp.cost, pgdp.cost_releases, pgdp.budget_after.
-- Dry runs (0.16): what a query would be charged, before running it (docs/dry-run.md). The
-- statement is planned and started as it would be, never run; nothing is charged.

CREATE FUNCTION pgdp.cost_releases(statement text,
    OUT release integer, OUT aggregate text, OUT mechanism text, OUT epsilon numeric, OUT delta numeric,
    OUT noise_scale float8, OUT sensitivity float8, OUT gaussian_mu2 float8, OUT error_95 float8,
    OUT cached boolean)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgdp_cost_releases' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION pgdp.cost_releases(text) IS
    'The releases a statement would be charged, one row each in the ledger''s order (the dry run behind pgdp.cost); nothing is run or charged.';

-- What the session user's budget would hold after releases of these epsilons, deltas and Gaussian
-- parts, by the ledger's own rules (src/pg/ledger/ledger_budget.cpp): the basic part's remaining
-- epsilon and delta, and whether the ledger would accept them; fits is NULL where this cannot be
-- decided exactly here (a release in the Gaussian part of a 'gaussian' budget). No budget: the
-- ledger's refusal (42501) if there is a release, else NULLs.
CREATE FUNCTION pgdp.budget_after(epsilons numeric[], deltas numeric[], gaussian_mu2s float8[],
    OUT epsilon_remaining numeric, OUT delta_remaining numeric, OUT fits boolean)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    SELECT (b.epsilon_limit - b.gaussian_epsilon_limit) - s.epsilon_spent - q.e,
           (b.delta_limit - b.gaussian_delta_limit) - s.delta_spent - q.d,
           CASE WHEN q.n = 0 THEN true
                WHEN q.min_e < b.min_epsilon OR s.releases + q.n > b.release_limit
                     OR s.epsilon_spent + q.e > b.epsilon_limit - b.gaussian_epsilon_limit
                     OR s.delta_spent + q.d > b.delta_limit - b.gaussian_delta_limit THEN false
                WHEN q.gaussian_part THEN NULL
                ELSE true END
      INTO epsilon_remaining, delta_remaining, fits
    FROM pgdp.budgets b,
         LATERAL (SELECT b.period IS NOT NULL
                         AND pgdp.budget_window_start(b.period_start, b.period, now()) > b.period_start AS renewed) w,
         LATERAL (SELECT CASE WHEN w.renewed THEN 0 ELSE b.epsilon_spent END AS epsilon_spent,
                         CASE WHEN w.renewed THEN 0 ELSE b.delta_spent END AS delta_spent,
                         CASE WHEN w.renewed THEN 0 ELSE b.releases END AS releases) s,
         LATERAL (SELECT count(*) AS n, min(x.e) AS min_e,
                         coalesce(sum(x.e) FILTER (WHERE NOT x.g), 0) AS e,
                         coalesce(sum(x.d) FILTER (WHERE NOT x.g), 0) AS d,
                         coalesce(bool_or(x.g), false) AS gaussian_part
                  FROM (SELECT u.e, u.d,
                               b.accounting = 'gaussian' AND b.gaussian_delta_limit > 0 AND u.mu2 > 0 AS g
                        FROM unnest(epsilons, deltas, gaussian_mu2s) AS u(e, d, mu2)) x) q
    WHERE b.role = session_user::regrole;
    -- The ledger's refusal of a role without a budget (ledger_budget.cpp no_budget_texts).
    IF NOT FOUND AND cardinality(epsilons) > 0 THEN
        RAISE EXCEPTION 'role "%" has no privacy budget', session_user
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = format('Every release is charged to the session user, and "%s" has no row in pgdp.budgets; nothing was released or charged.', session_user),
                  HINT = format('A pgdp admin can create one with SELECT pgdp.set_budget(''%s'', epsilon, delta).', session_user);
    END IF;
END $$;
COMMENT ON FUNCTION pgdp.budget_after(numeric[], numeric[], float8[]) IS
    'The session user''s remaining basic epsilon and delta after releases of these epsilons, deltas and Gaussian mu^2, and whether the ledger would accept them (NULL: not decided here)';

CREATE FUNCTION pgdp.cost(statement text)
RETURNS TABLE (release integer, aggregate text, mechanism text, epsilon numeric, delta numeric,
               noise_scale float8, error_95 float8, cached boolean,
               epsilon_remaining numeric, delta_remaining numeric, fits boolean)
-- No SET search_path: the statement is planned with the caller's (the body names its functions
-- with their schemas).
LANGUAGE sql VOLATILE PARALLEL UNSAFE AS $$
    WITH r AS MATERIALIZED (SELECT * FROM pgdp.cost_releases(statement)),
         t AS (SELECT pg_catalog.bool_or(r.cached) AS cached,
                      pg_catalog.array_agg(r.epsilon ORDER BY r.release) AS epsilons,
                      pg_catalog.array_agg(r.delta ORDER BY r.release) AS deltas,
                      pg_catalog.array_agg(r.gaussian_mu2 ORDER BY r.release) AS mu2s
               FROM r)
    SELECT r.release, r.aggregate, r.mechanism, r.epsilon, r.delta, r.noise_scale, r.error_95, r.cached,
           NULL::numeric, NULL::numeric, NULL::boolean
    FROM r
    UNION ALL
    -- A statement the release cache answers is charged nothing.
    SELECT NULL, 'total', NULL,
           CASE WHEN t.cached THEN 0 ELSE coalesce((SELECT pg_catalog.sum(x) FROM pg_catalog.unnest(t.epsilons) x), 0) END,
           CASE WHEN t.cached THEN 0 ELSE coalesce((SELECT pg_catalog.sum(x) FROM pg_catalog.unnest(t.deltas) x), 0) END,
           NULL, NULL, coalesce(t.cached, false), a.epsilon_remaining, a.delta_remaining, a.fits
    FROM t LEFT JOIN LATERAL pgdp.budget_after(CASE WHEN t.cached THEN '{}' ELSE coalesce(t.epsilons, '{}') END,
                                               CASE WHEN t.cached THEN '{}' ELSE coalesce(t.deltas, '{}') END,
                                               CASE WHEN t.cached THEN '{}' ELSE coalesce(t.mu2s, '{}') END) a
           ON true
    ORDER BY 1 NULLS LAST
$$;
COMMENT ON FUNCTION pgdp.cost(text) IS
    'Dry run: the releases a query would be charged (aggregate, mechanism, epsilon, delta, noise scale, 95% error of the value where known before the rows), then a total row with the budget it would leave and whether it fits; nothing is run or charged.';

-- ------------------------------------------------------------------------------------------------
-- What a DP-only analyst may compute: numeric arithmetic and rounding, lower and upper,
-- timestamp, timestamptz and date +- interval (total forms)
-- Total forms of numeric arithmetic and rounding, lower and upper, and timestamp, timestamptz
-- and date +- interval (0.16): the built-in's value wherever it has one, NULL where it would raise
-- (lower and upper: NULL for text beyond 16 MiB, where buffers could pass the allocation limit).
CREATE FUNCTION pgdp.total_add(a numeric, b numeric) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_total_numeric_add' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_add(numeric, numeric) IS 'a + b, or NULL where it overflows the numeric format; never an error';
CREATE FUNCTION pgdp.total_sub(a numeric, b numeric) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_total_numeric_sub' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_sub(numeric, numeric) IS 'a - b, or NULL where it overflows the numeric format; never an error';
CREATE FUNCTION pgdp.total_mul(a numeric, b numeric) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_total_numeric_mul' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_mul(numeric, numeric) IS 'a * b, or NULL where it overflows the numeric format; never an error';
CREATE FUNCTION pgdp.total_div(a numeric, b numeric) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_total_numeric_div' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_div(numeric, numeric) IS 'a / b, or NULL for a zero divisor or where it overflows; never an error';
CREATE FUNCTION pgdp.total_mod(a numeric, b numeric) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_total_numeric_mod' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_mod(numeric, numeric) IS 'a % b, or NULL for a zero divisor; never an error';
CREATE FUNCTION pgdp.total_round(value numeric, scale integer) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_total_numeric_round' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_round(numeric, integer) IS 'round(value, scale), or NULL where rounding overflows the numeric format; never an error';
CREATE FUNCTION pgdp.total_round(value numeric) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_total_numeric_round_integer' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_round(numeric) IS 'round(value), or NULL where rounding overflows the numeric format; never an error';
CREATE FUNCTION pgdp.total_trunc(value numeric) RETURNS numeric
AS 'MODULE_PATHNAME', 'pgdp_total_numeric_trunc_integer' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_trunc(numeric) IS 'trunc(value); never an error';
CREATE FUNCTION pgdp.total_lower(value text) RETURNS text
AS 'MODULE_PATHNAME', 'pgdp_total_lower' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_lower(text) IS 'lower(value), or NULL for text beyond 16 MiB; never an error under the collations pgdp substitutes it for';
CREATE FUNCTION pgdp.total_upper(value text) RETURNS text
AS 'MODULE_PATHNAME', 'pgdp_total_upper' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_upper(text) IS 'upper(value), or NULL for text beyond 16 MiB; never an error under the collations pgdp substitutes it for';
CREATE FUNCTION pgdp.total_add(value timestamp, span interval) RETURNS timestamp
AS 'MODULE_PATHNAME', 'pgdp_total_timestamp_pl_interval' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_add(timestamp, interval) IS 'value + span, or NULL beyond the timestamp range; never an error';
CREATE FUNCTION pgdp.total_sub(value timestamp, span interval) RETURNS timestamp
AS 'MODULE_PATHNAME', 'pgdp_total_timestamp_mi_interval' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_sub(timestamp, interval) IS 'value - span, or NULL beyond the timestamp range; never an error';
CREATE FUNCTION pgdp.total_add(value timestamptz, span interval) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'pgdp_total_timestamptz_pl_interval' LANGUAGE C STABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_add(timestamptz, interval) IS 'value + span (in the session''s zone), or NULL beyond the timestamp range; never an error';
CREATE FUNCTION pgdp.total_sub(value timestamptz, span interval) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'pgdp_total_timestamptz_mi_interval' LANGUAGE C STABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_sub(timestamptz, interval) IS 'value - span (in the session''s zone), or NULL beyond the timestamp range; never an error';
CREATE FUNCTION pgdp.total_add(value date, span interval) RETURNS timestamp
AS 'MODULE_PATHNAME', 'pgdp_total_date_pl_interval' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_add(date, interval) IS 'value + span as a timestamp, or NULL beyond the timestamp range; never an error';
CREATE FUNCTION pgdp.total_sub(value date, span interval) RETURNS timestamp
AS 'MODULE_PATHNAME', 'pgdp_total_date_mi_interval' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_sub(date, interval) IS 'value - span as a timestamp, or NULL beyond the timestamp range; never an error';

-- ---------------------------------------------------------------------------------------------
-- width_bucket of numeric under DP-only access (docs/privacy.md "What a DP-only analyst may
-- compute, by class"), as in extension/pgdp.sql.in.
CREATE FUNCTION pgdp.total_width_bucket(operand numeric, low numeric, high numeric, count integer) RETURNS integer
AS 'MODULE_PATHNAME', 'pgdp_total_width_bucket_numeric' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION pgdp.total_width_bucket(numeric, numeric, numeric, integer) IS 'width_bucket(operand, low, high, count) of numeric, or NULL where it raises (NaN, infinite or equal bounds, bad count; with count 2147483647 every bucket above 0); never an error';

-- ---------------------------------------------------------------------------------------------
-- The *_ci forms that stop at epsilon (issue 34: dp_sum_ci(amount, 0, 2000, 1) is the 95 %
-- interval, alpha 0.05), as scripts/install-script.sh writes them into extension/pgdp--0.16.sql.
CREATE FUNCTION pgdp_clamped_ci_transfn(internal, "any", float8, float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_clamped_ci_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_count_ci_transfn(internal, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_count_ci_transfn' LANGUAGE C PARALLEL SAFE;
CREATE AGGREGATE dp_sum_ci(value int2, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum_ci(int2, float8, float8, float8) IS
    'dp_sum_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_mean_ci(value int2, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean_ci(int2, float8, float8, float8) IS
    'dp_mean_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_variance_ci(value int2, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int2, float8, float8, float8) IS
    'dp_variance_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(value int2, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int2, float8, float8, float8) IS
    'dp_stddev_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_sum_ci(value int4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum_ci(int4, float8, float8, float8) IS
    'dp_sum_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_mean_ci(value int4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean_ci(int4, float8, float8, float8) IS
    'dp_mean_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_variance_ci(value int4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int4, float8, float8, float8) IS
    'dp_variance_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(value int4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int4, float8, float8, float8) IS
    'dp_stddev_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_sum_ci(value int8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum_ci(int8, float8, float8, float8) IS
    'dp_sum_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_mean_ci(value int8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean_ci(int8, float8, float8, float8) IS
    'dp_mean_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_variance_ci(value int8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(int8, float8, float8, float8) IS
    'dp_variance_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(value int8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(int8, float8, float8, float8) IS
    'dp_stddev_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_sum_ci(value float4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum_ci(float4, float8, float8, float8) IS
    'dp_sum_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_mean_ci(value float4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean_ci(float4, float8, float8, float8) IS
    'dp_mean_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_variance_ci(value float4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(float4, float8, float8, float8) IS
    'dp_variance_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(value float4, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(float4, float8, float8, float8) IS
    'dp_stddev_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_sum_ci(value float8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum_ci(float8, float8, float8, float8) IS
    'dp_sum_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_mean_ci(value float8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean_ci(float8, float8, float8, float8) IS
    'dp_mean_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_variance_ci(value float8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(float8, float8, float8, float8) IS
    'dp_variance_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(value float8, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(float8, float8, float8, float8) IS
    'dp_stddev_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_sum_ci(value numeric, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_sum_ci(numeric, float8, float8, float8) IS
    'dp_sum_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_mean_ci(value numeric, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_mean_ci(numeric, float8, float8, float8) IS
    'dp_mean_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_variance_ci(value numeric, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_variance_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_variance_ci(numeric, float8, float8, float8) IS
    'dp_variance_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_stddev_ci(value numeric, lower float8, upper float8, epsilon float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_stddev_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_stddev_ci(numeric, float8, float8, float8) IS
    'dp_stddev_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
CREATE AGGREGATE dp_count_ci(epsilon float8) (
    SFUNC = pgdp_count_ci_transfn, FINALFUNC = pgdp_count_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_count_ci(float8) IS
    'dp_count_ci with its 95 % interval (alpha 0.05) and noise scale, as a dp_release record.';
