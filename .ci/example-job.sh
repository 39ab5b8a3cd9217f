#!/usr/bin/env bash
# The README's CI job ("Run it in CI"), step for step, on this machine against
# the mock: proof that the recipe works as written. The one difference: the
# kit is installed from `npm pack` of this checkout instead of the registry.
# Exit code: the suite's (0 passed, 1 findings, 2 could not run).
#   bash .ci/example-job.sh            # mock on port 4010
#   PORT=4711 bash .ci/example-job.sh  # another port, if 4010 is taken
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PORT="${PORT:-4010}"
WORK="$(mktemp -d)"
OUT="$ROOT/reports/example-job"
MOCK_PID=""
kill_tree() {
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
cleanup() {
  # npx runs the mock as a grandchild (npx, sh, node): stop the whole tree, each by its PID, children first.
  if [ -n "$MOCK_PID" ]; then kill_tree "$MOCK_PID"; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "== install petstore-kit (from npm pack of $ROOT)"
(cd "$ROOT" && npm pack --silent --pack-destination "$WORK" > /dev/null)
cd "$WORK"
echo '{ "name": "ci-job", "private": true }' > package.json
npm install --no-save --no-audit --no-fund --prefer-offline ./petstore-kit-*.tgz > /dev/null

# ---- the job's steps, as the README gives them ----
BASE_URL="http://127.0.0.1:$PORT"
PETSTORE_TOKEN="${STAGING_TOKEN:-}"

echo "== start the mock"
npx petstore-kit mock --port "$PORT" --quiet > mock.log 2>&1 &
MOCK_PID=$!

echo "== wait until $BASE_URL answers"
answered=no
for i in $(seq 1 30); do
  if curl -fsS -o /dev/null "$BASE_URL/store/inventory?limit=1"; then answered=yes; break; fi
  sleep 1
done
if [ "$answered" != yes ]; then echo "$BASE_URL did not answer within 30 s"; cat mock.log; exit 2; fi

echo "== conformance"
mkdir -p reports
status=0
npx petstore-kit conformance --base-url "$BASE_URL" \
  ${PETSTORE_TOKEN:+--header "Authorization: Bearer $PETSTORE_TOKEN"} \
  --min-coverage operations=100 \
  --format junit --output reports/conformance.xml \
  --report html=reports/conformance.html \
  --report json=reports/conformance.json \
  --report markdown=reports/summary.md || status=$?

echo "== keep the reports (the CI job uploads them even when it fails)"
mkdir -p "$OUT"
cp reports/* "$OUT/"
ls -l "$OUT"
echo "== job summary"
cat "$OUT/summary.md"
exit "$status"
