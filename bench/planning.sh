#!/usr/bin/env bash
# What pgdp adds to the planning of a statement that makes no release (docs/benchmarks.md): two
# throwaway clusters of the same PostgreSQL (scripts/common.sh chooses the major), one without pgdp, one with pgdp preloaded and
# installed (CREATE EXTENSION pgdp), each runs a PL/pgSQL DO loop of dynamically planned
# primary-key lookups (EXECUTE 'SELECT v FROM t WHERE id = ' || ..., planned afresh every time,
# no pgdp call in them), as a role without a budget and as a superuser. Rounds alternate between
# the two clusters; each figure is the median over the rounds of the loop's time per statement
# (clock_timestamp() inside the DO block: no client round trip), and the ratio is with / without.
#
#   bash bench/planning.sh
#   PGDP_BENCH_ROUNDS=12 PGDP_BENCH_STATEMENTS=20000 bash bench/planning.sh
#   PGDP_PG_BINDIR=/opt/pg/usr/lib/postgresql/N/bin bash bench/planning.sh
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
cd "$PGDP_ROOT"

ROUNDS="${PGDP_BENCH_ROUNDS:-11}"
STATEMENTS="${PGDP_BENCH_STATEMENTS:-20000}"
[[ "$ROUNDS" =~ ^[0-9]+$ ]] && [ "$ROUNDS" -ge 1 ] || die "PGDP_BENCH_ROUNDS must be a positive integer"
[[ "$STATEMENTS" =~ ^[0-9]+$ ]] && [ "$STATEMENTS" -ge 100 ] || die "PGDP_BENCH_STATEMENTS must be >= 100"

trap 'exit 130' INT TERM
build_and_install
setup_run_user

# Both clusters in one private directory (scripts/common.sh's start_cluster runs one).
PGDP_TMP="$(mktemp -d /tmp/pgdp-planning.XXXXXX)"
chmod 700 "$PGDP_TMP"
is_root && chown "$RUN_USER:" "$PGDP_TMP"
CLUSTERS=(plain pgdp)
declare -A PORT
stop_both() {
    local name
    for name in "${CLUSTERS[@]}"; do
        [ -d "$PGDP_TMP/$name" ] && as_run_user "$PG_BINDIR/pg_ctl" -D "$PGDP_TMP/$name" -m immediate -w stop \
            >/dev/null 2>&1 || true
    done
    rm -rf "$PGDP_TMP"
}
trap 'rc=$?; stop_both; exit $rc' EXIT

for name in "${CLUSTERS[@]}"; do
    PORT[$name]="$(pick_port)"
    as_run_user "$PG_BINDIR/initdb" -D "$PGDP_TMP/$name" -U "$RUN_USER" --auth=trust --encoding=UTF8 \
        --locale=C --no-sync >"$PGDP_TMP/initdb-$name.log" 2>&1 || { cat "$PGDP_TMP/initdb-$name.log" >&2; die "initdb failed"; }
    {
        echo "listen_addresses = ''"
        echo "unix_socket_directories = '$PGDP_TMP'"
        echo "port = ${PORT[$name]}"
        echo "jit = off"
        echo "fsync = off"
        echo "synchronous_commit = off"
        echo "autovacuum = off"
        if [ "$name" = pgdp ]; then echo "shared_preload_libraries = 'pgdp'"; fi
    } | as_run_user tee -a "$PGDP_TMP/$name/postgresql.conf" >/dev/null
    as_run_user "$PG_BINDIR/pg_ctl" -D "$PGDP_TMP/$name" -l "$PGDP_TMP/$name.log" -w -t 60 start >/dev/null \
        || { cat "$PGDP_TMP/$name.log" >&2; die "the $name server did not start"; }
done
unset PGSERVICE PGPASSWORD PGHOSTADDR PGDATABASE PGOPTIONS
psql_at() {  # CLUSTER ROLE psql-arguments...
    local name="$1" role="$2"
    shift 2
    "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGDP_TMP" -p "${PORT[$name]}" -U "$role" -d postgres "$@"
}

