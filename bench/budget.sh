#!/usr/bin/env bash
# What charging a release to a per-role budget (pgdp 0.3) costs: pgbench against a small table,
# charged releases (dp_count, dp_sum: the ledger worker commits each charge, synchronously, before
# the query runs) against the same aggregates uncharged (PostgreSQL's count(*) and sum, the
# built-in reference). Prints Markdown tables:
#   - 1 client: median latency of count(*) vs dp_count(1.0) and of sum(x) vs dp_sum(x, 0, 100, 1.0),
#     and the added median latency of a charged release (aim: under 2 ms);
#   - 8 clients (-c 8 -j 2): charged releases per second (dp_count) vs count(*) per second;
#   - ledger rows added by each run: as many as the transactions of a charged run, none for an
#     uncharged one (the script fails otherwise).
#
#   bash bench/budget.sh
#       install what is missing, build and install pgdp, start a throwaway PostgreSQL cluster
#       (scripts/common.sh, as bench/aggregates.sh does) with shared_preload_libraries = 'pgdp',
#       fsync = on and synchronous_commit = on, run, remove the cluster.
#   PGDP_BENCH_SECONDS=5 bash bench/budget.sh        seconds per query (default 10): the 1-client
#                                                    run lasts 5 x that, each throughput run 1 x
#   PGDP_BENCH_CLIENTS=8 PGDP_BENCH_THREADS=2 ...   the throughput runs (defaults 8 and 2)
#   PGDP_DSN='host=... port=... dbname=...' bash bench/budget.sh
#       use an existing server (no packages, no build, no throwaway cluster). There pgdp 0.3 must
#       be installed, pgdp in shared_preload_libraries, and the DSN's user a superuser (or a pgdp
#       admin with CREATEROLE and CREATE on schema public). The script creates the
#       table public.bench_small (dropped at the end; PGDP_BENCH_KEEP=1 keeps it) and the role
#       bench_analyst with a budget of epsilon 1e12, delta 0.5 (kept: its ledger rows are
#       append-only). The analyst connects with the same DSN and user=bench_analyst; give
#       PGDP_BENCH_ANALYST_PASSWORD if the server asks for a password. The server's fsync and
#       synchronous_commit are printed and a warning is given unless both are on. A server to
#       point it at can be started by hand, e.g. (as a non-root user, or with su postgres -c):
#         /usr/lib/postgresql/N/bin/initdb -D /tmp/pgdp-budget/data --auth=trust
#         /usr/lib/postgresql/N/bin/pg_ctl -D /tmp/pgdp-budget/data -l /tmp/pgdp-budget/log -w start \
#             -o "-c shared_preload_libraries=pgdp -c port=5488 -c unix_socket_directories=/tmp/pgdp-budget -c listen_addresses=''"
#         PGDP_DSN='host=/tmp/pgdp-budget port=5488 user=postgres dbname=postgres' bash bench/budget.sh
#
# Method: every query is a pgbench custom script (-n -M prepared), and every run connects as
# bench_analyst. Latency, 1 client: ONE pgbench run of 5 x PGDP_BENCH_SECONDS seconds picks one of
# the five scripts at random for each transaction (equal weights: count(*), dp_count, sum,
# dp_sum, and a one-row UPDATE as the reference cost of one synchronous commit), so charged and
# uncharged queries meet the same disk: the charge costs a WAL flush, and flush times drift by an
# order of magnitude on shared storage (0.15 to 3.5 ms within minutes on a 2-CPU cloud VM). Medians
# and 99th percentiles come from the per-transaction log (--log: 3rd field latency in
# microseconds, 4th field the script). Throughput, 8 clients: count(*) and dp_count each alone
# for PGDP_BENCH_SECONDS, pgbench's "tps = ... (without initial connection time)". Each run is
# preceded by an untimed warm-up of 20 transactions per client and script (library load, the
# database's ledger worker start, catalog caches, prepared plans). The analyst's ledger rows
# added during each timed run are counted by aggregate (pgdp.ledger.aggregate); the script fails
# unless they equal the charged transactions (pgbench finishes the transactions in flight at
# the end of -T, so the counts are exact).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
cd "$PGDP_ROOT"

