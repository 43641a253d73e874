#!/usr/bin/env bash
# Person-level dp_histogram, dp_median, dp_quantiles and dp_count_distinct (issue 24 part 6) against
# the same per-unit cap written by hand in SQL, in one run: 10M rows, 1M privacy units (about 10
# rows each), values in [0, 100); the relation protected with rows_per_unit => 3 (each unit keeps
# at most 3 rows per group, drawn at random; dp_count_distinct: 3 distinct values).
#   pgdp        SELECT dp_histogram(v, 0, 100, 10, 1, 1e-6) FROM people
#   by hand     SELECT width_bucket(v, 0, 100, 10), count(*) FROM
#                 (SELECT v, row_number() OVER (PARTITION BY person ORDER BY random()) n FROM people) s
#               WHERE n <= 3 GROUP BY 1                                   (exact, no noise)
# and likewise percentile_disc / count(DISTINCT) over the capped rows (values). Serial and with 2
# parallel workers; each pair interleaved (pgdp, then by hand, per repetition); the median of the
# "Execution Time" of EXPLAIN (ANALYZE, TIMING OFF); the ratio pgdp / by hand.
#
#   bash bench/person_statistics.sh
#   PGDP_BENCH_ROWS=1000000 PGDP_BENCH_REPS=3 bash bench/person_statistics.sh
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
cd "$PGDP_ROOT"

ROWS="${PGDP_BENCH_ROWS:-10000000}"
REPS="${PGDP_BENCH_REPS:-5}"
UNITS=$((ROWS / 10))
work="$(mktemp -d /tmp/pgdp-person-statistics.XXXXXX)"
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
SELECT pgdp.protect('people', 'person', rows_per_unit => 3);
SQL

capped="(SELECT v, row_number() OVER (PARTITION BY person ORDER BY random()) n FROM people) s WHERE n <= 3"
capped_values="(SELECT v, row_number() OVER (PARTITION BY person ORDER BY random()) n
                FROM (SELECT DISTINCT person, v FROM people) d) s WHERE n <= 3"
LABELS=("dp_histogram, 10 bins" "dp_median" "dp_quantiles, 9 q" "dp_count_distinct")
PGDP_QUERIES=(
    "SELECT dp_histogram(v, 0, 100, 10, 1, 1e-6) FROM people"
    "SELECT dp_median(v, 0, 100, 1, 1e-6) FROM people"
    "SELECT dp_quantiles(v, 0, 100, ARRAY[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], 1, 1e-6) FROM people"
    "SELECT dp_count_distinct(v, 1, 1e-6) FROM people"
)
HAND_QUERIES=(
    "SELECT width_bucket(v, 0, 100, 10), count(*) FROM $capped GROUP BY 1"
    "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY v) FROM $capped"
    "SELECT percentile_disc(ARRAY[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]) WITHIN GROUP (ORDER BY v) FROM $capped"
    "SELECT count(DISTINCT v) FROM $capped_values"
)
execution_ms() {  # workers query
    psql_run -At -c "SET max_parallel_workers_per_gather = $1" \
        -c "EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) $2" | sed -n 's/.*"Execution Time": \([0-9.]*\).*/\1/p'
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
echo "| statistic | serial pgdp (ms) | serial by hand (ms) | ratio | 2 workers pgdp (ms) | 2 workers by hand (ms) | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for i in "${!LABELS[@]}"; do
    row="| ${LABELS[$i]}"
    for workers in 0 2; do
        ours=()
        theirs=()
        for ((r = 0; r <= REPS; r++)); do
            a="$(execution_ms "$workers" "${PGDP_QUERIES[$i]}")"
            b="$(execution_ms "$workers" "${HAND_QUERIES[$i]}")"
            [ "$r" -gt 0 ] && ours+=("$a") && theirs+=("$b")  # the first pair warms up
        done
        m_ours="$(median "${ours[@]}")"
        m_theirs="$(median "${theirs[@]}")"
        row+=" | $m_ours | $m_theirs | $(awk -v a="$m_ours" -v b="$m_theirs" 'BEGIN {printf "%.2f", a / b}')"
    done
    echo "$row |"
done
echo
echo "rows $ROWS, units $UNITS, rows_per_unit 3, median of $REPS interleaved pairs; $(psql_run -Atc 'SELECT version()' | cut -d, -f1)"
