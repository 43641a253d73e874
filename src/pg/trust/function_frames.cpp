#include "pg/trust/function_frames.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/inval.h"
#include "utils/syscache.h"
}

#include "pg/base/backend_stack.hpp"
#include "pg/trust/authors.hpp"

namespace pgdp::pg {
namespace {

// One entry per active call that went through fmgr_security_definer (our hook, SECURITY DEFINER
// or proconfig): whether the function is untrusted. FHET_START pushes, FHET_END/FHET_ABORT pop;
// fmgr_security_definer pairs them, so the stack is LIFO.
struct Frame {
    Oid function;
    bool untrusted;
};
BackendStack<Frame> frames;
int untrusted_frames = 0;  // untrusted entries of frames (CALLs of untrusted procedures included)

// Functions in C or internal are installed by superusers; built-in ones by initdb. A trigger
// function can be attached by another role to a table the session writes to, so it counts as
// the session user's own code only when an admin owns it.
bool decide_function_is_untrusted(Oid function) {
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
    if (!HeapTupleIsValid(tuple)) return false;
    const Form_pg_proc form = (Form_pg_proc)GETSTRUCT(tuple);
    const Oid language = form->prolang;
    const Oid owner = form->proowner;
    const bool trigger = form->prorettype == TRIGGEROID || form->prorettype == EVENT_TRIGGEROID;
    ReleaseSysCache(tuple);
    if (language == ClanguageId || language == INTERNALlanguageId) return false;
    return trigger ? !is_admin_or_superuser(owner) : !is_trusted_author(owner);
}

// The verdicts of function_is_untrusted, kept per backend: a frame is asked for at every call of
// a function the session does not trust (1M calls of a PL/pgSQL function: 1M lookups of its owner
// and of the owner's admin status otherwise). Dropped whenever a function, a role or a role
// membership changes (owners, privileges on pgdp.set_budget, superuser), and for another session
// user.
struct Verdict {
    Oid function;
    bool untrusted;
};
constexpr int kVerdictSlots = 256;  // direct-mapped by OID
Verdict verdicts[kVerdictSlots];
Oid verdicts_user = InvalidOid;
bool verdict_callbacks_registered = false;

void forget_verdicts(Datum, int, uint32) {
    for (Verdict& verdict : verdicts) verdict.function = InvalidOid;
}

}  // namespace

bool function_is_untrusted(Oid function) {
    if (function < FirstNormalObjectId) return false;
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
    if (slot.function == function) return slot.untrusted;
    const bool untrusted = decide_function_is_untrusted(function);  // may ereport: before the store
    slot = Verdict{function, untrusted};
    return untrusted;
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
    frames.push(Frame{function, untrusted});
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

// Also decides inlining: the planner does not inline a function that needs the hook, so the
// body of an untrusted SQL function always runs under its frame. Procedures are not wrapped
// (transaction control inside fmgr_security_definer is not allowed); CALL is tracked instead.
bool function_needs_frame(Oid function) {
    if (function < FirstNormalObjectId || is_procedure(function)) return false;
    return function_is_untrusted(function);
}

void track_function_frame(FmgrHookEventType event, FmgrInfo* flinfo) {
    if (event == FHET_START) {
        const bool untrusted = function_is_untrusted(flinfo->fn_oid);  // may ereport: before the push
        push_frame(flinfo->fn_oid, untrusted);
    } else {
        pop_frame();
    }
}

}  // namespace pgdp::pg
