#!/usr/bin/env bash
# Ledger bytes per release, pgdp 0.4 (pgdp.charges: one row per charge) against the 0.3 layout
# (one pgdp.ledger row per release), for the same releases.
#
#   bash bench/ledger_size.sh            [PGDP_PG_BINDIR=... for another PostgreSQL installation]
#
# Throwaway cluster (scripts/common.sh). One role makes N queries of 64 releases and N queries of
# one release (dp_sum, epsilon 0.001, a 2000-byte query text for the 64-release ones as in the
# flood of issue 8). The 0.3 size is measured by copying the same releases, row by row through
# the per-release view pgdp.ledger, into a table with the 0.3 ledger's definition and indexes.
# Sizes: pg_total_relation_size (heap, TOAST, indexes) after VACUUM, divided by the releases.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
N="${N:-200}"
work="$(mktemp -d)"
PGDP_CLEANUP_DIRS+=("$work")
printf "shared_preload_libraries = 'pgdp'\n" >"$work/bench.conf"
throwaway_server "$work/bench.conf"
psql_run() { "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

psql_run <<SQL
CREATE EXTENSION pgdp;
CREATE TABLE t AS SELECT generate_series(1, 1000)::float8 AS x;
SELECT pgdp.set_budget(session_user::regrole, 1e6, 0, min_epsilon => 0.001, release_limit => 1000000000) \\gset
SQL
wide="SELECT $(for i in $(seq 1 64); do printf 'dp_sum(x + %d, 0, 2000, 0.001), ' "$i"; done | sed 's/, $//') FROM t"
for _ in $(seq 1 "$N"); do printf '%s;\n' "$wide"; done >"$work/wide.sql"
for _ in $(seq 1 "$N"); do printf 'SELECT dp_sum(x, 0, 2000, 0.001) FROM t;\n'; done >"$work/narrow.sql"

measure() {  # $1: label, $2: sql file
    psql_run -c "TRUNCATE t" -c "INSERT INTO t SELECT generate_series(1, 1000)" >/dev/null
    psql_run -o /dev/null -f "$2"
    psql_run -At <<SQL
CREATE TABLE ledger_03 (
    id bigserial PRIMARY KEY, charged_at timestamptz NOT NULL DEFAULT clock_timestamp(), role regrole NOT NULL,
    charge_id bigint NOT NULL, aggregate text NOT NULL, mechanism text NOT NULL, accounting text NOT NULL,
    epsilon numeric NOT NULL, delta numeric NOT NULL, noise_scale float8 NOT NULL, sensitivity float8 NOT NULL,
    gaussian_mu2 float8 NOT NULL, query_id bigint, query_text text, backend_pid int NOT NULL);
CREATE INDEX ON ledger_03 (role, id);
INSERT INTO ledger_03 (charged_at, role, charge_id, aggregate, mechanism, accounting, epsilon, delta, noise_scale,
                       sensitivity, gaussian_mu2, query_id, query_text, backend_pid)
SELECT charged_at, role, charge_id, aggregate, mechanism, accounting, epsilon, delta, noise_scale, sensitivity,
       gaussian_mu2, query_id, query_text, backend_pid FROM pgdp.ledger ORDER BY charge_id, release;
VACUUM ANALYZE pgdp.charges;
VACUUM ANALYZE ledger_03;
SELECT format('| %s | %s | %s | %s | %s | %s |', '$1', (SELECT count(*) FROM pgdp.charges),
              (SELECT count(*) FROM ledger_03),
              pg_total_relation_size('ledger_03') / (SELECT count(*) FROM ledger_03),
              pg_total_relation_size('pgdp.charges') / (SELECT count(*) FROM ledger_03),
              round(pg_total_relation_size('ledger_03')::numeric / pg_total_relation_size('pgdp.charges'), 1));
DROP TABLE ledger_03;
SQL
}
echo "| queries | charges | releases | 0.3 bytes/release | 0.4 bytes/release | ratio |"
echo "|---|---|---|---|---|---|"
measure "$N x 64 releases" "$work/wide.sql"
# The ledger is append-only: a fresh extension for the second measurement.
psql_run -c "DROP EXTENSION pgdp CASCADE" -c "CREATE EXTENSION pgdp" \
    -c "SELECT pgdp.set_budget(session_user::regrole, 1e6, 0, min_epsilon => 0.001, release_limit => 1000000000)" >/dev/null
measure "$N x 1 release" "$work/narrow.sql"
