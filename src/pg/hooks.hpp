// Every PostgreSQL hook pgdp uses, installed in one place (hooks.cpp), except the shared-memory
// hooks of the ledger (ledger/ledger_channel.cpp), which exist only when the library is preloaded.
#pragma once

namespace pgdp::pg {

void install_hooks();

}  // namespace pgdp::pg
