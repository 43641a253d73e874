#!/usr/bin/env bash
# PostgreSQL's own regression suite with and without pgdp: preloading pgdp must change nothing for
# SQL that makes no release (docs/privacy.md "Inert where unused").
#
#   bash scripts/postgres-regress.sh            # fetch (cached), build, three runs, compare
#   bash scripts/postgres-regress.sh --keep     # keep the result directories of a passing run
#   bash scripts/postgres-regress.sh --compare  # only compare the runs kept from the last time
#
# The regression sources of the running major come from Debian's source package (apt-get source
# with a private source list, so the machine's apt configuration is untouched; the newest version
# the archive serves, cached in build/postgres-regress/). The suite (parallel_schedule, as
# `make installcheck` runs it) runs three times against throwaway clusters with the same settings:
#   baseline    no pgdp
#   preloaded   shared_preload_libraries = 'pgdp', the extension never created
#   installed   preloaded, and CREATE EXTENSION pgdp in the regression database (--load-extension)
# Result files are compared with the baseline's, not with PostgreSQL's expected files (a minor
# version between the sources and the server shows in both runs alike). Any difference fails,
# except lines the allow-list test/postgres-regress-allowed.txt names for the installed run
# (catalog listings that show pgdp's own objects).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

KEEP=0 COMPARE_ONLY=0
[ "${1:-}" = --keep ] && KEEP=1
[ "${1:-}" = --compare ] && KEEP=1 COMPARE_ONLY=1
WORK="$PGDP_ROOT/build/postgres-regress"
ALLOWED="$PGDP_ROOT/test/postgres-regress-allowed.txt"
mkdir -p "$WORK"

