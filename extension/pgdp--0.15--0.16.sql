-- pgdp 0.15 -> 0.16 (ALTER EXTENSION pgdp UPDATE TO '0.16'). Each part of the work that adds or
-- changes objects in 0.16 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.16'" to load this file. \quit

-- ---------------------------------------------------------------------------------------------
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
