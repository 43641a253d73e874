// Kinds of expression nodes that pgdp's allow-list walkers treat alike (calls/parameters.cpp: the
// deterministic-argument rule; planning/leakproof.cpp: DP-only expressions).
#pragma once

#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "nodes/nodes.h"
}

namespace pgdp::pg {

enum class ExpressionKind {
    // Calls functions: its own, an operator's, the I/O functions of a cast. Each such function is
    // what check_functions_in_node visits and what an allow-list must accept.
    CallsFunctions,
    // Combines its inputs' values and calls no function of its own: boolean logic, NULL and
    // boolean tests, CASE, COALESCE, a binary-compatible relabel.
    CombinesValues,
    // Everything else: each walker decides.
    Other,
};

inline ExpressionKind expression_kind(const Node* node) {
    switch (nodeTag(node)) {
        case T_FuncExpr:
        case T_OpExpr:
        case T_DistinctExpr:
        case T_NullIfExpr:
        case T_ScalarArrayOpExpr:
        case T_CoerceViaIO:
            return ExpressionKind::CallsFunctions;
        case T_BoolExpr:
        case T_NullTest:
        case T_BooleanTest:
        case T_CaseExpr:
        case T_CaseWhen:
        case T_CaseTestExpr:
        case T_CoalesceExpr:
        case T_RelabelType:
            return ExpressionKind::CombinesValues;
        default:
            return ExpressionKind::Other;
    }
}

}  // namespace pgdp::pg
