#!/usr/bin/env bash
# The one test command (`npm test`): sets up what the tests need, builds, checks and runs every suite.
# Exits non-zero if anything fails; prints one summary line per step at the end.
set -uo pipefail
cd "$(dirname "$0")/.."

summary=()
failed=0
# CI shows only the end of this output, so what failed is repeated after the summary: each failing step's own
# failure lines (the integration runner writes one line per failing test to test-results/failures-integration.txt).
mkdir -p test-results
rm -f test-results/failures-*.txt
logs=$(mktemp -d)
whatFailed=()
step() {
  local name="$1"; shift
  local started=$SECONDS
  local log="$logs/${#summary[@]}.log"
  echo
  echo "=== $name: $*"
  "$@" 2>&1 | tee "$log"
  if [ "${PIPESTATUS[0]}" -eq 0 ]; then
    summary+=("ok    $name ($((SECONDS - started)) s)")
  else
    summary+=("FAIL  $name ($((SECONDS - started)) s)")
    failed=1
    local listed="test-results/failures-${name// /-}.txt"
    if [ -s "$listed" ]; then
      whatFailed+=("$name:" "$(head -c 1500 "$listed")")
    else
      # An e2e suite marks each failed check with ✘ (and goes on to the next); those lines come first, since the
      # final assertion only says that some check failed.
      whatFailed+=("$name:" "$(grep -a '✘' "$log" | head -n 8 | cut -c 1-600)")
      whatFailed+=("$(grep -a -i -E 'error|fail|expected|timed out|timeout|exceeded|assert' "$log" | grep -a -v '✘' | tail -n 6 | cut -c 1-300)")
    fi
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
step "e2e (state × command matrix)" node out/test/e2e/matrix-states.js
step "e2e (transcript scroll)" node out/test/e2e/transcript-scroll.js
step "e2e (transcript reveal)" node out/test/e2e/transcript-reveal.js
step "e2e (transcript terminal)" node out/test/e2e/transcript-terminal.js
step "e2e (fast reload)" node out/test/e2e/fast-reload.js

echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
  echo
  echo "=== what failed"
  printf '%s\n' "${whatFailed[@]}"
fi
rm -rf "$logs"
exit $failed
