-- pgdp 0.14 -> 0.15 (ALTER EXTENSION pgdp UPDATE TO '0.15'). Each part of the work that adds or
-- changes objects in 0.15 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.15'" to load this file. \quit
