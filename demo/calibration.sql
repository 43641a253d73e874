-- pgdp demo, part 1: noise calibration.
-- How much noise each (epsilon, delta) guarantee costs under the Gaussian calibrations pgdp
-- knows, what privacy each sigma really buys, and how the truncated Laplace mechanism compares.
-- Run by scripts/demo.sh (psql, extension pgdp created). Helpers live in pg_temp and vanish
-- with the session.
\set QUIET on
\set ON_ERROR_STOP on
\pset footer off
\pset null '-'

-- Helpers ------------------------------------------------------------------------------------
-- A readable number, right-aligned: 4 decimals in the usual range, scientific notation outside it.
CREATE FUNCTION pg_temp.fmt(x float8, digits int DEFAULT 4) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT lpad(CASE
        WHEN x IS NULL THEN '-'
        WHEN x = 0 THEN '0'
        WHEN abs(x) >= 1e-3 AND abs(x) < 1e6 THEN round(x::numeric, digits)::text
        ELSE ltrim(to_char(x, '9.999EEEE'))
    END, 10)
$$;

-- Scientific notation, right-aligned (deltas).
CREATE FUNCTION pg_temp.sci(x float8) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT lpad(ltrim(to_char(x, '9.9999EEEE')), 12)
$$;

-- sigma, or NULL with the error message when the method refuses (epsilon, delta).
CREATE FUNCTION pg_temp.try_sigma(epsilon float8, delta float8, method text,
                                  OUT sigma float8, OUT refusal text)
LANGUAGE plpgsql AS $$
BEGIN
    sigma := gaussian_sigma(epsilon, delta, 1, method);
EXCEPTION WHEN OTHERS THEN
    refusal := SQLERRM;
END
$$;

-- One cell of a comparison table: sigma, or 'refused'.
CREATE FUNCTION pg_temp.cell(epsilon float8, delta float8, method text) RETURNS text
LANGUAGE sql AS $$
    SELECT CASE WHEN t.sigma IS NULL THEN lpad('refused', 10) ELSE pg_temp.fmt(t.sigma) END FROM pg_temp.try_sigma(epsilon, delta, method) t
$$;

CREATE TEMP TABLE methods(ord int, method text, note text);
INSERT INTO methods VALUES
    (1,  'analytic',        'optimal sigma (Balle-Wang analytic Gaussian)'),
    (2,  'classic',         'Dwork-Roth sqrt(2 ln(1.25/delta))/eps, eps <= 1'),
    (3,  'dwork2006',       'sqrt(2 ln(2/delta))/eps, eps <= 1'),
    (4,  'vinterbo',        'Vinterbo, Thm 5 eq. (8)'),
    (5,  'vinterbo_closed', 'Vinterbo, Thm 5 eq. (9), closed form'),
    (6,  'zhao1',           'Zhao et al. Mechanism 1'),
    (7,  'zhao2',           'Zhao et al. Mechanism 2, delta < 0.5'),
    (8,  'pdp',             'probabilistic DP, pDP-OPT'),
    (9,  'zhao3',           'probabilistic DP, Mechanism 3'),
    (10, 'zhao4',           'probabilistic DP, Mechanism 4'),
    (11, 'zcdp',            'zCDP / RDP conversion');

-- 1 --------------------------------------------------------------------------------------------
\echo
\echo '== 1. sigma for sensitivity 1 at delta = 1e-5, by epsilon =='
\echo '   gaussian_sigma(epsilon, delta, 1, method); smaller is better, analytic is optimal'
SELECT method,
       pg_temp.cell(0.1, 1e-5, method) AS "eps=0.1",
       pg_temp.cell(0.5, 1e-5, method) AS "eps=0.5",
       pg_temp.cell(1,   1e-5, method) AS "eps=1",
       pg_temp.cell(2,   1e-5, method) AS "eps=2",
       pg_temp.cell(5,   1e-5, method) AS "eps=5",
       pg_temp.cell(10,  1e-5, method) AS "eps=10",
       note
FROM methods ORDER BY ord;