for name in "${CLUSTERS[@]}"; do
    {
        if [ "$name" = pgdp ]; then echo "CREATE EXTENSION pgdp;"; fi
        cat <<'SQL'
CREATE ROLE analyst LOGIN;
CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t SELECT g, g % 97 FROM generate_series(1, 1000) g;
VACUUM ANALYZE t;
GRANT SELECT ON t TO analyst;
SQL
    } | psql_at "$name" "$RUN_USER" >/dev/null || die "setting up the $name cluster failed"
done

# One timed loop: prints microseconds per statement (after a warm-up loop in the same session).
LOOP="DO \$\$
DECLARE r int; t0 timestamptz; n int := $STATEMENTS;
BEGIN
  FOR i IN 1 .. least(n, 2000) LOOP EXECUTE 'SELECT v FROM t WHERE id = ' || (i % 1000 + 1) INTO r; END LOOP;
  t0 := clock_timestamp();
  FOR i IN 1 .. n LOOP EXECUTE 'SELECT v FROM t WHERE id = ' || (i % 1000 + 1) INTO r; END LOOP;
  RAISE NOTICE 'us_per_statement=%', extract(epoch FROM clock_timestamp() - t0) * 1e6 / n;
END \$\$;"
run_loop() {  # CLUSTER ROLE
    psql_at "$1" "$2" -c "SET client_min_messages = notice" -c "$LOOP" 2>&1 \
        | sed -n 's/.*us_per_statement=\([0-9.]*\).*/\1/p'
}

median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

ROLES=(analyst "$RUN_USER")
results="$PGDP_TMP/results"
: >"$results"
log "$ROUNDS rounds x ${#ROLES[@]} roles x ${#CLUSTERS[@]} clusters, $STATEMENTS statements per loop"
for ((round = 1; round <= ROUNDS; round++)); do
    for role in "${ROLES[@]}"; do
        # Alternate which cluster goes first, so that neither always follows the other.
        if ((round % 2)); then order=(plain pgdp); else order=(pgdp plain); fi
        for name in "${order[@]}"; do
            us="$(run_loop "$name" "$role")"
            [ -n "$us" ] || die "the loop on $name as $role printed no time"
            echo "$name $role $us" >>"$results"
        done
    done
done

echo "## planning of a statement without pgdp calls"
echo
echo "- $(nproc) CPUs, $("$PG_BINDIR/postgres" -V), pgdp $(psql_at pgdp "$RUN_USER" -Atc "SELECT extversion FROM pg_extension WHERE extname = 'pgdp'") ($(git -C "$PGDP_ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "- $ROUNDS rounds alternating between the clusters, $STATEMENTS dynamically planned primary-key lookups per loop"
echo
echo "| role | without pgdp (µs/statement) | with pgdp (µs/statement) | ratio | min without | min with |"
echo "|---|---:|---:|---:|---:|---:|"
for role in "${ROLES[@]}"; do
    label="$role"
    [ "$role" = analyst ] && label="analyst (no budget)"
    [ "$role" = "$RUN_USER" ] && label="superuser"
    plain="$(awk -v r="$role" '$1 == "plain" && $2 == r {print $3}' "$results" | median)"
    with="$(awk -v r="$role" '$1 == "pgdp" && $2 == r {print $3}' "$results" | median)"
    plain_min="$(awk -v r="$role" '$1 == "plain" && $2 == r {print $3}' "$results" | sort -g | head -n 1)"
    with_min="$(awk -v r="$role" '$1 == "pgdp" && $2 == r {print $3}' "$results" | sort -g | head -n 1)"
    printf '| %s | %.2f | %.2f | %.3f | %.2f | %.2f |\n' "$label" "$plain" "$with" \
        "$(awk -v a="$with" -v b="$plain" 'BEGIN {print a / b}')" "$plain_min" "$with_min"
done
