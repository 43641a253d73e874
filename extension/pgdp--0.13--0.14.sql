-- pgdp 0.13 -> 0.14 (ALTER EXTENSION pgdp UPDATE TO '0.14'). Each part of the work that adds or
-- changes objects in 0.14 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.14'" to load this file. \quit
