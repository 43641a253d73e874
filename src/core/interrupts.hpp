// Long computations of the core (the discrete Gaussian's privacy profile grows with sigma in grid
// units) must stop when the query is cancelled: the core cannot call PostgreSQL, so the shim
// installs a check (a cancel or termination is pending) that poll_interrupts() consults, and the
// computation then throws Interrupted; the exception barrier lets PostgreSQL handle the interrupt.
#pragma once

#include <stdexcept>

namespace pgdp {

class Interrupted : public std::runtime_error {
public:
    Interrupted() : std::runtime_error("pgdp computation interrupted") {}
};

using InterruptCheck = bool (*)();

// nullptr (the default) never interrupts.
void set_interrupt_check(InterruptCheck check) noexcept;

// Throws Interrupted if the installed check reports a pending interrupt.
void poll_interrupts();

}  // namespace pgdp
