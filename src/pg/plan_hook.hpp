// The planner hook (plan_hook.cpp): plan-time refusals and plan adjustments for pgdp aggregates.
#pragma once

#include "pg/postgres_headers.hpp"

namespace pgdp::pg {

void install_plan_hook();

}  // namespace pgdp::pg
