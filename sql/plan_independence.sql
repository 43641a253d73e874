-- Plan independence (issue 33, class 1): for a statement over a protected relation the session
-- user may not SELECT, the plan must follow nothing derived from the relation's rows (no
-- pg_statistic histograms, MCVs, n_distinct, correlation or widths, no extended statistics, no
-- index metapage reads, no actual min/max probes of an index, no real pages, tuples or
-- visibility fraction: a declared, public size), because the plan is observable. Written before
-- the fix, as an attack test. Three protected tables with the same schema and indexes (btree on
-- v, btree on (w, v), GIN on tags, BRIN on person, extended statistics on (w, v)): pa_b is pa_a
-- with one person's value replaced by 734521.7; pa_c is pa_a plus one person (150 rows) who came
-- after the last VACUUM. The same statement text (only the table differs) is run as pi_dp (DP-only
-- access with a budget), pi_none (a budget, no access) and pi_bare (no budget, no access), and
-- every fact that follows the plan must be the same for pa_b and pa_c as for pa_a.
--
-- The attacks pinned (all free or at min epsilon; releases here cost 0.001 each):
--  * plan cache counters: pg_prepared_statements.generic_plans/custom_plans after six EXECUTEs
--    under plan_cache_mode auto, where the sixth compares the generic plan's cost with the custom
--    plans' average: a threshold test on the hidden estimate. The counters move before
--    PostgreSQL refuses a role without SELECT (42501) and before pgdp refuses EXPLAIN EXECUTE.
--  * pg_locks: a reused generic plan locks only the indexes it uses (constants as parameters
--    under force_generic_plan, or inlined in the prepared text).
--  * refusals: "may evaluate it more than once" follows the join side the planner picked for a
--    grouped release joined to a public table (join_side).
--  * pg_cursors.is_scrollable of a cursor declared without SCROLL / NO SCROLL follows the plan's
--    top node (grouped_ordered).
--  * JIT: a plan is compiled when its cost exceeds jit_above_cost (a user setting); bisecting it
--    reads the plan's cost (observed through jit_dump_bitcode's files, by the test only; an
--    analyst times the release).
--  * EXPLAIN EXECUTE: its refusal (and its plan, were it ever allowed) is compared too.
-- Swept: twelve statements (eight releases: dp_count with v > c, with v > c and a condition
-- another index (btree, BRIN) serves, dp_sum with BETWEEN, an equality on an MCV-like column, a
-- public-keys join, a grouped release joined to a public table, a grouped release with ORDER BY;
-- four plain statements: count, rows by BETWEEN ORDER BY v, GIN, BRIN)
-- with constants around the hidden values (pa_a's largest v 1000.6, pa_b's 734521.7), under
-- plan_cache_mode auto, force_generic_plan and force_custom_plan, with enable_seqscan,
-- enable_indexscan/indexonlyscan, enable_bitmapscan, random_page_cost and work_mem, constants as
-- parameters or inlined; JIT thresholds bisected for six cases.
--
-- On 0.15 before the fix (37ea612) this test fails; what it found (pa_c: only through JIT):
--   sweep, 264 cases per role: pi_dp 23 differ for pa_b: locks of an inlined generic plan 5
--     (count_two_indexes, count_v_person), cursor scrollability 10 (grouped_ordered), the
--     refusal "may evaluate it more than once" with its locks and cursor 4 (join_side under
--     enable_seqscan = off), plan cache counters 1 (plain_rows), counters and locks 3
--     (sum_between over [1000.5, 1e6] under auto); pi_none 4 and pi_bare 4: plan cache counters
--     (sum_between and plain_rows, the BETWEEN 1000.5 AND 1e6 threshold test); none for pa_c.
--   JIT thresholds, 6 cases: pi_dp 5 differ for pa_b (dp_count with v > 1000.5: a plan cost of
--     about 2^3.06 for pa_a, 2^5.64 for pa_b), 1 for pa_c (dp_sum over [0, 1000.5]: the size).
-- The expected output is the truth after the fix: every case identical.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgdp;
-- VACUUM marks a page all-visible only once its rows' commits are flushed (hint bits): test/
-- regress.conf's synchronous_commit = off would leave that to the WAL writer's timing.
SET synchronous_commit = on;
-- Three tables, same schema and indexes. pa_b is pa_a with one person's value replaced by an
-- extreme one (734521.7, the issue's value); pa_c is pa_a plus one person with 150 rows, who
-- joined after the last VACUUM (a real visibility map: the new pages are not all-visible).
CREATE TABLE pa_a (person int, v float8, w int, tags int[]);
CREATE TABLE pa_b (LIKE pa_a);
CREATE TABLE pa_c (LIKE pa_a);
INSERT INTO pa_a SELECT g % 2000, (g * 7919 % 10007) / 10.0, g % 50, ARRAY[g % 13, g % 17]
FROM generate_series(1, 4000) g;
INSERT INTO pa_b SELECT g % 2000, CASE WHEN g = 1234 THEN 734521.7 ELSE (g * 7919 % 10007) / 10.0 END, g % 50,
                        ARRAY[g % 13, g % 17]
FROM generate_series(1, 4000) g;
INSERT INTO pa_c SELECT * FROM pa_a ORDER BY ctid;
CREATE TABLE pa_pub (k int, label text);
INSERT INTO pa_pub SELECT g, 'k' || g FROM generate_series(0, 49) g;
DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['pa_a', 'pa_b', 'pa_c'] LOOP
        EXECUTE format('CREATE INDEX %I ON %I (v)', t || '_v', t);
        EXECUTE format('CREATE INDEX %I ON %I (w, v)', t || '_wv', t);
        EXECUTE format('CREATE INDEX %I ON %I USING gin (tags)', t || '_tags', t);
        EXECUTE format('CREATE INDEX %I ON %I USING brin (person) WITH (pages_per_range = 4)', t || '_person', t);
        EXECUTE format('CREATE STATISTICS %I ON w, v FROM %I', t || '_wv_stats', t);
    END LOOP;
END $$;
RESET client_min_messages;
VACUUM ANALYZE pa_a;
VACUUM ANALYZE pa_b;
VACUUM ANALYZE pa_c;
VACUUM ANALYZE pa_pub;
-- (Should a page still not be all-visible, VACUUM again after a pause.)
\set ECHO none
SELECT pg_sleep(0.2) WHERE EXISTS (SELECT FROM pg_class WHERE relname IN ('pa_a', 'pa_b', 'pa_c') AND relallvisible < relpages) \g /dev/null
SELECT 'VACUUM ' || relname FROM pg_class WHERE relname IN ('pa_a', 'pa_b', 'pa_c') AND relallvisible < relpages \gexec
SELECT pg_sleep(1) WHERE EXISTS (SELECT FROM pg_class WHERE relname IN ('pa_a', 'pa_b', 'pa_c') AND relallvisible < relpages) \g /dev/null
SELECT 'VACUUM ' || relname FROM pg_class WHERE relname IN ('pa_a', 'pa_b', 'pa_c') AND relallvisible < relpages \gexec
\set ECHO all
INSERT INTO pa_c SELECT 2000, (g * 3571 % 10007) / 10.0, g % 50, ARRAY[g % 13, g % 17] FROM generate_series(1, 150) g;
ANALYZE pa_c;
SET client_min_messages = warning;
CREATE ROLE pi_dp;      -- DP-only analyst: a budget and access grants, no SELECT
CREATE ROLE pi_none;    -- a budget, no access and no SELECT
CREATE ROLE pi_bare;    -- neither a budget nor any access
CREATE ROLE pi_admin;
SELECT pgdp.designate_admin('pi_admin');
SELECT role FROM pgdp.set_budget('pi_dp', 1e9, 0.5);
SELECT role FROM pgdp.set_budget('pi_none', 1e9, 0.5);
GRANT SELECT ON pa_pub TO pi_dp, pi_none, pi_bare;
SELECT count(*) AS protected FROM (SELECT pgdp.protect(t, 'person', 2) FROM unnest(ARRAY['pa_a', 'pa_b', 'pa_c']) t) p;
SELECT relation FROM pgdp.declare_public('pa_pub');
SET SESSION AUTHORIZATION pi_admin;
SELECT count(*) AS grants FROM (SELECT pgdp.grant_access(t, 'pi_dp') FROM unnest(ARRAY['pa_a', 'pa_b', 'pa_c']) t) g;
RESET SESSION AUTHORIZATION;
RESET client_min_messages;
-- The premise: real statistics, and the tables differ as said (pa_b's extreme value is its
-- histogram's last bound; pa_c is larger and not all visible).
SELECT relname, relpages > 0 AS has_pages, reltuples > 0 AS has_tuples,
       relallvisible = relpages AS all_visible
FROM pg_class WHERE relname IN ('pa_a', 'pa_b', 'pa_c') ORDER BY 1;
SELECT tablename, (histogram_bounds::text::float8[])[array_upper(histogram_bounds::text::float8[], 1)] > 1e5 AS extreme_bound
FROM pg_stats WHERE tablename IN ('pa_a', 'pa_b') AND attname = 'v' ORDER BY 1;

-- The harness. pa_facts(relation, statement, arguments, runs, plan_cache_mode, settings, inline)
-- runs as the current user: PREPARE the statement over the relation (the arguments as parameters,
-- or inlined into the text), EXECUTE it `runs` times, then collects what follows the plan: each
-- execution's outcome (SQLSTATE and message), the plan cache counters, the relation locks held
-- after one more execution, EXPLAIN EXECUTE's outcome, the scrollability of a cursor over the
-- statement (arguments inlined), and, when a setting turns JIT on, the JIT modules each execution
-- compiled. Each step runs in a subtransaction rolled back, so locks taken by earlier planning
-- are gone, and so are the settings. Relation names are replaced by T.
CREATE FUNCTION pg_temp.pa_norm(t text) RETURNS text LANGUAGE sql IMMUTABLE
AS $$ SELECT regexp_replace(t, 'pa_[abc](_|\M)', 'T\1', 'g') $$;
-- JIT modules this backend compiled since the last call: the bitcode files it dumped
-- (jit_dump_bitcode, set by the superuser), named PID.N.bc with N counting modules (a module
-- created but not compiled leaves a gap). The highest N seen is kept in a sequence (no rollback).
CREATE TEMP SEQUENCE pa_jit_seen MINVALUE 0 START 0;
SELECT nextval('pa_jit_seen') AS jit_seen_start;
CREATE FUNCTION pg_temp.pa_jit_modules() RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET jit = off AS $$
DECLARE
    seen bigint := currval('pa_jit_seen');
    found bigint := 0;
    last bigint := seen - 1;
BEGIN
    FOR n IN seen..seen + 63 LOOP
        IF (pg_stat_file(format('%s.%s.bc', pg_backend_pid(), n), true)).size IS NOT NULL THEN
            found := found + 1;
            last := n;
        END IF;
    END LOOP;
    PERFORM setval('pa_jit_seen', last + 1, true);
    RETURN found;
END $$;
CREATE FUNCTION pg_temp.pa_facts(rel text, stmt text, args text, runs int, mode text, settings text, inline bool)
RETURNS text[] LANGUAGE plpgsql AS $f$
DECLARE
    q text := format(stmt, rel);
    literal text := q;
    arg text[] := string_to_array(args, ',');
    outcomes text[] := '{}';
    jit text[] := '{}';
    outcome text;
    counters text;
    locks text;
    explained text := '';
    cursor_fact text;
    line text;
    before bigint;
    cur refcursor := 'pa_cursor';
    s text;
    result text[];
BEGIN
    -- All in a subtransaction rolled back at the end: the settings too.
    PERFORM set_config('plan_cache_mode', mode, true);
    FOREACH s IN ARRAY coalesce(string_to_array(nullif(settings, ''), ' '), '{}') LOOP
        PERFORM set_config(split_part(s, '=', 1), split_part(s, '=', 2), true);
    END LOOP;
    FOR i IN REVERSE coalesce(array_length(arg, 1), 0)..1 LOOP
        literal := replace(literal, '$' || i, '(' || arg[i] || ')');
    END LOOP;
    IF inline THEN
        q := literal;
        args := '';
    END IF;
    BEGIN
        EXECUTE format('PREPARE pa_probe AS %s', q);
        RAISE EXCEPTION USING ERRCODE = 'PA000';
    EXCEPTION WHEN SQLSTATE 'PA000' THEN NULL;
    END;
    IF current_setting('jit')::bool THEN PERFORM pg_temp.pa_jit_modules(); END IF;
    FOR i IN 1..runs LOOP
        BEGIN
            EXECUTE 'EXECUTE pa_probe' || coalesce('(' || nullif(args, '') || ')', '');
            outcome := 'ok';
            RAISE EXCEPTION USING ERRCODE = 'PA000';
        EXCEPTION WHEN SQLSTATE 'PA000' THEN NULL;
            WHEN OTHERS THEN outcome := SQLSTATE || ' ' || pg_temp.pa_norm(SQLERRM);
        END;
        outcomes := outcomes || outcome;
        IF current_setting('jit')::bool THEN jit := jit || pg_temp.pa_jit_modules()::text; END IF;
    END LOOP;
    SELECT generic_plans || '/' || custom_plans INTO counters FROM pg_prepared_statements WHERE name = 'pa_probe';
    BEGIN
        EXECUTE 'EXECUTE pa_probe' || coalesce('(' || nullif(args, '') || ')', '');
        SELECT string_agg(pg_temp.pa_norm(l.relation::regclass::text) || ' ' || l.mode, ', '
                          ORDER BY pg_temp.pa_norm(l.relation::regclass::text) || ' ' || l.mode)
        INTO locks FROM pg_locks l
        WHERE l.pid = pg_backend_pid() AND l.locktype = 'relation' AND l.relation::regclass::text ~ '^pa_[abc](_|$)';
        RAISE EXCEPTION USING ERRCODE = 'PA000';
    EXCEPTION WHEN SQLSTATE 'PA000' THEN NULL;
        WHEN OTHERS THEN locks := SQLSTATE;
    END;
    BEGIN
        FOR line IN EXECUTE 'EXPLAIN EXECUTE pa_probe' || coalesce('(' || nullif(args, '') || ')', '') LOOP
            explained := explained || pg_temp.pa_norm(line) || '; ';
        END LOOP;
        RAISE EXCEPTION USING ERRCODE = 'PA000';
    EXCEPTION WHEN SQLSTATE 'PA000' THEN NULL;
        WHEN OTHERS THEN explained := SQLSTATE || ' ' || pg_temp.pa_norm(SQLERRM);
    END;
    EXECUTE 'DEALLOCATE pa_probe';
    BEGIN
        OPEN cur FOR EXECUTE literal;
        SELECT 'scrollable ' || is_scrollable INTO cursor_fact FROM pg_cursors WHERE name = 'pa_cursor';
        RAISE EXCEPTION USING ERRCODE = 'PA000';
    EXCEPTION WHEN SQLSTATE 'PA000' THEN NULL;
        WHEN OTHERS THEN cursor_fact := SQLSTATE || ' ' || pg_temp.pa_norm(SQLERRM);
    END;
    result := ARRAY['runs: ' || array_to_string(outcomes, '; '), 'plans: ' || counters, 'locks: ' || coalesce(locks, ''),
                    'explain: ' || explained, 'cursor: ' || cursor_fact, 'jit: ' || array_to_string(jit, ',')];
    RAISE EXCEPTION USING ERRCODE = 'PA001';
EXCEPTION WHEN SQLSTATE 'PA001' THEN RETURN result;
END $f$;

-- The statements (%I: the protected table) and the constants swept around the hidden values:
-- pa_b's extreme value 734521.7, pa_a's largest value (1000.6), the histograms' inner range,
-- values of w (an MCV-like column: 50 values) and tags (GIN), person (BRIN).
CREATE TEMP TABLE pa_statements (sid text, stmt text, args text[]);
INSERT INTO pa_statements VALUES
('count_gt',        'SELECT dp_count(0.001) FROM %I WHERE v > $1::float8',
    ARRAY['''1000.5''', '''500000''', '''734521.8''']),
('sum_between',     'SELECT dp_sum(v, 0, 1000, 0.001) FROM %I WHERE v BETWEEN $1::float8 AND $2::float8',
    ARRAY['''0'', ''1000.5''', '''1000.5'', ''1e6''', '''700000'', ''734522''', '''734522'', ''1e6''']),
('count_eq_gt',     'SELECT dp_count(0.001) FROM %I WHERE w = $1::int AND v > $2::float8',
    ARRAY['''34'', ''900''', '''34'', ''1000.5''', '''7'', ''1000.5''', '''34'', ''500000''']),
('count_two_indexes', 'SELECT dp_count(0.001) FROM %I WHERE v > $1::float8 AND w > $2::int',
    ARRAY['''1000.5'', ''45''', '''734521.8'', ''45''']),
('count_v_person',  'SELECT dp_count(0.001) FROM %I WHERE v > $1::float8 AND person > $2::int',
    ARRAY['''1000.5'', ''1990''']),
('public_join',     'SELECT p.k, dp_count(0.001) FROM pa_pub p LEFT JOIN %I t ON t.w = p.k AND t.v > $1::float8 GROUP BY p.k ORDER BY p.k',
    ARRAY['''1000.5''', '''500000''']),
('join_side',       'SELECT p.label FROM pa_pub p JOIN (SELECT w, dp_count(0.001) AS n FROM %I WHERE v > $1::float8 GROUP BY w HAVING dp_groups(1, 1e-6)) s ON s.w = p.k',
    ARRAY['''500''', '''999''', '''1000.5''', '''500000''']),
('grouped_ordered', 'SELECT w, dp_count(0.001) FROM %I WHERE v > $1::float8 GROUP BY w HAVING dp_groups(1, 1e-6) ORDER BY w',
    ARRAY['''500''', '''1000.5''', '''500000''']),
('plain_gt',        'SELECT count(*) FROM %I WHERE v > $1::float8',
    ARRAY['''500''', '''1000.5''', '''734521.8''']),
('plain_rows',      'SELECT v FROM %I WHERE v BETWEEN $1::float8 AND $2::float8 ORDER BY v',
    ARRAY['''0'', ''1000.5''', '''1000.5'', ''1e6''', '''700000'', ''734522''']),
('plain_gin',       'SELECT count(*) FROM %I WHERE tags @> ARRAY[$1::int]',
    ARRAY['''3''', '''99''']),
('plain_brin',      'SELECT count(*) FROM %I WHERE person > $1::int',
    ARRAY['''1990''', '''1999''']);
-- Settings swept, each with a plan_cache_mode and a form: the constants as parameters (auto:
-- six executions, the sixth the threshold test between the generic plan and the custom plans'
-- average; the forced modes: two, the second reusing the generic plan) or inlined in the
-- prepared text (a generic plan planned with the constants, reused by the second execution).
CREATE TEMP TABLE pa_settings (inline bool, mode text, runs int, setting text);
INSERT INTO pa_settings VALUES
    (false, 'auto', 6, ''), (false, 'auto', 6, 'enable_seqscan=off'),
    (false, 'auto', 6, 'enable_indexscan=off enable_indexonlyscan=off work_mem=64kB'),
    (false, 'force_generic_plan', 2, 'enable_bitmapscan=off random_page_cost=1.1'),
    (false, 'force_custom_plan', 2, ''),
    (true, 'auto', 2, ''), (true, 'auto', 2, 'enable_seqscan=off'),
    (true, 'auto', 2, 'enable_bitmapscan=off random_page_cost=1.1');
CREATE TEMP TABLE pa_cases AS
SELECT row_number() OVER (ORDER BY s.sid, a.k, t.inline, t.mode, t.setting) AS cid, s.sid, s.stmt, a.arg, a.k,
       t.inline, t.mode, t.runs, t.setting
FROM pa_statements s, unnest(s.args) WITH ORDINALITY a(arg, k), pa_settings t;
CREATE TEMP TABLE pa_results (role text, cid bigint, rel text, facts text[]);
GRANT SELECT ON pa_cases TO PUBLIC;
GRANT INSERT ON pa_results TO PUBLIC;
SELECT count(*) AS cases, count(DISTINCT sid) AS statements FROM pa_cases;

SET jit_dump_bitcode = on;
SET SESSION AUTHORIZATION pi_dp;
SET pgdp.release_cache = off;  -- every release runs (and is charged 0.001)
-- The NOTICEs of selections that keep no group are not what this test compares (sql/dry_run.sql).
SET client_min_messages = warning;
INSERT INTO pa_results SELECT 'dp', cid, r, pg_temp.pa_facts(r, stmt, arg, runs, mode, setting, inline)
FROM pa_cases, unnest(ARRAY['pa_a', 'pa_b', 'pa_c']) r;
RESET client_min_messages;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION pi_none;
INSERT INTO pa_results SELECT 'none', cid, r, pg_temp.pa_facts(r, stmt, arg, runs, mode, setting, inline)
FROM pa_cases, unnest(ARRAY['pa_a', 'pa_b', 'pa_c']) r;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION pi_bare;
INSERT INTO pa_results SELECT 'bare', cid, r, pg_temp.pa_facts(r, stmt, arg, runs, mode, setting, inline)
FROM pa_cases, unnest(ARRAY['pa_a', 'pa_b', 'pa_c']) r;
RESET SESSION AUTHORIZATION;

-- JIT: a plan is compiled when its total cost exceeds jit_above_cost (a user setting). The
-- threshold at which the statement stops compiling is its plan's cost: bisected on a log scale
-- (2^0 .. 2^12, twelve steps: within 0.2%), constants inlined, as each role. For a role whose
-- executions fail before the plan runs nothing compiles at any threshold.
CREATE FUNCTION pg_temp.pa_jit_threshold(rel text, stmt text, args text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
    q text := format(stmt, rel);
    arg text[] := string_to_array(args, ',');
    lo float8 := 0;
    hi float8 := 12;
    mid float8;
    outcomes text[] := '{}';
    result text;
BEGIN
    FOR i IN REVERSE coalesce(array_length(arg, 1), 0)..1 LOOP
        q := replace(q, '$' || i, '(' || arg[i] || ')');
    END LOOP;
    PERFORM set_config('jit', 'on', true);
    PERFORM set_config('jit_inline_above_cost', '-1', true);
    PERFORM set_config('jit_optimize_above_cost', '-1', true);
    PERFORM pg_temp.pa_jit_modules();
    FOR step IN 1..12 LOOP
        mid := (lo + hi) / 2;
        PERFORM set_config('jit_above_cost', (2 ^ mid)::text, true);
        BEGIN
            EXECUTE q;
            outcomes := outcomes || 'ok'::text;
            RAISE EXCEPTION USING ERRCODE = 'PA000';
        EXCEPTION WHEN SQLSTATE 'PA000' THEN NULL;
            WHEN OTHERS THEN outcomes := outcomes || (SQLSTATE || ' ' || pg_temp.pa_norm(SQLERRM));
        END;
        IF pg_temp.pa_jit_modules() > 0 THEN lo := mid; ELSE hi := mid; END IF;
    END LOOP;
    result := format('jit threshold 2^%s; %s', hi, array_to_string(outcomes, '; '));
    RAISE EXCEPTION USING ERRCODE = 'PA001';
EXCEPTION WHEN SQLSTATE 'PA001' THEN RETURN result;
END $f$;
CREATE TEMP TABLE pa_jit_cases AS
SELECT row_number() OVER (ORDER BY s.sid, a.k) AS jid, s.sid, s.stmt, a.arg, a.k
FROM pa_statements s, unnest(s.args) WITH ORDINALITY a(arg, k)
WHERE (s.sid, a.k) IN (('count_gt', 1), ('sum_between', 1), ('sum_between', 2), ('count_eq_gt', 2),
                       ('public_join', 2), ('grouped_ordered', 2));
CREATE TEMP TABLE pa_jit_results (role text, jid bigint, rel text, threshold text);
GRANT SELECT ON pa_jit_cases TO PUBLIC;
GRANT INSERT ON pa_jit_results TO PUBLIC;
SET SESSION AUTHORIZATION pi_dp;
SET client_min_messages = warning;
INSERT INTO pa_jit_results SELECT 'dp', jid, r, pg_temp.pa_jit_threshold(r, stmt, arg)
FROM pa_jit_cases, unnest(ARRAY['pa_a', 'pa_b', 'pa_c']) r;
RESET client_min_messages;
RESET SESSION AUTHORIZATION;
SET SESSION AUTHORIZATION pi_none;
INSERT INTO pa_jit_results SELECT 'none', jid, r, pg_temp.pa_jit_threshold(r, stmt, arg)
FROM pa_jit_cases, unnest(ARRAY['pa_a', 'pa_b', 'pa_c']) r;
RESET SESSION AUTHORIZATION;

-- Per case and role: 'same' when pa_b's (pa_c's) facts equal pa_a's, else the facts that differ.
CREATE TEMP VIEW pa_compared AS
SELECT c.cid, c.sid, c.k, c.inline, c.mode, c.setting, a.role,
       coalesce((SELECT string_agg(split_part(x, ':', 1), ',') FROM unnest(a.facts, b.facts) u(x, y) WHERE x IS DISTINCT FROM y), 'same') AS b,
       coalesce((SELECT string_agg(split_part(x, ':', 1), ',') FROM unnest(a.facts, d.facts) u(x, y) WHERE x IS DISTINCT FROM y), 'same') AS c
FROM pa_cases c
JOIN pa_results a ON a.cid = c.cid AND a.rel = 'pa_a'
JOIN pa_results b ON b.cid = c.cid AND b.rel = 'pa_b' AND b.role = a.role
JOIN pa_results d ON d.cid = c.cid AND d.rel = 'pa_c' AND d.role = a.role;
SELECT role, count(*) AS cases, count(*) FILTER (WHERE b = 'same') AS b_identical,
       count(*) FILTER (WHERE c = 'same') AS c_identical
FROM pa_compared GROUP BY role ORDER BY role;
SELECT sid, role, count(*) AS cases, count(*) FILTER (WHERE b = 'same') AS b_identical,
       count(*) FILTER (WHERE c = 'same') AS c_identical
FROM pa_compared GROUP BY sid, role ORDER BY sid, role;
-- Every case whose facts differ between the tables (none: the plan follows no hidden row).
SELECT cid, sid, k, inline, mode, setting, role, b, c FROM pa_compared WHERE b <> 'same' OR c <> 'same'
ORDER BY cid, role;
-- JIT thresholds, per case and role.
SELECT j.sid, j.k, a.role, a.threshold = b.threshold AS b_identical, a.threshold = d.threshold AS c_identical
FROM pa_jit_cases j
JOIN pa_jit_results a ON a.jid = j.jid AND a.rel = 'pa_a'
JOIN pa_jit_results b ON b.jid = j.jid AND b.rel = 'pa_b' AND b.role = a.role
JOIN pa_jit_results d ON d.jid = j.jid AND d.rel = 'pa_c' AND d.role = a.role
ORDER BY j.jid, a.role;

RESET jit_dump_bitcode;
RESET synchronous_commit;
SET client_min_messages = warning;
SELECT count(*) AS unprotected FROM (SELECT pgdp.unprotect(t) FROM unnest(ARRAY['pa_a', 'pa_b', 'pa_c']) t) u;
SELECT pgdp.undeclare_public('pa_pub');
DROP TABLE pa_a, pa_b, pa_c, pa_pub;
DELETE FROM pgdp.budgets WHERE role::text IN ('pi_dp', 'pi_none');
SELECT pgdp.revoke_admin('pi_admin');
DROP OWNED BY pi_dp, pi_none, pi_bare, pi_admin;
DROP ROLE pi_dp, pi_none, pi_bare, pi_admin;
