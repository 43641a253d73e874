#include "pg/planning/person_level_shape.hpp"

extern "C" {
#include "access/nbtree.h"
#include "catalog/pg_am.h"
#include "commands/defrem.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_oper.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
}

#include <cstring>

#include "pg/base/pg_compat.hpp"
#include "pg/calls/aggregate_call.hpp"
#include "pg/planning/plan_marks.hpp"
#include "pg/planning/query_builder.hpp"
#include "pg/planning/total_forms.hpp"

namespace pgdp::pg {
namespace {

// A join alias (a column of a JOIN ... USING) resolved to the column it stands for.
Node* resolve_join_alias(const Query* level, Node* node) {
    for (int depth = 0; depth < 100 && node != nullptr && IsA(node, Var); ++depth) {
        const Var* var = castNode(Var, node);
        if (var->varlevelsup != 0 || var->varattno < 1) break;
        const RangeTblEntry* entry = rt_fetch(var->varno, level->rtable);
        if (entry->rtekind != RTE_JOIN || var->varattno > list_length(entry->joinaliasvars)) break;
        Node* aliased = static_cast<Node*>(list_nth(entry->joinaliasvars, var->varattno - 1));
        // A LEFT JOIN's merged USING column is the left side's column (maybe coerced: then no key).
        node = aliased;
    }
    return node;
}

// True if the expression reads no column of this level other than those of entry `index`, and
// has no subquery.
bool reads_only_entry(Node* node, void* context) {
    if (node == nullptr) return true;
    if (IsA(node, Var)) {
        const Var* var = castNode(Var, node);
        return var->varlevelsup != 0 || static_cast<int>(var->varno) == *static_cast<int*>(context);
    }
    if (IsA(node, SubLink) || IsA(node, Query) || IsA(node, Aggref) || IsA(node, PlaceHolderVar))
        return false;
    return !expression_tree_walker(
        node, walker_cast(+[](Node* n, void* c) { return !reads_only_entry(n, c); }), context);
}

// The range table index of the relation that may supply the groups: the leftmost relation of a
// chain of LEFT JOINs that is the level's whole FROM; 0 if the level has no such form.
int left_join_keys_entry(const Query* level) {
    if (list_length(level->jointree->fromlist) != 1) return 0;
    Node* item = static_cast<Node*>(linitial(level->jointree->fromlist));
    bool left_join = false;
    while (IsA(item, JoinExpr)) {
        if (castNode(JoinExpr, item)->jointype != JOIN_LEFT) return 0;
        left_join = true;
        item = castNode(JoinExpr, item)->larg;
    }
    if (!left_join || !IsA(item, RangeTblRef)) return 0;
    const int index = castNode(RangeTblRef, item)->rtindex;
    return rt_fetch(index, level->rtable)->rtekind == RTE_RELATION ? index : 0;
}

List* conjuncts_of(Node* quals) {
    if (quals == nullptr) return NIL;
    return is_andclause(quals) ? castNode(BoolExpr, quals)->args : list_make1(quals);
}

bool is_selection(Node* node) {
    if (node == nullptr || !IsA(node, Aggref) || castNode(Aggref, node)->agglevelsup != 0) return false;
    const AggregateIdentity identity = identify_aggregate(castNode(Aggref, node)->aggfnoid);
    return identity.is_pgdp && identity.kind == AggregateKind::Selection;
}

// The level's dp_groups calls that are conditions of its HAVING (top-level conjuncts).
List* having_selections(const Query* level) {
    List* found = NIL;
    ListCell* cell;
    foreach (cell, conjuncts_of(level->havingQual)) {
        if (is_selection(static_cast<Node*>(lfirst(cell)))) found = lappend(found, lfirst(cell));
    }
    return found;
}

// True if two values of the type that are equal (under the collation) are the same value: a group's
// key is then the same whatever row supplied it. Not for numeric (5.0 = 5.000), float (0 = -0),
// interval, arrays, records, jsonb, nondeterministic collations: the released representative
// would be the first row's spelling, which shows whose rows are in the group (red-team round 7).
// The test is the one btree deduplication relies on (the opfamily's equalimage procedure), except
// for character(n), whose equal values may differ in trailing spaces.
bool equality_is_identity(Oid type, Oid collation) {
    const Oid base = getBaseType(type);
    if (base == BPCHAROID) return false;
    const Oid opclass = GetDefaultOpClass(base, BTREE_AM_OID);
    if (!OidIsValid(opclass)) return false;
    const Oid input = get_opclass_input_type(opclass);
    const Oid procedure = get_opfamily_proc(get_opclass_family(opclass), input, input, BTEQUALIMAGE_PROC);
    if (!OidIsValid(procedure)) return false;
    return DatumGetBool(OidFunctionCall1Coll(procedure, collation, ObjectIdGetDatum(input)));
}

// True if `node` is `a = b` with the units' equality operator on two unit columns, returned in *a, *b.
bool unit_equality(Node* node, const List* entries, int* a, int* b) {
    if (node == nullptr || !IsA(node, OpExpr) || list_length(castNode(OpExpr, node)->args) != 2) return false;
    const OpExpr* expression = castNode(OpExpr, node);
    int found[2] = {-1, -1};
    for (int side = 0; side < 2; ++side) {
        Node* argument = static_cast<Node*>(list_nth(expression->args, side));
        while (IsA(argument, RelabelType)) argument = (Node*)castNode(RelabelType, argument)->arg;
        if (!IsA(argument, Var)) return false;
        int position = 0;
        ListCell* cell;
        foreach (cell, entries) {
            const auto* entry = static_cast<const ProtectedEntry*>(lfirst(cell));
            if (equal(argument, entry->unit)) found[side] = position;
            ++position;
        }
    }
    if (found[0] < 0 || found[1] < 0 || found[0] == found[1]) return false;
    const auto* left = static_cast<const ProtectedEntry*>(list_nth(entries, found[0]));
    Oid sort_operator;
    Oid equality;
    get_sort_group_operators(left->unit->vartype, false, true, false, &sort_operator, &equality, nullptr,
                             nullptr);
    if (expression->opno != equality) return false;
    *a = found[0];
    *b = found[1];
    return true;
}

// Range table indexes under a join tree node.
Bitmapset* entries_under(Node* node) {
    if (node == nullptr) return nullptr;
    if (IsA(node, RangeTblRef)) return bms_make_singleton(castNode(RangeTblRef, node)->rtindex);
    if (IsA(node, JoinExpr)) {
        const JoinExpr* join = castNode(JoinExpr, node);
        return bms_union(entries_under(join->larg), entries_under(join->rarg));
    }
    Bitmapset* all = nullptr;
    if (IsA(node, FromExpr)) {
        ListCell* cell;
        foreach (cell, castNode(FromExpr, node)->fromlist)
            all = bms_union(all, entries_under(static_cast<Node*>(lfirst(cell))));
    }
    return all;
}

struct UnitJoins {
    const List* entries;
    bool* linked;  // linked[i * count + j]: entries i and j are joined on their units
    int count;
};

void note_equalities(Node* quals, UnitJoins& joins, const Bitmapset* left, const Bitmapset* right) {
    ListCell* cell;
    foreach (cell, conjuncts_of(quals)) {
        int a = 0;
        int b = 0;
        if (!unit_equality(static_cast<Node*>(lfirst(cell)), joins.entries, &a, &b)) continue;
        const int ia = static_cast<const ProtectedEntry*>(list_nth(joins.entries, a))->index;
        const int ib = static_cast<const ProtectedEntry*>(list_nth(joins.entries, b))->index;
        // In a join's ON, only if this join is where the two relations meet (one on each side):
        // a higher outer join's ON would not remove the pairs it does not match.
        if (left != nullptr && !((bms_is_member(ia, left) && bms_is_member(ib, right)) ||
                                 (bms_is_member(ib, left) && bms_is_member(ia, right)))) {
            continue;
        }
        joins.linked[a * joins.count + b] = joins.linked[b * joins.count + a] = true;
    }
}

void note_join_equalities(Node* node, UnitJoins& joins) {
    if (node == nullptr) return;
    if (IsA(node, JoinExpr)) {
        JoinExpr* join = castNode(JoinExpr, node);
        note_equalities(join->quals, joins, entries_under(join->larg), entries_under(join->rarg));
        note_join_equalities(join->larg, joins);
        note_join_equalities(join->rarg, joins);
    } else if (IsA(node, FromExpr)) {
        ListCell* cell;
        foreach (cell, castNode(FromExpr, node)->fromlist)
            note_join_equalities(static_cast<Node*>(lfirst(cell)), joins);
    }
}

}  // namespace

// Vars of this level outside aggregates and outside the group keys (context: List* of the keys).
bool has_bare_vars(Node* node, void* context) {
    if (node == nullptr) return false;
    if (IsA(node, Aggref)) return false;
    ListCell* cell;
    foreach (cell, static_cast<List*>(context)) {
        if (equal(lfirst(cell), node)) return false;
    }
    if (IsA(node, Var)) return castNode(Var, node)->varlevelsup == 0;
    if (IsA(node, Query)) return false;
    return expression_tree_walker(node, walker_cast(has_bare_vars), context);
}

void refuse_person_level_release(const char* relation, const char* why) {
    ereport(
        ERROR,
        (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
         errmsg("pgdp cannot make this person-level release over protected relation \"%s\"", relation),
         errdetail("%s", why),
         errhint("Person-level releases take the forms SELECT dp_count(...), dp_sum(x, ...) FROM protected "
                 "[JOIN other ...] [WHERE ...]; grouped, with private group selection: SELECT k, "
                 "dp_count(...) FROM protected ... GROUP BY k HAVING dp_groups(epsilon, delta); or with "
                 "public keys: SELECT r.k, dp_count(...) FROM public_relation r LEFT JOIN protected p ON "
                 "... GROUP BY r.k.")));
}

// dp_groups decides which groups of a GROUP BY appear: anywhere else its answer would release
// the keys it withholds (SELECT k, dp_groups(...) shows every key with false beside it).
void check_selection_placement(const Query* level, List* calls) {
    int selections = 0;
    ListCell* cell;
    foreach (cell, calls) {
        if (identify_aggregate(static_cast<Aggref*>(lfirst(cell))->aggfnoid).kind == AggregateKind::Selection)
            ++selections;
    }
    if (selections == 0) return;
    if (level->groupClause == NIL || level->groupingSets != NIL) {
        ereport(
            ERROR,
            (errcode(ERRCODE_GROUPING_ERROR),
             errmsg("dp_groups selects groups: it needs a GROUP BY (without grouping sets)"),
             errhint("Write SELECT k, dp_count(...) FROM t GROUP BY k HAVING dp_groups(epsilon, delta).")));
    }
    if (list_length(having_selections(level)) != selections) {
        ereport(ERROR,
                (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                 errmsg("dp_groups must be a condition of HAVING on its own"),
                 errdetail("Anywhere else (the select list, under NOT or OR, in a subquery) its answer "
                           "would show the groups it withholds."),
                 errhint("Write ... GROUP BY k HAVING dp_groups(epsilon, delta) [AND other conditions].")));
    }
}

[[noreturn]] void refuse_key_type(Oid type, const char* name) {
    ereport(ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("pgdp cannot release group keys of type %s selected from protected relation \"%s\"",
                    format_type_be(type), name),
             errdetail("Equal keys of this type (or collation) can be written differently ('1 day' and "
                       "'24 hours', 'a' and 'a  ' in character(n), 'a' and 'A' under a case-insensitive "
                       "collation); the group would show the spelling of one of its rows, which depends on "
                       "whose rows it holds."),
             errhint("Group by a value of a type whose equal values print alike: integers, numeric, float, "
                     "date, timestamp, or text with a deterministic collation (k COLLATE \"C\").")));
}

