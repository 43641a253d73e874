#!/usr/bin/env bash
# pgdp's main job: install what is missing, build and install the extension, start a throwaway
# PostgreSQL cluster (the major scripts/common.sh chooses), create the extension and run the demo SQL files
# listed in demo/schedule, in order; then the dashboard (demo/dashboard: a node-postgres client
# refreshing 5 panels 100 times in each of two data epochs, the charges counted, the page written
# to build/demo/dashboard.html), when node and node-postgres are available (scripts/node.sh).
#
#   bash scripts/demo.sh                  the whole demo
#   bash scripts/demo.sh demo/x.sql ...   only these files
#   PGDP_DSN='host=... dbname=...' bash scripts/demo.sh
#                                         use an existing server (pgdp already installed there):
#                                         no packages, no build, no throwaway cluster (and no
#                                         dashboard: it creates the table staff and a role)
#   PGDP_DASHBOARD=0 bash scripts/demo.sh without the dashboard part
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=scripts/node.sh
source "$(dirname "${BASH_SOURCE[0]}")/node.sh"
cd "$PGDP_ROOT"

files=()
dashboard_wanted=1
if [ "$#" -gt 0 ]; then
    dashboard_wanted=0
    files=("$@")
else
    while read -r f; do files+=("demo/$f"); done < <(sed -n 's/^demo: *//p' demo/schedule)
fi
for f in "${files[@]}"; do [ -r "$f" ] || die "demo file $f not found"; done
[ "${#files[@]}" -gt 0 ] || die "no demo files (demo/schedule is empty)"

t0=$SECONDS
if [ -n "${PGDP_DSN:-}" ]; then
    command -v psql >/dev/null 2>&1 || die "psql not found (apt-get install postgresql-client)"
    log "using the existing server of PGDP_DSN"
    psql_cmd=(psql -X -v ON_ERROR_STOP=1 "$PGDP_DSN")
else
    throwaway_server "$PGDP_ROOT/demo/cluster.conf"   # defaults + shared_preload_libraries
    psql_cmd=("$PG_BINDIR/psql" -X -v ON_ERROR_STOP=1)
fi

"${psql_cmd[@]}" -q -c 'CREATE EXTENSION IF NOT EXISTS pgdp' \
    || { print_server_log; die "CREATE EXTENSION pgdp failed"; }
log "pgdp $("${psql_cmd[@]}" -Atc "SELECT extversion FROM pg_extension WHERE extname = 'pgdp'") ready; running ${files[*]}"
echo
for f in "${files[@]}"; do
    if ! "${psql_cmd[@]}" -f "$f"; then
        print_server_log
        die "demo file $f failed"
    fi
done

# The dashboard: demo/dashboard/run.js as the role dashboard (demo/dashboard/setup.sql), 100
# refreshes of its 5 panels, pgdp.refresh('staff'), 100 more. Each panel is one release per data
# epoch: 5 charges per epoch, whatever the number of refreshes.
dashboard_charges() {
    "${psql_cmd[@]}" -Atc "SELECT count(*) FROM pgdp.ledger WHERE role = 'dashboard'::regrole"
}
run_dashboard() {
    local html="$PGDP_ROOT/build/demo/dashboard.html" c0 c1 c2 t1
    echo
    echo '######## The dashboard: the release cache seen from a node-postgres client (demo/dashboard) ########'
    echo "   5 panels over a permanent copy of staff, each one prepared statement with bind parameters"
    echo "   and one *_ci release, run through a pg.Pool of 4 connections as the role dashboard."
    "${psql_cmd[@]}" -q -f demo/dashboard/setup.sql || { print_server_log; die "demo/dashboard/setup.sql failed"; }
    c0="$(dashboard_charges)"
    echo
    echo "== Data epoch 1: 100 refreshes (expected: 5 charges, one per panel; identical rows every time) =="
    PGUSER=dashboard node demo/dashboard/run.js --refreshes 100 \
        || { print_server_log; die "the dashboard failed (epoch 1)"; }
    c1="$(dashboard_charges)"
    echo
    echo "== pgdp.refresh('staff') as the admin: a new data epoch, then 100 refreshes (expected: 5 new charges) =="
    "${psql_cmd[@]}" -q -o /dev/null -c "SELECT pgdp.refresh('staff')"
    t1="$(date -u '+%H:%M:%S')"
    mkdir -p "$(dirname "$html")"
    PGUSER=dashboard node demo/dashboard/run.js --refreshes 100 --html "$html" \
        --note "Data epoch 1: 100 refreshes, $((c1 - c0)) releases charged. At $t1 UTC the admin ran pgdp.refresh('staff'): a new epoch, new releases." \
        || { print_server_log; die "the dashboard failed (epoch 2)"; }
    c2="$(dashboard_charges)"
    echo
    log "dashboard: epoch 1: $((c1 - c0)) charges for 100 refreshes, epoch 2: $((c2 - c1)) charges for 100 refreshes (pgdp.ledger, role dashboard)"
    log "dashboard: page written to $html"
}

if [ "$dashboard_wanted" = 1 ]; then
    if [ "${PGDP_DASHBOARD:-1}" = 0 ]; then
        log "dashboard part skipped: PGDP_DASHBOARD=0"
    elif [ -n "${PGDP_DSN:-}" ]; then
        log "dashboard part skipped: PGDP_DSN is set (the dashboard creates the table staff and the role dashboard: throwaway cluster only)"
    elif ensure_node_pg; then
        log "dashboard: $NODE_PG_STATUS"
        run_dashboard
    else
        log "dashboard part SKIPPED: $NODE_PG_STATUS"
    fi
fi

echo
log "demo finished in $((SECONDS - t0)) s"
