# shellcheck shell=bash disable=SC2034  # NODE_PG_STATUS is read by the scripts that source this file
# Node.js and node-postgres for the dashboard client (demo/dashboard), shared by scripts/demo.sh and
# scripts/test.sh (sourced after scripts/common.sh, not run).
#
#   ensure_node_pg   returns 0 when `node` runs and require('pg') resolves through NODE_PATH, 1 when
#                    it cannot be made so here; NODE_PG_STATUS says which and why. Uses the machine's
#                    node (installs the Debian packages nodejs and npm only when node is missing and
#                    we may use apt), then `npm ci` of demo/dashboard/package-lock.json into
#                    build/node (npm's download cache in build/node/npm-cache), once: a later call
#                    whose lockfile matches the installed one does not touch the network.
#                    Exports NODE_PATH=build/node/node_modules.
#   PGDP_NODE=0      skip: ensure_node_pg returns 1 without trying.

NODE_PG_DIR="$PGDP_ROOT/build/node"
NODE_PG_LOCK="$PGDP_ROOT/demo/dashboard/package-lock.json"
NODE_PG_STATUS=""

ensure_node_pg() {
    if [ "${PGDP_NODE:-1}" = 0 ]; then
        NODE_PG_STATUS="PGDP_NODE=0"
        return 1
    fi
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        if command -v apt-get >/dev/null 2>&1 && { is_root || command -v sudo >/dev/null 2>&1; }; then
            log "node: installing the Debian packages nodejs and npm"
            as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                -o Dpkg::Use-Pty=0 nodejs npm >/dev/null 2>&1 || true
        fi
        if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
            NODE_PG_STATUS="node or npm not found and could not be installed (apt-get install nodejs npm)"
            return 1
        fi
    fi
    local major
    major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
    if [ "$major" -lt 18 ]; then
        NODE_PG_STATUS="node $(node --version 2>/dev/null) is older than 18"
        return 1
    fi
    mkdir -p "$NODE_PG_DIR"
    # The install is current when its copy of the lockfile is ours and pg resolves from it.
    if ! cmp -s "$NODE_PG_LOCK" "$NODE_PG_DIR/package-lock.json" ||
        [ ! -f "$NODE_PG_DIR/node_modules/pg/package.json" ]; then
        log "node: npm ci of node-postgres into $NODE_PG_DIR"
        cp "$PGDP_ROOT/demo/dashboard/package.json" "$NODE_PG_LOCK" "$NODE_PG_DIR/"
        local t0=$SECONDS
        if ! npm ci --prefix "$NODE_PG_DIR" --cache "$NODE_PG_DIR/npm-cache" --no-audit --no-fund \
                --ignore-scripts --loglevel=error >"$NODE_PG_DIR/npm-ci.log" 2>&1; then
            rm -f "$NODE_PG_DIR/package-lock.json"   # not current: try again next time
            NODE_PG_STATUS="npm ci failed (registry unreachable?), see $NODE_PG_DIR/npm-ci.log"
            return 1
        fi
        log "node: npm ci in $((SECONDS - t0)) s"
    fi
    export NODE_PATH="$NODE_PG_DIR/node_modules"
    local version
    if ! version="$(node -e 'process.stdout.write(require("pg/package.json").version)' 2>&1)"; then
        NODE_PG_STATUS="require('pg') fails: $version"
        return 1
    fi
    NODE_PG_STATUS="node $(node --version), pg $version"
    return 0
}
