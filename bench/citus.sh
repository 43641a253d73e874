#!/usr/bin/env bash
# pgdp on Citus (issue 12): dp_sum / dp_count on a distributed table against Citus's distributed
# sum() / count(*), in one run. Installs what is missing, builds and installs pgdp, makes Citus
# 12.1 available (scripts/citus.sh: installed, or built from the vendored tarball and cached under
# build/), starts a coordinator and two workers (three throwaway clusters on unix sockets in one
# private temp dir, run by the unprivileged run user, removed on exit), loads
#   sales(id bigint, customer int, region int, amount int, price float8, note text)
# with PGDP_BENCH_ROWS rows (default 10 000 000) in 32 shards distributed by customer
# (customer = id % 100000, region = id % 10, amount = id % 100), and times each pair:
#   whole table        sum(amount)                    vs dp_sum(amount, 0, 100, 1.0)
#                      count(*)                       vs dp_count(1.0)
#   GROUP BY region    (10 groups; not the distribution column: Citus merges on the coordinator)
#   GROUP BY customer  (100 000 groups; the distribution column: Citus pushes the query down whole)
#   0.12               dp_histogram (whole table, per region) vs width_bucket ... GROUP BY, dp_median
#                      vs percentile_disc(0.5), dp_count_distinct(region) vs count(DISTINCT region)
#                      (PGDP_BENCH_SKIP_STATES=1 leaves them out)
# The role running the queries has a budget far beyond the run on the coordinator and none on the
# workers (where pgdp must never charge). Each repetition runs every query in turn, built-in then
# pgdp, so load changes hit both alike; one untimed round warms up; the figure is the median of
# PGDP_BENCH_REPS (default 5) client-side times (psql \timing, result rows discarded), and the
# ratio pgdp / built-in per pair. A query that fails is reported with its error and left out of
# the timed rounds; the others go on.
#
#   bash bench/citus.sh
#   PGDP_BENCH_ROWS=100000 PGDP_BENCH_REPS=1 bash bench/citus.sh       # quick check
#   PGDP_BENCH_PLANS=1 bash bench/citus.sh                             # print EXPLAIN of each query
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
# shellcheck source=scripts/citus.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/citus.sh"
cd "$PGDP_ROOT"

ROWS="${PGDP_BENCH_ROWS:-10000000}"
REPS="${PGDP_BENCH_REPS:-5}"
[[ "$ROWS" =~ ^[0-9]+$ ]] && [ "$ROWS" -ge 1000 ] || die "PGDP_BENCH_ROWS must be an integer >= 1000"
[[ "$REPS" =~ ^[0-9]+$ ]] && [ "$REPS" -ge 1 ] || die "PGDP_BENCH_REPS must be a positive integer"
SHARDS=32
CUSTOMERS=100000
NODES=(coordinator worker1 worker2)

# Per node (2-core, 24 GB machine): each worker's half of the table (~0.4 GB at 10M rows) stays in
# shared_buffers, hash aggregates never spill, no JIT, no checkpoint or autovacuum while measuring.
node_conf() {  # socket-dir port
    cat <<CONF
# bench/citus.sh: throwaway Citus node, unix socket only
listen_addresses = ''
unix_socket_directories = '$1'
port = $2
shared_preload_libraries = 'citus,pgdp'
citus.local_hostname = '$1'
max_prepared_transactions = 100
max_worker_processes = 32
shared_buffers = 1GB
work_mem = 256MB
maintenance_work_mem = 512MB
jit = off
fsync = off
synchronous_commit = off
full_page_writes = off
autovacuum = off
max_wal_size = 8GB
CONF
}

CLUSTER_DIR=""
declare -A PORT
NODES_UP=()

stop_nodes() {
    local name
    for name in "${NODES_UP[@]}"; do
        as_run_user "$PG_BINDIR/pg_ctl" -D "$CLUSTER_DIR/$name" -m immediate -w stop >/dev/null 2>&1 || true
    done
    NODES_UP=()
    if [ -n "$CLUSTER_DIR" ] && [ -d "$CLUSTER_DIR" ]; then rm -rf "$CLUSTER_DIR"; fi
    CLUSTER_DIR=""
}

citus_bench_cleanup() {
    local rc=$?
    stop_nodes
    exit "$rc"
}

