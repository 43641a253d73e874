-- pgdp 0.6 -> 0.7: private group selection, the aggregate dp_groups (HAVING dp_groups(epsilon,
-- delta [, mechanism [, min_units]])), for grouped person-level releases over protected relations
-- (docs/privacy.md "Private group selection"). Written once for this update and frozen (not
-- generated): sql/upgrade.sql checks that 0.6 updated by this script has exactly the objects of a
-- fresh 0.7 install.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.7'" to load this file. \quit

-- dp_groups: keep the group or not, from its number of privacy units (docs/privacy.md
-- "Private group selection").
CREATE FUNCTION pgdp_groups_final(internal) RETURNS boolean
AS 'MODULE_PATHNAME', 'pgdp_groups_final' LANGUAGE C PARALLEL SAFE;

CREATE FUNCTION pgdp_count_transfn(internal, float8, float8, text, int8) RETURNS internal
AS 'MODULE_PATHNAME', 'pgdp_count_transfn' LANGUAGE C PARALLEL SAFE;

-- dp_groups: private group selection, (epsilon, delta [, mechanism [, min_units]])
CREATE AGGREGATE dp_groups(float8, float8) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_groups_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_groups(float8, float8) IS
    'Private group selection (HAVING dp_groups(...)): true if the group may be released, decided from its number of privacy units.';
CREATE AGGREGATE dp_groups(float8, float8, text) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_groups_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_groups(float8, float8, text) IS
    'Private group selection (HAVING dp_groups(...)): true if the group may be released, decided from its number of privacy units.';
CREATE AGGREGATE dp_groups(float8, float8, text, int8) (
    SFUNC = pgdp_count_transfn, FINALFUNC = pgdp_groups_final,
    STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE);
COMMENT ON AGGREGATE dp_groups(float8, float8, text, int8) IS
    'Private group selection (HAVING dp_groups(...)): true if the group may be released, decided from its number of privacy units.';

-- Grouped person-level releases (0.7) keep at most max_groups_contributed groups per privacy unit,
-- in the order of this rank: uniform random bits drawn per row from the release CSPRNG, so which
-- groups a unit keeps depends on no other unit's data (docs/privacy.md "Person-level releases").
-- The planner hook writes the calls; calling it directly only draws random numbers.
CREATE FUNCTION pgdp.bounding_rank() RETURNS bigint
AS 'MODULE_PATHNAME', 'pgdp_bounding_rank' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION pgdp.bounding_rank() IS 'Grouped person-level releases: a random rank per (unit, group) row, for the contribution bound';
