#!/usr/bin/env bash
# What preloading pgdp costs SQL that makes no release (docs/privacy.md "Inert where unused"):
# two throwaway servers of the same PostgreSQL with the same settings, one without pgdp, one with
# pgdp in shared_preload_libraries and CREATE EXTENSION pgdp, the same data; each workload runs as
#   plain     a role without budget (a session pgdp cannot charge)
#   analyst   a role with a budget (pgdp's release-authority rules apply)
# against both servers, in interleaved rounds; prints the median latency of each, the ratio of the
# medians with/without pgdp, and the median of the rounds' paired ratios (each round runs both
# servers back to back, so a burst of other load hits both). No workload makes a release.
#   select-only    pgbench -S (scale 10)
#   tpcb           pgbench's TPC-B-like transaction
#   join-10        planning and running a join of 10 small tables (planned every time)
#   sql-function   another role's inlinable SQL function over 1M rows; inlined, the outer range
#                  condition uses the table's index
#   plpgsql-calls  another role's PL/pgSQL function called 1M times
#   row-trigger    10 000 inserts through another role's PL/pgSQL row trigger (rolled back)
#
#   bash bench/inert.sh
#   PGDP_BENCH_ROUNDS=3 PGDP_BENCH_SECONDS=2 bash bench/inert.sh
#   PGDP_BENCH_WORKLOADS="select-only sql-function" PGDP_BENCH_ROUNDS=9 bash bench/inert.sh
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
cd "$PGDP_ROOT"

ROUNDS="${PGDP_BENCH_ROUNDS:-5}"
SECONDS_PER_RUN="${PGDP_BENCH_SECONDS:-3}"
read -r -a WORKLOADS <<<"${PGDP_BENCH_WORKLOADS:-select-only tpcb join-10 sql-function plpgsql-calls row-trigger}"

ensure_deps
check_toolchain
build_extension >/dev/null
install_extension
setup_run_user
trap cleanup EXIT
work="$(mktemp -d /tmp/pgdp-inert.XXXXXX)"
PGDP_CLEANUP_DIRS+=("$work")
is_root && chown "$RUN_USER:" "$work"

# Two servers side by side (common.sh's start_cluster keeps one).
start_server() {  # name preload port
    local dir="$work/$1"
    as_run_user "$PG_BINDIR/initdb" -D "$dir" -U "$RUN_USER" --auth=trust --encoding=UTF8 --locale=C --no-sync \
        >"$work/$1.initdb.log" 2>&1 || die "initdb failed"
    {
        echo "listen_addresses = ''"
        echo "unix_socket_directories = '$work'"
        echo "port = $3"
        echo "jit = off"
        echo "fsync = off"
        echo "synchronous_commit = off"
        echo "full_page_writes = off"
        echo "autovacuum = off"
        echo "shared_buffers = '256MB'"
        if [ -n "$2" ]; then echo "shared_preload_libraries = '$2'"; fi
    } | as_run_user tee -a "$dir/postgresql.conf" >/dev/null
    as_run_user "$PG_BINDIR/pg_ctl" -D "$dir" -l "$work/$1.log" -w start >/dev/null || die "server $1 did not start"
}
stop_servers() {
    local name
    for name in without with; do
        [ -d "$work/$name" ] && as_run_user "$PG_BINDIR/pg_ctl" -D "$work/$name" -m immediate -w stop >/dev/null 2>&1 || true
    done
}
trap 'stop_servers; cleanup' EXIT
port_without="$(pick_port)"
port_with="$(pick_port)"
start_server without "" "$port_without"
start_server with pgdp "$port_with"

