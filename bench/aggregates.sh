#!/usr/bin/env bash
# dp_sum, dp_mean, dp_variance (also with NULL bounds, estimated), dp_count, dp_histogram, the
# quantiles (also with NULL bounds) and dp_count_distinct
# against PostgreSQL's sum, avg, count(*),
# var_pop and a width_bucket GROUP BY, serial and with two
# parallel workers, plus hash-aggregate memory per group. One run does everything:
# install what is missing, build and install pgdp, start a throwaway PostgreSQL cluster tuned
# for the benchmark (scripts/common.sh, as scripts/demo.sh does), load the table, VACUUM ANALYZE,
# time each query with EXPLAIN (ANALYZE, TIMING OFF) and print Markdown tables.
#
#   bash bench/aggregates.sh
#   PGDP_BENCH_ROWS=1000000 bash bench/aggregates.sh       fewer rows (default 10 000 000)
#   PGDP_BENCH_REPS=9 bash bench/aggregates.sh             timed repetitions per query (default 7)
#   PGDP_DSN='host=... dbname=...' bash bench/aggregates.sh
#       use an existing server where pgdp 0.2 is installed (no packages, no build, no throwaway
#       cluster). Its server settings (shared_buffers, ...) are left alone; the session settings
#       below are applied per connection. The table pgdp_bench_agg is created there and dropped
#       at the end (PGDP_BENCH_KEEP=1 keeps it).
#
# Timing: each query runs once untimed (warm-up), then PGDP_BENCH_REPS times, alternating ours
# and the built-in, all in one session per mode; the figure is the median "Execution Time" of
# EXPLAIN (ANALYZE, TIMING OFF) (per-node row counting only; no per-row clock reads).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
cd "$PGDP_ROOT"

ROWS="${PGDP_BENCH_ROWS:-10000000}"
REPS="${PGDP_BENCH_REPS:-7}"
[[ "$ROWS" =~ ^[0-9]+$ ]] && [ "$ROWS" -ge 100000 ] || die "PGDP_BENCH_ROWS must be an integer >= 100000"
[[ "$REPS" =~ ^[0-9]+$ ]] && [ "$REPS" -ge 1 ] || die "PGDP_BENCH_REPS must be a positive integer"
TABLE=pgdp_bench_agg

# Server settings of the throwaway cluster (2-core, 24 GB machine): the table (~0.6 GB at 10M
# rows) stays in shared_buffers, hash aggregates never spill, no JIT, no checkpoint or autovacuum
# during the measurements. pgdp is preloaded: every release is charged to the ledger (0.3), and
# that cost is part of what is measured.
SERVER_CONF='shared_preload_libraries = '"'"'pgdp'"'"'
shared_buffers = 2GB
work_mem = 256MB
maintenance_work_mem = 1GB
effective_cache_size = 16GB
jit = off
max_worker_processes = 12
max_parallel_workers = 4
max_parallel_workers_per_gather = 2
max_wal_size = 16GB
checkpoint_timeout = 1h
autovacuum = off
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = minimal
max_wal_senders = 0'

# Session settings, applied to every connection (also with PGDP_DSN). parallel_*_cost = 0 and a
# small min_parallel_table_scan_size make the planner pick the parallel plan whenever it may;
# max_parallel_workers_per_gather is set per mode below.
export PGOPTIONS="${PGOPTIONS:-} -c jit=off -c work_mem=256MB -c parallel_setup_cost=0 -c parallel_tuple_cost=0 -c min_parallel_table_scan_size=0 -c client_min_messages=warning"

t0=$SECONDS
work="$(mktemp -d /tmp/pgdp-bench.XXXXXX)"   # query scripts, outputs, server settings
if [ -n "${PGDP_DSN:-}" ]; then
    command -v psql >/dev/null 2>&1 || die "psql not found (apt-get install postgresql-client)"
    log "using the existing server of PGDP_DSN"
    psql_cmd=(psql -X -q -v ON_ERROR_STOP=1 "$PGDP_DSN")
    dsn_cleanup() {
        local rc=$?
        [ "${PGDP_BENCH_KEEP:-0}" = 1 ] || "${psql_cmd[@]}" -c "DROP TABLE IF EXISTS $TABLE" >/dev/null 2>&1 || true
        rm -rf "$work"
        exit "$rc"
    }
    trap dsn_cleanup EXIT
    trap 'exit 130' INT TERM
