// Function frames (docs/privacy.md "Threat model and release authority"): in a session that can be
// charged, every call of a function the session does not trust runs under a frame (the fmgr hook;
// such a function is never inlined), and while any frame is active no release is made and no
// object created. The stack pairs FHET_START with FHET_END/FHET_ABORT (fmgr_security_definer does),
// so it is LIFO.
//
// In a session that cannot be charged no function gets a frame (and SQL functions are inlined as
// without pgdp); what runs without one is noted (note_unframed_function).
#pragma once

#include "pg/base/postgres_headers.hpp"

namespace pgdp::pg {

// needs_fmgr_hook and fmgr_hook.
bool function_needs_frame(Oid function, bool planning);
void track_function_frame(FmgrHookEventType event, FmgrInfo* flinfo);

// A function the session does not trust: owned by a role other than the session user, an admin or
// a superuser (a trigger function: not owned by an admin or superuser), and not in C or internal.
// Verdicts are kept per backend, dropped at any change of a function, role or membership.
bool function_is_untrusted(Oid function);

// Other roles' code (functions in a procedural language whose owner is not a trusted author of the
// session user) that runs without a frame, in a session that cannot be charged: the owners are kept
// for the life of the backend, because that code may run again unseen (a cursor, a function kept in
// a cache, an inlined body in a cached plan). Called for a CALL without a frame.
void note_unframed_function(Oid function);
// True if one of them is not a trusted author of the session user (is_trusted_author): this
// backend makes no release.
bool unframed_code_untrusted();
// True if one of them is neither a member of `role` nor a pgdp admin: code run by code may not
// create or change code owned by `role` (utility_trust.hpp).
bool unframed_code_foreign_to(Oid role);

// A frame pushed by pgdp itself (CALL of an untrusted procedure) and its pop.
void push_frame(Oid function, bool untrusted);
void pop_frame();

// True if the innermost frame is a SECURITY DEFINER function owned by `role` and no other role's
// code was noted (looked up, inlined or called without a frame) since it started: what runs now is that
// function's own code, or code it chose to call (PostgreSQL's own rule for SECURITY DEFINER functions).
bool innermost_frame_is_definer_of(Oid role);

// The active frames of untrusted functions, and the innermost one (for messages).
int untrusted_frame_count();
Oid innermost_untrusted_function();

}  // namespace pgdp::pg