\echo '   Why some cells are refused:'
WITH r AS (
    SELECT m.ord, m.method, e.eps, t.refusal
    FROM methods m
    CROSS JOIN (VALUES (0.1::float8), (0.5), (1), (2), (5), (10)) AS e(eps)
    CROSS JOIN LATERAL pg_temp.try_sigma(e.eps, 1e-5, m.method) t
    WHERE t.refusal IS NOT NULL
)
SELECT method, eps AS epsilon, 'refused: ' || refusal AS refusal FROM r
UNION ALL SELECT '(none)', NULL, NULL WHERE NOT EXISTS (SELECT FROM r)
ORDER BY 1, 2;

-- 2 --------------------------------------------------------------------------------------------
\echo
\echo '== 2. sigma at epsilon = 1, by delta =='
SELECT method,
       pg_temp.cell(1, 1e-3, method) AS "delta=1e-3",
       pg_temp.cell(1, 1e-6, method) AS "delta=1e-6",
       pg_temp.cell(1, 1e-9, method) AS "delta=1e-9"
FROM methods ORDER BY ord;

\echo '   Refusals at epsilon = 1:'
WITH r AS (
    SELECT m.ord, m.method, d.delta, t.refusal
    FROM methods m
    CROSS JOIN (VALUES (1e-3::float8), (1e-6), (1e-9)) AS d(delta)
    CROSS JOIN LATERAL pg_temp.try_sigma(1, d.delta, m.method) t
    WHERE t.refusal IS NOT NULL
)
SELECT method, delta, 'refused: ' || refusal AS refusal FROM r
UNION ALL SELECT '(none)', NULL, NULL WHERE NOT EXISTS (SELECT FROM r)
ORDER BY 1, 2 DESC;

-- 3 --------------------------------------------------------------------------------------------
\echo
\echo '== 3. What each sigma really buys (epsilon = 1, delta = 1e-5) =='
\echo '   delta achieved = gaussian_delta(sigma, 1): the exact (Balle-Wang) delta of that sigma at epsilon 1'
\echo '   epsilon achieved = gaussian_epsilon(sigma, 1e-5): the exact epsilon of that sigma at delta 1e-5'
\echo '   Every method spends at least the analytic sigma; "x analytic" is its overhead. pdp, zhao3 and zhao4'
\echo '   calibrate for probabilistic DP, a stronger guarantee than (epsilon, delta)-DP.'
WITH s AS (
    SELECT m.ord, m.method, t.sigma
    FROM methods m CROSS JOIN LATERAL pg_temp.try_sigma(1, 1e-5, m.method) t
    WHERE t.sigma IS NOT NULL
), a AS (SELECT sigma AS opt FROM s WHERE method = 'analytic')
SELECT s.method,
       pg_temp.fmt(s.sigma) AS sigma,
       pg_temp.fmt(s.sigma / a.opt, 3) AS "x analytic",
       pg_temp.sci(gaussian_delta(s.sigma, 1)) AS "delta achieved",
       pg_temp.fmt(gaussian_epsilon(s.sigma, 1e-5)) AS "epsilon achieved"
FROM s CROSS JOIN a ORDER BY s.ord;

-- 4 --------------------------------------------------------------------------------------------
\echo
\echo '== 4. Truncated Laplace vs the analytic Gaussian (delta = 1e-5, sensitivity 1) =='
\echo '   tlap_params(epsilon, delta): Laplace scale lambda, noise bound A (|X| <= A always),'
\echo '   amplitude E|X| and power E X^2; for the Gaussian E|X| = sigma sqrt(2/pi) and E X^2 = sigma^2'
SELECT e.eps AS epsilon,
       pg_temp.fmt(p.lambda) AS lambda,
       pg_temp.fmt(p.bound) AS "bound A",
       pg_temp.fmt(p.amplitude) AS "tlap E|X|",
       pg_temp.fmt(g.sigma * sqrt(2 / pi())) AS "gauss E|X|",
       pg_temp.fmt(p.power) AS "tlap E X^2",
       pg_temp.fmt(g.sigma ^ 2) AS "gauss E X^2",
       CASE WHEN p.power < g.sigma ^ 2 THEN 'tlap' ELSE 'gauss' END AS "less power"
