-- pgdp 0.13 -> 0.14 (ALTER EXTENSION pgdp UPDATE TO '0.14'). Each part of the work that adds or
-- changes objects in 0.14 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.14'" to load this file. \quit

-- ---- Quantiles with NULL bounds over Citus tables ------------------------------------------
-- pgdp.quantile_leaf (the workers' state key) takes a NULL bound: the log-linear leaf map of the
-- single-node quantiles (docs/privacy.md "Distributed tables (Citus, 0.8)"); only its comment
-- changes in the catalog.
COMMENT ON FUNCTION pgdp.quantile_leaf(float8, float8, float8) IS
    'One row''s leaf (0 to 65535) in the quantile tree of the pgdp quantiles, its value clamped to [lower, upper], a NULL bound selecting the log-linear leaf map (NULL for a NULL or NaN value); counted on Citus workers';
