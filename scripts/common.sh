# shellcheck shell=bash
# Helpers shared by scripts/demo.sh and scripts/test.sh (sourced, not run).
#
#   ensure_deps             install the Debian packages pgdp needs, only those that are missing
#   build_extension         make -j2 (as the invoking user)
#   install_extension       make install (as root: directly, or through sudo)
#   start_cluster [CONF]    throwaway PostgreSQL cluster on a unix socket in a private temp dir,
#                           run by an unprivileged user, removed on exit; CONF is appended to
#                           postgresql.conf through an include. Exports PGHOST PGPORT PGUSER PGDATABASE.
#   stop_cluster            stop and remove it now (also done by the EXIT trap)
#   throwaway_server [CONF] everything the demo and the benchmarks need from nothing: packages,
#                           build, install, cleanup traps, start_cluster CONF
#   build_and_install       packages, build and install only

PGDP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PGDP_SUPPORTED_MAJORS="15 16 17 18"  # 16: built from the same guards, not tested (no packages here)

# The PostgreSQL major, from one setting:
#   PGDP_PG_MAJOR=N        that major (Debian's postgresql-N packages, installed when missing);
#   PGDP_PG_BINDIR=DIR     another (relocated) installation: its major, from its pg_config;
#   neither                the one major installed under /usr/lib/postgresql (several: set
#                          PGDP_PG_MAJOR), or, with none installed, the one this Debian release
#                          ships (12 bookworm: 15, 13 trixie: 17, unstable/sid: 18).
pgdp_pick_major() {
    if [ -n "${PGDP_PG_MAJOR:-}" ]; then
        echo "$PGDP_PG_MAJOR"
        return
    fi
    if [ -n "${PGDP_PG_BINDIR:-}" ] && [ -x "$PGDP_PG_BINDIR/pg_config" ]; then
        "$PGDP_PG_BINDIR/pg_config" --version | sed -n 's/^PostgreSQL \([0-9]\+\).*/\1/p'
        return
    fi
    local installed=() d
    for d in /usr/lib/postgresql/*/bin/pg_config; do
        [ -x "$d" ] && installed+=("$(basename "$(dirname "$(dirname "$d")")")")
    done
    if [ "${#installed[@]}" -eq 1 ]; then
        echo "${installed[0]}"
        return
    fi
    if [ "${#installed[@]}" -gt 1 ]; then
        printf 'pgdp: error: PostgreSQL %s are installed: choose one with PGDP_PG_MAJOR=N\n' "${installed[*]}" >&2
        exit 1
    fi
    local codename=""
    [ -r /etc/os-release ] && codename="$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)"
    case "$codename" in
        bookworm) echo 15 ;;
        trixie) echo 17 ;;
        forky | sid) echo 18 ;;
        *)
            printf 'pgdp: error: no PostgreSQL installed and no known default for Debian "%s": set PGDP_PG_MAJOR=N\n' \
                "$codename" >&2
            exit 1
            ;;
    esac
}
PG_MAJOR="$(pgdp_pick_major)"
case " $PGDP_SUPPORTED_MAJORS " in
    *" $PG_MAJOR "*) ;;
    *) printf 'pgdp: error: PostgreSQL "%s" is not supported (supported: %s)\n' "$PG_MAJOR" "$PGDP_SUPPORTED_MAJORS" >&2; exit 1 ;;
esac
export PGDP_PG_MAJOR="$PG_MAJOR"
# PGDP_PG_BINDIR: another (relocated) PostgreSQL installation to build and test against.
PG_BINDIR="${PGDP_PG_BINDIR:-/usr/lib/postgresql/${PG_MAJOR}/bin}"
PG_CONFIG="${PG_BINDIR}/pg_config"
export PG_CONFIG
MAKE_JOBS="${MAKE_JOBS:-2}"

# Everything pgdp builds, tests or demos with (Debian 12, 13 and unstable package names).
PGDP_PACKAGES=(
    "postgresql-${PG_MAJOR}"          # server, initdb, pg_ctl, psql
    "postgresql-server-dev-${PG_MAJOR}" # headers, PGXS, pg_regress, PostgreSQL::Test::Cluster
    libkrb5-dev                       # gssapi/gssapi.h: PostgreSQL's libpq/libpq-be.h includes it
    g++ make
    libboost-dev                      # Boost.Math, Boost.Multiprecision (headers only)
    libgtest-dev                      # GoogleTest for make unittest
    libbenchmark-dev                  # Google Benchmark for make bench-core
    libipc-run-perl perl              # TAP tests (prove, IPC::Run)
    clang-format                      # scripts/format-check.sh
    bzip2                             # PostgreSQL's regression sources (scripts/postgres-regress.sh)
    "postgresql-${PG_MAJOR}-pgaudit"  # t/016_coexistence (pgaudit beside pgdp)
)
# From 16 on, PostgreSQL's utils/pg_locale.h includes ICU's headers (pgdp's build and Citus's).
if [ "$PG_MAJOR" -ge 16 ]; then PGDP_PACKAGES+=(libicu-dev); fi

log() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'pgdp: warning: %s\n' "$*" >&2; }
die() { printf 'pgdp: error: %s\n' "$*" >&2; exit 1; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# Runs a command as root: directly when we are root, else through sudo when it exists.
as_root() {
    if is_root; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        printf 'pgdp: error: need root for: %s (run as root, or install sudo)\n' "$*" >&2
        return 1
    fi
}

pkg_installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

ensure_deps() {
    command -v dpkg-query >/dev/null 2>&1 || die "this script expects Debian (dpkg not found)"
    local missing=() p
    for p in "${PGDP_PACKAGES[@]}"; do
        pkg_installed "$p" || missing+=("$p")
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        log "dependencies: all installed"
        return 0
    fi
    log "dependencies: installing ${missing[*]}"
    local t0=$SECONDS
    local try
    for try in 1 2 3; do
        if as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
                --no-install-recommends -o Dpkg::Use-Pty=0 "${missing[@]}" >/dev/null; then
            break
        fi
        [ "$try" -lt 3 ] || die "apt-get failed three times"
        warn "apt-get failed (try $try of 3), retrying in 10 s"
        sleep 10
    done
    for p in "${missing[@]}"; do
        pkg_installed "$p" || die "package $p did not install"
    done
    log "dependencies: installed in $((SECONDS - t0)) s"
}

check_toolchain() {
    [ -x "$PG_CONFIG" ] || die "$PG_CONFIG not found (postgresql-server-dev-${PG_MAJOR} missing?)"
    [ -x "$PG_BINDIR/initdb" ] || die "$PG_BINDIR/initdb not found (postgresql-${PG_MAJOR} missing?)"
}

build_extension() {
    log "build: make -j${MAKE_JOBS}"
    make -C "$PGDP_ROOT" -j"$MAKE_JOBS" PG_CONFIG="$PG_CONFIG"
}

install_extension() {
    log "install: make install into $("$PG_CONFIG" --pkglibdir)"
    as_root make -C "$PGDP_ROOT" PG_CONFIG="$PG_CONFIG" install >/dev/null
}

# ---------------------------------------------------------------------------
# The unprivileged user who runs the server (initdb and postgres refuse root).
RUN_USER=""
setup_run_user() {
    if is_root; then
        RUN_USER="${PGDP_TEST_USER:-pgdp_test}"
        if ! id -u "$RUN_USER" >/dev/null 2>&1; then
            log "creating system user $RUN_USER to run the throwaway server"
            useradd --system --user-group --no-create-home --home-dir /nonexistent \
                --shell /usr/sbin/nologin "$RUN_USER"
        fi
    else
        RUN_USER="$(id -un)"
    fi
}

# Runs a command as RUN_USER, from RUN_CWD (default /: a directory that user can enter).
as_run_user() {
    if is_root; then
        (cd "${RUN_CWD:-/}" && runuser -u "$RUN_USER" -- "$@")
    else
        "$@"
    fi
}

# ---------------------------------------------------------------------------
PGDP_TMP=""
PGDP_CLUSTER_UP=0

stop_cluster() {
    if [ "$PGDP_CLUSTER_UP" = 1 ]; then
        as_run_user "$PG_BINDIR/pg_ctl" -D "$PGDP_TMP/data" -m immediate -w stop >/dev/null 2>&1 || true
        PGDP_CLUSTER_UP=0
    fi
    if [ -n "$PGDP_TMP" ] && [ -d "$PGDP_TMP" ]; then
        rm -rf "$PGDP_TMP"
    fi
    PGDP_TMP=""
}

# More temp dirs for cleanup to remove.
PGDP_CLEANUP_DIRS=()

# Installed as the EXIT trap by the scripts: the cluster goes away whatever happens.
cleanup() {
    local rc=$? d
    stop_cluster
    for d in "${PGDP_CLEANUP_DIRS[@]}"; do rm -rf "$d"; done
    exit "$rc"
}

pick_port() {
    # The socket lives in a private directory, so no other server can clash with it; the port is
    # still drawn from a high range, away from 5432, to keep clear of anything listening elsewhere.
    local port
    while :; do
        port=$((50000 + RANDOM % 10000))
        [ -e "/tmp/.s.PGSQL.$port" ] || break
    done
    echo "$port"
}

start_cluster() {
    local extra_conf="${1:-}"
    setup_run_user
    # /tmp, not $TMPDIR: unix socket paths are limited to 107 bytes.
    PGDP_TMP="$(mktemp -d /tmp/pgdp.XXXXXX)"
    chmod 700 "$PGDP_TMP"
    is_root && chown "$RUN_USER:" "$PGDP_TMP"
    local port
    port="$(pick_port)"
    log "cluster: initdb in $PGDP_TMP as $RUN_USER"
    as_run_user "$PG_BINDIR/initdb" -D "$PGDP_TMP/data" -U "$RUN_USER" --auth=trust \
        --encoding=UTF8 --locale=C --no-sync >"$PGDP_TMP/initdb.log" 2>&1 \
        || { cat "$PGDP_TMP/initdb.log" >&2; die "initdb failed"; }
    {
        echo ""
        echo "# scripts/common.sh: throwaway cluster, unix socket only"
        echo "listen_addresses = ''"
        echo "unix_socket_directories = '$PGDP_TMP'"
        echo "port = $port"
    } | as_run_user tee -a "$PGDP_TMP/data/postgresql.conf" >/dev/null
    if [ -n "$extra_conf" ]; then
        [ -r "$extra_conf" ] || die "config file $extra_conf not found"
        # A copy inside the private dir: the server user may not be able to read the repo.
        as_run_user tee "$PGDP_TMP/extra.conf" <"$extra_conf" >/dev/null
        echo "include '$PGDP_TMP/extra.conf'" | as_run_user tee -a "$PGDP_TMP/data/postgresql.conf" >/dev/null
    fi
    PGDP_CLUSTER_UP=1
    if ! as_run_user "$PG_BINDIR/pg_ctl" -D "$PGDP_TMP/data" -l "$PGDP_TMP/server.log" -w -t 60 \
            start >/dev/null; then
        cat "$PGDP_TMP/server.log" >&2 || true
        die "the throwaway server did not start"
    fi
    export PGHOST="$PGDP_TMP" PGPORT="$port" PGUSER="$RUN_USER" PGDATABASE=postgres
    unset PGSERVICE PGPASSWORD PGHOSTADDR
    log "cluster: PostgreSQL $("$PG_BINDIR/postgres" -V | awk '{print $3}') up on socket $PGHOST port $PGPORT"
}

print_server_log() {
    if [ -n "$PGDP_TMP" ] && [ -f "$PGDP_TMP/server.log" ]; then
        echo "---- server log ($PGDP_TMP/server.log, last 100 lines) ----" >&2
        tail -n 100 "$PGDP_TMP/server.log" >&2 || true
    fi
}

# The demo's and the benchmarks' own server: install what is missing, build and install pgdp,
# arm the cleanup traps and start a throwaway cluster with CONF (see start_cluster).
throwaway_server() {
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    build_and_install
    start_cluster "${1:-}"
}

# Packages, build and install, without a cluster (bench/planning.sh starts two).
build_and_install() {
    ensure_deps
    check_toolchain
    build_extension
    install_extension
}
