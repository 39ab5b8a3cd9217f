#!/usr/bin/env node
// The executable runs the compiled JavaScript in dist/ (built by `npm install`
// through the `prepare` script), so start-up pays no TypeScript compile.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('petstore-kit: dist/ is missing; run `npm install` (or `npm run build`) in the petstore-kit folder first.\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