SECS="${PGDP_BENCH_SECONDS:-10}"
CLIENTS="${PGDP_BENCH_CLIENTS:-8}"
THREADS="${PGDP_BENCH_THREADS:-2}"
WARMUP_TX=20
AIM_MS=2
[[ "$SECS" =~ ^[1-9][0-9]*$ ]] || die "PGDP_BENCH_SECONDS must be a positive integer"
[[ "$CLIENTS" =~ ^[1-9][0-9]*$ ]] || die "PGDP_BENCH_CLIENTS must be a positive integer"
if ! [[ "$THREADS" =~ ^[1-9][0-9]*$ ]] || [ "$THREADS" -gt "$CLIENTS" ]; then
    die "PGDP_BENCH_THREADS must be an integer in [1, PGDP_BENCH_CLIENTS]"
fi
TABLE=bench_small
ANALYST=bench_analyst

# Throwaway cluster: the charge's real cost is a WAL flush, so fsync and synchronous_commit stay
# on (as do full_page_writes and the default wal_sync_method); no JIT, no autovacuum and a large
# max_wal_size keep the background quiet during the runs.
SERVER_CONF="shared_preload_libraries = 'pgdp'
fsync = on
synchronous_commit = on
full_page_writes = on
jit = off
autovacuum = off
max_wal_size = 4GB
checkpoint_timeout = 1h
max_connections = $((CLIENTS + 20))"

export PGOPTIONS="${PGOPTIONS:-} -c jit=off -c client_min_messages=warning"

