#!/usr/bin/env bash
# What DP-only access (issue 11) adds to a release's planning and start: the grant lookup, the
# leakproof check of the level's expressions and the executor-start re-check. The same release,
# planned afresh each time (pgbench -M simple), over a small protected table, by
#   owner-read  a role with SELECT on the table (person-level rewrite, no access checks)
#   dp-only     a role with DP-only access and no SELECT (the checks)
# in interleaved rounds; reports each role's median latency over the rounds and the difference,
# and, for scale, a plain built-in query (SELECT count(*) FROM the table) by the SELECT role.
#
#   bash bench/dp_access.sh
#   PGDP_BENCH_ROUNDS=3 PGDP_BENCH_SECONDS=3 bash bench/dp_access.sh
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
cd "$PGDP_ROOT"

ROUNDS="${PGDP_BENCH_ROUNDS:-7}"
SECONDS_PER_RUN="${PGDP_BENCH_SECONDS:-5}"
work="$(mktemp -d /tmp/pgdp-access.XXXXXX)"
PGDP_CLEANUP_DIRS+=("$work")
cat >"$work/bench.conf" <<'CONF'
shared_preload_libraries = 'pgdp'
jit = off
fsync = off
synchronous_commit = off
full_page_writes = off
autovacuum = off
CONF
throwaway_server "$work/bench.conf"
psql_run() { "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

psql_run <<'SQL'
CREATE EXTENSION pgdp;
CREATE ROLE bench_reader LOGIN;
CREATE ROLE bench_analyst LOGIN;
CREATE TABLE sales (customer int, region text, amount int);
INSERT INTO sales SELECT g % 10, 'r' || (g % 3), g % 50 FROM generate_series(1, 100) g;
VACUUM ANALYZE sales;
GRANT SELECT ON sales TO bench_reader;
SELECT pgdp.protect('sales', 'customer');
SELECT pgdp.grant_access('sales', 'bench_analyst');
SELECT pgdp.set_budget('bench_reader', 1e15, 0.5, release_limit => 1000000000);
SELECT pgdp.set_budget('bench_analyst', 1e15, 0.5, release_limit => 1000000000);
SQL
echo "SELECT dp_count(1.0), dp_sum(amount, 0, 100, 1.0) FROM sales WHERE amount > 3 AND region = 'r1';" >"$work/release.sql"
echo "SELECT count(*), sum(amount) FROM sales WHERE amount > 3 AND region = 'r1';" >"$work/builtin.sql"

latency_ms() {  # role script
    "$PG_BINDIR/pgbench" -n -M simple -T "$SECONDS_PER_RUN" -U "$1" -f "$2" -h "$PGHOST" -p "$PGPORT" postgres 2>/dev/null |
        sed -n 's/^latency average = \([0-9.]*\) ms$/\1/p'
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

reader=() analyst=() builtin=()
for ((round = 1; round <= ROUNDS; round++)); do
    reader+=("$(latency_ms bench_reader "$work/release.sql")")
    analyst+=("$(latency_ms bench_analyst "$work/release.sql")")
    builtin+=("$(latency_ms bench_reader "$work/builtin.sql")")
    echo "round $round: owner-read ${reader[-1]} ms, dp-only ${analyst[-1]} ms, built-in ${builtin[-1]} ms"
done
r="$(median "${reader[@]}")"
a="$(median "${analyst[@]}")"
b="$(median "${builtin[@]}")"
echo
echo "median latency over $ROUNDS rounds of ${SECONDS_PER_RUN} s (planning + start + run + charge):"
printf '  %-34s %8.3f ms\n' "built-in count(*), sum() (reader)" "$b" "pgdp release, role with SELECT" "$r" \
    "pgdp release, DP-only access" "$a"
awk -v a="$a" -v r="$r" 'BEGIN {printf "  DP-only access adds %.3f ms per release (ratio %.3f)\n", a - r, a / r}'
