#include "pg/planning/plan_marks.hpp"

extern "C" {
#include "common/hashfn.h"
#include "nodes/pathnodes.h"
}

#include <cstring>

#include "pg/catalog/protected_relations.hpp"

namespace pgdp::pg {
namespace {

// A call's marks, code = -1 - location (0: none): groups per unit (bits 0-19) + kReadsPartialTotals
// if set (bit 20) + (rows per unit - 1) * kRowsPerUnitStep (bits 21-30).
constexpr int kReadsPartialTotals = 1 << 20;
constexpr int kRowsPerUnitStep = 1 << 21;
constexpr int kPartialsCallLocation = -2;

int call_marks(const Aggref* aggref) { return aggref->location <= -2 ? -1 - aggref->location : 0; }

bool has_mark(const PlannedStmt* statement, PlanMark kind) {
    ListCell* cell;
    foreach (cell, statement->invalItems) {
        if (lfirst_node(PlanInvalItem, cell)->cacheId == static_cast<int>(kind)) return true;
    }
    return false;
}

bool is_mark(const PlanInvalItem* item, PlanMark kind) { return item->cacheId == static_cast<int>(kind); }

void add_mark(PlannedStmt* statement, PlanMark kind, uint32 hash) {
    statement->invalItems = lappend(statement->invalItems, make_mark(kind, hash));
}

// True if range table index `index` is an expansion child (a partition or inheritance child the
// planner added for its parent entry), not a relation the query named.
bool expansion_child(const PlannedStmt* statement, int index) {
    ListCell* cell;
    foreach (cell, statement->appendRelations) {
        if (static_cast<int>(lfirst_node(AppendRelInfo, cell)->child_relid) == index) return true;
    }
    return false;
}

}  // namespace

// ---- invalidation items ---------------------------------------------------------------------

bool carries_plan_marks(const PlannedStmt* statement) {
    ListCell* cell;
    foreach (cell, statement->invalItems) {
        if (lfirst_node(PlanInvalItem, cell)->cacheId < 0) return true;
    }
    return false;
}

PlanInvalItem* make_mark(PlanMark mark, uint32 hash) {
    auto* item = makeNode(PlanInvalItem);
    item->cacheId = static_cast<int>(mark);
    item->hashValue = hash;
    return item;
}

uint32 protection_hash(const Protection& protection) {
    struct {
        Oid root;
        NameData unit;
        int32 max_groups;
        NameData kind;
        int32 rows_per_unit;
    } key{};
    key.root = protection.root;
    std::memcpy(&key.unit, &protection.unit_name, sizeof(NameData));
    key.max_groups = protection.max_groups;
    std::memcpy(&key.kind, &protection.unit_kind, sizeof(NameData));
    key.rows_per_unit = protection.rows_per_unit;
    return hash_bytes(reinterpret_cast<const unsigned char*>(&key), sizeof key);
}

void mark_person_level_plan(PlannedStmt* statement, List* marks) {
    int levels = 0;
    ListCell* cell;
    foreach (cell, marks) {
        statement->invalItems = lappend(statement->invalItems, lfirst(cell));
        if (is_mark(lfirst_node(PlanInvalItem, cell), PlanMark::ProtectionRewritten)) ++levels;
    }
    add_mark(statement, PlanMark::ProtectedScans, static_cast<uint32>(levels));
    // Which relations the plan reads with their owner's privileges depends on the role that
    // planned it (DP-only access): a cached plan is made again for another role.
    statement->dependsOnRole = true;
}

bool has_person_level_marks(const PlannedStmt* statement) {
    return has_mark(statement, PlanMark::ProtectedScans);
}

bool is_person_level_plan(const PlannedStmt* statement, const ProtectionCatalog& catalog) {
    // Every protected relation the plan reads must have been rewritten for under the protection
    // in force now (a protection changed or added after planning makes the plan unusable).
    bool any = false;
    int named = 0;  // protected entries the query named (not expansion children)
    int index = 0;
    ListCell* cell;
    foreach (cell, statement->rtable) {
        ++index;
        const RangeTblEntry* entry = lfirst_node(RangeTblEntry, cell);
        Protection protection;
        if (entry->rtekind != RTE_RELATION || !find_protection(catalog, entry->relid, &protection)) continue;
        if (!expansion_child(statement, index)) ++named;
        const uint32 hash = protection_hash(protection);
        bool marked = false;
        ListCell* item;
        foreach (item, statement->invalItems) {
            const auto* mark = lfirst_node(PlanInvalItem, item);
            if (is_mark(mark, PlanMark::ProtectionRewritten) && mark->hashValue == hash) marked = true;
        }
        if (!marked) return false;
        any = true;
    }
    int expected = -1;
    foreach (cell, statement->invalItems) {
        const auto* item = lfirst_node(PlanInvalItem, cell);
        if (is_mark(item, PlanMark::ProtectedScans)) expected = static_cast<int>(item->hashValue);
        // The keys of a relation no longer declared public are not released (prepare again).
        if (is_mark(item, PlanMark::PublicKeys) &&
            !is_declared_public(static_cast<Oid>(item->hashValue), nullptr))
            return false;
    }
    return any && named == expected;
}

PlanInvalItem* dp_access_mark(Oid relation) {
    return make_mark(PlanMark::DpOnlyRelation, static_cast<uint32>(relation));
}

List* dp_only_relations(const PlannedStmt* statement) {
    List* relations = NIL;
    ListCell* cell;
    foreach (cell, statement->invalItems) {
        const auto* item = lfirst_node(PlanInvalItem, cell);
        if (is_mark(item, PlanMark::DpOnlyRelation))
            relations = lappend_oid(relations, static_cast<Oid>(item->hashValue));
    }
    return relations;
}

void mark_fingerprint(PlannedStmt* statement, const StatementFingerprint& fingerprint) {
    if (fingerprint.shareable) add_mark(statement, PlanMark::Shareable, 1);
    for (int word = 0; word < 8; ++word) {
        uint32 value;
        std::memcpy(&value, fingerprint.bytes + 4 * word, 4);
        add_mark(statement, PlanMark::FingerprintWord, value);
    }
}

bool read_fingerprint(const PlannedStmt* statement, StatementFingerprint* fingerprint) {
    int words = 0;
    ListCell* cell;
    foreach (cell, statement->invalItems) {
        const auto* item = lfirst_node(PlanInvalItem, cell);
        if (!is_mark(item, PlanMark::FingerprintWord) || words >= 8) continue;
        std::memcpy(fingerprint->bytes + 4 * words, &item->hashValue, 4);
        ++words;
    }
    return words == 8;
}

bool shareable_plan(const PlannedStmt* statement) { return has_mark(statement, PlanMark::Shareable); }

void mark_release_plan(PlannedStmt* statement, bool under_rules) {
    add_mark(statement, PlanMark::ReleasePlan, under_rules ? 1 : 0);
}

bool is_release_plan(const PlannedStmt* statement) { return has_mark(statement, PlanMark::ReleasePlan); }

bool planned_under_rules(const PlannedStmt* statement) {
    ListCell* cell;
    foreach (cell, statement->invalItems) {
        const PlanInvalItem* item = lfirst_node(PlanInvalItem, cell);
        if (is_mark(item, PlanMark::ReleasePlan)) return item->hashValue == 1;
    }
    return false;
}

// ---- parse locations ------------------------------------------------------------------------

void mark_partials_call(FuncExpr* call) { call->location = kPartialsCallLocation; }

bool has_partials_call_mark(const FuncExpr* call) { return call->location == kPartialsCallLocation; }

int call_location(int groups_per_unit, bool reads_partial_totals) {
    return -1 - (groups_per_unit + (reads_partial_totals ? kReadsPartialTotals : 0));
}

int groups_per_unit_location(int groups_per_unit) { return call_location(groups_per_unit, false); }

int person_level_location(int groups_per_unit, int rows_per_unit) {
    return -1 - (groups_per_unit + (rows_per_unit - 1) * kRowsPerUnitStep);
}

int rows_per_unit_of(const Aggref* aggref) { return 1 + call_marks(aggref) / kRowsPerUnitStep; }

int marked_groups_per_unit(const Aggref* aggref) { return call_marks(aggref) % kReadsPartialTotals; }

int groups_per_unit_of(const Aggref* aggref) {
    const int m = marked_groups_per_unit(aggref);
    return m >= 1 ? m : 1;
}

bool reads_partial_totals(const Aggref* aggref) { return (call_marks(aggref) & kReadsPartialTotals) != 0; }

}  // namespace pgdp::pg
