#!/usr/bin/env bash
# Grouped person-level releases (issue 10) against the same bounding written by hand in SQL, in one
# run: 10M rows, 1M privacy units (about 10 rows each), 100 groups, values in [0, 100). Each unit's
# rows fall in PGDP_BENCH_SPREAD (default 3) consecutive groups of its own, so a unit has rows in
# about 2.9 groups and level 1 holds ~2.9M (group, unit) rows. The protection of `people` (unit
# `person`) switches between m = max_groups_contributed in PGDP_BENCH_MS (default "1 5") inside the
# loop: m = 1 (the default; the bounding drops about 2 of a unit's 3 groups) and m = 5 (more groups
# than any unit has: the bounding drops nothing, so only its cost shows, and level 3 gets 2.9M rows).
#   pgdp selection  SELECT g, dp_count(1, 1e-6), dp_sum(v, 0, 1000, 1, 1e-6) FROM people
#                   GROUP BY g HAVING dp_groups(1, 1e-6)
#   pgdp public keys SELECT k.g, dp_count(1, 1e-6), dp_sum(v, 0, 1000, 1, 1e-6)
#                   FROM groups k LEFT JOIN people USING (g) GROUP BY k.g     (groups: declared public)
#   bounded SQL     the same bounding by hand, exact: GROUP BY g, person (per-unit sums), then
#                   row_number() OVER (PARTITION BY person ORDER BY random()) <= m, then GROUP BY g
#                   with count(*) and the sum of the clamped per-unit sums
#   two-level SQL   GROUP BY g, person then GROUP BY g (no cross-group bound)
#   count(DISTINCT) SELECT g, count(DISTINCT person), sum(v) FROM people GROUP BY g   (reference)
# Serial (max_parallel_workers_per_gather = 0) and 2 workers. Each repetition runs every query in
# turn (serial ones, then 2-worker ones), so load changes hit all of them alike; one untimed run
# warms up; the figure is the median "Execution Time" of EXPLAIN (ANALYZE, TIMING OFF). The plans
# (EXPLAIN (COSTS OFF)) are printed first. About 80 timed runs of 5-20 s each at 10M rows.
#
#   bash bench/person_grouped.sh
#   PGDP_BENCH_ROWS=1000000 PGDP_BENCH_REPS=3 bash bench/person_grouped.sh     # quick check
#   PGDP_BENCH_MS=1 bash bench/person_grouped.sh       # m = 1 only (5 queries instead of 8)
#   PGDP_BENCH_SPREAD=100 bash bench/person_grouped.sh   # groups drawn per row: ~9.5 per unit
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
cd "$PGDP_ROOT"

ROWS="${PGDP_BENCH_ROWS:-10000000}"
REPS="${PGDP_BENCH_REPS:-5}"
NGROUPS="${PGDP_BENCH_GROUPS:-100}"
SPREAD="${PGDP_BENCH_SPREAD:-3}"
MS="${PGDP_BENCH_MS:-1 5}"
UNITS=$((ROWS / 10))
work="$(mktemp -d /tmp/pgdp-person-grouped.XXXXXX)"
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

t0=$SECONDS
psql_run <<SQL
CREATE EXTENSION pgdp;
SELECT pgdp.set_budget(session_user::regrole, 1e15, 0.5, release_limit => 1000000000);
CREATE TABLE people (person int4, g int4, v int4);
SELECT setseed(0.5);
INSERT INTO people
SELECT p, (p * 37 + floor(random() * $SPREAD)::int4) % $NGROUPS, floor(random() * 100)::int4
FROM (SELECT floor(random() * $UNITS)::int4 AS p FROM generate_series(1, $ROWS)) r;
VACUUM (ANALYZE) people;
CREATE TABLE groups AS SELECT g FROM generate_series(0, $NGROUPS - 1) g;
ANALYZE groups;
SELECT pgdp.declare_public('groups');
SQL
log "loaded $ROWS rows in $((SECONDS - t0)) s"
psql_run -At <<'SQL'
SELECT format('units %s, (group, unit) pairs %s, groups per unit %s', count(DISTINCT person), count(*),
              round(count(*)::numeric / count(DISTINCT person), 2))
FROM (SELECT DISTINCT g, person FROM people) u;
SQL

