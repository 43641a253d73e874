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
constexpr std::size_t kInitialSlots = 16;

// Slot index from a hash: the splitmix64 finaliser (Steele, Lea, Flood 2014) spreads hashes whose
// low bits are poor (an identity hash of small integers) over the table.
std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace

DistinctHashSet::DistinctHashSet(std::uint64_t cap) : cap_(cap), slots_(kInitialSlots, 0) {
    if (cap == 0 || cap > kMaxDistinctHashes)
        throw std::invalid_argument("DistinctHashSet: cap out of range");
}

std::size_t DistinctHashSet::slot_of(std::uint64_t hash) const {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = mix(hash) & mask;
    while (slots_[i] != 0 && slots_[i] != hash) i = (i + 1) & mask;
    return i;
}

bool DistinctHashSet::contains(std::uint64_t hash) const {
    if (hash == 0) return has_zero_;
    return slots_[slot_of(hash)] == hash;
}

void DistinctHashSet::grow() {
    std::vector<std::uint64_t> old(slots_.size() * 2, 0);
    old.swap(slots_);
    for (std::uint64_t hash : old) {
        if (hash != 0) slots_[slot_of(hash)] = hash;
    }
}

void DistinctHashSet::insert(std::uint64_t hash) {
    if (hash == 0) {
        if (!has_zero_ && size_ < cap_) {
            has_zero_ = true;
            ++size_;
        }
        return;
    }
    std::size_t i = slot_of(hash);
    if (slots_[i] == hash || size_ >= cap_) return;
    // Load at most 1/2 after the insert (the zero hash lives outside the table, counted anyway).
    if (2 * (size_ + 1) > slots_.size()) {
        grow();
        i = slot_of(hash);
    }
    slots_[i] = hash;
    ++size_;
}

void DistinctHashSet::merge(const DistinctHashSet& other) {
    if (other.has_zero_) insert(0);
    for (std::uint64_t hash : other.slots_) {
        if (hash != 0) insert(hash);
    }
}

StateBytes DistinctHashSet::serialize() const {
    std::vector<std::uint64_t> hashes;
    hashes.reserve(size_);
    if (has_zero_) hashes.push_back(0);
    for (std::uint64_t hash : slots_) {
        if (hash != 0) hashes.push_back(hash);
    }
    std::sort(hashes.begin(), hashes.end());
    StateWriter writer(kDistinctStateVersion);
    writer.put_u64(cap_);
    writer.put_u64(hashes.size());
    for (std::uint64_t hash : hashes) writer.put_u64(hash);
    return writer.take();
}

DistinctHashSet DistinctHashSet::deserialize(const unsigned char* data, std::size_t size) {
    StateReader reader(data, size, kDistinctStateVersion, "distinct-value state");
    const std::uint64_t cap = reader.get_u64();
    const std::uint64_t count = reader.get_u64();
    if (cap == 0 || cap > kMaxDistinctHashes)
        reader.fail("its cap " + std::to_string(cap) + " is out of range");
    if (count > cap || reader.remaining() != 8 * count) reader.fail("its length does not match its size");
    DistinctHashSet set(cap);
    std::uint64_t previous = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t hash = reader.get_u64();
        if (i > 0 && hash <= previous) reader.fail("its hashes are not strictly increasing");
        set.insert(hash);
        previous = hash;
    }
    reader.expect_end();
    return set;
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
