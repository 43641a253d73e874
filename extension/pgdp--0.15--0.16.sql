-- pgdp 0.15 -> 0.16 (ALTER EXTENSION pgdp UPDATE TO '0.16'). Each part of the work that adds or
-- changes objects in 0.16 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.16'" to load this file. \quit

-- ---------------------------------------------------------------------------------------------
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
