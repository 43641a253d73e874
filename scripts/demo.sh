#!/usr/bin/env bash
# pgdp's main job: install what is missing, build and install the extension, start a throwaway
# PostgreSQL 15 cluster (the embedded default), create the extension and run the demo SQL files
# listed in demo/schedule, in order.
#
#   bash scripts/demo.sh                  the whole demo
#   bash scripts/demo.sh demo/x.sql ...   only these files
#   PGDP_DSN='host=... dbname=...' bash scripts/demo.sh
#                                         use an existing server (pgdp already installed there):
#                                         no packages, no build, no throwaway cluster
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$PGDP_ROOT"

files=()
if [ "$#" -gt 0 ]; then
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
echo
log "demo finished in $((SECONDS - t0)) s"
