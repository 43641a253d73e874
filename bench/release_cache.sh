#!/usr/bin/env bash
# What a dashboard refresh costs when the release cache answers it (issue 13): the latency of a
# cache hit against
#   lookup   a plain indexed lookup (SELECT ... WHERE id = $1 on the primary key), and
#   builtin  the uncharged built-in query the release replaces (sum and count of one region),
# with the release itself (a cache miss: charged, computed) for scale. Every query is a prepared
# statement (pgbench -M prepared, one client), in interleaved rounds of PGDP_BENCH_SECONDS
# seconds; each figure is the median over the rounds of pgbench's average latency.
#
#   bash bench/release_cache.sh
#   PGDP_BENCH_ROUNDS=3 PGDP_BENCH_SECONDS=3 bash bench/release_cache.sh
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
cd "$PGDP_ROOT"

ROUNDS="${PGDP_BENCH_ROUNDS:-7}"
SECONDS_PER_RUN="${PGDP_BENCH_SECONDS:-5}"
ROWS="${PGDP_BENCH_ROWS:-1000000}"
work="$(mktemp -d /tmp/pgdp-cache.XXXXXX)"
PGDP_CLEANUP_DIRS+=("$work")
cat >"$work/bench.conf" <<'CONF'
shared_preload_libraries = 'pgdp'
jit = off
fsync = off
synchronous_commit = off
full_page_writes = off
autovacuum = off
shared_buffers = 512MB
CONF
throwaway_server "$work/bench.conf"
chmod 755 "$work"
psql_run() { "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

psql_run -v rows="$ROWS" <<'SQL'
CREATE EXTENSION pgdp;
CREATE ROLE bench_viewer LOGIN;
CREATE TABLE sales (id bigint PRIMARY KEY, region int, amount int);
INSERT INTO sales SELECT g, g % 10, g % 101 FROM generate_series(1, :rows) g;
VACUUM ANALYZE sales;
GRANT SELECT ON sales TO bench_viewer;
SELECT pgdp.set_budget('bench_viewer', 1e15, 0.5, release_limit => 1000000000) IS NOT NULL;
SELECT (pgdp.set_refresh_policy('sales')).epoch AS epoch;
SQL
# The panel: a release with its interval for one region (a bind parameter), answered from the
# cache after its first run; the miss variant turns the cache off (every run released, charged).
cat >"$work/hit.sql" <<'SQL'
SELECT dp_sum_ci(amount, 0, 100, 1.0, 0, 'laplace', 0.05), dp_count(1.0) FROM sales WHERE region = 3;
SQL
cat >"$work/miss.sql" <<'SQL'
SET pgdp.release_cache = off;
SELECT dp_sum_ci(amount, 0, 100, 1.0, 0, 'laplace', 0.05), dp_count(1.0) FROM sales WHERE region = 3;
SQL
cat >"$work/lookup.sql" <<SQL
\set id random(1, $ROWS)
SELECT id, region, amount FROM sales WHERE id = :id;
SQL
cat >"$work/builtin.sql" <<'SQL'
SELECT sum(amount), count(*) FROM sales WHERE region = 3;
SQL
chmod 644 "$work"/*.sql
"$PG_BINDIR/psql" -X -q -U bench_viewer -f "$work/hit.sql" >/dev/null  # the first run stores the answer

latency_ms() {  # script [seconds]
    "$PG_BINDIR/pgbench" -n -M prepared -T "${2:-$SECONDS_PER_RUN}" -U bench_viewer -f "$1" -h "$PGHOST" -p "$PGPORT" postgres 2>/dev/null |
        sed -n 's/^latency average = \([0-9.]*\) ms$/\1/p'
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
charges() { psql_run -At -c "SELECT count(*) FROM pgdp.ledger WHERE role = 'bench_viewer'::regrole"; }

before="$(charges)"
hit=() lookup=() builtin=()
for ((round = 1; round <= ROUNDS; round++)); do
    hit+=("$(latency_ms "$work/hit.sql")")
    lookup+=("$(latency_ms "$work/lookup.sql")")
    builtin+=("$(latency_ms "$work/builtin.sql")")
    echo "round $round: cache hit ${hit[-1]} ms, indexed lookup ${lookup[-1]} ms, built-in ${builtin[-1]} ms"
done
after_hits="$(charges)"
miss="$(latency_ms "$work/miss.sql" 3)"
h="$(median "${hit[@]}")"
l="$(median "${lookup[@]}")"
b="$(median "${builtin[@]}")"
echo
echo "median over $ROUNDS rounds of ${SECONDS_PER_RUN} s, $ROWS rows, one client, prepared statements:"
printf '  %-46s %8.3f ms\n' "indexed lookup (primary key)" "$l" "built-in sum, count of one region (uncharged)" "$b" \
    "release answered from the cache" "$h" "release computed and charged (cache off)" "$miss"
awk -v h="$h" -v l="$l" -v b="$b" 'BEGIN {printf "  cache hit / indexed lookup = %.2f, cache hit / built-in = %.3f\n", h / l, h / b}'
echo "  charges made by the cache hits: $((after_hits - before)) (the first run's charge came before the rounds)"
