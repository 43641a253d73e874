# shellcheck shell=bash
# Citus for the tests and benchmarks that need a distributed cluster (sourced after
# scripts/common.sh, not run).
#
#   ensure_citus    make Citus $CITUS_VERSION's major.minor available to the PostgreSQL of $PG_CONFIG:
#                   0  an installed Citus of that version is there, or was built and installed now;
#                   1  not available: no installed Citus and no release tarball (a reason to skip);
#                   2  the tarball is there but could not be used: wrong checksum, missing packages,
#                      configure, build or install failed (a failure, not a skip).
#                   The reason is logged, and kept in CITUS_STATUS for the caller's summary.
#
# Citus is not packaged by Debian. Its unchanged release source is vendored as a tarball; the build
# (about 3 minutes on 2 cores) is cached in build/citus-<first 16 hex of its sha256>/ and reused
# once its stamp file exists. The stamp is written last and names the PostgreSQL it was built for.

# One Citus release per PostgreSQL major (../shared/vendor/README.md): 12.1 for 15 and 16 (13.2 does
# not compile against 15.20's headers), 13.2 for 17, 14.0 for 18.
case "$PG_MAJOR" in
    15 | 16)
        CITUS_VERSION=12.1.12
        CITUS_SHA256=a344da15513601e718a268d907e1c86e43a69eb243398b929f65a4580723f552
        ;;
    17)
        CITUS_VERSION=13.2.2
        CITUS_SHA256=c8fc76dc8294636a52b1a0dd75a20d8b4a36937df6443e30ca84d8d0464a6bb9
        ;;
    *)
        CITUS_VERSION=14.0.1
        CITUS_SHA256=26ddb8ec9de07c5fa8426e435d10936e5cd6bed01a5ad94aab92e818081e5ec9
        ;;
esac
# The extension version in citus.control (12.1-1, 13.2-1, 14.0-1).
CITUS_EXTENSION_VERSION="${CITUS_VERSION%.*}"
# Beyond PGDP_PACKAGES (which has libkrb5-dev: PostgreSQL's headers, built --with-gssapi, include
# gssapi.h, for pgdp's own build too): Citus links lz4 and zstd. Not needed (measured): flex, bison, libselinux1-dev, libpam0g-dev, and
# libcurl4-openssl-dev with --without-libcurl (the anonymous statistics collector, off anyway).
CITUS_PACKAGES=(liblz4-dev libzstd-dev)
if [ "$PG_MAJOR" -ge 16 ]; then CITUS_PACKAGES+=(libicu-dev); fi
# PostgreSQL 18's pg_config.h defines HAVE_LIBCURL (its OAuth support), which turns on Citus's curl
# code whatever --without-libcurl says: build it with libcurl then (Citus's statistics collection
# stays off: only its packagers' builds enable it).
CITUS_CONFIGURE_OPTIONS=(--without-libcurl)
if [ "$PG_MAJOR" -ge 18 ]; then
    CITUS_PACKAGES+=(libcurl4-openssl-dev)
    CITUS_CONFIGURE_OPTIONS=()
fi
CITUS_STATUS=""

# True when the PostgreSQL of $PG_CONFIG has citus.so and a citus.control of version $CITUS_EXTENSION_VERSION-x.
citus_installed() {
    local control
    control="$("$PG_CONFIG" --sharedir)/extension/citus.control"
    [ -f "$("$PG_CONFIG" --pkglibdir)/citus.so" ] && [ -f "$control" ] &&
        grep -Eq "^[[:space:]]*default_version[[:space:]]*=[[:space:]]*'${CITUS_EXTENSION_VERSION//./\\.}-[0-9]+'" "$control"
}

# Prints the tarball to build from, nothing when there is none. An explicit PGDP_CITUS_TARBALL is
# the only candidate: a wrong path must not fall back to another file.
citus_tarball() {
    local candidate
    if [ -n "${PGDP_CITUS_TARBALL:-}" ]; then
        [ -f "$PGDP_CITUS_TARBALL" ] && echo "$PGDP_CITUS_TARBALL"
        return 0
    fi
    for candidate in "$PGDP_ROOT/../shared/vendor/citus-${CITUS_VERSION}.tar.gz" \
        "/work/shared/vendor/citus-${CITUS_VERSION}.tar.gz"; do
        if [ -f "$candidate" ]; then
            echo "$candidate"
            return 0
        fi
    done
}