t0=$SECONDS
work="$(mktemp -d /tmp/pgdp-bench-budget.XXXXXX)"   # pgbench scripts, logs and outputs
chmod 755 "$work"
if [ -n "${PGDP_DSN:-}" ]; then
    command -v psql >/dev/null 2>&1 || die "psql not found (apt-get install postgresql-client)"
    if [ -x "$PG_BINDIR/pgbench" ]; then PGBENCH="$PG_BINDIR/pgbench"; else PGBENCH="$(command -v pgbench || true)"; fi
    [ -n "$PGBENCH" ] || die "pgbench not found (apt-get install postgresql-client or postgresql-contrib)"
    log "using the existing server of PGDP_DSN"
    psql_cmd=(psql -X -q -v ON_ERROR_STOP=1 "$PGDP_DSN")
    # The analyst's connection: the same DSN with the user replaced (the last value wins, in a
    # key=value string and in a URI's query parameters alike).
    if [[ "$PGDP_DSN" =~ ^postgres(ql)?:// ]]; then
        if [[ "$PGDP_DSN" == *\?* ]]; then analyst_dsn="$PGDP_DSN&user=$ANALYST"; else analyst_dsn="$PGDP_DSN?user=$ANALYST"; fi
    else
        analyst_dsn="$PGDP_DSN user=$ANALYST"
    fi
    analyst_conn=("$analyst_dsn")
    dsn_cleanup() {
        local rc=$?
        if [ "${PGDP_BENCH_KEEP:-0}" != 1 ]; then
            "${psql_cmd[@]}" -c "DROP TABLE IF EXISTS public.$TABLE, public.bench_commit" >/dev/null 2>&1 || true
        fi
        rm -rf "$work"
        exit "$rc"
    }
    trap dsn_cleanup EXIT
    trap 'exit 130' INT TERM
else
    PGDP_CLEANUP_DIRS+=("$work")
    printf '%s\n' "$SERVER_CONF" >"$work/bench.conf"
    throwaway_server "$work/bench.conf"
    PGBENCH="$PG_BINDIR/pgbench"
    psql_cmd=("$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1)
    analyst_conn=(-U "$ANALYST")
fi
[ -x "$PGBENCH" ] || die "pgbench not found at $PGBENCH"

psql_run() { "${psql_cmd[@]}" "$@"; }
# Environment of the analyst's connections (a password only when one is given).
analyst_env=()
[ -z "${PGDP_BENCH_ANALYST_PASSWORD:-}" ] || analyst_env=("PGPASSWORD=$PGDP_BENCH_ANALYST_PASSWORD")
# psql as the analyst (same connection as pgbench's).
analyst_psql() {
    if [ -n "${PGDP_DSN:-}" ]; then
        env "${analyst_env[@]}" psql -X -q -v ON_ERROR_STOP=1 "${analyst_conn[@]}" "$@"
    else
        "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 "${analyst_conn[@]}" "$@"
    fi
}
fail() { [ -z "${PGDP_DSN:-}" ] && print_server_log; die "$*"; }

# ---------------------------------------------------------------------------------------------
# pgdp 0.3 with a working ledger.
psql_run -c 'CREATE EXTENSION IF NOT EXISTS pgdp' || fail "CREATE EXTENSION pgdp failed"
[ "$(psql_run -Atc "SELECT to_regclass('pgdp.ledger') IS NOT NULL AND to_regprocedure('pgdp.set_budget(regrole, numeric, numeric, text, numeric, numeric, numeric, bigint)') IS NOT NULL")" = t ] \
    || fail "pgdp.ledger or pgdp.set_budget not found: pgdp is older than 0.4 there (ALTER EXTENSION pgdp UPDATE)"
[ "$(psql_run -Atc 'SELECT pgdp.ledger_ready()')" = t ] \
    || fail "pgdp.ledger_ready() is false: pgdp must be in shared_preload_libraries (server restarted since) and the server not in recovery"

# ---------------------------------------------------------------------------------------------
# The table, the analyst and its budget; a one-row table for the commit reference below.
log "setup: public.$TABLE (1000 rows), role $ANALYST with a budget of epsilon 1e12, delta 0.5"
psql_run <<SQL >/dev/null || fail "setup failed"
DROP TABLE IF EXISTS public.$TABLE, public.bench_commit;
CREATE TABLE public.$TABLE AS SELECT i, (i % 100)::float8 AS x FROM generate_series(1, 1000) i;
VACUUM (ANALYZE) public.$TABLE;
CREATE TABLE public.bench_commit (id int PRIMARY KEY, n bigint NOT NULL);
INSERT INTO public.bench_commit VALUES (1, 0);
DO \$\$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = '$ANALYST') THEN
        CREATE ROLE $ANALYST LOGIN;
    END IF;
END \$\$;
GRANT SELECT ON public.$TABLE TO $ANALYST;
GRANT SELECT, UPDATE ON public.bench_commit TO $ANALYST;
SELECT pgdp.set_budget('$ANALYST', 1e12, 0.5, release_limit => 1000000000);
SQL
if [ -n "${PGDP_BENCH_ANALYST_PASSWORD:-}" ]; then
    psql_run -v pw="$PGDP_BENCH_ANALYST_PASSWORD" <<<"ALTER ROLE $ANALYST PASSWORD :'pw';" \
        || fail "setting the password of $ANALYST failed"
fi
analyst_psql -Atc "SELECT count(*) FROM $TABLE" >/dev/null \
    || fail "$ANALYST cannot connect or read $TABLE (pg_hba.conf? PGDP_BENCH_ANALYST_PASSWORD?)"


# ---------------------------------------------------------------------------------------------
# Machine, server, settings.
cpu_model="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
mem_gb="$(awk '/^MemTotal/ {printf "%.0f", $2 / 1048576}' /proc/meminfo 2>/dev/null || echo '?')"
# SHOWn in the analyst's own session (role or database settings would show here).
analyst_show() { analyst_psql -Atc "SHOW $1"; }
fsync_v="$(analyst_show fsync)"
sync_v="$(analyst_show synchronous_commit)"
echo "## machine and server"
echo
echo "- $(nproc) CPUs (${cpu_model:-unknown}), ${mem_gb} GB RAM, $(uname -sr)"
echo "- $(psql_run -Atc 'SELECT version()')"
echo "- pgdp $(psql_run -Atc "SELECT extversion FROM pg_extension WHERE extname = 'pgdp'"), $("$PGBENCH" --version)"
echo "- SHOW fsync = $fsync_v, SHOW synchronous_commit = $sync_v (session of $ANALYST)"
echo "- server: $(psql_run -Atc "SELECT string_agg(name || '=' || setting || coalesce(unit, ''), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_preload_libraries', 'wal_sync_method', 'full_page_writes', 'commit_delay', 'wal_level', 'shared_buffers', 'jit', 'max_connections') OR name LIKE 'pgdp.%'")"
echo "- table $TABLE: $(psql_run -Atc "SELECT count(*) FROM public.$TABLE") rows; latency: one $((SECS * 5)) s run, 1 client, 5 queries interleaved; throughput: $SECS s per query, $CLIENTS clients; warm-up: $WARMUP_TX transactions per client and query"
echo
if [ "$fsync_v" != on ] || [ "$sync_v" != on ]; then
    warn "fsync = $fsync_v, synchronous_commit = $sync_v: the charge's real cost needs both on"
fi

# ---------------------------------------------------------------------------------------------
# The runs.
declare -A RUN_SQL=(
    [count]="SELECT count(*) FROM $TABLE;"
    [dp_count]="SELECT dp_count(1.0) FROM $TABLE;"
    [sum]="SELECT sum(x) FROM $TABLE;"
    [dp_sum]="SELECT dp_sum(x, 0, 100, 1.0) FROM $TABLE;"
    [commit]="UPDATE bench_commit SET n = n + 1 WHERE id = 1;"
)
for name in "${!RUN_SQL[@]}"; do
    printf '%s\n' "${RUN_SQL[$name]}" >"$work/$name.sql"
done

COMMANDS=()
declare -A TX MED P99 LEDGER RUN_TPS RUN_TX RUN_LEDGER
ledger_max_id() {
    psql_run -Atc "SELECT coalesce(max(charge_id), 0) FROM pgdp.ledger WHERE role = '$ANALYST'::regrole" \
        || fail "cannot read pgdp.ledger (the DSN's user must be a superuser or a pgdp admin)"
}
# run CLIENTS THREADS SECONDS NAME...: one pgbench run of the scripts NAME.sql, interleaved at
# random with equal weights when there are several; warm-up first. Fills, per NAME/CLIENTS, TX
# (transactions of that script), MED and P99 (ms, from the log), LEDGER (ledger rows added with
# aggregate = NAME), and per CLIENTS RUN_TPS, RUN_TX (pgbench's figures for the whole run) and
# RUN_LEDGER (every ledger row of the analyst added during the run).
run() {
    local c="$1" j="$2" secs="$3" i name key prefix out before lines med p99 agg n
    shift 3
    local names=("$@")
    local base=("$PGBENCH" -n -M prepared -c "$c" -j "$j")
    for name in "${names[@]}"; do base+=(-f "$work/$name.sql@1"); done
    log "pgbench ${names[*]}, $c client(s): warm-up ($((WARMUP_TX * ${#names[@]})) transactions per client), then $secs s"
    out="$work/run.$c.warmup.out"
    env "${analyst_env[@]}" "${base[@]}" -t "$((WARMUP_TX * ${#names[@]}))" "${analyst_conn[@]}" >"$out" 2>&1 \
        || { cat "$out" >&2; fail "pgbench warm-up of ${names[*]} failed"; }
    prefix="$work/log.$c"
    out="$work/run.$c.out"
    local cmd=("${base[@]}" -T "$secs" --log --log-prefix="$prefix" "${analyst_conn[@]}")
    COMMANDS+=("$(printf '%q ' "${cmd[@]}")")
    before="$(ledger_max_id)"
    env "${analyst_env[@]}" "${cmd[@]}" >"$out" 2>&1 \
        || { cat "$out" >&2; fail "pgbench ${names[*]} with $c client(s) failed"; }
    RUN_TX[$c]="$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$out")"
    RUN_TPS[$c]="$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time).*/\1/p' "$out")"
    if [ -z "${RUN_TX[$c]}" ] || [ -z "${RUN_TPS[$c]}" ]; then
        cat "$out" >&2
        fail "cannot parse the pgbench output of ${names[*]}"
    fi
    # Ledger rows of this run, by aggregate (every charge has committed when its query returned).
    RUN_LEDGER[$c]=0
    for name in "${names[@]}"; do LEDGER[$name/$c]=0; done
    while read -r agg n; do
        [ -n "$agg" ] || continue
        RUN_LEDGER[$c]=$((RUN_LEDGER[$c] + n))
        for name in "${names[@]}"; do [ "$agg" != "$name" ] || LEDGER[$name/$c]="$n"; done
    done < <(psql_run -AtF ' ' -c "SELECT aggregate, count(*) FROM pgdp.ledger WHERE role = '$ANALYST'::regrole AND charge_id > $before GROUP BY aggregate")
    compgen -G "$prefix.*" >/dev/null || fail "pgbench wrote no log for ${names[*]} ($prefix.*)"
    # One log line per transaction: client_id transaction_no latency_us script_no epoch us
    lines="$(cat "$prefix".* | wc -l)"
    [ "$lines" -eq "${RUN_TX[$c]}" ] || warn "${names[*]}, $c client(s): $lines log lines but ${RUN_TX[$c]} transactions"
    for i in "${!names[@]}"; do
        key="${names[$i]}/$c"
        TX[$key]="$(cat "$prefix".* | awk -v s="$i" '$4 == s' | wc -l)"
        read -r med p99 < <(cat "$prefix".* | awk -v s="$i" '$4 == s {print $3}' | sort -n | awk '
            {v[NR] = $1}
            END {
                if (NR == 0) {print "nan nan"; exit}
                med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                k = int(0.99 * NR); if (k < 0.99 * NR) k++; if (k < 1) k = 1
                printf "%.3f %.3f\n", med / 1000, v[k] / 1000
            }')
        MED[$key]="$med" P99[$key]="$p99"
        [ "${TX[$key]}" -gt 0 ] || fail "no transactions of ${names[$i]} in the run"
    done
    rm -f "$prefix".*
}

# 1 client: the five queries interleaved in one run, so that charged and uncharged ones meet the
# same disk (the charge's cost is a WAL flush, and flush times drift on shared storage).
ONE_CLIENT=(count dp_count sum dp_sum commit)
run 1 1 "$((SECS * ${#ONE_CLIENT[@]}))" "${ONE_CLIENT[@]}"
charged_1=$((TX[dp_count/1] + TX[dp_sum/1]))
# CLIENTS clients: throughput, one query per run.
run "$CLIENTS" "$THREADS" "$SECS" count
TPS_count="${RUN_TPS[$CLIENTS]}" LEDGER_count="${RUN_LEDGER[$CLIENTS]}"
run "$CLIENTS" "$THREADS" "$SECS" dp_count
TPS_dp_count="${RUN_TPS[$CLIENTS]}" LEDGER_dp_count="${RUN_LEDGER[$CLIENTS]}"
TPS_one="${RUN_TPS[1]}"

# ---------------------------------------------------------------------------------------------
# Report.
fmt0() { awk -v a="$1" 'BEGIN {printf "%.0f", a}'; }
sub_ms() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a - b}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.3f", a / b; else print "nan"}'; }

echo "## commands"
echo
echo '```'
for c in "${COMMANDS[@]}"; do echo "$c"; done
echo '```'
echo
for name in count dp_count sum dp_sum commit; do
    echo "- \`$name.sql\`: \`${RUN_SQL[$name]}\`"
done
echo

declare -A SHOWN=(
    [count]="count(*)"
    [dp_count]="dp_count(1.0)"
    [sum]="sum(x)"
    [dp_sum]="dp_sum(x, 0, 100, 1.0)"
    [commit]="UPDATE one row (reference: one synchronous commit)"
)
shown() { echo "${SHOWN[$1]}"; }
charged() { case "$1" in dp_*) echo yes ;; *) echo no ;; esac; }

