#include "core/interrupts.hpp"

namespace pgdp {
namespace {

InterruptCheck installed_check = nullptr;

}  // namespace

void set_interrupt_check(InterruptCheck check) noexcept { installed_check = check; }

void poll_interrupts() {
    if (installed_check != nullptr && installed_check()) throw Interrupted();
}

}  // namespace pgdp
