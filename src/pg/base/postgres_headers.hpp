// PostgreSQL's C headers, included with C linkage. Only src/pg includes this file.
#pragma once

extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "access/htup_details.h"
#include "utils/builtins.h"
#include "utils/guc.h"
}