else
    PGDP_CLEANUP_DIRS+=("$work")
    printf '%s\n' "$SERVER_CONF" >"$work/bench.conf"
    throwaway_server "$work/bench.conf"
    psql_cmd=("$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1)
fi

psql_run() { "${psql_cmd[@]}" "$@"; }
fail() { [ -z "${PGDP_DSN:-}" ] && print_server_log; die "$*"; }

psql_run -c 'CREATE EXTENSION IF NOT EXISTS pgdp' || fail "CREATE EXTENSION pgdp failed"
[ "$(psql_run -Atc "SELECT to_regprocedure('dp_sum(float8, float8, float8, float8, float8)') IS NOT NULL")" = t ] \
    || die "dp_sum not found: pgdp is older than 0.2 there (ALTER EXTENSION pgdp UPDATE)"
[ "$(psql_run -Atc "SELECT to_regclass('pgdp.budgets') IS NOT NULL AND pgdp.ledger_ready()")" = t ] \
    || die "releases cannot be charged there: pgdp 0.3 and shared_preload_libraries = 'pgdp' are needed"
# Every release is charged to the session user: give it a budget if it has none (needs an admin).
if [ "$(psql_run -Atc "SELECT count(*) FROM pgdp.my_budget")" = 0 ]; then
    psql_run -c "SELECT pgdp.set_budget(session_user::regrole, 1e15, 0.5, release_limit => 1000000000)" >/dev/null \
        || die "the benchmark's role has no budget and could not get one (run as a pgdp admin)"
fi

# ---------------------------------------------------------------------------------------------
# Machine and server.
cpu_model="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
mem_gb="$(awk '/^MemTotal/ {printf "%.0f", $2 / 1048576}' /proc/meminfo 2>/dev/null || echo '?')"
echo "## machine"
echo
echo "- $(nproc) CPUs (${cpu_model:-unknown}), ${mem_gb} GB RAM, $(uname -sr)"
echo "- $(psql_run -Atc 'SELECT version()')"
echo "- pgdp $(psql_run -Atc "SELECT extversion FROM pg_extension WHERE extname = 'pgdp'"), rows $ROWS, $REPS timed repetitions (median reported)"
echo "- server: $(psql_run -Atc "SELECT string_agg(name || '=' || setting || coalesce(unit, ''), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'work_mem', 'hash_mem_multiplier', 'jit', 'max_worker_processes', 'max_parallel_workers', 'parallel_setup_cost', 'parallel_tuple_cost')")"
echo

# ---------------------------------------------------------------------------------------------
# The table: float8 and int8 values spread over [-50, 1050) (about 9 % of them clamped by the
# bounds [0, 1000]), group keys with 10 (i % 10), 1 000, 100 000 and 1 000 000 values drawn at
# random (at 10M rows nearly all of them occur).
log "loading $ROWS rows into $TABLE"
t_load=$SECONDS
psql_run <<SQL || fail "loading the table failed"
DROP TABLE IF EXISTS $TABLE;
CREATE TABLE $TABLE (g10 int4 NOT NULL, g1000 int4 NOT NULL, g100k int4 NOT NULL, g1m int4 NOT NULL,
                     f8 float8 NOT NULL, i8 int8 NOT NULL);
SELECT setseed(0.25) AS seed \gset
INSERT INTO $TABLE
SELECT i % 10, floor(random() * 1000)::int4, floor(random() * 100000)::int4, floor(random() * 1000000)::int4,
       random() * 1100 - 50, floor(random() * 1100)::int8 - 50
FROM generate_series(1, $ROWS) AS i;
VACUUM (ANALYZE) $TABLE;
SQL
log "loaded and vacuumed in $((SECONDS - t_load)) s ($(psql_run -Atc "SELECT pg_size_pretty(pg_table_size('$TABLE'))"))"

# ---------------------------------------------------------------------------------------------
# The pairs: label | ours | built-in (select lists / whole queries over $TABLE).
P='0, 1000, 1, 1e-6'
LABELS=(
    "sum float8"
    "sum int8"
    "mean float8"
    "mean int8"
    "count"
    "sum float8 GROUP BY 1000 groups"
    "variance float8"
    "histogram float8, 10 bins"
    "9 quantiles float8 (vs one percentile_cont)"
    "distinct int8 (about 1100 values)"
    "sum float8, NULL bounds (estimated)"
    "mean float8, NULL bounds (estimated)"
    "sum float8 GROUP BY 1000 groups, NULL bounds"
    "variance float8, NULL bounds (estimated)"
    "9 quantiles float8, NULL bounds (vs one percentile_cont)"
)
OURS=(
    "SELECT dp_sum(f8, $P) FROM $TABLE"
    "SELECT dp_sum(i8, $P) FROM $TABLE"
    "SELECT dp_mean(f8, $P) FROM $TABLE"
    "SELECT dp_mean(i8, $P) FROM $TABLE"
    "SELECT dp_count(1, 1e-6) FROM $TABLE"
    "SELECT g1000, dp_sum(f8, $P) FROM $TABLE GROUP BY g1000"
    "SELECT dp_variance(f8, $P) FROM $TABLE"
    "SELECT dp_histogram(f8, 0, 1000, 10, 1, 1e-6) FROM $TABLE"
    "SELECT dp_quantiles(f8, 0, 1000, ARRAY[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], 1) FROM $TABLE"
    "SELECT dp_count_distinct(i8, 1) FROM $TABLE"
    "SELECT dp_sum(f8, NULL, NULL, 1, 1e-6) FROM $TABLE"
    "SELECT dp_mean(f8, NULL, NULL, 1, 1e-6) FROM $TABLE"
    "SELECT g1000, dp_sum(f8, NULL, NULL, 1, 1e-6) FROM $TABLE GROUP BY g1000"
    "SELECT dp_variance(f8, NULL, NULL, 1, 1e-6) FROM $TABLE"
    "SELECT dp_quantiles(f8, NULL, NULL, ARRAY[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], 1) FROM $TABLE"
)
BUILTIN=(
    "SELECT sum(f8) FROM $TABLE"
    "SELECT sum(i8) FROM $TABLE"
    "SELECT avg(f8) FROM $TABLE"
    "SELECT avg(i8) FROM $TABLE"
    "SELECT count(*) FROM $TABLE"
    "SELECT g1000, sum(f8) FROM $TABLE GROUP BY g1000"
    "SELECT var_pop(f8) FROM $TABLE"
    "SELECT width_bucket(f8, 0, 1000, 10), count(*) FROM $TABLE GROUP BY 1"
    "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY f8) FROM $TABLE"
    "SELECT count(DISTINCT i8) FROM $TABLE"
    "SELECT sum(f8) FROM $TABLE"
    "SELECT avg(f8) FROM $TABLE"
    "SELECT g1000, sum(f8) FROM $TABLE GROUP BY g1000"
    "SELECT var_pop(f8) FROM $TABLE"
    "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY f8) FROM $TABLE"
)
SHOWN_OURS=(
    "dp_sum(f8, $P)"
    "dp_sum(i8, $P)"
    "dp_mean(f8, $P)"
    "dp_mean(i8, $P)"
    "dp_count(1, 1e-6)"
    "dp_sum(f8, $P) GROUP BY g1000"
    "dp_variance(f8, $P)"
    "dp_histogram(f8, 0, 1000, 10, 1, 1e-6)"
    "dp_quantiles(f8, 0, 1000, ARRAY[0.1, ..., 0.9], 1)"
    "dp_count_distinct(i8, 1)"
    "dp_sum(f8, NULL, NULL, 1, 1e-6)"
    "dp_mean(f8, NULL, NULL, 1, 1e-6)"
    "dp_sum(f8, NULL, NULL, 1, 1e-6) GROUP BY g1000"
    "dp_variance(f8, NULL, NULL, 1, 1e-6)"
    "dp_quantiles(f8, NULL, NULL, ARRAY[0.1, ..., 0.9], 1)"
)
SHOWN_BUILTIN=("sum(f8)" "sum(i8)" "avg(f8)" "avg(i8)" "count(*)" "sum(f8) GROUP BY g1000" "var_pop(f8)"
               "width_bucket(f8, 0, 1000, 10), count(*) GROUP BY 1" "percentile_cont(0.5) WITHIN GROUP (ORDER BY f8)"
               "count(DISTINCT i8)" "sum(f8)" "avg(f8)" "sum(f8) GROUP BY g1000" "var_pop(f8)"
               "percentile_cont(0.5) WITHIN GROUP (ORDER BY f8)")


# Median of numbers on stdin.
median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# run_mode NAME WORKERS: plans (checked for parallelism), then the timed runs, in one session.
run_mode() {
    local mode="$1" workers="$2" i r script="$work/$1.sql" out="$work/$1.out"
    {
        echo "SET max_parallel_workers_per_gather = $workers;"
        echo "\\pset format unaligned"
        echo "\\pset tuples_only on"
        for i in "${!LABELS[@]}"; do
            echo "\\echo @@plan $i ours"
            echo "EXPLAIN (COSTS OFF) ${OURS[$i]};"
            echo "\\echo @@plan $i builtin"
            echo "EXPLAIN (COSTS OFF) ${BUILTIN[$i]};"
        done
        for i in "${!LABELS[@]}"; do
            # warm-up (buffers, catalog caches, library load), then alternate ours and built-in
            echo "\\echo @@warm $i ours"
            echo "EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) ${OURS[$i]};"
            echo "\\echo @@warm $i builtin"
            echo "EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) ${BUILTIN[$i]};"
            for ((r = 1; r <= REPS; r++)); do
                echo "\\echo @@time $i ours"
                echo "EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) ${OURS[$i]};"
                echo "\\echo @@time $i builtin"
                echo "EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) ${BUILTIN[$i]};"
            done
        done
    } >"$script"
    log "$mode: ${#LABELS[@]} pairs x (1 + $REPS) runs, max_parallel_workers_per_gather = $workers"
    psql_run -f "$script" >"$out" || fail "the $mode run failed (queries in $script)"
}

# Execution times (ms) of one query of a mode, one a line.
times_of() {  # MODE INDEX ours|builtin
    awk -v key="@@time $2 $3" '
        /^@@/ {on = ($0 == key); next}
        on && /^Execution Time:/ {print $3}' "$work/$1.out"
}
# Workers launched in the timed runs of one query (distinct values, or "none").
workers_of() {
    awk -v key="@@time $2 $3" '
        /^@@/ {on = ($0 == key); next}
        on && /Workers Launched:/ {print $NF}' "$work/$1.out" | sort -u | paste -sd/ - | sed 's/^$/none/'
}
plan_of() {  # MODE INDEX ours|builtin
    awk -v key="@@plan $2 $3" '
        /^@@/ {on = ($0 == key); next}
        on {print}' "$work/$1.out"
}

run_mode serial 0
run_mode parallel 2

# The parallel plans must be parallel: a Partial aggregate under a Gather, for ours and built-in.
echo "## parallel plans (max_parallel_workers_per_gather = 2)"
echo
not_parallel=()
for i in "${!LABELS[@]}"; do
    for side in ours builtin; do
        plan="$(plan_of parallel "$i" "$side")"
        if [ "$side" = ours ]; then shown="${SHOWN_OURS[$i]}"; else shown="${SHOWN_BUILTIN[$i]}"; fi
        echo "$shown:"
        echo '```'
        echo "$plan"
        echo '```'
        # An ordered-set aggregate (percentile_cont) and count(DISTINCT) have no partial form: they
        # sort in one process.
        if [ "$side" = builtin ] && [[ "$shown" == percentile_cont* || "$shown" == "count(DISTINCT"* ]]; then continue; fi
        grep -Eq 'Partial (Hash|Group)?Aggregate' <<<"$plan" || not_parallel+=("$shown")
        w="$(workers_of parallel "$i" "$side")"
        [ "$w" = 2 ] || not_parallel+=("$shown (workers launched: $w)")
    done
done
echo
if [ "${#not_parallel[@]}" -gt 0 ]; then
    warn "not parallel as intended: ${not_parallel[*]}"
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "nan"}'; }
fmt() { awk -v a="$1" 'BEGIN {printf "%.1f", a}'; }

