-- pgdp 0.7 -> 0.8: private aggregates on Citus distributed tables (docs/architecture.md
-- "Distributed tables (Citus)").
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.8'" to load this file. \quit