start_nodes() {
    setup_run_user
    # /tmp, not $TMPDIR: unix socket paths are limited to 107 bytes.
    CLUSTER_DIR="$(mktemp -d /tmp/pgdp-citus.XXXXXX)"
    chmod 700 "$CLUSTER_DIR"
    is_root && chown "$RUN_USER:" "$CLUSTER_DIR"
    local name port
    for name in "${NODES[@]}"; do
        # Three distinct ports in the one socket directory.
        port="$(pick_port)"
        while [[ " ${PORT[*]} " == *" $port "* ]]; do port="$(pick_port)"; done
        PORT[$name]="$port"
        log "citus: initdb $name in $CLUSTER_DIR/$name (port $port)"
        as_run_user "$PG_BINDIR/initdb" -D "$CLUSTER_DIR/$name" -U "$RUN_USER" --auth=trust \
            --encoding=UTF8 --locale=C --no-sync >"$CLUSTER_DIR/$name.initdb.log" 2>&1 \
            || { cat "$CLUSTER_DIR/$name.initdb.log" >&2; die "initdb of $name failed"; }
        node_conf "$CLUSTER_DIR" "$port" | as_run_user tee -a "$CLUSTER_DIR/$name/postgresql.conf" >/dev/null
        NODES_UP+=("$name")
        if ! as_run_user "$PG_BINDIR/pg_ctl" -D "$CLUSTER_DIR/$name" -l "$CLUSTER_DIR/$name.log" -w -t 60 \
                start >/dev/null; then
            tail -n 50 "$CLUSTER_DIR/$name.log" >&2 || true
            die "the $name node did not start"
        fi
    done
    export PGHOST="$CLUSTER_DIR" PGUSER="$RUN_USER" PGDATABASE=postgres
    unset PGSERVICE PGPASSWORD PGHOSTADDR PGPORT
}

psql_on() {  # node psql-args...
    local name="$1"
    shift
    "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -p "${PORT[$name]}" "$@"
}

trap citus_bench_cleanup EXIT
trap 'exit 130' INT TERM
ensure_deps
check_toolchain
build_extension
install_extension
citus_rc=0
ensure_citus || citus_rc=$?
[ "$citus_rc" -eq 0 ] || die "Citus is needed: $CITUS_STATUS"
start_nodes

t0=$SECONDS
for name in "${NODES[@]}"; do psql_on "$name" -c 'CREATE EXTENSION citus'; done
psql_on coordinator -At <<SQL >/dev/null
SELECT citus_set_coordinator_host('$CLUSTER_DIR', ${PORT[coordinator]});
SELECT citus_add_node('$CLUSTER_DIR', ${PORT[worker1]});
SELECT citus_add_node('$CLUSTER_DIR', ${PORT[worker2]});
-- Citus propagates it to the workers (they are in the metadata already).
CREATE EXTENSION pgdp;
SELECT pgdp.set_budget(session_user::regrole, 1e15, 0.5, release_limit => 1000000000);
CREATE TABLE sales (id bigint, customer int, region int, amount int, price float8, note text);
SELECT create_distributed_table('sales', 'customer', shard_count := $SHARDS);
INSERT INTO sales
SELECT g, g % $CUSTOMERS, g % 10, g % 100, (g % 1000) / 4.0, 'note ' || g
FROM generate_series(1, $ROWS) g;
VACUUM (ANALYZE) sales;
SQL
log "citus: 3 nodes up, $ROWS rows loaded in $SHARDS shards in $((SECONDS - t0)) s"
psql_on coordinator -At -c "SELECT format('shards %s on %s nodes; pgdp on %s of 3 nodes', count(*), count(DISTINCT nodeport),
        (SELECT count(*) FROM run_command_on_all_nodes(\$\$SELECT extversion FROM pg_extension WHERE extname = 'pgdp'\$\$) WHERE success AND result <> ''))
    FROM citus_shards WHERE table_name = 'sales'::regclass"

# The pairs: label, built-in query, pgdp query.
LABELS=()
BUILTIN=()
DP=()
pair() { LABELS+=("$1"); BUILTIN+=("$2"); DP+=("$3"); }
pair "sum, whole table" "SELECT sum(amount) FROM sales" "SELECT dp_sum(amount, 0, 100, 1.0) FROM sales"
pair "count, whole table" "SELECT count(*) FROM sales" "SELECT dp_count(1.0) FROM sales"
pair "sum, GROUP BY region" "SELECT region, sum(amount) FROM sales GROUP BY region" \
    "SELECT region, dp_sum(amount, 0, 100, 1.0) FROM sales GROUP BY region"
pair "count, GROUP BY region" "SELECT region, count(*) FROM sales GROUP BY region" \
    "SELECT region, dp_count(1.0) FROM sales GROUP BY region"
pair "sum, GROUP BY customer" "SELECT customer, sum(amount) FROM sales GROUP BY customer" \
    "SELECT customer, dp_sum(amount, 0, 100, 1.0) FROM sales GROUP BY customer"
pair "count, GROUP BY customer" "SELECT customer, count(*) FROM sales GROUP BY customer" \
    "SELECT customer, dp_count(1.0) FROM sales GROUP BY customer"