# deb-src lines for the suites and mirrors the machine's deb lines use (one-line and deb822 forms).
source_list() {
    {
        grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | sed 's/^deb /deb-src /' || true
        local f uris suites comps
        for f in /etc/apt/sources.list.d/*.sources; do
            [ -r "$f" ] || continue
            # One stanza per blank-line-separated block.
            awk 'BEGIN{RS=""; FS="\n"} {u=""; s=""; c=""; t="";
                 for (i=1;i<=NF;i++) { if ($i ~ /^URIs:/) u=substr($i,7); if ($i ~ /^Suites:/) s=substr($i,9);
                                       if ($i ~ /^Components:/) c=substr($i,13); if ($i ~ /^Types:/) t=$i }
                 if (t ~ /deb/ && u != "" && s != "") { n=split(s, ss, " "); for (k=1;k<=n;k++) print "deb-src " u " " ss[k] " " c } }' "$f"
        done
    } | grep -v 'packages.cloud.google.com' | sort -u
}

fetch_sources() {
    local package="postgresql-${PG_MAJOR}" apt_dir="$WORK/apt" opts
    mkdir -p "$apt_dir/lists/partial"
    source_list >"$apt_dir/sources.list"
    [ -s "$apt_dir/sources.list" ] || die "no Debian archive found in /etc/apt to fetch $package's source from"
    opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent
          -o "Dir::State::Lists=$apt_dir/lists" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
    apt-get "${opts[@]}" update -qq >"$apt_dir/update.log" 2>&1 || { cat "$apt_dir/update.log" >&2; die "apt-get update (sources) failed"; }
    local version tried=()
    # Newest first; a version the index lists may be missing from the pool (a security update).
    for version in $(apt-cache "${opts[@]}" showsrc "$package" 2>/dev/null | sed -n 's/^Version: //p' | sort -rV | uniq); do
        tried+=("$version")
        local upstream="${version%%-*}"
        if [ -d "$WORK/src-$upstream/src/test/regress" ]; then
            SOURCE_DIR="$WORK/src-$upstream"; SOURCE_VERSION="$upstream"; return 0
        fi
        rm -rf "$WORK/download" && mkdir -p "$WORK/download"
        if (cd "$WORK/download" && apt-get "${opts[@]}" source --download-only "$package=$version" >/dev/null 2>&1); then
            local tarball
            tarball=$(ls "$WORK/download"/*.orig.tar.* | head -1)
            mkdir -p "$WORK/src-$upstream"
            tar -xf "$tarball" -C "$WORK/src-$upstream" --strip-components=1 \
                "postgresql-$upstream/src/test/regress" 
            rm -rf "$WORK/download"
            SOURCE_DIR="$WORK/src-$upstream"; SOURCE_VERSION="$upstream"; return 0
        fi
    done
    # The archive may list a version whose files its pool no longer (or not yet) has: the .orig
    # tarball of the newest minor of the same major that the pool has (the comparison runs the same
    # sources with and without pgdp, so a minor apart from the server's does not matter).
    local uri minor
    uri="$(awk '/^deb-src/ {print $2; exit}' "$apt_dir/sources.list")"
    minor="$("$PG_CONFIG" --version | sed -n "s/^PostgreSQL ${PG_MAJOR}\.\([0-9]*\).*/\1/p")"
    for ((; ${minor:-0} >= 0; minor--)); do
        local upstream="${PG_MAJOR}.${minor}"
        tried+=("pool:$upstream")
        if [ -d "$WORK/src-$upstream/src/test/regress" ]; then
            SOURCE_DIR="$WORK/src-$upstream"; SOURCE_VERSION="$upstream"; return 0
        fi
        rm -rf "$WORK/download" && mkdir -p "$WORK/download"
        if /usr/lib/apt/apt-helper download-file \
            "$uri/pool/main/p/$package/${package}_${upstream}.orig.tar.bz2" \
            "$WORK/download/$package.orig.tar.bz2" >/dev/null 2>&1; then
            mkdir -p "$WORK/src-$upstream"
            tar -xf "$WORK/download/$package.orig.tar.bz2" -C "$WORK/src-$upstream" --strip-components=1 \
                "postgresql-$upstream/src/test/regress"
            rm -rf "$WORK/download"
            SOURCE_DIR="$WORK/src-$upstream"; SOURCE_VERSION="$upstream"; return 0
        fi
        [ "$minor" -eq 0 ] && break
    done
    die "could not download the source of $package (tried: ${tried[*]:-no version listed})"
}

# regress.so from the sources (PGXS), autoinc.so and refint.so as the server package installs them.
build_modules() {
    local dir="$WORK/modules-$SOURCE_VERSION"
    MODULE_DIR="$dir"
    [ -f "$dir/regress.so" ] && return 0
    mkdir -p "$dir"
    cp "$SOURCE_DIR/src/test/regress/regress.c" "$dir/"
    printf 'MODULES = regress\nPGXS := $(shell $(PG_CONFIG) --pgxs)\ninclude $(PGXS)\n' >"$dir/Makefile"
    make -s -C "$dir" PG_CONFIG="$PG_CONFIG" >"$dir/build.log" 2>&1 || { cat "$dir/build.log" >&2; die "building regress.so failed"; }
    local libdir
    libdir="$("$PG_CONFIG" --pkglibdir)"
    cp "$libdir/autoinc.so" "$libdir/refint.so" "$dir/"
}

# run_suite NAME PRELOAD [pg_regress options...]: one run into $WORK/runs/NAME.
run_suite() {
    local name=$1 preload=$2
    shift 2
    local conf="$WORK/$name.conf" out="$WORK/runs/$name"
    {
        echo "# scripts/postgres-regress.sh, run $name"
        echo "max_connections = 100"
        [ -n "$preload" ] && echo "shared_preload_libraries = '$preload'"
    } >"$conf"
    rm -rf "$out" && mkdir -p "$out"
    start_cluster "$conf"
    is_root && chown -R "$RUN_USER:" "$out" "$MODULE_DIR" "$SOURCE_DIR/src/test/regress"
    local t0=$SECONDS pg_regress tablespace=()
    pg_regress="$("$PG_CONFIG" --pkglibdir)/pgxs/src/test/regress/pg_regress"
    # Newer majors' pg_regress makes the tablespace test's directory itself when asked.
    "$pg_regress" --help 2>&1 | grep -q -- --make-testtablespace-dir && tablespace=(--make-testtablespace-dir)
    log "postgres-regress: $name (PostgreSQL $SOURCE_VERSION regression sources)"
    # As `make installcheck-parallel` runs it.
    RUN_CWD="$SOURCE_DIR/src/test/regress" as_run_user "$pg_regress" \
        --inputdir=. --outputdir="$out" --bindir="$PG_BINDIR" --dlpath="$MODULE_DIR" \
        --max-concurrent-tests=20 "${tablespace[@]}" --schedule=parallel_schedule \
        --host="$PGHOST" --port="$PGPORT" --user="$PGUSER" "$@" >"$out/pg_regress.log" 2>&1 || true
    stop_cluster
    log "postgres-regress: $name done in $((SECONDS - t0)) s: $(grep -E 'tests (passed|failed)|of [0-9]+ tests' "$out/pg_regress.log" | head -1 | tr -s ' ')"
}

# The names of pgdp's objects, from the install script: what allowed lines may name (a table's
# implicit primary key index, TABLE_pkey, included).
pgdp_object_names() {
    grep -oE "CREATE (OR REPLACE )?(FUNCTION|AGGREGATE|TABLE|VIEW|EVENT TRIGGER|TYPE|SEQUENCE|INDEX|PROCEDURE) +(pgdp\.)?[a-z_0-9]+" \
        "$PGDP_ROOT"/extension/pgdp--*.sql | awk '{print $NF; if ($2 == "TABLE") print $NF "_pkey"}' |
        sed 's/^pgdp\.//' | sort -u | paste -sd'|'
}

# compare_file BASE OTHER ALLOW: 0 if equal, or (ALLOW=1) if the other file only adds rows that name
# pgdp's objects, with the re-padded headers and row counts such rows bring. Prints the rest.
compare_file() {
    perl -e '
        my ($base, $other, $allow, $names) = @ARGV;
        my @diff = `diff "$base" "$other"`;
        my (%removed, @added, @bad);
        my $norm = sub { my $l = shift; $l =~ s/-+/-/g; $l =~ s/\s+/ /g; $l =~ s/^ | $//g; $l };
        my $count = qr/^\s*\(\d+ rows?\)\s*$/;
        for (@diff) {
            chomp;
            if (/^< (.*)$/s) { $removed{$norm->($1)}++ } elsif (/^> (.*)$/s) { push @added, $1 }
        }
        for my $line (@added) {
            my $n = $norm->($line);
            if ($removed{$n}) { $removed{$n}--; next }
            next if $allow && ($line =~ $count || $line =~ /^[-+\s]*$/ || $line =~ /\b(?:$names)\b/);
            push @bad, "> $line";
        }
        for my $n (keys %removed) {
            next unless $removed{$n} > 0;
            next if $allow && $n =~ $count;
            push @bad, "< $n" for 1 .. $removed{$n};
        }
        print "$_\n" for @bad;
        exit(@bad ? 1 : 0);
    ' "$1" "$2" "$3" "$(pgdp_object_names)"
}

# The result files of run RUN against the baseline's. Allowed: tests the allow-list names for RUN.
compare_runs() {
    local run=$1 failed=0 file test
    for file in "$WORK/runs/baseline/results"/*.out; do
        test=$(basename "$file" .out)
        local other="$WORK/runs/$run/results/$test.out"
        if [ ! -f "$other" ]; then
            echo "  $test: no result in run $run"; failed=1; continue
        fi
        cmp -s "$file" "$other" && continue
        local allow=0 changed
        grep -qE "^$run: +$test( |$)" "$ALLOWED" && allow=1
        if ! changed=$(compare_file "$file" "$other" "$allow"); then
            echo "  $test ($run): $(printf '%s\n' "$changed" | wc -l) changed lines: diff $file $other"
            printf '%s\n' "$changed" | head -8 | cut -c1-160 | sed 's/^/      /'
            failed=1
        fi
    done
    return $failed
}

if [ "$COMPARE_ONLY" = 0 ]; then
ensure_deps
check_toolchain
setup_run_user
trap cleanup EXIT
fetch_sources
log "postgres-regress: sources $SOURCE_VERSION in $SOURCE_DIR; server $("$PG_BINDIR/postgres" -V | awk '{print $3}')"
build_modules
# pgdp itself: built and installed like the tests do.
build_extension >/dev/null
install_extension

run_suite baseline ""
run_suite preloaded pgdp
run_suite installed pgdp --load-extension=pgdp
fi

status=0
for run in preloaded installed; do
    if compare_runs "$run"; then
        log "postgres-regress: $run: every result file as without pgdp (allowed lines aside)"
    else
        status=1
    fi
done
if [ "$status" = 0 ]; then
    [ "$KEEP" = 1 ] || rm -rf "$WORK/runs"
    log "postgres-regress: PASSED"
else
    log "postgres-regress: FAILED (results in $WORK/runs)"
fi
exit "$status"
