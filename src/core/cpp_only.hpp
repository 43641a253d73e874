// Included first by every .cpp file of src/core (never by its headers, which the shim includes): the core
// must stay free of PostgreSQL so that it can be unit-tested without a server and so that no
// ereport()/longjmp can ever cross a C++ frame in it.
#pragma once
#ifdef PG_VERSION_NUM
#error "src/core must not include PostgreSQL headers"
#endif