# 0.12: the statistics whose workers count rows per bin, leaf or hash (docs/architecture.md).
# Citus has no distributed form of percentile_disc or count(DISTINCT) over a non-distribution
# column: it gathers the rows (or the distinct values) on the coordinator.
if [ -z "${PGDP_BENCH_SKIP_STATES:-}" ]; then
    pair "histogram, whole table" "SELECT width_bucket(price, 0, 250, 10), count(*) FROM sales GROUP BY 1" \
        "SELECT dp_histogram(price, 0, 250, 10, 1.0) FROM sales"
    pair "histogram, GROUP BY region" \
        "SELECT region, width_bucket(price, 0, 250, 10), count(*) FROM sales GROUP BY 1, 2" \
        "SELECT region, dp_histogram(price, 0, 250, 10, 1.0) FROM sales GROUP BY region"
    pair "median, whole table" "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY price) FROM sales" \
        "SELECT dp_median(price, 0, 250, 1.0) FROM sales"
    pair "count distinct, whole table" "SELECT count(DISTINCT region) FROM sales" \
        "SELECT dp_count_distinct(region, 1.0) FROM sales"
fi

# Client-side milliseconds of one run of a query on the coordinator, result rows discarded; on
# failure prints nothing, returns 1 and leaves psql's error in $CLUSTER_DIR/last-error.
time_ms() {
    local out
    out="$(psql_on coordinator -At -c '\timing on' -c '\o /dev/null' -c "$1" 2>"$CLUSTER_DIR/last-error")" || return 1
    sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' <<<"$out" | tail -n 1
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

# Keys: b<i> built-in, d<i> pgdp. A query that fails in the warm-up is not timed again.
declare -A times failed
run_timed() {  # key query
    local ms
    if ms="$(time_ms "$2")" && [ -n "$ms" ]; then
        times[$1]+="$ms "
    else
        failed[$1]="$(grep -m1 -E 'ERROR|FATAL|error' "$CLUSTER_DIR/last-error" || head -n1 "$CLUSTER_DIR/last-error")"
        failed[$1]="${failed[$1]:-no time reported}"
        warn "query failed: $2: ${failed[$1]}"
    fi
}

if [ "${PGDP_BENCH_PLANS:-0}" = 1 ]; then
    for i in "${!LABELS[@]}"; do
        for q in "${BUILTIN[$i]}" "${DP[$i]}"; do
            echo "---- $q"
            psql_on coordinator -At -c "EXPLAIN (COSTS OFF) $q" 2>&1 || true
        done
    done
fi

log "warm-up round"
for i in "${!LABELS[@]}"; do
    run_timed "b$i" "${BUILTIN[$i]}"
    run_timed "d$i" "${DP[$i]}"
done
times=()
t0=$SECONDS
for ((rep = 1; rep <= REPS; rep++)); do
    for i in "${!LABELS[@]}"; do
        [ -n "${failed[b$i]:-}" ] || run_timed "b$i" "${BUILTIN[$i]}"
        [ -n "${failed[d$i]:-}" ] || run_timed "d$i" "${DP[$i]}"
    done
    log "repetition $rep of $REPS done ($((SECONDS - t0)) s)"
done

cell() {  # key -> median ms, or "failed"
    if [ -n "${failed[$1]:-}" ]; then echo "failed"; else printf '%.0f' "$(median <<<"${times[$1]}")"; fi
}
echo
echo "| query | built-in (ms) | pgdp (ms) | pgdp / built-in |"
echo "|---|---:|---:|---:|"
for i in "${!LABELS[@]}"; do
    b="$(cell "b$i")"
    d="$(cell "d$i")"
    r="-"
    if [ "$b" != failed ] && [ "$d" != failed ]; then
        r="$(awk -v a="$(median <<<"${times[d$i]}")" -v b="$(median <<<"${times[b$i]}")" 'BEGIN {printf "%.2f", a / b}')"
    fi
    echo "| ${LABELS[$i]} | $b | $d | $r |"
done
echo
any_failed=0
for i in "${!LABELS[@]}"; do
    for k in "b$i" "d$i"; do
        if [ -n "${failed[$k]:-}" ]; then
            any_failed=1
            if [ "${k:0:1}" = b ]; then q="${BUILTIN[$i]}"; else q="${DP[$i]}"; fi
            echo "FAILED: $q: ${failed[$k]}"
        fi
    done
done
echo "all times (ms), per query:"
for i in "${!LABELS[@]}"; do
    echo "${LABELS[$i]}: built-in ${times[b$i]:-failed}| pgdp ${times[d$i]:-failed}"
done
for name in "${NODES[@]}"; do
    echo "pgdp.charges rows on $name: $(psql_on "$name" -At -c 'SELECT count(*) FROM pgdp.charges')"
done
echo "rows $ROWS, $SHARDS shards on 2 workers, customers $CUSTOMERS, median of $REPS, $((SECONDS - t0)) s of timed runs;" \
    "$(psql_on coordinator -Atc 'SELECT version()' | cut -d, -f1), Citus $(psql_on coordinator -Atc "SELECT extversion FROM pg_extension WHERE extname = 'citus'");" \
    "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$any_failed" = 1 ]; then echo "(some queries failed: see FAILED above)"; fi