citus_fail() {
    CITUS_STATUS="$2"
    printf 'pgdp: citus: %s\n' "$2" >&2
    return "$1"
}

# Installs the missing CITUS_PACKAGES (returns non-zero instead of exiting, unlike ensure_deps).
citus_ensure_packages() {
    local missing=() p
    for p in "${CITUS_PACKAGES[@]}"; do
        pkg_installed "$p" || missing+=("$p")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    log "citus: installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends -o Dpkg::Use-Pty=0 "${missing[@]}" >/dev/null || return 1
    for p in "${missing[@]}"; do
        pkg_installed "$p" || return 1
    done
}

ensure_citus() {
    CITUS_STATUS=""
    if citus_installed; then
        CITUS_STATUS="installed Citus found in $("$PG_CONFIG" --pkglibdir)"
        log "citus: $CITUS_STATUS"
        return 0
    fi
    local tarball
    tarball="$(citus_tarball)"
    if [ -z "$tarball" ]; then
        if [ -n "${PGDP_CITUS_TARBALL:-}" ]; then
            citus_fail 1 "no Citus $CITUS_EXTENSION_VERSION installed for $PG_CONFIG, and PGDP_CITUS_TARBALL=$PGDP_CITUS_TARBALL does not exist"
        else
            citus_fail 1 "no Citus $CITUS_EXTENSION_VERSION installed for $PG_CONFIG, and no citus-${CITUS_VERSION}.tar.gz in $PGDP_ROOT/../shared/vendor or /work/shared/vendor (set PGDP_CITUS_TARBALL)"
        fi
        return
    fi
    local sum
    sum="$(sha256sum "$tarball" | awk '{print $1}')"
    if [ "$sum" != "$CITUS_SHA256" ]; then
        citus_fail 2 "$tarball has sha256 $sum, not the release's $CITUS_SHA256: refused"
        return
    fi
    citus_ensure_packages || { citus_fail 2 "could not install ${CITUS_PACKAGES[*]}"; return; }

    local builddir="$PGDP_ROOT/build/citus-${CITUS_SHA256:0:16}"
    local srcdir="$builddir/citus-${CITUS_VERSION}"
    local stamp="$builddir/build-complete"
    local pg_version
    pg_version="$("$PG_CONFIG" --version)"
    # The headers are what a build depends on: same major and minor version, same build.
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pg_version" ]; then
        log "citus: reusing the build in $builddir"
    else
        log "citus: building $CITUS_VERSION in $builddir (about 3 minutes on 2 cores)"
        local t0=$SECONDS
        rm -rf "$builddir"
        mkdir -p "$builddir"
        tar -xzf "$tarball" -C "$builddir" || { citus_fail 2 "could not unpack $tarball"; return; }
        [ -d "$srcdir" ] || { citus_fail 2 "$tarball has no citus-${CITUS_VERSION}/"; return; }
        if ! (cd "$srcdir" && ./configure "${CITUS_CONFIGURE_OPTIONS[@]}" PG_CONFIG="$PG_CONFIG") \
            >"$builddir/configure.log" 2>&1; then
            tail -n 30 "$builddir/configure.log" >&2
            citus_fail 2 "configure failed (log: $builddir/configure.log)"
            return
        fi
        # with_llvm=no: no LLVM bitcode for JIT inlining (Citus is not JIT-inlined anyway); halves
        # the build.
        if ! make -C "$srcdir" -j"$MAKE_JOBS" with_llvm=no >"$builddir/make.log" 2>&1; then
            tail -n 30 "$builddir/make.log" >&2
            citus_fail 2 "build failed (log: $builddir/make.log)"
            return
        fi
        echo "$pg_version" >"$stamp"
        log "citus: built in $((SECONDS - t0)) s"
    fi
    log "citus: make install into $("$PG_CONFIG" --pkglibdir)"
    if ! as_root make -C "$srcdir" with_llvm=no PG_CONFIG="$PG_CONFIG" install \
        >"$builddir/install.log" 2>&1; then
        tail -n 30 "$builddir/install.log" >&2
        citus_fail 2 "make install failed (log: $builddir/install.log)"
        return
    fi
    citus_installed || { citus_fail 2 "installed, but citus.so or citus.control $CITUS_EXTENSION_VERSION is not there"; return; }
    CITUS_STATUS="Citus $CITUS_VERSION built from $tarball and installed"
}
