// The discrete Gaussian's profile sums O(sigma) terms; a backend must be able to cancel it.
// These tests install an interrupt check (as the PostgreSQL shim does) and observe that the long
// loop consults it and stops with Interrupted, and that without a pending interrupt the result
// is unchanged.
#include <gtest/gtest.h>

#include "core/interrupts.hpp"
#include "core/discrete_gaussian_calibration.hpp"
#include "core/noise.hpp"

namespace {

int polls = 0;
bool interrupt_after_three_polls() { return ++polls > 3; }
bool never_interrupt() {
    ++polls;
    return false;
}

struct InterruptCheckGuard {
    explicit InterruptCheckGuard(pgdp::InterruptCheck check) {
        polls = 0;
        pgdp::set_interrupt_check(check);
    }
    ~InterruptCheckGuard() { pgdp::set_interrupt_check(nullptr); }
};

// sigma = 2^20 grid units: about 80 * 2^20 / 64 blocks of the profile's loop, far more than the
// 1024 blocks between two polls.
constexpr long double kSigma2 = 1099511627776.0L;  // (2^20)^2

TEST(Interrupts, LongProfileStopsWhenInterrupted) {
    InterruptCheckGuard guard(interrupt_after_three_polls);
    EXPECT_THROW(pgdp::discrete_gaussian_delta(kSigma2, 1e-6L, 1), pgdp::Interrupted);
    EXPECT_EQ(polls, 4);  // stopped at the first poll that reported the interrupt
}

TEST(Interrupts, PollingChangesNoResult) {
    long double without_check = 0.0L;
    {
        InterruptCheckGuard guard(nullptr);
        without_check = pgdp::discrete_gaussian_delta(kSigma2, 1e-6L, 1);
    }
    InterruptCheckGuard guard(never_interrupt);
    const long double with_check = pgdp::discrete_gaussian_delta(kSigma2, 1e-6L, 1);
    EXPECT_GT(polls, 3);  // the loop did poll
    EXPECT_EQ(with_check, without_check);
    EXPECT_GT(with_check, 0.0L);
}

}  // namespace