LevelShape shape_of(Query* level, const char* name) {
    LevelShape shape{GroupForm::Ungrouped, NIL, 0, NIL, nullptr};
    if (level->groupingSets != NIL)
        refuse_person_level_release(name, "GROUPING SETS, ROLLUP and CUBE are not supported.");
    if (level->groupClause == NIL) return shape;
    ListCell* cell;
    foreach (cell, level->groupClause) {
        TargetEntry* entry = get_sortgroupclause_tle(lfirst_node(SortGroupClause, cell), level->targetList);
        shape.keys = lappend(shape.keys, entry->expr);
    }
    const int keys_index = left_join_keys_entry(level);
    const bool has_selection = having_selections(level) != NIL;
    if (keys_index != 0 && is_declared_public(rt_fetch(keys_index, level->rtable)->relid, nullptr)) {
        shape.public_index = keys_index;
    } else if (keys_index != 0 && !has_selection) {
        const char* keys_name = get_rel_name(rt_fetch(keys_index, level->rtable)->relid);
        ereport(
            ERROR,
            (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
             errmsg("relation \"%s\" is not declared public: its rows cannot be the groups of a release over "
                    "protected relation \"%s\"",
                    keys_name != nullptr ? keys_name : "?", name),
             errdetail("Only a relation a pgdp admin declared public supplies group keys without private "
                       "selection: every key it holds is released, whether or not people have rows there."),
             errhint("Ask an admin to run SELECT pgdp.declare_public('%s'), or select the groups privately "
                     "with HAVING dp_groups(epsilon, delta).",
                     keys_name != nullptr ? keys_name : "?")));
    }
    if (shape.public_index == 0) {
        if (!has_selection) {
            refuse_person_level_release(
                name,
                "A grouped release over a protected relation would show its groups' keys, which may "
                "identify a person: release them through private group selection (HAVING dp_groups) or "
                "take them from a relation declared public.");
        }
        // Keys whose equal values may print differently (numeric 1.0 and 1.00, float 0 and -0)
        // are released in a canonical form (pgdp.canonical_key), grouping as before.
        shape.keys = NIL;
        foreach (cell, level->groupClause) {
            TargetEntry* entry =
                get_sortgroupclause_tle(lfirst_node(SortGroupClause, cell), level->targetList);
            const Oid type = exprType((Node*)entry->expr);
            if (!equality_is_identity(type, exprCollation((Node*)entry->expr))) {
                const Oid canonical = canonical_key_function(type);
                if (!OidIsValid(canonical)) refuse_key_type(type, name);
                entry->expr = (Expr*)makeFuncExpr(canonical, type, list_make1(entry->expr), InvalidOid,
                                                  InvalidOid, COERCE_EXPLICIT_CALL);
            }
            shape.keys = lappend(shape.keys, entry->expr);
        }
        shape.form = GroupForm::Selection;
        return shape;
    }
    shape.form = GroupForm::PublicKeys;
    foreach (cell, shape.keys) {
        Node* key = resolve_join_alias(level, static_cast<Node*>(lfirst(cell)));
        if (!IsA(key, Var) || static_cast<int>(castNode(Var, key)->varno) != shape.public_index ||
            castNode(Var, key)->varlevelsup != 0 || castNode(Var, key)->varattno < 1) {
            refuse_person_level_release(
                name,
                "With public keys every GROUP BY key must be a column of the public relation (the "
                "leftmost relation of the LEFT JOINs).");
        }
        shape.public_keys = lappend(shape.public_keys, copyObjectImpl(key));
    }
    // WHERE conditions on the public relation alone choose which keys exist.
    foreach (cell, conjuncts_of(level->jointree->quals)) {
        Node* conjunct = static_cast<Node*>(lfirst(cell));
        Node* resolved = compat::flatten_join_aliases(level, conjunct);
        if (reads_only_entry(resolved, &shape.public_index) && !contain_volatile_functions(resolved))
            shape.public_quals = and_of(shape.public_quals, static_cast<Node*>(copyObjectImpl(resolved)));
    }
    return shape;
}

