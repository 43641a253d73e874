# pgdp: PGXS build of the extension, plus the database-free unit tests of the C++ core.
#
#   make                 build pgdp.so
#   make install         install into the PostgreSQL found by $(PG_CONFIG)
#   make unittest        build and run the GoogleTest suite of src/core (no database)
#   make installcheck    pg_regress against a running server (see scripts/test.sh)
#   make bench-core      build and run the Google Benchmark microbenchmarks of the core
#   make figures-data    the data of the accuracy figures of docs/mechanisms.md (core only)
#   make references      regenerate the 50-digit references of the unit tests (minutes)
#   make references-partition-selection   only test/reference/partition_selection.csv

EXTENSION  = pgdp
MODULE_big = pgdp
PG_CONFIG ?= pg_config

CORE_SRCS := $(sort $(wildcard src/core/*.cpp))
SHIM_SRCS := $(sort $(wildcard src/pg/*.cpp src/pg/*/*.cpp))
OBJS       = $(CORE_SRCS:.cpp=.o) $(SHIM_SRCS:.cpp=.o)
# One install script, of the current version (default_version in pgdp.control), generated from
# extension/pgdp.sql.in by scripts/install-script.sh and checked in; update scripts from the first
# release (0.4) on. test/upgrade/ holds frozen install scripts of released versions for the
# upgrade test only (make install-upgrade-test-scripts).
EXTVERSION    := $(shell sed -n "s/^default_version = '\([^']*\)'.*/\1/p" pgdp.control)
PGDP_INSTALL_SCRIPT = extension/pgdp--$(EXTVERSION).sql
DATA           = $(PGDP_INSTALL_SCRIPT) $(sort $(wildcard extension/pgdp--*--*.sql))

REGRESS      = $(shell sed -n 's/^test: *//p' test/regress_schedule | tr '\n' ' ')
REGRESS_OPTS = --inputdir=. --outputdir=build/regress

PG_INCLUDE_SERVER := $(shell $(PG_CONFIG) --includedir-server)
# PostgreSQL headers as system headers so -Werror applies to our code only (pg_duckdb does the same).
PG_CPPFLAGS = -isystem $(PG_INCLUDE_SERVER) -Isrc
# -MMD -MP: the compiler writes each object's header dependencies next to it (src/*/NAME.d).
PG_CXXFLAGS = -std=c++17 -Wall -Wextra -Werror -Wno-register -Wno-missing-field-initializers -MMD -MP
SHLIB_LINK  = -lstdc++ -lm
EXTRA_CLEAN = $(OBJS:.o=.d)

# No LLVM bitcode: clang is not a build dependency.
override with_llvm = no

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

all: $(PGDP_INSTALL_SCRIPT)

$(PGDP_INSTALL_SCRIPT): extension/pgdp.sql.in scripts/install-script.sh pgdp.control
	bash scripts/install-script.sh

# The frozen install scripts of released versions (test/upgrade/), which sql/upgrade.sql installs
# and updates; scripts/test.sh installs them into the test PostgreSQL. Not part of `make install`.
UPGRADE_TEST_SCRIPTS = $(sort $(wildcard test/upgrade/pgdp--*.sql))
.PHONY: install-upgrade-test-scripts
install-upgrade-test-scripts:
	$(INSTALL_DATA) $(UPGRADE_TEST_SCRIPTS) '$(DESTDIR)$(datadir)/extension/'

# ---------------------------------------------------------------------------
# The pure C++ core compiled once, outside PGXS, for the unit tests and the benchmarks, with the
# optimisation of the extension build (-O2) and like it without -DNDEBUG: the assertions Boost
# keeps in the shipped library stay in what the benchmarks measure.
UNIT_CXX      ?= g++
CORE_CXXFLAGS  = -std=c++17 -O2 -g -Wall -Wextra -Werror -Isrc
CORE_DIR       = build/core
CORE_TEST_OBJS = $(patsubst src/core/%.cpp,$(CORE_DIR)/%.o,$(CORE_SRCS))

$(CORE_DIR)/%.o: src/core/%.cpp
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(CORE_CXXFLAGS) -MMD -MP -c -o $@ $<

