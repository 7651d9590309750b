#!/usr/bin/env bash
# `npm run test:e2e`: the end-to-end tests in a real VS Code workbench.
#   1. scripts/e2e/setup.sh (a quick check when .e2e/ is already set up);
#   2. npm run package (dist/scord-vscode.vsix) and the extension-host suite's bundle;
#   3. the extension-host suite in code-server (test/e2e/runCodeServer.ts);
#   4. the UI test in code-server through chromium (test/e2e/ui.test.ts);
#   5. the extension-host suite in desktop VS Code through @vscode/test-electron
#      (test/e2e/runElectron.ts), when SCORD_E2E_VSCODE names a VS Code executable.
# Every part that runs must pass; a part that cannot run fails the whole (nothing is skipped
# silently). Artifacts (screenshots, logs, results) go to test/e2e/artifacts/.
set -uo pipefail
cd "$(dirname "$0")/../.."

failed=()
timings=()
t_all=$(date +%s)
part() { # part NAME COMMAND... : runs one part, records its time and outcome
  local name="$1"; shift
  local t0; t0=$(date +%s)
  echo "── e2e: $name ──"
  if "$@"; then
    timings+=("$(printf '%-44s %4ss  ok' "$name" "$(( $(date +%s) - t0 ))")")
    return 0
  fi
  timings+=("$(printf '%-44s %4ss  FAILED' "$name" "$(( $(date +%s) - t0 ))")")
  failed+=("$name")
  return 1
}
summary() {
  echo "── e2e: summary ──"
  printf '  %s\n' "${timings[@]}"
  echo "  total $(( $(date +%s) - t_all ))s; artifacts in test/e2e/artifacts/"
}

rm -rf test/e2e/artifacts
mkdir -p test/e2e/artifacts
# Preparation: without it nothing can run, so a failure here ends the run.
if ! part "setup (scripts/e2e/setup.sh)" bash scripts/e2e/setup.sh ||
   ! part "package (dist/scord-vscode.vsix)" npm run --silent package ||
   ! part "build the extension-host suite" node scripts/e2e/build.mjs; then
  summary
  echo "e2e: FAILED: ${failed[*]}" >&2
  exit 1
fi

part "extension-host suite in code-server" node --import tsx test/e2e/runCodeServer.ts
part "UI test in code-server + chromium" node --import tsx --test --test-reporter=spec test/e2e/ui.test.ts
if [ -n "${SCORD_E2E_VSCODE:-}${SCORD_E2E_VSCODE_VERSION:-}" ]; then
  part "extension-host suite in desktop VS Code" node --import tsx test/e2e/runElectron.ts
else
  echo "── e2e: extension-host suite in desktop VS Code: not run here (no VS Code build: set SCORD_E2E_VSCODE=/path/to/code to run it too) ──"
fi

summary
if [ ${#failed[@]} -gt 0 ]; then
  echo "e2e: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "e2e: all parts passed"
