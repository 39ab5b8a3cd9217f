#!/usr/bin/env bash
# Issue 10 point 8 by hand: Dredd and Specmatic against a fresh mock each, as
# src/contract/ecosystem-tools.full.test.ts runs them (read its header for why Dredd
# gets a copy with lone parameter `example`s and a hook that skips non-2xx).
# Needs npm (registry or cache) and, for Specmatic, Java 17+. Run `npm run build` first.
#   bash .ci/ecosystem-tools.sh     # logs in a temp dir, printed at the end
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
MOCK_PID=""
stop_mock() {
  # Stop only the mock this script started, by its PID.
  if [ -n "$MOCK_PID" ]; then kill "$MOCK_PID" 2>/dev/null || true; wait "$MOCK_PID" 2>/dev/null; MOCK_PID=""; fi
}
trap stop_mock EXIT

# Starts a fresh mock on a free port; sets PORT.
start_mock() {
  node "$ROOT/bin/petstore-kit.js" mock --port 0 >"$WORK/mock-$1.log" 2>&1 &
  MOCK_PID=$!
  PORT=""
  for _ in $(seq 1 300); do
    PORT="$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$WORK/mock-$1.log" | head -1)"
    [ -n "$PORT" ] && return 0
    sleep 0.1
  done
  echo "the mock did not start: $(cat "$WORK/mock-$1.log")" >&2
  exit 2
}

cd "$WORK"
node -e '
  const SwaggerParser = require(process.argv[1]);
  SwaggerParser.parse(process.argv[2]).then((doc) => {
    for (const p of Object.values(doc.components.parameters)) {
      if (!p.examples) continue;
      p.example = Object.values(p.examples)[0].value;
      delete p.examples;
    }
    require("node:fs").writeFileSync("openapi-for-dredd.json", JSON.stringify(doc));
  });
' "$ROOT/node_modules/@apidevtools/swagger-parser" "$ROOT/openapi.yaml"
cat >dredd-hooks.cjs <<'HOOKS'
const hooks = require('hooks');
hooks.beforeEach((transaction, done) => {
  if (!/^2\d\d$/.test(String(transaction.expected.statusCode))) transaction.skip = true;
  done();
});
HOOKS

start_mock dredd
npx --yes dredd@14.1.0 openapi-for-dredd.json "http://127.0.0.1:$PORT" --hookfiles=dredd-hooks.cjs --color=false >dredd.log 2>&1
echo "dredd (exit $?): $(grep '^complete: .* total' dredd.log)"
stop_mock

start_mock specmatic
npx --yes specmatic@2.55.1 test "$ROOT/openapi.yaml" --testBaseURL="http://127.0.0.1:$PORT" >specmatic.log 2>&1
echo "specmatic (exit $?, the npm wrapper says 0 even on failures): $(grep '^Tests run:' specmatic.log)"
grep 'has FAILED' specmatic.log || true
stop_mock

echo "logs: $WORK/dredd.log $WORK/specmatic.log"