# ---------------------------------------------------------------------------
# Unit tests of the pure C++ core (no PostgreSQL headers, no server).
UNIT_DIR      = build/unit
UNIT_CXXFLAGS = $(CORE_CXXFLAGS) -Itest
UNIT_SRCS    := $(sort $(wildcard test/unit/*.cpp))
UNIT_TEST_OBJS = $(patsubst test/unit/%.cpp,$(UNIT_DIR)/test/%.o,$(UNIT_SRCS))

$(UNIT_DIR)/test/%.o: test/unit/%.cpp
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) -MMD -MP -c -o $@ $<

$(UNIT_DIR)/pgdp_unit_tests: $(CORE_TEST_OBJS) $(UNIT_TEST_OBJS)
	$(UNIT_CXX) -o $@ $^ -lgtest -lgtest_main -pthread

.PHONY: unittest
unittest: $(UNIT_DIR)/pgdp_unit_tests
	cd test && ../$(UNIT_DIR)/pgdp_unit_tests --gtest_brief=1

clean: clean-unit
.PHONY: clean-unit
clean-unit:
	rm -rf build

# ---------------------------------------------------------------------------
# Google Benchmark microbenchmarks of the core (bench/*.cpp), on the same core objects.
BENCH_DIR      = build/bench
BENCH_SRCS    := $(sort $(wildcard bench/*.cpp))
BENCH_OBJS     = $(patsubst bench/%.cpp,$(BENCH_DIR)/%.o,$(BENCH_SRCS))

$(BENCH_DIR)/%.o: bench/%.cpp
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(CORE_CXXFLAGS) -MMD -MP -c -o $@ $<

$(BENCH_DIR)/pgdp_core_bench: $(CORE_TEST_OBJS) $(BENCH_OBJS)
	$(UNIT_CXX) -o $@ $^ -lbenchmark -lbenchmark_main -pthread

.PHONY: bench-core
bench-core: $(BENCH_DIR)/pgdp_core_bench
	$(BENCH_DIR)/pgdp_core_bench $(BENCH_ARGS)

# ---------------------------------------------------------------------------
# The data of the accuracy figures of docs/mechanisms.md (docs/figures/accuracy_figures.cpp), on
# the same core objects: writes docs/figures/quantile_rank_error.csv and histogram_error.csv.
FIGURES_DIR = build/figures

$(FIGURES_DIR)/accuracy_figures: docs/figures/accuracy_figures.cpp $(CORE_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(UNIT_CXX) $(CORE_CXXFLAGS) -o $@ $^

.PHONY: figures-data
figures-data: $(FIGURES_DIR)/accuracy_figures
	$(FIGURES_DIR)/accuracy_figures docs/figures

# ---------------------------------------------------------------------------
# Header dependencies: with -MMD -MP the compiler writes NAME.d next to each object, listing the
# headers it included (PostgreSQL's, given with -isystem, are left out); make reads them here. An
# object without its .d (a cached build, or one from before the .d files) cannot tell which
# headers it used, so it is rebuilt once. (PGXS marks every target .SECONDARY, so a missing .d
# cannot simply be a prerequisite: make would not rebuild for it.)
DEPENDENT_OBJS = $(OBJS) $(CORE_TEST_OBJS) $(UNIT_TEST_OBJS) $(BENCH_OBJS)
-include $(wildcard $(DEPENDENT_OBJS:.o=.d))
OBJS_WITHOUT_DEPENDENCIES = $(foreach o,$(DEPENDENT_OBJS),$(if $(wildcard $(o:.o=.d)),,$(wildcard $(o))))
ifneq ($(strip $(OBJS_WITHOUT_DEPENDENCIES)),)
$(OBJS_WITHOUT_DEPENDENCIES): rebuild-without-dependencies
endif
.PHONY: rebuild-without-dependencies

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

# test/reference/partition_selection.csv alone (seconds).
.PHONY: references-partition-selection
references-partition-selection: $(REFERENCE_DIR)/generate_references
	$(REFERENCE_DIR)/generate_references test/reference --only partition_selection