setup() {  # port extension?
    local port=$1
    "$PG_BINDIR/pgbench" -i -q -s 10 -h "$work" -p "$port" -U "$RUN_USER" postgres >/dev/null 2>&1
    "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h "$work" -p "$port" -U "$RUN_USER" postgres <<SQL
$([ "$2" = 1 ] && echo "CREATE EXTENSION pgdp;")
CREATE ROLE bench_owner;
CREATE ROLE bench_plain LOGIN;
CREATE ROLE bench_analyst LOGIN;
$([ "$2" = 1 ] && echo "SELECT pgdp.set_budget('bench_analyst', 1e6, 0.5);")
GRANT SELECT, UPDATE, INSERT ON pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history
    TO bench_plain, bench_analyst;
CREATE SCHEMA bench_owner AUTHORIZATION bench_owner;
GRANT USAGE ON SCHEMA bench_owner TO PUBLIC;
SET ROLE bench_owner;
CREATE TABLE bench_owner.big AS SELECT g AS id, g % 100 AS k FROM generate_series(1, 1000000) g;
CREATE INDEX ON bench_owner.big (id);
CREATE FUNCTION bench_owner.rows_of(key int) RETURNS SETOF bench_owner.big LANGUAGE sql STABLE AS
    'SELECT * FROM bench_owner.big WHERE k = key';
CREATE FUNCTION bench_owner.twice(x int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS 'BEGIN RETURN 2 * x; END';
CREATE TABLE bench_owner.events (id int, seen int);
CREATE FUNCTION bench_owner.stamp() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN NEW.seen := NEW.id % 7; RETURN NEW; END';
CREATE TRIGGER stamp BEFORE INSERT ON bench_owner.events FOR EACH ROW EXECUTE FUNCTION bench_owner.stamp();
$(for i in $(seq 1 10); do echo "CREATE TABLE bench_owner.j$i AS SELECT g AS id, g % 10 AS v FROM generate_series(1, 100) g;"; done)
GRANT SELECT ON ALL TABLES IN SCHEMA bench_owner TO PUBLIC;
GRANT INSERT ON bench_owner.events TO PUBLIC;
RESET ROLE;
VACUUM ANALYZE;
SQL
}
setup "$port_without" 0
setup "$port_with" 1

echo "SELECT count(*) FROM bench_owner.rows_of(42) WHERE id BETWEEN 1000 AND 3000;" >"$work/sql-function.sql"
echo "SELECT sum(bench_owner.twice(g)) FROM generate_series(1, 1000000) g;" >"$work/plpgsql-calls.sql"
printf 'BEGIN;\nINSERT INTO bench_owner.events SELECT g FROM generate_series(1, 10000) g;\nROLLBACK;\n' >"$work/row-trigger.sql"
{
    printf 'SELECT count(*) FROM bench_owner.j1'
    for i in $(seq 2 10); do printf ' JOIN bench_owner.j%d USING (id)' "$i"; done
    printf ' WHERE j1.v = 3;\n'
} >"$work/join-10.sql"

latency_ms() {  # port role workload
    local args=(-n -M simple -T "$SECONDS_PER_RUN" -h "$work" -p "$1" -U "$2")
    case "$3" in
        select-only) args+=(-S) ;;
        tpcb) ;;
        *) args+=(-f "$work/$3.sql") ;;
    esac
    "$PG_BINDIR/pgbench" "${args[@]}" postgres 2>/dev/null | sed -n 's/^latency average = \([0-9.]*\) ms$/\1/p'
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

declare -A samples ratios
for ((round = 1; round <= ROUNDS; round++)); do
    for workload in "${WORKLOADS[@]}"; do
        for role in bench_plain bench_analyst; do
            # Alternate which server goes first, so neither always runs on a warmer machine.
            if ((round % 2)); then order=(without with); else order=(with without); fi
            declare -A pair=()
            for server in "${order[@]}"; do
                port=$port_without
                [ "$server" = with ] && port=$port_with
                pair[$server]="$(latency_ms "$port" "$role" "$workload")"
                samples[$workload,$role,$server]+=" ${pair[$server]}"
            done
            # The ratio of the two runs of this round: a burst of load elsewhere on the machine
            # hits both runs of a pair rather than one side of the medians.
            ratios[$workload,$role]+=" $(awk -v a="${pair[without]}" -v b="${pair[with]}" 'BEGIN {printf "%.4f", b / a}')"
            unset pair
        done
    done
    echo "round $round of $ROUNDS done" >&2
done

echo
echo "median latency over $ROUNDS interleaved rounds of ${SECONDS_PER_RUN} s, PostgreSQL $("$PG_BINDIR/postgres" -V | awk '{print $3}')"
printf '  %-14s %-8s %12s %12s %8s %12s\n' workload session "without ms" "with ms" ratio "paired ratio"
for workload in "${WORKLOADS[@]}"; do
    for role in bench_plain bench_analyst; do
        # shellcheck disable=SC2086
        without="$(median ${samples[$workload,$role,without]})"
        # shellcheck disable=SC2086
        with="$(median ${samples[$workload,$role,with]})"
        # shellcheck disable=SC2086
        paired="$(median ${ratios[$workload,$role]})"
        awk -v w="$workload" -v r="${role#bench_}" -v a="$without" -v b="$with" -v p="$paired" \
            'BEGIN {printf "  %-14s %-8s %12.3f %12.3f %8.3f %12.3f\n", w, r, a, b, b / a, p}'
    done
done
