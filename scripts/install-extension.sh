#!/usr/bin/env bash
# Builds acp-client.vsix and installs it into VS Code: with `code` when it is on PATH (desktop VS Code), else
# into a local code-server (the real VS Code server and workbench), which is what machines without a VS Code
# download (like this project's CI) have.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent package
vsix="$PWD/acp-client.vsix"
echo "built $vsix ($(stat -c %s "$vsix") bytes)"
if command -v code >/dev/null 2>&1; then
  code --install-extension "$vsix" --force
  echo "installed into VS Code: open the ACP view in the activity bar."
  exit 0
fi
bash scripts/setup-real-vscode.sh
data="${ACP_CODE_SERVER_HOME:-$HOME/.local/share/acp-client-code-server}"
mkdir -p "$data/user-data" "$data/extensions"
node24="$PWD/.vscode-test/node24/bin/node"
entry="$PWD/.vscode-test/code-server/node_modules/code-server/out/node/entry.js"
"$node24" "$entry" --user-data-dir "$data/user-data" --extensions-dir "$data/extensions" --install-extension "$vsix" --force
cat <<EOT
installed into code-server ($data/extensions). Open it with:
  $node24 $entry --bind-addr 127.0.0.1:8080 --auth none --user-data-dir $data/user-data --extensions-dir $data/extensions <folder>
then browse to http://127.0.0.1:8080 and open the ACP view in the activity bar.
EOT
