// One call of a pgdp aggregate as written in a query: what the aggregate is
// (aggregate_identity.hpp), its privacy parameters (parameters.hpp) and the marks a rewrite left
// on it (planning/plan_marks.hpp: groups per unit, partial totals). Include the one you need.
#pragma once

#include "pg/calls/aggregate_identity.hpp"
#include "pg/calls/parameters.hpp"
#include "pg/planning/plan_marks.hpp"
