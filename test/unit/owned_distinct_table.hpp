// A distinct-values hash table (core/distinct_count.hpp) whose slots a test owns, for the tests
// of dp_count_distinct and its privacy audit.
#pragma once

#include <cstdint>
#include <list>
#include <vector>

#include "core/distinct_count.hpp"

namespace pgdp_test {

// A table whose slots the test owns (the shim allocates them in the aggregate's memory context).
class OwnedTable {
public:
    explicit OwnedTable(std::uint64_t cap = pgdp::kMaxDistinctHashes) { table.cap = cap; }
    OwnedTable(const OwnedTable&) = delete;
    OwnedTable& operator=(const OwnedTable&) = delete;

    void insert(std::uint64_t hash) { pgdp::add_distinct(table, hash, grow()); }
    void merge(const pgdp::DistinctHashTable& other) { pgdp::merge_distinct(table, other, grow()); }
    // A Citus worker's row (hash, rows counted with it), as the coordinator's transition adds it.
    void add_partial(std::uint64_t hash, std::int64_t count) {
        pgdp::add_partial_distinct(table, hash, count, grow());
    }
    // Reads serialized bytes back into this table, as the shim's deserialize function would.
    void read(const pgdp::StateBytes& bytes) {
        const pgdp::DistinctStateView view = pgdp::read_distinct_state(bytes.data(), bytes.size());
        table.cap = view.cap;
        for (std::uint64_t i = 0; i < view.count; ++i) insert(view.hash(i));
    }
    std::size_t buffers() const { return buffers_.size(); }

    pgdp::DistinctHashTable table;

private:
    // add_distinct's grow: a zeroed buffer of `count` slots, or (count 0) hand `old` back.
    struct Grow {
        OwnedTable* owner;
        std::uint64_t* operator()(std::uint64_t* old, std::uint64_t, std::uint64_t count) const {
            auto& buffers = owner->buffers_;
            if (count == 0) {
                buffers.remove_if([old](const std::vector<std::uint64_t>& b) { return b.data() == old; });
                return nullptr;
            }
            buffers.emplace_back(count, 0);
            return buffers.back().data();
        }
    };
    Grow grow() { return Grow{this}; }
    std::list<std::vector<std::uint64_t>> buffers_;
};

}  // namespace pgdp_test