echo "## time (median of $REPS, ms; ratio = pgdp / built-in, target <= 1.2)"
echo
echo "| query (pgdp vs built-in) | serial pgdp | serial built-in | ratio | 2 workers pgdp | 2 workers built-in | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for i in "${!LABELS[@]}"; do
    so="$(times_of serial "$i" ours | median)"
    sb="$(times_of serial "$i" builtin | median)"
    po="$(times_of parallel "$i" ours | median)"
    pb="$(times_of parallel "$i" builtin | median)"
    [ "$(times_of serial "$i" ours | wc -l)" -eq "$REPS" ] || fail "missing timings for ${LABELS[$i]}"
    echo "| \`${SHOWN_OURS[$i]}\` vs \`${SHOWN_BUILTIN[$i]}\` | $(fmt "$so") | $(fmt "$sb") | $(ratio "$so" "$sb") | $(fmt "$po") | $(fmt "$pb") | $(ratio "$po" "$pb") |"
done
echo

# ---------------------------------------------------------------------------------------------
# Memory per group: serial HashAggregate over 10, 1 000, 100 000 and 1 000 000 groups (enable_sort = off so
# the planner does not pick a sort-based plan); EXPLAIN (ANALYZE, BUFFERS) reports the peak
# memory of the hash table and its transition states ("Memory Usage") and "Batches" (1 = no spill).
log "memory: HashAggregate over 10 / 1000 / 100000 / 1000000 groups"
mem_script="$work/memory.sql"
GROUP_KEYS=(g10 g1000 g100k g1m)
MEM_AGGS=("dp_sum(f8, $P)" "sum(f8)" "dp_sum(i8, $P)" "sum(i8)")
{
    echo "SET max_parallel_workers_per_gather = 0;"
    echo "SET enable_sort = off;"
    echo "\\pset format unaligned"
    echo "\\pset tuples_only on"
    for g in "${GROUP_KEYS[@]}"; do
        for a in "${!MEM_AGGS[@]}"; do
            echo "\\echo @@mem $g $a"
            echo "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF) SELECT $g, ${MEM_AGGS[$a]} FROM $TABLE GROUP BY $g;"
        done
    done
} >"$mem_script"
psql_run -f "$mem_script" >"$work/memory.out" || fail "the memory run failed (queries in $mem_script)"