# Per m (the protection changes between them, in the same loop): the two pgdp forms and the
# hand-written bounding; once: the two queries that do not depend on m.
M_LABELS=("pgdp selection" "pgdp public keys" "bounded SQL")
PLAIN_LABELS=("two-level SQL" "count(DISTINCT)")
bounded_sql() {  # m
    echo "SELECT g, count(*), sum(least(greatest(s, 0), 1000)) FROM (
            SELECT g, person, s, row_number() OVER (PARTITION BY person ORDER BY random()) AS r
            FROM (SELECT g, person, sum(v) AS s FROM people WHERE person IS NOT NULL GROUP BY g, person) u) b
          WHERE r <= $1 GROUP BY g"
}
M_QUERIES=(
    "SELECT g, dp_count(1, 1e-6), dp_sum(v, 0, 1000, 1, 1e-6) FROM people GROUP BY g HAVING dp_groups(1, 1e-6)"
    "SELECT k.g, dp_count(1, 1e-6), dp_sum(v, 0, 1000, 1, 1e-6) FROM groups k LEFT JOIN people USING (g) GROUP BY k.g"
    ""  # bounded_sql m
)
PLAIN_QUERIES=(
    "SELECT g, count(*), sum(least(greatest(s, 0), 1000)) FROM (SELECT g, person, sum(v) AS s FROM people WHERE person IS NOT NULL GROUP BY g, person) u GROUP BY g"
    "SELECT g, count(DISTINCT person), sum(v) FROM people GROUP BY g"
)
query_of() {  # m index
    if [ "$2" = 2 ]; then bounded_sql "$1"; else echo "${M_QUERIES[$2]}"; fi
}
protect() {  # m
    psql_run -At -c "SELECT 'protected: ' || relation || ' by ' || privacy_unit || ', m = ' || max_groups_contributed FROM pgdp.protect('people', 'person', $1)"
}
execution_ms() {  # workers query
    psql_run -At -c "SET max_parallel_workers_per_gather = $1" \
        -c "EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) $2" | sed -n 's/.*"Execution Time": \([0-9.]*\).*/\1/p'
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

for workers in 0 2; do
    for m in $MS; do
        protect "$m"
        for i in "${!M_LABELS[@]}"; do
            echo "---- max_parallel_workers_per_gather = $workers, m = $m: ${M_LABELS[$i]}"
            psql_run -At -c "SET max_parallel_workers_per_gather = $workers" -c "EXPLAIN (COSTS OFF) $(query_of "$m" "$i")"
        done
    done
    for i in "${!PLAIN_LABELS[@]}"; do
        echo "---- max_parallel_workers_per_gather = $workers: ${PLAIN_LABELS[$i]}"
        psql_run -At -c "SET max_parallel_workers_per_gather = $workers" -c "EXPLAIN (COSTS OFF) ${PLAIN_QUERIES[$i]}"
    done
done

execution_ms 0 "${PLAIN_QUERIES[0]}" >/dev/null  # warm-up
declare -A times
t0=$SECONDS
for ((rep = 1; rep <= REPS; rep++)); do
    for workers in 0 2; do
        for m in $MS; do
            protect "$m" >/dev/null
            for i in "${!M_LABELS[@]}"; do
                times["$workers,m$m,$i"]+="$(execution_ms "$workers" "$(query_of "$m" "$i")") "
            done
        done
        for i in "${!PLAIN_LABELS[@]}"; do
            times["$workers,plain,$i"]+="$(execution_ms "$workers" "${PLAIN_QUERIES[$i]}") "
        done
    done
    log "repetition $rep of $REPS done ($((SECONDS - t0)) s)"
done

declare -A med
for key in "${!times[@]}"; do med[$key]="$(median <<<"${times[$key]}")"; done
first_m="${MS%% *}"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {print a / b}'; }
echo
echo "| m | query | serial (ms) | serial: / bounded SQL | serial: / count(DISTINCT) | 2 workers (ms) | 2 workers: / bounded SQL | 2 workers: / count(DISTINCT) |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
row() {  # m label key reference-key
    local s="${med[0,$3]}" p="${med[2,$3]}"
    printf '| %s | %s | %.0f | %.2f | %.2f | %.0f | %.2f | %.2f |\n' "$1" "$2" "$s" "$(ratio "$s" "${med[0,$4]}")" \
        "$(ratio "$s" "${med[0,plain,1]}")" "$p" "$(ratio "$p" "${med[2,$4]}")" "$(ratio "$p" "${med[2,plain,1]}")"
}
for m in $MS; do
    for i in "${!M_LABELS[@]}"; do row "$m" "${M_LABELS[$i]}" "m$m,$i" "m$m,2"; done
done
for i in "${!PLAIN_LABELS[@]}"; do row "-" "${PLAIN_LABELS[$i]}" "plain,$i" "m$first_m,2"; done
echo
echo "(two-level SQL and count(DISTINCT) rows: ratio to the bounded SQL with m = $first_m)"
echo "all times (ms), per workers, m, query:"
for key in $(printf '%s\n' "${!times[@]}" | sort); do echo "$key: ${times[$key]}"; done
echo "rows $ROWS, units $UNITS, groups $NGROUPS, spread $SPREAD, m in {$MS}, median of $REPS, $((SECONDS - t0)) s of" \
    "timed runs; $(psql_run -Atc 'SELECT version()' | cut -d, -f1); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
