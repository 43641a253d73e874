-- pgdp 0.8 -> 0.9 (ALTER EXTENSION pgdp UPDATE TO '0.9'). Closes the message, error and resource
-- channels of DP-only access (docs/privacy.md "Threat model").
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.9'" to load this file. \quit
