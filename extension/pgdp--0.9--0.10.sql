-- pgdp 0.9 -> 0.10 (ALTER EXTENSION pgdp UPDATE TO '0.10'). Sessions that cannot be charged run as
-- without pgdp (docs/privacy.md "Inert where unused"): backends keep whether their session user
-- could be charged, and are told when that may change.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.10'" to load this file. \quit
CREATE FUNCTION pgdp.invalidate_chargeable_sessions() RETURNS trigger
AS 'MODULE_PATHNAME', 'pgdp_invalidate_chargeable_sessions' LANGUAGE C;
REVOKE ALL ON FUNCTION pgdp.invalidate_chargeable_sessions() FROM PUBLIC;
CREATE TRIGGER pgdp_chargeable_roles AFTER INSERT OR DELETE OR UPDATE OF role OR TRUNCATE ON pgdp.budgets
    FOR EACH STATEMENT EXECUTE FUNCTION pgdp.invalidate_chargeable_sessions();
CREATE TRIGGER pgdp_chargeable_roles AFTER INSERT OR DELETE OR UPDATE OF role OR TRUNCATE ON pgdp.access_grants
    FOR EACH STATEMENT EXECUTE FUNCTION pgdp.invalidate_chargeable_sessions();
ALTER TABLE pgdp.budgets ENABLE ALWAYS TRIGGER pgdp_chargeable_roles;
ALTER TABLE pgdp.access_grants ENABLE ALWAYS TRIGGER pgdp_chargeable_roles;
