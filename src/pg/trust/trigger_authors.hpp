// Who wrote each trigger (docs/privacy.md "Triggers are their creator's code", issue 33).
//
// PostgreSQL's TRIGGER privilege lets a role put a trigger on another role's table; its WHEN
// clause, function and arguments are that role's choice and run inside the statements of whoever
// writes the table, with no function frame. PostgreSQL records no creator, so pgdp records it
// (pgdp.trigger_creators) when CREATE [OR REPLACE] [CONSTRAINT] TRIGGER succeeds, and a table
// carrying a trigger of a role the session user does not trust is that role's code for every
// statement that writes it (running_statements.cpp).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/plannodes.h"
}

namespace pgdp::pg {

// A trigger's author and how it is known.
struct TriggerAuthor {
    Oid author;          // InvalidOid unless recorded (or recorded for its partitioned parent)
    const char* source;  // "created", "adopted", "partition clone", "pgdp", "internal", "unknown"
    bool trusted;        // its code may spend the session user's budget (is_trusted_author)
};

// The author of trigger `trigger` (pg_trigger.oid). A record counts only if it still names the
// trigger's table and name (an OID reused after a drop is never misattributed); a partition's clone
// has its parent trigger's author; pgdp's own triggers (an extension function, no WHEN clause)
// and internal ones (foreign keys) are trusted; any other trigger without a record is of unknown
// authorship and not trusted (fail closed).
TriggerAuthor trigger_author(Oid trigger);

// A trigger on `relation` whose code the session user does not trust.
struct ForeignTrigger {
    Oid trigger;
    Oid relation;
    const char* name;
    Oid author;  // InvalidOid: unknown
};
// True (and *found set) if `relation` carries an enabled trigger that is not trusted.
bool relation_has_foreign_trigger(Oid relation, ForeignTrigger* found);

// After a utility succeeded: records the creator (the current user) of the trigger a CREATE
// [OR REPLACE] [CONSTRAINT] TRIGGER made, and follows ALTER TRIGGER ... RENAME. Nothing in a
// database without pgdp, nothing visible otherwise.
void record_trigger_creator(const PlannedStmt* statement);

// pgdp.adopt_trigger: the table's owner (or a pgdp admin, or a superuser) takes the trigger as
// their own code (ereports 42501 for anyone else, 42704 if there is no such trigger).
void adopt_trigger(Oid relation, const char* trigger_name);

}  // namespace pgdp::pg
