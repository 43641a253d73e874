#include "core/cpp_only.hpp"
#include "core/distinct_count.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/count_vector.hpp"
#include "core/validate.hpp"

namespace pgdp {

namespace {

constexpr std::uint8_t kDistinctStateVersion = 1;

// Slot index from a hash: the splitmix64 finaliser (Steele, Lea, Flood 2014) spreads hashes whose
// low bits are poor (an identity hash of small integers) over the table.
std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::uint64_t slot_of(const DistinctHashTable& table, std::uint64_t hash) {
    const std::uint64_t mask = table.slot_count - 1;
    std::uint64_t i = mix(hash) & mask;
    while (table.slots[i] != 0 && table.slots[i] != hash) i = (i + 1) & mask;
    return i;
}

}  // namespace

std::uint64_t distinct_slots_wanted(const DistinctHashTable& table) {
    if (table.size >= table.cap || 2 * (table.size + 1) <= table.slot_count) return table.slot_count;
    return std::max(2 * table.slot_count, kMinDistinctSlots);
}

void rehash_distinct(const DistinctHashTable& from, DistinctHashTable& to) {
    to.size = from.size;
    to.cap = from.cap;
    to.has_zero = from.has_zero;
    for (std::uint64_t i = 0; i < from.slot_count; ++i) {
        if (from.slots[i] != 0) to.slots[slot_of(to, from.slots[i])] = from.slots[i];
    }
}

bool contains_distinct(const DistinctHashTable& table, std::uint64_t hash) {
    if (hash == 0) return table.has_zero;
    return table.slot_count > 0 && table.slots[slot_of(table, hash)] == hash;
}

void insert_distinct(DistinctHashTable& table, std::uint64_t hash) {
    if (table.size >= table.cap) return;  // saturated: new hashes are dropped
    if (hash == 0) {
        table.size += table.has_zero ? 0 : 1;
        table.has_zero = true;
        return;
    }
    if (distinct_slots_wanted(table) != table.slot_count)
        throw std::logic_error("insert_distinct: table full");
    const std::uint64_t i = slot_of(table, hash);
    if (table.slots[i] == hash) return;
    table.slots[i] = hash;
    ++table.size;
}

StateBytes serialize_distinct(const DistinctHashTable& table) {
    std::vector<std::uint64_t> hashes;
    hashes.reserve(table.size);
    if (table.has_zero) hashes.push_back(0);
    for (std::uint64_t i = 0; i < table.slot_count; ++i) {
        if (table.slots[i] != 0) hashes.push_back(table.slots[i]);
    }
    std::sort(hashes.begin(), hashes.end());
    StateWriter writer(kDistinctStateVersion);
    writer.put_u64(table.cap);
    writer.put_u64(hashes.size());
    for (std::uint64_t hash : hashes) writer.put_u64(hash);
    return writer.take();
}

std::uint64_t DistinctStateView::hash(std::uint64_t i) const {
    std::uint64_t value = 0;
    for (int b = 0; b < 8; ++b) value |= static_cast<std::uint64_t>(hashes[8 * i + b]) << (8 * b);
    return value;
}

DistinctStateView read_distinct_state(const unsigned char* data, std::size_t size) {
    StateReader reader(data, size, kDistinctStateVersion, "distinct-value state");
    DistinctStateView view{};
    view.cap = reader.get_u64();
    view.count = reader.get_u64();
    if (view.cap == 0 || view.cap > kMaxDistinctHashes) {
        reader.fail("its cap " + std::to_string(view.cap) + " is out of range");
    }
    if (view.count > view.cap || reader.remaining() != 8 * view.count) {
        reader.fail("its length does not match its size");
    }
    view.hashes = data + (size - reader.remaining());
    for (std::uint64_t i = 1; i < view.count; ++i) {
        if (view.hash(i) <= view.hash(i - 1)) reader.fail("its hashes are not strictly increasing");
    }
    return view;
}

ReleasePlan plan_distinct_count(const DistinctCountParameters& parameters) {
    if (parameters.alpha != 0.0) require_alpha(parameters.alpha);
    require_rows_per_unit("values_per_unit", parameters.values_per_unit);
    // One group's D moves by at most c (one coordinate per group): plan_release's scalar plan over
    // m groups; D is an integer, so on grid 1 nothing is rounded.
    return plan_release(parameters.epsilon, parameters.delta, parameters.mechanism,
                        static_cast<double>(parameters.values_per_unit), 1.0, true,
                        parameters.groups_per_unit);
}

AggregateRelease release_distinct_count(const DistinctCountParameters& parameters, const ReleasePlan& plan,
                                        std::uint64_t distinct, RandomSource& random) {
    AggregateRelease out;
    out.value = static_cast<double>(noisy_count(plan, static_cast<std::int64_t>(distinct), random));
    out.noise_sd = std::sqrt(plan.noise_variance);
    if (parameters.alpha > 0.0) {
        const double half_width = release_half_width(plan, parameters.alpha);
        out.ci_lower = out.value - half_width;
        out.ci_upper = out.value + half_width;
    }
    return out;
}

}  // namespace pgdp
