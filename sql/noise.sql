-- The samplers: exact discrete noise on a power-of-two grid. The distribution checks use the
-- superuser-only deterministic generator (pgdp.test_seed) so that this output is reproducible;
-- each bound is 5 standard errors (false-failure probability < 1e-6 per check for a fresh seed).
CREATE EXTENSION IF NOT EXISTS pgdp;

SET pgdp.test_seed = 20261121;
CREATE TEMP TABLE draws AS
SELECT gaussian_noise(2) AS gauss, laplace_noise(1.5) AS lap, tlap_noise(1, 1e-3, 1) AS tlap
FROM generate_series(1, 20000);

-- Gaussian, sigma = 2: mean 0 (SE 2/sqrt(n)), variance 4 (SE 4 sqrt(2/n)).
SELECT abs(avg(gauss)) < 5 * 2 / sqrt(20000) AS mean_ok,
       abs(var_pop(gauss) - 4) < 5 * 4 * sqrt(2.0 / 20000) AS variance_ok,
       abs(count(*) FILTER (WHERE gauss > 0) - count(*) FILTER (WHERE gauss < 0))
           < 5 * sqrt(20000) AS symmetric,
       bool_and(gauss * 2048 = trunc(gauss * 2048)) AS on_grid  -- g = 2^(1 - 12)
FROM draws;

-- Laplace, scale 1.5: variance 2 b^2 = 4.5, SE of the sample variance b^2 sqrt(20/n).
SELECT abs(avg(lap)) < 5 * sqrt(4.5 / 20000) AS mean_ok,
       abs(var_pop(lap) - 4.5) < 5 * 2.25 * sqrt(20.0 / 20000) AS variance_ok,
       bool_and(lap * 2 ^ 20 = trunc(lap * 2 ^ 20)) AS on_grid  -- g = 2^(0 - 20)
FROM draws;

-- Truncated Laplace, epsilon 1, delta 1e-3: variance = the power of 004 Theorem 3, and the noise
-- stays within the bound A of 004 Definition 3 up to the grid (docs/privacy.md: K g <= A (1 + g)
-- + g/2 with g = 2^-20 here).
SELECT abs(avg(tlap)) < 5 * sqrt(p.power / 20000) AS mean_ok,
       abs(var_pop(tlap) - p.power) < 5 * p.power * sqrt(5.0 / 20000) AS variance_ok,
       max(abs(tlap)) <= p.bound * (1 + 2 ^ -20) + 2 ^ -21 AS within_bound
FROM draws, tlap_params(1, 1e-3, 1) AS p
GROUP BY p.power, p.bound;

-- The same seed reproduces the same noise; another seed does not.
SET pgdp.test_seed = 7;
CREATE TEMP TABLE first_run AS SELECT array_agg(gaussian_noise(1)) AS x FROM generate_series(1, 5);
SET pgdp.test_seed = 7;
CREATE TEMP TABLE second_run AS SELECT array_agg(gaussian_noise(1)) AS x FROM generate_series(1, 5);
SET pgdp.test_seed = 8;
CREATE TEMP TABLE third_run AS SELECT array_agg(gaussian_noise(1)) AS x FROM generate_series(1, 5);
SELECT f.x = s.x AS reproducible, f.x <> t.x AS seed_matters
FROM first_run f, second_run s, third_run t;

-- Back to pg_strong_random: the draws are not the seeded ones (equal with probability < 2^-60).
RESET pgdp.test_seed;
SELECT array_agg(gaussian_noise(1)) <> (SELECT x FROM first_run) AS not_seeded
FROM generate_series(1, 5);