echo "## 1 client (-M prepared, as $ANALYST; the five queries interleaved at random in one $((SECS * ${#ONE_CLIENT[@]})) s run)"
echo
echo "| query | charged | transactions | median (ms) | p99 (ms) | ledger rows added (aggregate = query) |"
echo "|---|---|---:|---:|---:|---:|"
for name in "${ONE_CLIENT[@]}"; do
    k="$name/1"
    echo "| \`$(shown "$name")\` | $(charged "$name") | ${TX[$k]} | ${MED[$k]} | ${P99[$k]} | ${LEDGER[$k]} |"
done
echo
echo "Ledger rows added during the run: ${RUN_LEDGER[1]}; charged transactions (dp_count + dp_sum): $charged_1;" \
    "all transactions: ${RUN_TX[1]} ($(fmt0 "$TPS_one") per second)."
echo
echo "## added latency of a charged release, 1 client (aim: under $AIM_MS ms at the median)"
echo
echo "| charged vs uncharged | median charged (ms) | median uncharged (ms) | added (ms) | aim |"
echo "|---|---:|---:|---:|---|"
missed=()
for pair in "dp_count count" "dp_sum sum"; do
    read -r ch un <<<"$pair"
    added="$(sub_ms "${MED[$ch/1]}" "${MED[$un/1]}")"
    if awk -v a="$added" -v m="$AIM_MS" 'BEGIN {exit !(a < m)}'; then ok=met; else ok="**missed**"; missed+=("$ch"); fi
    echo "| \`$(shown "$ch")\` vs \`$(shown "$un")\` | ${MED[$ch/1]} | ${MED[$un/1]} | $added | $ok |"
