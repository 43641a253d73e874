// pgdp.trigger_author and pgdp.adopt_trigger (extension/pgdp.sql.in "Trigger authors"): what
// trust/trigger_authors.hpp decides, for the pgdp.trigger_authors view and the table owner.

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"
}

#include "pg/trust/trigger_authors.hpp"

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_trigger_author);
PG_FUNCTION_INFO_V1(pgdp_adopt_trigger);

// (author regrole, source text) of a trigger; author NULL when not recorded.
Datum pgdp_trigger_author(PG_FUNCTION_ARGS) {
    const pgdp::pg::TriggerAuthor author = pgdp::pg::trigger_author(PG_GETARG_OID(0));
    TupleDesc descriptor = nullptr;
    if (get_call_result_type(fcinfo, nullptr, &descriptor) != TYPEFUNC_COMPOSITE)
        elog(ERROR, "pgdp_trigger_author: a composite result type is required");
    descriptor = BlessTupleDesc(descriptor);
    Datum values[2] = {ObjectIdGetDatum(author.author), CStringGetTextDatum(author.source)};
    bool nulls[2] = {!OidIsValid(author.author), false};
    PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(descriptor, values, nulls)));
}

Datum pgdp_adopt_trigger(PG_FUNCTION_ARGS) {
    pgdp::pg::adopt_trigger(PG_GETARG_OID(0), NameStr(*PG_GETARG_NAME(1)));
    PG_RETURN_VOID();
}

}  // extern "C"
