#include "pg/trust/function_frames.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/inval.h"
#include "utils/syscache.h"
}

#include "pg/base/backend_stack.hpp"
#include "pg/trust/authors.hpp"
#include "pg/trust/chargeable_session.hpp"
#include "pg/trust/release_free_functions.hpp"

namespace pgdp::pg {
namespace {

// One entry per active call that went through fmgr_security_definer (our hook, SECURITY DEFINER
// or proconfig): whether the function is untrusted. FHET_START pushes, FHET_END/FHET_ABORT pop;
// fmgr_security_definer pairs them, so the stack is LIFO.
struct Frame {
    Oid function;
    bool untrusted;
    uint64 unframed_events;  // unframed_events when it started
};
BackendStack<Frame> frames;
int untrusted_frames = 0;  // untrusted entries of frames (CALLs of untrusted procedures included)

// Functions in C or internal are installed by superusers; built-in ones by initdb. A trigger
// function counts like any other: the session user's own trigger runs without a frame (a
// partition-on-demand trigger may create its partition); attached by another role to a table of
// that role, it makes no release there (a running statement uses that role's table).
struct Trust {
    bool untrusted;  // runs under a frame where the rules apply
    Oid author;      // the owner of a function in a procedural language (InvalidOid: C, internal)
    bool foreign;    // that owner is not a trusted author of the session user
};

Trust decide_function_trust(Oid function) {
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
    if (!HeapTupleIsValid(tuple)) return Trust{false, InvalidOid, false};
    const Form_pg_proc form = (Form_pg_proc)GETSTRUCT(tuple);
    const Oid language = form->prolang;
    const Oid owner = form->proowner;
    ReleaseSysCache(tuple);
    if (language == ClanguageId || language == INTERNALlanguageId) return Trust{false, InvalidOid, false};
    const bool foreign = !is_trusted_author(owner);
    return Trust{foreign, owner, foreign};
}

// The owners of other roles' functions that started running, or were looked up or inlined, in this
// backend without an untrusted frame (in a session that could not be charged): that code may run
// again unseen (a cursor, a function kept in a cache, an inlined body in a cached plan). A handful
// in practice; past kUnframedAuthors, every role counts (fail closed).
constexpr int kUnframedAuthors = 32;
Oid unframed_authors[kUnframedAuthors];
int unframed_author_count = 0;
bool unframed_authors_overflow = false;

// Every time other roles' code is noted, known author or not (a frame compares it with its start).
uint64 unframed_events = 0;

void note_unframed_author(Oid author) {
    if (!OidIsValid(author)) return;
    ++unframed_events;
    if (unframed_authors_overflow) return;
    for (int i = 0; i < unframed_author_count; ++i) {
        if (unframed_authors[i] == author) return;
    }
    if (unframed_author_count == kUnframedAuthors) {
        unframed_authors_overflow = true;
        return;
    }
    unframed_authors[unframed_author_count++] = author;
}

// The verdicts of function_is_untrusted, kept per backend: a frame is asked for at every call of
// a function the session does not trust (1M calls of a PL/pgSQL function: 1M lookups of its owner
// and of the owner's admin status otherwise). Dropped whenever a function, a role or a role
// membership changes (owners, privileges on pgdp.set_budget, superuser), and for another session
// user.
struct Verdict {
    Oid function;
    Trust trust;
};
constexpr int kVerdictSlots = 256;  // direct-mapped by OID
Verdict verdicts[kVerdictSlots];
Oid verdicts_user = InvalidOid;
bool verdict_callbacks_registered = false;

void forget_verdicts(Datum, int, uint32) {
    for (Verdict& verdict : verdicts) verdict.function = InvalidOid;
}

Trust function_trust(Oid function) {
    if (function < FirstNormalObjectId) return Trust{false, InvalidOid, false};
    if (!verdict_callbacks_registered) {
        CacheRegisterSyscacheCallback(PROCOID, forget_verdicts, Datum(0));
        CacheRegisterSyscacheCallback(AUTHOID, forget_verdicts, Datum(0));
        CacheRegisterSyscacheCallback(AUTHMEMROLEMEM, forget_verdicts, Datum(0));
        verdict_callbacks_registered = true;
        forget_verdicts(Datum(0), 0, 0);
    }
    if (verdicts_user != GetSessionUserId()) {
        forget_verdicts(Datum(0), 0, 0);
        verdicts_user = GetSessionUserId();
    }
    Verdict& slot = verdicts[function % kVerdictSlots];
    if (slot.function == function) return slot.trust;
    const Trust trust = decide_function_trust(function);  // may ereport: before the store
    slot = Verdict{function, trust};
    return trust;
}

}  // namespace

bool function_is_untrusted(Oid function) { return function_trust(function).untrusted; }

void note_unframed_function(Oid function) {
    const Trust trust = function_trust(function);
    if (trust.foreign) note_unframed_author(trust.author);
}

bool unframed_code_untrusted() {
    if (unframed_authors_overflow) return true;
    for (int i = 0; i < unframed_author_count; ++i) {
        if (!is_trusted_author(unframed_authors[i])) return true;
    }
    return false;
}

bool unframed_code_foreign_to(Oid role) {
    if (unframed_authors_overflow) return true;
    for (int i = 0; i < unframed_author_count; ++i) {
        const Oid author = unframed_authors[i];
        if (!has_privs_of_role(author, role) && !is_admin(author)) return true;
    }
    return false;
}

namespace {

bool is_procedure(Oid function) {
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
    if (!HeapTupleIsValid(tuple)) return false;
    const bool procedure = ((Form_pg_proc)GETSTRUCT(tuple))->prokind == PROKIND_PROCEDURE;
    ReleaseSysCache(tuple);
    return procedure;
}

}  // namespace

void push_frame(Oid function, bool untrusted) {
    frames.push(Frame{function, untrusted, unframed_events});
    if (untrusted) ++untrusted_frames;
}

void pop_frame() {
    if (frames.size() > 0 && frames.pop().untrusted) --untrusted_frames;
}

// The innermost active untrusted function (for messages).
Oid innermost_untrusted_function() {
    for (int i = frames.size() - 1; i >= 0; --i) {
        if (frames[i].untrusted) return frames[i].function;
    }
    return InvalidOid;
}

int untrusted_frame_count() { return untrusted_frames; }

bool innermost_frame_is_definer_of(Oid role) {
    if (frames.size() == 0) return false;
    const Frame& innermost = frames[frames.size() - 1];
    if (innermost.unframed_events != unframed_events) return false;
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(innermost.function));
    if (!HeapTupleIsValid(tuple)) return false;
    const Form_pg_proc form = (Form_pg_proc)GETSTRUCT(tuple);
    const bool definer = form->prosecdef && form->proowner == role;
    ReleaseSysCache(tuple);
    return definer;
}

