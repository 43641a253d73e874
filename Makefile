# pgdp: PGXS build of the extension, plus the database-free unit tests of the C++ core.
#
#   make                 build pgdp.so
#   make install         install into the PostgreSQL found by $(PG_CONFIG)
#   make unittest        build and run the GoogleTest suite of src/core (no database)
#   make installcheck    pg_regress against a running server (see scripts/test.sh)

EXTENSION  = pgdp
MODULE_big = pgdp
PG_CONFIG ?= pg_config

CORE_SRCS := $(sort $(wildcard src/core/*.cpp))
SHIM_SRCS := $(sort $(wildcard src/pg/*.cpp))
OBJS       = $(CORE_SRCS:.cpp=.o) $(SHIM_SRCS:.cpp=.o)
DATA       = $(sort $(wildcard extension/pgdp--*.sql))

REGRESS      = $(shell sed -n 's/^test: *//p' test/regress_schedule | tr '\n' ' ')
REGRESS_OPTS = --inputdir=. --outputdir=build/regress

PG_INCLUDE_SERVER := $(shell $(PG_CONFIG) --includedir-server)
# PostgreSQL headers as system headers so -Werror applies to our code only (pg_duckdb does the same).
PG_CPPFLAGS = -isystem $(PG_INCLUDE_SERVER) -Isrc
PG_CXXFLAGS = -std=c++17 -Wall -Wextra -Werror -Wno-register -Wno-missing-field-initializers
SHLIB_LINK  = -lstdc++ -lm

# No LLVM bitcode: clang is not a build dependency.
override with_llvm = no

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# ---------------------------------------------------------------------------
# Unit tests of the pure C++ core (no PostgreSQL headers, no server).
UNIT_DIR      = build/unit
UNIT_CXX      ?= g++
UNIT_CXXFLAGS = -std=c++17 -O2 -g -Wall -Wextra -Werror -Isrc -Itest
UNIT_SRCS    := $(sort $(wildcard test/unit/*.cpp))
UNIT_CORE_OBJS = $(patsubst src/core/%.cpp,$(UNIT_DIR)/core/%.o,$(CORE_SRCS))
UNIT_TEST_OBJS = $(patsubst test/unit/%.cpp,$(UNIT_DIR)/test/%.o,$(UNIT_SRCS))

$(UNIT_DIR)/core/%.o: src/core/%.cpp $(wildcard src/core/*.hpp)
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) -c -o $@ $<

$(UNIT_DIR)/test/%.o: test/unit/%.cpp $(wildcard src/core/*.hpp) $(wildcard test/unit/*.hpp)
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) -c -o $@ $<

$(UNIT_DIR)/pgdp_unit_tests: $(UNIT_CORE_OBJS) $(UNIT_TEST_OBJS)
	$(UNIT_CXX) -o $@ $^ -lgtest -lgtest_main -pthread

.PHONY: unittest
unittest: $(UNIT_DIR)/pgdp_unit_tests
	cd test && ../$(UNIT_DIR)/pgdp_unit_tests --gtest_brief=1

# Object files of the shared library depend on the core headers.
$(OBJS): $(wildcard src/core/*.hpp) $(wildcard src/pg/*.hpp)

clean: clean-unit
.PHONY: clean-unit
clean-unit:
	rm -rf build

# ---------------------------------------------------------------------------
# Google Benchmark microbenchmarks of the core (bench/*.cpp), optimised build.
BENCH_DIR      = build/bench
BENCH_CXXFLAGS = -std=c++17 -O2 -DNDEBUG -Wall -Wextra -Werror -Isrc
BENCH_SRCS    := $(sort $(wildcard bench/*.cpp))
BENCH_CORE_OBJS = $(patsubst src/core/%.cpp,$(BENCH_DIR)/core/%.o,$(CORE_SRCS))

$(BENCH_DIR)/core/%.o: src/core/%.cpp $(wildcard src/core/*.hpp)
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(BENCH_CXXFLAGS) -c -o $@ $<

$(BENCH_DIR)/pgdp_core_bench: $(BENCH_CORE_OBJS) $(BENCH_SRCS)
	$(UNIT_CXX) $(BENCH_CXXFLAGS) -o $@ $(BENCH_SRCS) $(BENCH_CORE_OBJS) -lbenchmark -lbenchmark_main -pthread

.PHONY: bench-core
bench-core: $(BENCH_DIR)/pgdp_core_bench
	$(BENCH_DIR)/pgdp_core_bench $(BENCH_ARGS)

# ---------------------------------------------------------------------------
# Independent 50-digit references for the unit tests (Boost.Multiprecision, header-only).
# Regenerates test/reference/*.csv; see test/reference/README.md. Takes a few minutes.
REFERENCE_DIR = build/reference

$(REFERENCE_DIR)/generate_references: test/reference/generate_references.cpp
	@mkdir -p $(dir $@)
	g++ -O2 -std=c++17 -Wall -Wextra -Werror -o $@ $<

.PHONY: references
references: $(REFERENCE_DIR)/generate_references
	$(REFERENCE_DIR)/generate_references test/reference
