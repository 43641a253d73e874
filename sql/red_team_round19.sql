-- Red team round 19 (docs/red-team/round19.md): a hostile analyst against the additions of 0.12
-- (dp_sum/dp_mean with NULL bounds, person-level statistics capped at pgdp.rows_per_unit) and
-- round 17's open escapes. Both breaks are pinned first (fixed), then attacks that failed and must
-- keep failing. Expected numbers: PostgreSQL's own sum()/avg() at epsilon 1e9, or the noise scale
-- 4 k / epsilon of the quantile tree (docs/privacy.md "Row-capped person-level statistics").
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
CREATE ROLE r19_vic;
CREATE ROLE r19_eve;
SELECT role FROM pgdp.set_budget('r19_vic', 1e18, 0.99);
SELECT role FROM pgdp.set_budget('r19_eve', 1e18, 0.99);
CREATE SCHEMA r19_vic AUTHORIZATION r19_vic;
CREATE SCHEMA r19_eve AUTHORIZATION r19_eve;
GRANT USAGE ON SCHEMA r19_vic TO r19_eve;
GRANT USAGE ON SCHEMA r19_eve TO r19_vic;
CREATE TABLE r19_secret (v float8);
INSERT INTO r19_secret SELECT g FROM generate_series(1, 100) g;
GRANT SELECT ON r19_secret TO r19_vic, r19_eve;
RESET client_min_messages;
\set VERBOSITY terse

-- Break 1 (fixed): a trigger that no running statement fired. vic owns a generic trigger function
-- that releases a count into the table its trigger names (TG_ARGV). eve attaches it to her own
-- tables, naming her own table: as a deferred constraint trigger and as a TRUNCATE trigger. A
-- trigger fired by vic's INSERT runs inside that statement, which writes eve's table: refused
-- (another role's table). But a deferred trigger fired by SET CONSTRAINTS in a DO block, in a
-- function called by a SELECT, or by COMMIT inside a procedure, and a TRUNCATE trigger, ran under
-- a DO block, CALL or a reading query that touch nothing of eve's: each charged vic and handed the
-- count to eve; so did an AFTER trigger on eve's table written by a cascaded foreign key action of
-- vic's DELETE. Now refused (42501) before the charge; eve's table stays empty.
SET SESSION AUTHORIZATION r19_vic;
CREATE FUNCTION r19_vic.log_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('INSERT INTO %s SELECT dp_count(1e9) FROM public.r19_secret', TG_ARGV[0]);
    RETURN NULL;
END $$;
CREATE PROCEDURE r19_vic.insert_and_commit() LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO r19_eve.deferred VALUES (1);
    COMMIT;
END $$;
CREATE FUNCTION r19_vic.insert_and_check() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO r19_eve.deferred VALUES (1);
    SET CONSTRAINTS ALL IMMEDIATE;
    RETURN 1;
END $$;
CREATE FUNCTION r19_vic.truncate_it() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE r19_eve.truncated;
    RETURN 1;
END $$;
SET SESSION AUTHORIZATION r19_eve;
CREATE TABLE r19_eve.loot (n float8);
CREATE TABLE r19_eve.deferred (k int);
CREATE TABLE r19_eve.truncated (k int);
GRANT INSERT ON r19_eve.loot, r19_eve.deferred TO r19_vic;
GRANT TRUNCATE ON r19_eve.truncated TO r19_vic;
CREATE CONSTRAINT TRIGGER leak AFTER INSERT ON r19_eve.deferred DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION r19_vic.log_release('r19_eve.loot');
CREATE TRIGGER leak BEFORE TRUNCATE ON r19_eve.truncated
    FOR EACH STATEMENT EXECUTE FUNCTION r19_vic.log_release('r19_eve.loot');
SET SESSION AUTHORIZATION r19_vic;
SELECT releases AS releases_before FROM pgdp.my_budget \gset
DO $$ BEGIN INSERT INTO r19_eve.deferred VALUES (1); SET CONSTRAINTS ALL IMMEDIATE; END $$;
SELECT r19_vic.insert_and_check();
CALL r19_vic.insert_and_commit();
DO $$ BEGIN TRUNCATE r19_eve.truncated; END $$;
SELECT r19_vic.truncate_it();
-- The same inside vic's INSERT into vic's own table (a statement that fires triggers of its own):
-- SET CONSTRAINTS and TRUNCATE are entries of their own, which fire none.
CREATE TABLE r19_vic.plain (k int);
INSERT INTO r19_vic.plain SELECT r19_vic.insert_and_check();
INSERT INTO r19_vic.plain SELECT r19_vic.truncate_it();
-- A cascaded foreign key action: eve's table references vic's (vic granted REFERENCES); vic's DELETE
-- and UPDATE cascade into eve's table, whose AFTER triggers fire at the end of vic's statement,
-- which names only vic's table. Refused as well.
CREATE TABLE r19_vic.parent (id int PRIMARY KEY);
INSERT INTO r19_vic.parent VALUES (1), (2), (3);
GRANT REFERENCES ON r19_vic.parent TO r19_eve;
SET SESSION AUTHORIZATION r19_eve;
CREATE TABLE r19_eve.child (parent int REFERENCES r19_vic.parent ON DELETE CASCADE ON UPDATE CASCADE);
INSERT INTO r19_eve.child VALUES (1), (2);
CREATE TRIGGER leak_delete AFTER DELETE ON r19_eve.child FOR EACH ROW EXECUTE FUNCTION r19_vic.log_release('r19_eve.loot');
CREATE TRIGGER leak_update AFTER UPDATE ON r19_eve.child FOR EACH STATEMENT EXECUTE FUNCTION r19_vic.log_release('r19_eve.loot');
SET SESSION AUTHORIZATION r19_vic;
DELETE FROM r19_vic.parent WHERE id = 1;
UPDATE r19_vic.parent SET id = 20 WHERE id = 2;
-- At the top level, COMMIT and TRUNCATE were refused already (no statement runs there; TRUNCATE's
-- message is now this rule's).
BEGIN;
INSERT INTO r19_eve.deferred VALUES (1);
COMMIT;
TRUNCATE r19_eve.truncated;
SELECT releases - :releases_before AS charged FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
SELECT count(*) AS rows_eve_got FROM r19_eve.loot;

-- Triggers that vic's own statements fire release as before (one level below the statement that
-- writes): an AFTER row trigger and a BEFORE statement trigger on vic's own table, also from a DO
-- block. A deferred trigger fired by SET CONSTRAINTS is refused on vic's own table as well (the
-- rule cannot tell whose table it is; at COMMIT it was refused before too).
SET SESSION AUTHORIZATION r19_vic;
CREATE TABLE r19_vic.log (n float8);
CREATE TABLE r19_vic.own (k int);
CREATE TRIGGER after_row AFTER INSERT ON r19_vic.own FOR EACH ROW EXECUTE FUNCTION r19_vic.log_release('r19_vic.log');
CREATE TRIGGER before_statement BEFORE INSERT ON r19_vic.own
    FOR EACH STATEMENT EXECUTE FUNCTION r19_vic.log_release('r19_vic.log');
