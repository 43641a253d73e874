#include "pg/base/postgres_headers.hpp"

extern "C" {
#include "miscadmin.h"
}

#include "pg/channels/statement_seal.hpp"
#include "pg/base/strong_random.hpp"

#include <cstring>
#include <stdexcept>

namespace pgdp::pg {

namespace {

// pg_strong_random never ereports (src/port), so calling it from C++ is safe. Reading in blocks
// amortises its per-call cost: a discrete Gaussian draw consumes a few dozen bytes.
class StrongRandomSource final : public RandomSource {
public:
    void fill(unsigned char* out, std::size_t n) override {
        while (n > 0) {
            if (available_ == 0) refill();
            const std::size_t taken = n < available_ ? n : available_;
            const unsigned char* from = buffer_ + (sizeof buffer_ - available_);
            std::memcpy(out, from, taken);
            std::memset(const_cast<unsigned char*>(from), 0, taken);  // consumed bytes never linger
            available_ -= taken;
            out += taken;
            n -= taken;
        }
    }

private:
    void refill() {
        if (!pg_strong_random(buffer_, sizeof buffer_)) {
            throw std::runtime_error("could not generate secure random bytes (pg_strong_random failed)");
        }
        available_ = sizeof buffer_;
    }

    unsigned char buffer_[512];
    std::size_t available_ = 0;
};

int test_seed = -1;  // pgdp.test_seed; -1 means pg_strong_random
bool reseed_pending = false;

void assign_test_seed(int new_value, void*) {
    test_seed = new_value;
    reseed_pending = true;
}

// Constructed on first use, not at library load; neither constructor can throw.
StrongRandomSource& strong_source() {
    static StrongRandomSource source;
    return source;
}

SeededRandomSource& seeded_source() {
    static SeededRandomSource source(0);
    return source;
}

}  // namespace

RandomSource& release_random_source() {
    if (test_seed < 0) return strong_source();
    if (!superuser()) {
        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                        errmsg("pgdp.test_seed is set, but only a superuser may draw seeded noise"),
                        errhint("RESET pgdp.test_seed; it makes noise predictable and is meant for "
                                "regression tests only.")));
    }
    if (reseed_pending) {
        seeded_source() = SeededRandomSource(static_cast<std::uint64_t>(test_seed));
        reseed_pending = false;
        begin_own_notice();
        ereport(WARNING,
                (errmsg("pgdp draws deterministic, predictable noise (pgdp.test_seed = %d)", test_seed),
                 errhint("Never set pgdp.test_seed where analysts query.")));
        end_own_notice();
    }
    return seeded_source();
}

void define_random_settings() {
    DefineCustomIntVariable(
        "pgdp.test_seed", "Seed for a deterministic, NOT secure, noise generator used by regression tests.",
        "-1 (the default) draws all noise from pg_strong_random. Only superusers can set it; "
        "never set it on a server that serves analysts.",
        &test_seed, -1, -1, INT_MAX, PGC_SUSET, 0, nullptr, assign_test_seed, nullptr);
}

}  // namespace pgdp::pg