mem_field() {  # GROUPCOL AGGINDEX FIELD(Memory|Batches|Time|Groups)
    awk -v key="@@mem $1 $2" -v field="$3" '
        /^@@/ {on = ($0 == key); next}
        !on {next}
        field == "Memory" && /Memory Usage:/ {for (k = 1; k <= NF; k++) if ($k == "Usage:") {v = $(k + 1); sub(/kB/, "", v); print v}}
        field == "Batches" && /Batches:/ {for (k = 1; k <= NF; k++) if ($k == "Batches:") print $(k + 1)}
        field == "Groups" && /HashAggregate \(actual rows=/ {s = $0; sub(/.*actual rows=/, "", s); sub(/ .*/, "", s); print s}
        field == "Time" && /^Execution Time:/ {print $3}' "$work/memory.out" | head -n 1
}
echo "## memory per group (serial HashAggregate, EXPLAIN (ANALYZE, BUFFERS))"
echo
echo "| aggregate | groups | Memory Usage (kB) | Batches | bytes per group | marginal bytes per added group (vs the row above) | time (ms, 1 run) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for a in "${!MEM_AGGS[@]}"; do
    prev_mem="" prev_groups=""
    for g in "${GROUP_KEYS[@]}"; do
        m="$(mem_field "$g" "$a" Memory)"
        n="$(mem_field "$g" "$a" Groups)"
        b="$(mem_field "$g" "$a" Batches)"
        t="$(mem_field "$g" "$a" Time)"
        if [ -z "$m" ] || [ -z "$n" ]; then
            fail "no HashAggregate memory for ${MEM_AGGS[$a]} GROUP BY $g (see $work/memory.out)"
        fi
        per="$(awk -v m="$m" -v n="$n" 'BEGIN {printf "%.0f", m * 1024 / n}')"
        marg=""
        if [ -n "$prev_mem" ] && [ "$n" -ge "$((prev_groups * 2))" ]; then
            marg="$(awk -v m="$m" -v n="$n" -v pm="$prev_mem" -v pn="$prev_groups" 'BEGIN {printf "%.0f", (m - pm) * 1024 / (n - pn)}')"
        fi
        prev_mem="$m" prev_groups="$n"
        echo "| \`${MEM_AGGS[$a]}\` | $n | $m | $b | $per | $marg | $(fmt "$t") |"
    done
done
echo
log "benchmark finished in $((SECONDS - t0)) s"