// Also decides inlining: the planner does not inline a function that needs the hook, so the
// body of an untrusted SQL function always runs under its frame. Procedures are not wrapped
// (transaction control inside fmgr_security_definer is not allowed); CALL is tracked instead.
// In a session that cannot be charged: no frame, but another role's function is noted.
// While a statement is planned, another role's SQL function that provably makes no release is
// inlined (release_free_functions.hpp); run without being inlined it gets its frame then.
bool function_needs_frame(Oid function, bool planning) {
    if (function < FirstNormalObjectId) return false;
    const Trust trust = function_trust(function);
    if (!OidIsValid(trust.author)) return false;  // C or internal: installed by a superuser
    if (session_chargeable()) {
        if (!trust.untrusted || is_procedure(function)) return false;
        return !(planning && release_free_sql_function(function));
    }
    if (trust.foreign) note_unframed_author(trust.author);
    return false;
}

void track_function_frame(FmgrHookEventType event, FmgrInfo* flinfo) {
    if (event == FHET_START) {
        // SECURITY DEFINER functions and functions with settings come here in every session; in one
        // that cannot be charged their frames do not count, as the others get none.
        const Trust trust = function_trust(flinfo->fn_oid);  // may ereport: before the push
        const bool untrusted = trust.untrusted && session_chargeable();
        if (!untrusted && trust.foreign) note_unframed_author(trust.author);
        push_frame(flinfo->fn_oid, untrusted);
    } else {
        pop_frame();
    }
}

}  // namespace pgdp::pg
