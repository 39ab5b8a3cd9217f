#!/usr/bin/env node
/**
 * `npm run build` (and `prepack`, so every tarball carries it): compiles the kit into dist/ and copies the few
 * files of swagger-ui-dist the docs page serves (mock/conveniences/docs.ts) into dist/swagger-ui/, with their licence.
 *
 *   node bin/dev/build.mjs [OUT_DIR] [--incremental]
 *
 * A clean build by default (what is packed holds nothing stale). `--incremental` (npm start, npm test) keeps dist/
 * and tsc's record of it (dist/.tsbuildinfo), so a second start or test run compiles only what changed.
 *
 * Why copy instead of depending on swagger-ui-dist at run time: swagger-ui-dist depends on @scarf/scarf, whose
 * postinstall reports every install to a third party (issue 23, point 5). Shipping the static files ourselves
 * keeps the published package free of it; swagger-ui-dist stays a devDependency, where `overrides` in
 * package.json replaces @scarf/scarf with the empty bin/dev/no-scarf.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const incremental = args.includes('--incremental');
const outDir = args.find((arg) => !arg.startsWith('--')) ?? join(root, 'dist');

/** What the docs page serves (mock/conveniences/docs.ts ASSETS), and the licence and notice Apache-2.0 asks to keep with them. */
const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'favicon-16x16.png', 'LICENSE', 'NOTICE'];

if (!incremental) rmSync(outDir, { recursive: true, force: true });
const tscArgs = ['-p', join(root, 'tsconfig.build.json'), '--outDir', outDir, ...(incremental ? ['--incremental', '--tsBuildInfoFile', join(outDir, '.tsbuildinfo')] : [])];
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), ...tscArgs], { stdio: 'inherit' });
const swaggerUi = dirname(require.resolve('swagger-ui-dist/package.json'));
mkdirSync(join(outDir, 'swagger-ui'), { recursive: true });
for (const name of SWAGGER_UI_FILES) cpSync(join(swaggerUi, name), join(outDir, 'swagger-ui', name));
// The Pet Store's behaviour module, beside the compiled modules as in the source tree: petstore-kit/msw/browser imports
// it (../../fixtures/rules/petstore.behaviour.mjs), as a page loads no file by path. The rule file names the original.
mkdirSync(join(outDir, 'fixtures', 'rules'), { recursive: true });
cpSync(join(root, 'fixtures', 'rules', 'petstore.behaviour.mjs'), join(outDir, 'fixtures', 'rules', 'petstore.behaviour.mjs'));
// The bundled openapi.yaml, parsed and validated thoroughly once here rather than at every start
// (src/contract/verified-snapshot.ts); kept while the document's bytes stay the same.
// A build into a folder outside the checkout (the package test's) cannot load the kit's dependencies from there: it
// goes without, and its starts take the whole path, as they did before the snapshot.
const snapshot = join(outDir, 'openapi.verified.json');
const documentSha = createHash('sha256').update(readFileSync(join(root, 'openapi.yaml'))).digest('hex');
const keptSha = existsSync(snapshot) ? JSON.parse(readFileSync(snapshot, 'utf8')).sha256 : undefined;
if (keptSha !== documentSha && resolvesFrom(outDir, '@apidevtools/swagger-parser')) {
  const { buildVerifiedSnapshot } = await import(pathToFileURL(join(outDir, 'src', 'contract', 'load.js')).href);
  await buildVerifiedSnapshot(snapshot);
}

function resolvesFrom(dir, specifier) {
  try {
    createRequire(join(dir, 'index.js')).resolve(specifier);
    return true;
  } catch {
    return false;
  }
}
// The command line as one bundle: a start loads one file instead of some three hundred modules, each resolved, read
// and wrapped apart, which took a fifth to a quarter of a second of CPU at every `petstore-kit` start (issue 33,
// point 2). It is CommonJS so that dist/cli/main.js can run it through vm.Script with a V8 code cache (the bytecode of
// an earlier run: src/cli/code-cache.ts says why and how; Node 20 has no compile cache for ES modules), keyed by the
// bundle's hash, worked out here once. The modules themselves stay in dist/ for the package's other entry points
// (petstore-kit/msw, …), and nothing is bundled from outside the package's own graph.
const { build } = await import('esbuild');
// Each file of dist/cli/ is written beside its place and renamed over it, never removed first: a test run may start the
// command line while a test file rebuilds a stale dist/ (mock/test-support/child-mock.ts buildIfStale), and a start
// in between found no dist/cli/main.js ("dist/ is missing or out of date", once in a fast tier).
const cliDir = join(outDir, 'cli');
mkdirSync(cliDir, { recursive: true });
const bundleFile = join(cliDir, 'bundle.cjs');
const nextBundle = join(cliDir, `bundle.${process.pid}.next.cjs`);
await build({
  entryPoints: [join(outDir, 'src', 'cli', 'main.js')],
  outfile: nextBundle,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // A build into a folder outside the checkout (the package test's) finds the dependencies where the checkout has them.
  nodePaths: [join(root, 'node_modules')],
  // The kit reads import.meta.url only to find its own files (the package root, a dependency's folder), which the
  // bundle's own place in dist/cli/ gives as the ES module bundle's did.
  define: { 'import.meta.url': '__petstoreKitBundleUrl' },
  banner: { js: "const __petstoreKitBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// Every character past ASCII (in comments, and a regular expression esbuild leaves as written) written as its \u
// escape, which means the same there and in strings: the bundle is then read as Latin-1 at every start, a quarter of
// the CPU of decoding 7 MB as UTF-8, and V8 keeps it as one-byte text rather than two-byte (src/cli/code-cache.ts).
const bundleText = readFileSync(nextBundle, 'utf8').replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
writeFileSync(nextBundle, bundleText);
renameSync(nextBundle, bundleFile);
const bundleSha = createHash('sha256').update(bundleText).digest('hex');
const nextMain = join(cliDir, `main.${process.pid}.next.js`);
writeFileSync(
  nextMain,
  `// Written by bin/dev/build.mjs: runs the command line's bundle (bundle.cjs) with a V8 code cache (src/cli/code-cache.ts).
import { fileURLToPath } from 'node:url';
import { loadCachedScript } from '../src/cli/code-cache.js';
import { isCommandName } from '../src/cli/options.js';

const BUNDLE_SHA256 = '${bundleSha}';

export async function main(argv) {
  // One cache per command: a conformance run and a mock compile different parts of the bundle.
  const name = isCommandName(argv[0]) ? argv[0] : 'other';
  const bundle = loadCachedScript({ file: fileURLToPath(new URL('./bundle.cjs', import.meta.url)), sourceHash: BUNDLE_SHA256, name, encoding: 'latin1' });
  process.once('exit', () => bundle.save());
  return bundle.exports.main(argv);
}
`,
);
renameSync(nextMain, join(cliDir, 'main.js'));
// Written last: the time of a complete build, which tests read to know dist/ is current (mock/test-support/child-mock.ts).
writeFileSync(join(outDir, '.build-stamp'), `${new Date().toISOString()}\n`);
