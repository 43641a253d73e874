#!/usr/bin/env bash
# Person-level releases (issue 10) against the same bounding written by hand in SQL, in one run:
# 10M rows, 1M privacy units (about 10 rows each), values in [0, 100):
#   pgdp       SELECT dp_sum(v, 0, 1000, 1, 1e-6), dp_count(1, 1e-6) FROM people   (protected: person)
#   two-level  SELECT sum(least(greatest(s, 0), 1000)), count(*) FROM
#              (SELECT person, sum(v) s FROM people GROUP BY person) u            (exact, no noise)
#   distinct   SELECT count(DISTINCT person) FROM people                          (reference)
# serial and with 2 parallel workers; median "Execution Time" of EXPLAIN (ANALYZE, TIMING OFF).
#
#   bash bench/person.sh
#   PGDP_BENCH_ROWS=1000000 PGDP_BENCH_REPS=5 bash bench/person.sh
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
cd "$PGDP_ROOT"

ROWS="${PGDP_BENCH_ROWS:-10000000}"
REPS="${PGDP_BENCH_REPS:-5}"
UNITS=$((ROWS / 10))
work="$(mktemp -d /tmp/pgdp-person.XXXXXX)"
PGDP_CLEANUP_DIRS+=("$work")
cat >"$work/bench.conf" <<'CONF'
shared_preload_libraries = 'pgdp'
shared_buffers = 2GB
work_mem = 512MB
jit = off
max_worker_processes = 12
max_parallel_workers = 4
fsync = off
synchronous_commit = off
full_page_writes = off
autovacuum = off
CONF
throwaway_server "$work/bench.conf"
export PGOPTIONS="${PGOPTIONS:-} -c jit=off -c parallel_setup_cost=0 -c parallel_tuple_cost=0 -c min_parallel_table_scan_size=0 -c client_min_messages=warning"
psql_run() { "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

psql_run <<SQL
CREATE EXTENSION pgdp;
SELECT pgdp.set_budget(session_user::regrole, 1e15, 0.5, release_limit => 1000000000);
CREATE TABLE people (person int4, v int4);
SELECT setseed(0.5);
INSERT INTO people SELECT floor(random() * $UNITS)::int4, floor(random() * 100)::int4 FROM generate_series(1, $ROWS);
VACUUM (ANALYZE) people;
SELECT pgdp.protect('people', 'person');
SQL

LABELS=("pgdp person-level" "two-level SQL" "count(DISTINCT)")
QUERIES=(
    "SELECT dp_sum(v, 0, 1000, 1, 1e-6), dp_count(1, 1e-6) FROM people"
    "SELECT sum(least(greatest(s, 0), 1000)), count(*) FROM (SELECT person, sum(v) s FROM people GROUP BY person) u"
    "SELECT count(DISTINCT person) FROM people"
)
median_ms() {  # workers query
    local workers="$1" query="$2" i times=()
    for ((i = 0; i <= REPS; i++)); do
        local t
        t="$(psql_run -At -c "SET max_parallel_workers_per_gather = $workers" \
            -c "EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) $query" | sed -n 's/.*"Execution Time": \([0-9.]*\).*/\1/p')"
        [ "$i" -gt 0 ] && times+=("$t")  # the first run warms up
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
echo "| query | serial (ms) | ratio to two-level | 2 workers (ms) | ratio to two-level |"
echo "|---|---:|---:|---:|---:|"
declare -A serial parallel
for i in "${!QUERIES[@]}"; do
    serial[$i]="$(median_ms 0 "${QUERIES[$i]}")"
    parallel[$i]="$(median_ms 2 "${QUERIES[$i]}")"
done
for i in "${!QUERIES[@]}"; do
    printf '| %s | %s | %.2f | %s | %.2f |\n' "${LABELS[$i]}" "${serial[$i]}" \
        "$(awk -v a="${serial[$i]}" -v b="${serial[1]}" 'BEGIN {print a / b}')" "${parallel[$i]}" \
        "$(awk -v a="${parallel[$i]}" -v b="${parallel[1]}" 'BEGIN {print a / b}')"
done
echo
echo "rows $ROWS, units $UNITS, median of $REPS; $(psql_run -Atc 'SELECT version()' | cut -d, -f1)"