done
echo
echo "For scale: one synchronous commit (\`${RUN_SQL[commit]}\`) took ${MED[commit/1]} ms at the median in the same run."
echo

echo "## throughput, $CLIENTS clients (-c $CLIENTS -j $THREADS, $SECS s per query)"
echo
echo "| query | charged | transactions | per second | median (ms) | p99 (ms) | ledger rows added |"
echo "|---|---|---:|---:|---:|---:|---:|"
for name in count dp_count; do
    k="$name/$CLIENTS" tps_v="TPS_$name" led_v="LEDGER_$name"
    echo "| \`$(shown "$name")\` | $(charged "$name") | ${TX[$k]} | $(fmt0 "${!tps_v}") | ${MED[$k]} | ${P99[$k]} | ${!led_v} |"
done
echo
echo "Charged releases per second with $CLIENTS clients: **$(fmt0 "$TPS_dp_count")**;" \
    "ratio dp_count / count(*) = $(ratio "$TPS_dp_count" "$TPS_count")."
echo

# ---------------------------------------------------------------------------------------------
# Every charged transaction added exactly one ledger row; uncharged ones added none.
bad=()
[ "${RUN_LEDGER[1]}" -eq "$charged_1" ] \
    || bad+=("1 client: ${RUN_LEDGER[1]} ledger rows for $charged_1 charged transactions (dp_count ${TX[dp_count/1]}, dp_sum ${TX[dp_sum/1]})")
for name in dp_count dp_sum; do
    if [ "${LEDGER[$name/1]}" -ne "${TX[$name/1]}" ]; then
        bad+=("1 client: ${LEDGER[$name/1]} ledger rows with aggregate = $name for ${TX[$name/1]} $name transactions")
    fi
done
[ "$LEDGER_dp_count" -eq "${TX[dp_count/$CLIENTS]}" ] \
    || bad+=("$CLIENTS clients: $LEDGER_dp_count ledger rows for ${TX[dp_count/$CLIENTS]} dp_count transactions")
[ "$LEDGER_count" -eq 0 ] || bad+=("$CLIENTS clients: $LEDGER_count ledger rows for count(*)")
echo "## ledger check"
echo
if [ "${#bad[@]}" -eq 0 ]; then
    echo "Ledger rows added == charged transactions in every run; none for the uncharged queries."
else
    echo "**FAILED**:"
    for b in "${bad[@]}"; do echo "- $b"; done
fi
echo
[ "${#missed[@]}" -eq 0 ] || warn "added median latency at or above $AIM_MS ms for: ${missed[*]}"
log "benchmark finished in $((SECONDS - t0)) s"
[ "${#bad[@]}" -eq 0 ] || die "ledger rows do not match the charged transactions"
