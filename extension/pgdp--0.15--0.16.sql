-- pgdp 0.15 -> 0.16 (ALTER EXTENSION pgdp UPDATE TO '0.16'). Each part of the work that adds or
-- changes objects in 0.16 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.16'" to load this file. \quit

-- ---------------------------------------------------------------------------------------------
-- One release per distinct call; contribution bounds in the open (docs/privacy.md "One release
-- per distinct call" and "The statement's own groups per unit"): dp_release gains how each
-- privacy unit's contribution was bounded in a person-level release, NULL over plain relations.
-- A release cached before the update is answered afresh once (release_cache.cpp
-- reports_have_current_fields; its expanded fields are other result columns).
ALTER TYPE dp_release ADD ATTRIBUTE max_groups_contributed integer, ADD ATTRIBUTE rows_per_unit integer;
-- ---- end of the onerelease block ------------------------------------------------------------
