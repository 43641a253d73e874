-- pgdp 0.4 -> 0.5: the transition functions take their value as "any" (42 transition overloads
-- become 12); every other object stays as it was. Written once for this update and frozen (not
-- generated): the install script of 0.5 is extension/pgdp--0.5.sql, and sql/upgrade.sql checks
-- that 0.4 updated by this script has exactly the objects of a fresh 0.5 install.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.5'" to load this file. \quit

-- The typed transition functions of 0.4, one per value type and form, step aside first: while
-- one exists, CREATE AGGREGATE would pick it (an exact match) over the "any" one.
ALTER FUNCTION pgdp_clamped_transfn(internal, int2, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, int2, float8, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, int2, float8, float8, float8, float8, text) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, int4, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, int4, float8, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, int4, float8, float8, float8, float8, text) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, int8, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, int8, float8, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, int8, float8, float8, float8, float8, text) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, float4, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, float4, float8, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, float4, float8, float8, float8, float8, text) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, float8, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, float8, float8, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, float8, float8, float8, float8, float8, text) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, numeric, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, numeric, float8, float8, float8, float8) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_transfn(internal, numeric, float8, float8, float8, float8, text) RENAME TO pgdp_clamped_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, int2, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, int2, float8, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, int2, float8, float8, float8, float8, text, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, int4, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, int4, float8, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, int4, float8, float8, float8, float8, text, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, int8, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, int8, float8, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, int8, float8, float8, float8, float8, text, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, float4, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, float4, float8, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, float4, float8, float8, float8, float8, text, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, float8, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, float8, float8, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, float8, float8, float8, float8, float8, text, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, numeric, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, numeric, float8, float8, float8, float8, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;
ALTER FUNCTION pgdp_clamped_ci_transfn(internal, numeric, float8, float8, float8, float8, text, float8) RENAME TO pgdp_clamped_ci_transfn_0_4;

-- The new transition functions.
CREATE FUNCTION pgdp_clamped_transfn(internal, "any", float8, float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_clamped_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_clamped_transfn(internal, "any", float8, float8, float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_clamped_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_clamped_transfn(internal, "any", float8, float8, float8, float8, text) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_clamped_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_clamped_ci_transfn(internal, "any", float8, float8, float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_clamped_ci_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_clamped_ci_transfn(internal, "any", float8, float8, float8, float8, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_clamped_ci_transfn' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION pgdp_clamped_ci_transfn(internal, "any", float8, float8, float8, float8, text, float8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_clamped_ci_transfn' LANGUAGE C PARALLEL SAFE;

-- Every dp_sum, dp_mean, dp_sum_ci and dp_mean_ci moves onto them. CREATE OR REPLACE keeps each
-- aggregate (its OID, comment and privileges), so the users' views and functions that call one
-- survive the update; its signature and result type cannot change. dp_count and dp_count_ci take
-- no value, so their transition functions stay as they are.

-- int2 values
CREATE OR REPLACE AGGREGATE dp_sum(int2, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(int2, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(int2, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(int2, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(int2, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(int2, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(int2, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(int2, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(int2, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(int2, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(int2, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(int2, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);

-- int4 values
CREATE OR REPLACE AGGREGATE dp_sum(int4, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(int4, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(int4, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(int4, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(int4, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(int4, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(int4, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(int4, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(int4, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(int4, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(int4, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(int4, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);

-- int8 values
CREATE OR REPLACE AGGREGATE dp_sum(int8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(int8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(int8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(int8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(int8, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(int8, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(int8, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(int8, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(int8, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_int8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(int8, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(int8, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(int8, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);

-- float4 values
CREATE OR REPLACE AGGREGATE dp_sum(float4, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(float4, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(float4, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(float4, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(float4, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(float4, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(float4, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(float4, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(float4, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(float4, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(float4, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(float4, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);

-- float8 values
CREATE OR REPLACE AGGREGATE dp_sum(float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(float8, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(float8, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(float8, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(float8, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(float8, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(float8, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_float8,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(float8, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(float8, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);

-- numeric values
CREATE OR REPLACE AGGREGATE dp_sum(numeric, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(numeric, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(numeric, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(numeric, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(numeric, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(numeric, float8, float8, float8, float8) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(numeric, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(numeric, float8, float8, float8, float8, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum(numeric, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_sum_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean(numeric, float8, float8, float8, float8, text) (
    SFUNC = pgdp_clamped_transfn, FINALFUNC = pgdp_mean_final_numeric,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_sum_ci(numeric, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_sum_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
CREATE OR REPLACE AGGREGATE dp_mean_ci(numeric, float8, float8, float8, float8, text, alpha float8) (
    SFUNC = pgdp_clamped_ci_transfn, FINALFUNC = pgdp_mean_ci_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);

-- The typed transition functions of 0.4, now unused (no CASCADE: a DROP fails if anything still
-- uses one).
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, int2, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, int2, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, int2, float8, float8, float8, float8, text);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, int4, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, int4, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, int4, float8, float8, float8, float8, text);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, int8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, int8, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, int8, float8, float8, float8, float8, text);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, float4, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, float4, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, float4, float8, float8, float8, float8, text);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, float8, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, float8, float8, float8, float8, float8, text);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, numeric, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, numeric, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_transfn_0_4(internal, numeric, float8, float8, float8, float8, text);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, int2, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, int2, float8, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, int2, float8, float8, float8, float8, text, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, int4, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, int4, float8, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, int4, float8, float8, float8, float8, text, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, int8, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, int8, float8, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, int8, float8, float8, float8, float8, text, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, float4, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, float4, float8, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, float4, float8, float8, float8, float8, text, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, float8, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, float8, float8, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, float8, float8, float8, float8, float8, text, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, numeric, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, numeric, float8, float8, float8, float8, float8);
DROP FUNCTION pgdp_clamped_ci_transfn_0_4(internal, numeric, float8, float8, float8, float8, text, float8);

-- 0.4 dropped the 0.3 table pgdp.ledger and its sequence pgdp.ledger_id_seq, which were
-- configuration tables: DROP TABLE left their OIDs in pg_extension.extconfig (only ALTER
-- EXTENSION ... DROP removes them). pg_dump skips OIDs it cannot find, but a relation created
-- later could get one of them and be dumped as pgdp's; keep only the relations that exist, with
-- their conditions (extconfig and extcondition are parallel arrays).
UPDATE pg_catalog.pg_extension e
SET extconfig = kept.config, extcondition = kept.condition
FROM (SELECT array_agg(c.config ORDER BY c.position) AS config, array_agg(c.condition ORDER BY c.position) AS condition
      FROM pg_catalog.pg_extension x,
           unnest(x.extconfig, x.extcondition) WITH ORDINALITY AS c(config, condition, position)
      WHERE x.extname = 'pgdp' AND EXISTS (SELECT FROM pg_catalog.pg_class r WHERE r.oid = c.config)) AS kept
WHERE e.extname = 'pgdp';