// HAVING dp_groups(...) AND c: the executor may evaluate c first (quals are ordered by cost), and
// an error in c (a division by a release) would then reveal a group the selection drops. So c is
// evaluated only for kept groups: dp_groups(...) AND CASE WHEN dp_groups(...) THEN c ELSE false END
// (the identical calls are one aggregate, computed once per group).
Node* selection_first(Node* having) {
    List* selections = NIL;
    List* rest = NIL;
    ListCell* cell;
    foreach (cell, conjuncts_of(having)) {
        if (is_selection(static_cast<Node*>(lfirst(cell)))) {
            selections = lappend(selections, lfirst(cell));
        } else {
            rest = lappend(rest, lfirst(cell));
        }
    }
    if (selections == NIL || rest == NIL) return having;
    Expr* kept = list_length(selections) == 1 ? static_cast<Expr*>(linitial(selections))
                                              : makeBoolExpr(AND_EXPR, list_copy(selections), -1);
    auto* when = makeNode(CaseWhen);
    when->expr = static_cast<Expr*>(copyObjectImpl(kept));
    when->result =
        list_length(rest) == 1 ? static_cast<Expr*>(linitial(rest)) : makeBoolExpr(AND_EXPR, rest, -1);
    when->location = kUnknownLocation;
    auto* guarded = makeNode(CaseExpr);
    guarded->casetype = BOOLOID;
    guarded->args = list_make1(when);
    guarded->defresult = (Expr*)makeBoolConst(false, false);
    guarded->location = kUnknownLocation;
    return (Node*)makeBoolExpr(AND_EXPR, lappend(selections, guarded), -1);
}

