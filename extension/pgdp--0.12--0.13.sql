-- pgdp 0.12 -> 0.13 (ALTER EXTENSION pgdp UPDATE TO '0.13'). Each part of the work that adds or
-- changes objects in 0.13 keeps its own block below.
\echo Use "ALTER EXTENSION pgdp UPDATE TO '0.13'" to load this file. \quit

-- =============================================================================================
-- The *_ci forms report the bounds used (issue 24 part 5; docs/privacy.md "Bounds the analyst
-- need not guess"): dp_release gains the clamping bounds of the release, the given ones or those
-- estimated for NULL bounds (dp_sum_ci and dp_mean_ci accept NULL bounds since 0.13); NULL for
-- dp_count_ci. A release cached before the update is answered afresh once (release_cache.cpp
-- reports_have_current_fields).
ALTER TYPE dp_release ADD ATTRIBUTE lower_bound float8, ADD ATTRIBUTE upper_bound float8;
