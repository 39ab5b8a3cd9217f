#!/usr/bin/env bash
# A built checkout of an earlier commit, for `npm run bench -- --before DIR` (issue 22, point 7: the Pet Store
# within 5% of its throughput before the generic engine, measured in the same rounds as this build).
#
#   bash bench/before.sh [REF] [DIR]     # default: 5771fa7 (the last commit before the engine) into a temp dir
#
# The commit's files are extracted with `git archive` (no worktree, no checkout of this one touched) and built
# with this checkout's TypeScript; its node_modules is this checkout's, linked: the dependencies the two builds
# share are then the same bytes, so what differs is the project's own code. Prints the directory.
set -euo pipefail
ref="${1:-5771fa7}"
dir="${2:-$(mktemp -d "${TMPDIR:-/tmp}/petstore-before-XXXXXX")}"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$dir"
git -C "$root" archive "$ref" | tar -x -C "$dir"
ln -sfn "$root/node_modules" "$dir/node_modules"
# A commit with the kit's build script is built by it (its CLI bundle and verified document too: a dist/ without them is
# refused as out of date by bin/petstore-kit.js); an older one by tsc alone, as it was then.
if [ -f "$dir/bin/dev/build.mjs" ]; then
  (cd "$dir" && node bin/dev/build.mjs) >&2
else
  (cd "$dir" && node "$root/node_modules/typescript/bin/tsc" -p tsconfig.build.json) >&2
fi
test -f "$dir/bin/petstore-kit.js" && test -d "$dir/dist" || { echo "before.sh: $ref did not build into $dir" >&2; exit 1; }
echo "$dir"
