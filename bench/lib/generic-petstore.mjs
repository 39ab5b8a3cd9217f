#!/usr/bin/env node
/**
 * The Pet Store served by the generic engine and the contract's rule file (fixtures/rules/petstore.rules.yaml and its
 * behaviour module), through issue 34's seam (`useGenericEngine`, not a command-line flag): what `npm run bench --
 * --engine generic` measures in place of the Pet Store's own handlers. It takes the mock command's flags, parsed by
 * the mock's own parser, and prints the same `listening on URL` line, so the bench drives it like `petstore-kit mock`.
 * Generated data (`--pets N`, `--seed`) is the Pet Store engine's alone today: asked for, it stops with exit 2 and
 * says so, and the bench prints the row as an error rather than measuring an empty store.
 */
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { mockOptionsFrom } = await import(new URL('dist/mock/cli.js', `file://${root}/`).href);
const { startMock } = await import(new URL('dist/mock/server.js', `file://${root}/`).href);

const argv = process.argv.slice(2);
const options = mockOptionsFrom(argv);
// The parser gives pets its default (20) whether or not --pets was given: asked for is what argv says.
if (argv.includes('--pets') || options.seed !== undefined) {
  process.stderr.write('generic-petstore: --pets and --seed generate data with the Pet Store engine only; the generic engine serves fixtures (issue 34)\n');
  process.exit(2);
}
const mock = await startMock({
  ...options,
  useGenericEngine: true,
  mockOverlay: `${root}/fixtures/rules/petstore.rules.yaml`,
  fixtures: options.fixtures ?? `${root}/fixtures/seed`,
});
process.stdout.write(`listening on ${mock.url}${mock.app.basePath} (generic engine)\n`);
const stop = () => void mock.close().then(() => process.exit(0), () => process.exit(1));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
