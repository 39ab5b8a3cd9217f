#!/usr/bin/env bash
# The README's CI job ("Run it in CI"), step for step and word for word, on this
# machine against the mock: proof that the recipe works as written. The job's
# variables point at this checkout: KIT_REPO is its folder and KIT_REF its HEAD,
# so it builds what is committed (src/cli/readme-ci.test.ts keeps the steps in
# step with the README).
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

cd "$WORK"
# ---- the job's variables: this checkout stands for the kit's repository ----
BASE_URL="http://127.0.0.1:$PORT"
PETSTORE_TOKEN="${STAGING_TOKEN:-}"
KIT_REPO="$ROOT"
KIT_REF="$(git -C "$ROOT" rev-parse HEAD)"
if [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no)" ]; then echo "note: uncommitted changes in $ROOT are not in the job (it builds $KIT_REF)"; fi

# ---- the job's steps, as the README gives them ----
echo "== install petstore-kit (built from $KIT_REPO at $KIT_REF)"
git clone --quiet "$KIT_REPO" kit && git -C kit checkout --quiet "$KIT_REF"
(cd kit && npm ci --ignore-scripts --no-audit --no-fund && npm pack --silent --pack-destination ..)
npm install --no-save --no-audit --no-fund ./petstore-kit-*.tgz

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
