#!/usr/bin/env bash
# The one test command (`npm test`): sets up what the tests need, builds, checks and runs every suite.
# Exits non-zero if anything fails; prints one summary line per step at the end.
set -uo pipefail
cd "$(dirname "$0")/.."

summary=()
failed=0
step() {
  local name="$1"; shift
  local started=$SECONDS
  echo
  echo "=== $name: $*"
  if "$@"; then
    summary+=("ok    $name ($((SECONDS - started)) s)")
  else
    summary+=("FAIL  $name ($((SECONDS - started)) s)")
    failed=1
  fi
}

step "set up real VS Code" bash scripts/setup-real-vscode.sh
step "build" node esbuild.mjs --tests
step "package" npm run --silent package
step "typecheck" npm run --silent typecheck
step "lint" npm run --silent lint
step "unit" npx mocha --config test/unit/.mocharc.json
step "integration" env ACP_TEST_TIMEOUT_MS=2700000 node out/test/integration/run.js
step "e2e" node out/test/e2e/run.js
step "e2e (agent content)" node out/test/e2e/agent-content.js
step "e2e (agent text)" node out/test/e2e/agent-text.js
step "e2e (restricted mode)" node out/test/e2e/restricted-mode.js
step "e2e (focus)" node out/test/e2e/focus.js
step "e2e (host death)" node out/test/e2e/host-death.js
step "e2e (first run)" node out/test/e2e/first-run.js
step "e2e (review loop)" node out/test/e2e/review-loop.js
step "e2e (boot prompt)" node out/test/e2e/boot-prompt.js
step "e2e (follow the agent)" node out/test/e2e/follow-focus.js

echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
exit $failed
