-- pgdp 0.15 -> 0.16 (ALTER EXTENSION pgdp UPDATE TO '0.16'). Each part of the work that adds or
-- changes objects in 0.16 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.16'" to load this file. \quit