FROM (VALUES (0.1::float8), (0.5), (1), (2), (5), (10)) AS e(eps)
CROSS JOIN LATERAL tlap_params(e.eps, 1e-5) p
CROSS JOIN LATERAL (SELECT gaussian_sigma(e.eps, 1e-5) AS sigma) g
ORDER BY e.eps;

-- 5 --------------------------------------------------------------------------------------------
\echo
\echo '== 5. Accuracy: half-width a with P(|noise| > a) = alpha (delta = 1e-5, sensitivity 1) =='
\echo '   gaussian_accuracy(epsilon, delta, 1, alpha), tlap_accuracy(epsilon, delta, 1, alpha);'
\echo '   pure-epsilon Laplace (delta = 0) for reference: a = ln(1/alpha) / epsilon'
SELECT e.eps AS epsilon, a.alpha,
       pg_temp.fmt(gaussian_accuracy(e.eps, 1e-5, 1, a.alpha)) AS "gaussian (analytic)",
       pg_temp.fmt(tlap_accuracy(e.eps, 1e-5, 1, a.alpha)) AS "truncated laplace",
       pg_temp.fmt(ln(1 / a.alpha) / e.eps) AS "laplace, delta 0"
FROM (VALUES (0.1::float8), (1), (10)) AS e(eps)
CROSS JOIN (VALUES (0.05::float8), (0.01)) AS a(alpha)
ORDER BY e.eps, a.alpha DESC;

-- 6 --------------------------------------------------------------------------------------------
\echo
\echo '== 6. Samples (VOLATILE: new draws on every run) =='
\echo '   gaussian_noise(sigma) with sigma = gaussian_sigma(1, 1e-5), tlap_noise(1, 1e-5), laplace_noise(1)'
SELECT i AS draw,
       pg_temp.fmt(gaussian_noise(gaussian_sigma(1, 1e-5))) AS gaussian_noise,
       pg_temp.fmt(tlap_noise(1, 1e-5)) AS tlap_noise,
       pg_temp.fmt(laplace_noise(1)) AS laplace_noise
FROM generate_series(1, 5) AS i;

\echo '   100000 draws of each against the theory:'
WITH g AS (SELECT gaussian_sigma(1, 1e-5) AS sigma),
     p AS (SELECT * FROM tlap_params(1, 1e-5)),
     d AS (SELECT gaussian_noise((SELECT sigma FROM g)) AS gx,
                  tlap_noise(1, 1e-5) AS tx,
                  laplace_noise(1) AS lx
           FROM generate_series(1, 100000))
SELECT 'gaussian_noise' AS sampler,
       pg_temp.fmt(avg(gx)) AS mean,
       pg_temp.fmt(avg(abs(gx))) AS "mean |x|", pg_temp.fmt((SELECT sigma * sqrt(2 / pi()) FROM g)) AS "E|X|",
       pg_temp.fmt(avg(gx * gx)) AS "mean x^2", pg_temp.fmt((SELECT sigma ^ 2 FROM g)) AS "E X^2",
       pg_temp.fmt(max(abs(gx))) AS "max |x|", pg_temp.fmt(NULL) AS bound
FROM d
UNION ALL
SELECT 'tlap_noise',
       pg_temp.fmt(avg(tx)),
       pg_temp.fmt(avg(abs(tx))), pg_temp.fmt((SELECT amplitude FROM p)),
       pg_temp.fmt(avg(tx * tx)), pg_temp.fmt((SELECT power FROM p)),
       pg_temp.fmt(max(abs(tx))), pg_temp.fmt((SELECT bound FROM p))
FROM d
UNION ALL
SELECT 'laplace_noise',
       pg_temp.fmt(avg(lx)),
       pg_temp.fmt(avg(abs(lx))), pg_temp.fmt(1),
       pg_temp.fmt(avg(lx * lx)), pg_temp.fmt(2),
       pg_temp.fmt(max(abs(lx))), pg_temp.fmt(NULL)
FROM d;
