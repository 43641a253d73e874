#!/usr/bin/env bash
# All of pgdp's tests: install what is missing, check the regress schedule, build, run the C++
# unit tests (GoogleTest), install the extension, run pg_regress against a throwaway cluster
# configured by test/regress.conf, then make Citus available (scripts/citus.sh: an installed Citus
# 12.1, or a cached build of the vendored tarball) and run the TAP tests in test/t/ (if any), with
# PGDP_CITUS=1, or PGDP_CITUS=0 and PGDP_CITUS_REASON when Citus cannot run here (likewise node and
# node-postgres for the dashboard client's test: scripts/node.sh, PGDP_NODE_PG), and last
# PostgreSQL's own regression suite with and without pgdp (scripts/postgres-regress.sh).
#
# Ends with one line `pgdp: N passed, N failed, N skipped` (GoogleTest tests + pg_regress tests +
# TAP test files; a step that cannot run at all counts as one failure; a TAP file that skips all
# its tests is skipped, not passed, and its reason is printed) and exits non-zero on any failure.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=scripts/citus.sh
source "$(dirname "${BASH_SOURCE[0]}")/citus.sh"
# shellcheck source=scripts/node.sh
source "$(dirname "${BASH_SOURCE[0]}")/node.sh"
cd "$PGDP_ROOT"

PASSED=0
FAILED=0
FAILED_STEPS=()
SKIPPED=0
SKIPPED_STEPS=()
LOGDIR="$PGDP_ROOT/build/test-logs"
T_START=$SECONDS
# Safety nets so that a hang fails the run instead of eating CI's 90 minutes (seconds).
UNIT_TIMEOUT="${PGDP_UNIT_TIMEOUT:-1200}"        # build of the unit tests + run
REGRESS_TIMEOUT="${PGDP_REGRESS_TIMEOUT:-1200}"  # whole pg_regress run
TAP_TIMEOUT="${PGDP_TAP_TIMEOUT:-600}"           # each TAP file

step_failed() { FAILED=$((FAILED + ${2:-1})); FAILED_STEPS+=("$1"); }
step_skipped() { SKIPPED=$((SKIPPED + 1)); SKIPPED_STEPS+=("$1"); }

summary() {
    echo
    if [ "${#FAILED_STEPS[@]}" -gt 0 ]; then
        echo "failed: ${FAILED_STEPS[*]}"
    fi
    local skipped
    for skipped in "${SKIPPED_STEPS[@]}"; do echo "skipped: $skipped"; done
    echo "total time $((SECONDS - T_START)) s"
    echo "pgdp: $PASSED passed, $FAILED failed, $SKIPPED skipped"
    if [ "$FAILED" -gt 0 ]; then exit 1; fi
    exit 0
}

section() { printf '\n==== %s ====\n' "$*"; }

# ---------------------------------------------------------------------------
section "dependencies"
ensure_deps
check_toolchain
mkdir -p "$LOGDIR"

section "schedule check"
bash scripts/schedule-check.sh || step_failed "schedule-check"

section "format check"
bash scripts/format-check.sh || step_failed "format-check"

section "install script check"
# extension/pgdp--VERSION.sql is generated and checked in: it must be what the generator writes,
# and its aggregates must be the rows of kAggregates (src/pg/calls/aggregate_identity.hpp): names,
# final functions' C symbols, argument counts.
bash scripts/install-script.sh --check || step_failed "install-script-check"

section "build"
t0=$SECONDS
if ! build_extension; then
    step_failed "build"
    summary
fi
log "build: $((SECONDS - t0)) s"

# ---------------------------------------------------------------------------
section "unit tests (GoogleTest)"
t0=$SECONDS
unit_log="$LOGDIR/unittest.log"
rc=0
timeout -k 10 "$UNIT_TIMEOUT" make -j"$MAKE_JOBS" PG_CONFIG="$PG_CONFIG" unittest 2>&1 | tee "$unit_log" || rc=$?
if [ "$rc" -eq 124 ]; then echo "unit tests: timed out after $UNIT_TIMEOUT s"; fi
# --gtest_brief=1 prints no list of failures: failed = ran - passed.
unit_ran="$(sed -n 's/^\[==========\] \([0-9]\+\) tests\? from .* ran\..*/\1/p' "$unit_log" | tail -n 1)"
unit_pass="$(sed -n 's/^\[  PASSED  \] \([0-9]\+\) tests\?\..*/\1/p' "$unit_log" | tail -n 1)"
unit_pass="${unit_pass:-0}"
unit_fail=0
if [ -n "$unit_ran" ]; then unit_fail=$((unit_ran - unit_pass)); fi
PASSED=$((PASSED + unit_pass))
if [ "$unit_fail" -gt 0 ]; then
    step_failed "unittest" "$unit_fail"