INSERT INTO r19_vic.own VALUES (1);
DO $$ BEGIN INSERT INTO r19_vic.own VALUES (2); END $$;
CREATE TABLE r19_vic.own_deferred (k int);
CREATE CONSTRAINT TRIGGER own_leak AFTER INSERT ON r19_vic.own_deferred DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION r19_vic.log_release('r19_vic.log');
DO $$ BEGIN INSERT INTO r19_vic.own_deferred VALUES (1); SET CONSTRAINTS ALL IMMEDIATE; END $$;
SELECT n AS exact_count, count(*) AS releases FROM r19_vic.log GROUP BY n;
SELECT releases - :releases_before AS charged_four FROM pgdp.my_budget;

-- Break 2 (fixed): dp_sum and dp_mean with NULL bounds and mechanism 'auto' with a positive delta.
-- The charge plans the release at the widest bounds, where 'auto' resolves to Laplace at a large
-- epsilon and the plan drops delta; the release then planned Laplace with the call's delta and
-- raised "mechanism laplace is pure epsilon-DP and takes delta = 0" (22023) after the charge, on
-- any data (no privacy loss, but a charge for nothing and a broken "never an error after the
-- charge"). Now it releases as the bounded 'auto' call does, charged delta 0.
SET SESSION AUTHORIZATION r19_eve;
SELECT releases AS releases_before FROM pgdp.my_budget \gset
SELECT abs(dp_sum(v, NULL, NULL, 1e9, 1e-6, 'auto') - sum(v)) < 1e-3 AS sum_released,
       abs(dp_mean(v, 0, NULL, 1e9, 1e-6, 'auto') - avg(v)) < 1e-6 AS mean_released,
       abs(dp_sum(v, 0, 200, 1e9, 1e-6, 'auto') - sum(v)) < 1e-3 AS bounded_sum_released
FROM r19_secret;
SELECT aggregate, mechanism, delta FROM pgdp.my_ledger ORDER BY charge_id DESC, release LIMIT 3;
SELECT releases - :releases_before AS charged_three FROM pgdp.my_budget;

-- Held: a bound given next to an estimated one, as a NULL bind parameter of a generic plan. A
-- bound that is not finite or beyond +-2^63 is refused before the charge; tiny and negative-zero
-- bounds release a finite value.
SELECT releases AS releases_before FROM pgdp.my_budget \gset
SET plan_cache_mode = force_generic_plan;
PREPARE r19_bounds(float8, float8) AS SELECT dp_sum(v, $1, $2, 1) AS s, dp_mean(v, $1, $2, 1) AS m FROM r19_secret;
EXECUTE r19_bounds(NULL, 'Infinity');
EXECUTE r19_bounds('NaN', NULL);
EXECUTE r19_bounds(NULL, 1e19);
EXECUTE r19_bounds(-1e19, NULL);
SELECT releases - :releases_before AS charged_by_refusals FROM pgdp.my_budget;
SELECT ARRAY[dp_sum(v, 1e-300, NULL, 1), dp_sum(v, NULL, -1e-300, 1), dp_sum(v, 5e-324, NULL, 1),
             dp_sum(v, '-0', NULL, 1), dp_sum(v, 9.2e18, NULL, 1), dp_sum(v, NULL, -9.2e18, 1),
             dp_mean(v, NULL, 1e-300, 1), dp_mean(v, -1e-300, NULL, 1), dp_mean(v, NULL, 5e-324, 1),
             dp_mean(v, NULL, '-0', 1), dp_mean(v, 9.2e18, NULL, 1), dp_mean(v, NULL, -9.2e18, 1)]::text !~ 'NaN|Infinity|NULL'
       AS twelve_finite
FROM r19_secret;
DEALLOCATE r19_bounds;
RESET plan_cache_mode;
SELECT releases - :releases_before AS charged_twelve FROM pgdp.my_budget;

-- Held: pgdp.rows_per_unit is read when the statement is planned, and the call is calibrated for
-- the k that capped its rows: a cursor declared at k = 1024 and fetched after SET LOCAL k = 1, and a
-- function whose SET clause says k = 7, are charged at sensitivity k (the quantile tree's Laplace
-- scale 4 k / epsilon, ungrouped: m = 1).
RESET SESSION AUTHORIZATION;
CREATE TABLE r19_visits (person int, minutes float8);
INSERT INTO r19_visits SELECT g % 40, g % 90 FROM generate_series(1, 400) g;
SELECT relation FROM pgdp.protect('r19_visits', 'person', 2);
GRANT SELECT ON r19_visits TO r19_eve;
SET SESSION AUTHORIZATION r19_eve;
BEGIN;
SET LOCAL pgdp.rows_per_unit = 1024;
DECLARE r19_cursor CURSOR FOR SELECT dp_median(minutes, 0, 90, 1e9) BETWEEN 0 AND 90 AS median FROM r19_visits;
SET LOCAL pgdp.rows_per_unit = 1;
FETCH r19_cursor;
COMMIT;
CREATE FUNCTION r19_eve.median_at_7() RETURNS float8 LANGUAGE sql SET pgdp.rows_per_unit = 7
    AS $$ SELECT dp_median(minutes, 0, 90, 1e9) FROM public.r19_visits $$;
SELECT r19_eve.median_at_7() IS NOT NULL AS median;
SHOW pgdp.rows_per_unit;
SELECT aggregate, sensitivity, round(noise_scale * 1e9 / 4) AS k FROM pgdp.my_ledger WHERE aggregate = 'dp_median' ORDER BY charge_id;

-- Held: dp_count_distinct over a constant of the analyst's own composite type whose column type
-- has no equality (point): PostgreSQL refuses it while planning, before any row is read; nothing
-- is charged whether or not a row matches.
CREATE TYPE r19_eve.pointed AS (p point);
SELECT releases AS releases_before FROM pgdp.my_budget \gset
SELECT dp_count_distinct(CASE WHEN minutes > 1000 THEN '("(1,1)")'::r19_eve.pointed END, 1) FROM r19_visits;
SELECT dp_count_distinct(CASE WHEN minutes > 10 THEN '("(1,1)")'::r19_eve.pointed END, 1) FROM r19_visits;
SELECT releases - :releases_before AS charged_by_refusals FROM pgdp.my_budget;
RESET SESSION AUTHORIZATION;
