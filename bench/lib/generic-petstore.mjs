#!/usr/bin/env node
/**
 * The Pet Store served by the generic engine and the contract's rule file (fixtures/rules/petstore.rules.yaml and its
 * behaviour module), as `petstore-kit mock` serves it since issue 34 (kept for `--engine generic` and GENERIC_PETSTORE_*): what `npm run bench --
 * --engine generic` measures in place of the Pet Store's own handlers. It takes the mock command's flags, parsed by
 * the mock's own parser, and prints the same `listening on URL` line, so the bench drives it like `petstore-kit mock`.
 * `--seed N --pets K` serves the Pet Store generator's data through the seam too, so the scale section measures it.
 */
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
// For a comparison by hand of two builds in one harness (before and after a change of the engine): another compiled
// tree than dist/ (GENERIC_PETSTORE_DIST, a folder at the same depth as dist/, e.g. `tsc --outDir dist-before`) and
// another rule file (GENERIC_PETSTORE_OVERLAY). Unset, the bench measures this checkout's dist/ and rule file.
const dist = process.env.GENERIC_PETSTORE_DIST ?? `${root}/dist`;
const overlay = process.env.GENERIC_PETSTORE_OVERLAY ?? `${root}/fixtures/rules/petstore.rules.yaml`;
const { mockOptionsFrom } = await import(new URL('mock/transport/cli.js', `file://${dist}/`).href);
const { startMock } = await import(new URL('mock/transport/server.js', `file://${dist}/`).href);

const argv = process.argv.slice(2);
const options = mockOptionsFrom(argv);
const mock = await startMock({
  ...options,
  mockOverlay: overlay,
  ...(options.seed === undefined ? { fixtures: options.fixtures ?? `${root}/fixtures/seed` } : {}),
});
process.stdout.write(`listening on ${mock.url}${mock.app.basePath} (generic engine)\n`);
const stop = () => void mock.close().then(() => process.exit(0), () => process.exit(1));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