elif [ "$rc" -ne 0 ] || [ -z "$unit_ran" ]; then
    # Did not build, or crashed before GoogleTest could count.
    step_failed "unittest (exit $rc)"
fi
log "unit tests: $unit_pass passed, $unit_fail failed, $((SECONDS - t0)) s"

# ---------------------------------------------------------------------------
section "install"
if ! install_extension; then
    step_failed "install"
    summary
fi
# The frozen install scripts of released versions, which sql/upgrade.sql installs and updates.
if ! as_root make -C "$PGDP_ROOT" PG_CONFIG="$PG_CONFIG" install-upgrade-test-scripts >/dev/null; then
    step_failed "install-upgrade-test-scripts"
fi

section "pg_regress"
regress_tests="$(sed -n 's/^test: *//p' test/regress_schedule | tr -s ' \t\n' ' ' | sed 's/^ *//; s/ *$//')"
if [ -z "$regress_tests" ]; then
    log "pg_regress: test/regress_schedule lists no test, skipped"
else
    t0=$SECONDS
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    start_cluster "$PGDP_ROOT/test/regress.conf"
    outdir="$PGDP_ROOT/build/regress"
    rm -rf "$outdir"
    mkdir -p "$outdir"
    regress_log="$LOGDIR/regress.log"
    rc=0
    timeout -k 10 "$REGRESS_TIMEOUT" make PG_CONFIG="$PG_CONFIG" installcheck \
        REGRESS_OPTS="--inputdir=. --outputdir=$outdir" 2>&1 | tee "$regress_log" || rc=$?
    if [ "$rc" -eq 124 ]; then echo "pg_regress: timed out after $REGRESS_TIMEOUT s"; fi
    # "All N tests passed." or "M of N tests failed." (", K of these failures ignored"); PostgreSQL
    # 16+ prefixes them with "# " (TAP output).
    all_pass="$(sed -n 's/^[# ]*All \([0-9]\+\) tests\? passed\..*/\1/p' "$regress_log" | tail -n 1)"
    ignored="$(sed -n 's/^[# ]*\([0-9]\+\) of \([0-9]\+\) tests\? passed, .*ignored.*/\1/p' "$regress_log" | tail -n 1)"
    all_pass="${all_pass:-$ignored}"
    some_fail="$(sed -n 's/^[# ]*\([0-9]\+\) of \([0-9]\+\) tests\? failed.*/\1 \2/p' "$regress_log" | tail -n 1)"
    if [ -n "$all_pass" ] && [ "$rc" -eq 0 ]; then
        PASSED=$((PASSED + all_pass))
    elif [ -n "$some_fail" ]; then
        read -r nf nt <<<"$some_fail"
        PASSED=$((PASSED + nt - nf))
        step_failed "pg_regress" "$nf"
    else
        # pg_regress stopped early (e.g. an expected file is missing): count what did pass.
        nok="$(grep -cE '^(test| )? +[^ ]+ +\.\.\. ok|^ok [0-9]+ ' "$regress_log" || true)"
        PASSED=$((PASSED + nok))
        step_failed "pg_regress (exit $rc, no summary)"
    fi
    if [ -s "$outdir/regression.diffs" ]; then
        echo "---- $outdir/regression.diffs (first 1000 lines) ----"
        head -n 1000 "$outdir/regression.diffs"
        echo "---- end of regression.diffs ----"
    fi
    if [ "$rc" -ne 0 ]; then print_server_log; fi
    stop_cluster
    log "pg_regress: $((SECONDS - t0)) s"
fi

# ---------------------------------------------------------------------------
section "citus"
# For the TAP tests on a Citus cluster: no Citus and no tarball is a skip; a tarball that cannot
# be used (checksum, build) is a failure.
t0=$SECONDS
citus_rc=0
ensure_citus || citus_rc=$?
PGDP_CITUS=0
PGDP_CITUS_REASON="$CITUS_STATUS"
case "$citus_rc" in
    0) PGDP_CITUS=1 ;;
    1) ;;
    *) step_failed "citus" ;;
esac
export PGDP_CITUS PGDP_CITUS_REASON
log "citus: PGDP_CITUS=$PGDP_CITUS ($CITUS_STATUS), $((SECONDS - t0)) s"

