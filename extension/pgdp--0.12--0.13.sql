-- pgdp 0.12 -> 0.13 (ALTER EXTENSION pgdp UPDATE TO '0.13'). Each part of the work that adds or
-- changes objects in 0.13 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.13'" to load this file. \quit