// The privacy unit of a level reading several protected relations: they must be one relation
// or of one declared kind, and joined on their units (every joined row then belongs to one unit);
// the unit is COALESCE of their units (outer joins leave one side NULL).
Expr* joined_unit(Query* level, List* entries, const char* name) {
    const int count = list_length(entries);
    const auto* first = static_cast<const ProtectedEntry*>(linitial(entries));
    ListCell* cell;
    foreach (cell, entries) {
        const auto* entry = static_cast<const ProtectedEntry*>(lfirst(cell));
        const bool same_relation = entry->protection.root == first->protection.root;
        const bool same_kind =
            NameStr(first->protection.unit_kind)[0] != '\0' &&
            std::strcmp(NameStr(entry->protection.unit_kind), NameStr(first->protection.unit_kind)) == 0;
        if (!same_relation && !same_kind) {
            refuse_person_level_release(
                name,
                "The query reads protected relations whose privacy units are not declared of one kind; their "
                "units may be different people (an admin declares a kind with pgdp.protect(..., "
                "privacy_unit_kind => 'customer') on each).");
        }
        if (entry->unit->vartype != first->unit->vartype) {
            refuse_person_level_release(
                name, "The privacy units of the joined protected relations have different types.");
        }
    }
    UnitJoins joins{entries, static_cast<bool*>(palloc0(sizeof(bool) * count * count)), count};
    note_equalities(level->jointree->quals, joins, nullptr, nullptr);
    note_join_equalities((Node*)level->jointree, joins);
    // Every relation must be linked to the first through unit equalities.
    bool* reached = static_cast<bool*>(palloc0(sizeof(bool) * count));
    reached[0] = true;
    for (bool grew = true; grew;) {
        grew = false;
        for (int i = 0; i < count; ++i) {
            for (int j = 0; j < count; ++j) {
                if (reached[i] && !reached[j] && joins.linked[i * count + j]) reached[j] = grew = true;
            }
        }
    }
    for (int i = 0; i < count; ++i) {
        if (!reached[i]) {
            refuse_person_level_release(
                name,
                "Protected relations read together must be joined on their privacy units (p1.unit = "
                "p2.unit in the join's ON or in WHERE): otherwise one row would mix several people.");
        }
    }
    auto* coalesce = makeNode(CoalesceExpr);
    coalesce->coalescetype = first->unit->vartype;
    coalesce->coalescecollid = first->unit->varcollid;
    foreach (cell, entries)
        coalesce->args =
            lappend(coalesce->args, copyObjectImpl(static_cast<ProtectedEntry*>(lfirst(cell))->unit));
    coalesce->location = kUnknownLocation;
    return (Expr*)coalesce;
}

}  // namespace pgdp::pg