# ---------------------------------------------------------------------------
section "node"
# For the TAP test of the dashboard client (010): node and node-postgres, installed into build/node
# (scripts/node.sh); when they cannot be had here, that test is skipped with this reason.
t0=$SECONDS
PGDP_NODE_PG=0
if ensure_node_pg; then PGDP_NODE_PG=1; fi
PGDP_NODE_PG_REASON="$NODE_PG_STATUS"
export PGDP_NODE_PG PGDP_NODE_PG_REASON
log "node: PGDP_NODE_PG=$PGDP_NODE_PG ($NODE_PG_STATUS), $((SECONDS - t0)) s"

# ---------------------------------------------------------------------------
section "TAP tests"
shopt -s nullglob
tap_files=(test/t/*.pl)
shopt -u nullglob
if [ "${#tap_files[@]}" -eq 0 ]; then
    log "TAP: no test/t/*.pl, skipped"
else
    t0=$SECONDS
    setup_run_user
    # The tests run as the unprivileged user (their clusters cannot run as root), from a copy of
    # test/t in a private temp dir that user owns; PGDP_SRCDIR points back at the repository.
    taproot="$(mktemp -d /tmp/pgdp-tap.XXXXXX)"
    PGDP_CLEANUP_DIRS+=("$taproot")
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    cp -r test/t "$taproot/t"
    mkdir -p "$taproot/tmp_check"
    is_root && chown -R "$RUN_USER:" "$taproot"
    pgxs_dir="$(dirname "$("$PG_CONFIG" --pgxs)")/.."
    tap_perl="$(cd "$pgxs_dir" && pwd)/test/perl"
    pg_regress_bin="$(cd "$pgxs_dir" && pwd)/test/regress/pg_regress"
    for f in "${tap_files[@]}"; do
        name="$(basename "$f")"
        echo "-- $name"
        prove_out="$taproot/prove-$name.out"
        rc=0
        (cd "$taproot" && RUN_CWD="$taproot" as_run_user env TESTDIR="$taproot" PATH="$PG_BINDIR:$PATH" \
            PG_REGRESS="$pg_regress_bin" PGDP_SRCDIR="$PGDP_ROOT" \
            PGDP_CITUS="$PGDP_CITUS" PGDP_CITUS_REASON="$PGDP_CITUS_REASON" \
            PGDP_NODE_PG="$PGDP_NODE_PG" PGDP_NODE_PG_REASON="$PGDP_NODE_PG_REASON" \
            NODE_PATH="${NODE_PATH:-}" \
            timeout -k 10 "$TAP_TIMEOUT" prove -I "$tap_perl" -I "$taproot/t" "t/$name") 2>&1 |
            tee "$prove_out" || rc=$?
        # prove says "t/NAME .. skipped: REASON" for a file that planned skip_all (and exits 0).
        skip_reason="$(sed -n "s|^t/$name \.\.* skipped: *||p" "$prove_out")"
        if [ "$rc" -eq 0 ] && [ -n "$skip_reason" ]; then
            step_skipped "tap:$name ($skip_reason)"
        elif [ "$rc" -eq 0 ]; then
            PASSED=$((PASSED + 1))
        else
            step_failed "tap:$name"
            # The TAP logs: tmp_check/log up to PostgreSQL 17, log/ from 18.
            l="$taproot/tmp_check/log/regress_log_${name%.pl}"
            [ -f "$l" ] || l="$taproot/log/regress_log_${name%.pl}"
            if [ -f "$l" ]; then echo "---- $l (last 200 lines) ----"; tail -n 200 "$l"; fi
        fi
    done
    # Keep the logs next to the others.
    rm -rf "$LOGDIR/tap"
    cp -r "$taproot/tmp_check/log" "$LOGDIR/tap" 2>/dev/null || cp -r "$taproot/log" "$LOGDIR/tap" 2>/dev/null || true
    rm -rf "$taproot"
    log "TAP: $((SECONDS - t0)) s"
fi

# PostgreSQL's own regression suite without pgdp, with pgdp preloaded, and with the extension
# installed in the regression database: no result file may differ but the allow-listed catalog
# listings (scripts/postgres-regress.sh; docs/privacy.md "Inert where unused"). One test.
section "PostgreSQL's regression suite with and without pgdp"
t0=$SECONDS
if timeout "${PGDP_POSTGRES_REGRESS_TIMEOUT:-1800}" bash scripts/postgres-regress.sh; then
    PASSED=$((PASSED + 1))
else
    step_failed "postgres-regress"
fi
log "PostgreSQL's regression suite: $((SECONDS - t0)) s"

summary
