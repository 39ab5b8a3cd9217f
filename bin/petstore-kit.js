#!/usr/bin/env node
// The executable runs the compiled JavaScript in dist/, so start-up pays no TypeScript compile. dist/ is built by
// `npm run build`: `prepack` puts it in every tarball, and `npm start` and `npm test` build it first in a clone.
import { existsSync } from 'node:fs';

// The command line's bundle (bin/dev/build.mjs says why it is one).
const entry = new URL('../dist/cli/main.js', import.meta.url);
const followParent = new URL('../dist/src/cli/follow-parent.js', import.meta.url);
if (!existsSync(entry) || !existsSync(followParent)) {
  process.stderr.write('petstore-kit: dist/ is missing or out of date; run `npm run build` in the petstore-kit folder first (`npm start` and `npm test` do).\n');
  process.exit(2);
}
// Run by npx or npm start, stop when npm is stopped (src/cli/follow-parent.ts says why).
const { followParentWhenRunByNpm } = await import(followParent.href);
followParentWhenRunByNpm();
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
