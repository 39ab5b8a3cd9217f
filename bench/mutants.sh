#!/usr/bin/env bash
# The reference server's whole mutation catalogue against this runner (issue 19, point 4):
# ../shared/reference/run-mutants.sh, used as it is, with the clean server, its 17 legal variants and its
# 119 mutants less the four that are a mock fuzzer's job (deep-nesting-500, proto-pollution, order-race,
# id-race). It ends with `killed K/115 mutants, false positives F/18 targets, errors E`.
#   npm run bench:mutants            (about 10 minutes on 2 cores; OUT_DIR=... keeps the reports)
set -euo pipefail
cd "$(dirname "$0")/.."
REFERENCE=${REFERENCE:-../shared/reference}
[ -f "$REFERENCE/run-mutants.sh" ] || { echo "bench/mutants.sh: $REFERENCE/run-mutants.sh is missing (set REFERENCE=path/to/shared/reference)" >&2; exit 2; }
[ -f dist/src/cli/main.js ] || npm run build >/dev/null
SPEC=$(cd "$REFERENCE" && pwd)/ref-openapi.yaml
PROJECT=$(pwd) KIT_CMD="node bin/petstore-kit.js" KIT_ARGS="--spec $SPEC" \
  EXCLUDE="${EXCLUDE:-^mutant:(deep-nesting-500|proto-pollution|order-race|id-race)$}" \
  exec bash "$REFERENCE/run-mutants.sh"
