/**
 * Issue 10, point 7: the kit installs from its `npm pack` tarball into an
 * empty folder, where `npx petstore-kit --help`, `mock` and `conformance`
 * work. The package is built into a scratch copy (the repository's dist/ is
 * left alone, since other tests run it), packed with the real `files` list,
 * and installed with --prefer-offline, so the npm cache `npm ci` filled
 * serves the dependencies.
 *
 * In the full tier (npm run test:all, CI): it builds, packs and installs the whole kit, which costs more CPU than
 * any other file of the fast tier; the fast tier's README and CLI tests run the same commands from the checkout.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.js';

const exec = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const SLOW = 240_000;

/** The URL a starting mock prints on stdout (within 60 s), or why it did not. */
function listeningUrl(mock: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the mock did not start: ${out}`)), 60_000);
    mock.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    mock.once('exit', (code) => reject(new Error(`the mock exited with ${code}: ${out}`)));
  });
}

describe('the npm package', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'petstore-kit-pack-'));
  const pkg = join(scratch, 'package');
  const app = join(scratch, 'app');
  let tarball = '';
  let files: string[] = [];

  beforeAll(async () => {
    mkdirSync(pkg);
    // What `files` names outside dist/ (the generated types ship as petstore-kit/types).
    for (const entry of ['package.json', 'README.md', 'bin', 'openapi.yaml', 'fixtures', 'src/generated']) cpSync(join(PACKAGE_ROOT, entry), join(pkg, entry), { recursive: true });
    // The build `prepack` runs (tsc, and Swagger UI's files into dist/swagger-ui/).
    await exec(process.execPath, [join(PACKAGE_ROOT, 'bin', 'dev', 'build.mjs'), join(pkg, 'dist')], { timeout: SLOW });
    const packed = await exec(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: pkg, timeout: SLOW });
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(scratch, info!.filename);
    files = info!.files.map((f) => f.path);
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'empty-app', private: true }));
    await exec(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: app, timeout: SLOW });
  }, SLOW);

  afterAll(() => {
    // A stopped command writes its V8 code cache into the app's node_modules/.cache as it exits (src/cli/code-cache.ts):
    // each test waits for the commands it stopped to be gone (gone() below); the removal also retries, as a last guard.
    rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it('holds what runs and nothing of the tests', () => {
    expect(files).toContain('dist/src/cli/main.js');
    // The command line's bundle, which bin/petstore-kit.js starts (bin/dev/build.mjs).
    expect(files).toContain('dist/cli/main.js');
    expect(files).toContain('dist/cli/bundle.cjs');
    expect(files).toContain('openapi.yaml');
    expect(files).toContain('fixtures/seed/pets.json');
    // The Pet Store's rule file and its behaviour module, which the generic engine serves it with (issue 34), and the
    // module's declaration (petstore-kit/msw/petstore-behaviour), which names its types by the package's own name: a
    // path into the kit's source tree would name files the package does not ship.
    expect(files).toContain('fixtures/rules/petstore.rules.yaml');
    expect(files).toContain('fixtures/rules/petstore.behaviour.mjs');
    expect(files).toContain('fixtures/rules/petstore.behaviour.d.mts');
    const declaration = readFileSync(join(app, 'node_modules', 'petstore-kit', 'fixtures', 'rules', 'petstore.behaviour.d.mts'), 'utf8');
    expect(declaration).toContain("from 'petstore-kit/behaviour'");
    expect(declaration).not.toMatch(/from '\.\.?\//);
    expect(existsSync(join(app, 'node_modules', 'petstore-kit', 'fixtures', 'rules', 'petstore.behaviour.mjs'))).toBe(true);
    expect(files).toContain('dist/mock/msw/node.d.ts');
    expect(files).toContain('src/generated/openapi.ts');
    expect(files).toContain('dist/swagger-ui/swagger-ui-bundle.js');
    expect(files).toContain('dist/swagger-ui/LICENSE');
    // Declarations ship for the typed entry points (petstore-kit/msw), and the generated types as petstore-kit/types; no other TypeScript source.
    const source = (f: string): boolean => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'src/generated/openapi.ts';
    const stray = files.filter((f) => /test-support|\.test\.(js|d\.ts)$|\.map$|^fixtures\/(defective|validation|independent|documents)/.test(f) || source(f));
    expect(stray).toEqual([]);
    // Everything the compiled code imports is a runtime dependency.
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const name of ['ajv', 'ajv-formats', 'undici', '@apidevtools/swagger-parser', '@faker-js/faker']) expect(manifest.dependencies).toHaveProperty([name]);
  });

  it('installs no install-time script and no telemetry (issue 23, point 5): no @scarf/scarf, no swagger-ui-dist', () => {
    expect(existsSync(join(app, 'node_modules', '@scarf'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', 'swagger-ui-dist'))).toBe(false);
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    expect(Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript === true).map(([path]) => path)).toEqual([]);
  });

  it('petstore-kit/msw/browser from the installed package bundles for a browser with plain esbuild: no plugin, no warning, no node: import', async () => {
    writeFileSync(join(app, 'page.js'), "import { createBrowserMock } from 'petstore-kit/msw/browser';\nwindow.createBrowserMock = createBrowserMock;\n");
    // msw is the app's own (a peer dependency, not installed here), as it is in any app that uses the worker.
    const result = await build({ entryPoints: [join(app, 'page.js')], absWorkingDir: app, bundle: true, platform: 'browser', format: 'esm', minify: true, write: false, metafile: true, logLevel: 'silent', external: ['msw'] });
    expect(result.warnings).toEqual([]);
    const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
    expect(imports.filter((path) => path.startsWith('node:'))).toEqual([]);
    expect(Object.keys(result.metafile.inputs).some((file) => file.includes('node_modules/petstore-kit/dist/mock/msw/browser.js'))).toBe(true);
    // The Pet Store's behaviour module comes with the entry (dist/fixtures/rules/, copied by the build): a page is createBrowserMock(data).
    expect(Object.keys(result.metafile.inputs).some((file) => file.includes('node_modules/petstore-kit/dist/fixtures/rules/petstore.behaviour.mjs'))).toBe(true);
  });

  it('npx petstore-kit --help works in an empty folder', { timeout: SLOW }, async () => {
    const { stdout } = await exec(NPX, ['--no-install', 'petstore-kit', '--help'], { cwd: app, timeout: SLOW });
    expect(stdout).toContain('Usage: petstore-kit <command>');
    expect(stdout).toContain('conformance');
    // The V8 code cache of the command line (src/cli/code-cache.ts) lives in the app's node_modules/.cache.
    expect(readdirSync(join(app, 'node_modules', '.cache', 'petstore-kit')).some((name) => name.startsWith('other-') && name.endsWith('.bin'))).toBe(true);
    const explained = await exec(NPX, ['--no-install', 'petstore-kit', 'conformance', '--explain', 'status-documented'], { cwd: app, timeout: SLOW });
    expect(explained.stdout).toContain('What it verifies:');
  });

  it('the mock stops when the `npx petstore-kit mock` process is stopped (regression: it was reparented and kept serving)', { timeout: SLOW }, async () => {
    const npx = spawn(NPX, ['--no-install', 'petstore-kit', 'mock', '--port', '0', '--quiet'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    // npx → sh → node: the whole chain, by PID, so that nothing is left behind even if the test fails.
    const chain: number[] = [];
    try {
      const url = await listeningUrl(npx);
      for (let pid = npx.pid; pid !== undefined; ) {
        chain.push(pid);
        // ps exits 1 when the process has no child: the end of the chain.
        const listed = await exec('ps', ['-o', 'pid=', '--ppid', String(pid)]).then((r) => r.stdout, () => '');
        const children = listed.trim().split(/\s+/).filter(Boolean).map(Number);
        pid = children[0];
      }
      expect(chain.length).toBeGreaterThanOrEqual(2);
      expect((await fetch(`${url}/__mock/health`)).status).toBe(200);
      npx.kill('SIGTERM');
      // Bounded: 60 looks, 250 ms apart; the kit looks at its parent every 500 ms, then closes gracefully.
      let stopped = false;
      for (let i = 0; i < 60 && !stopped; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        stopped = await fetch(`${url}/__mock/health`).then(() => false, () => true);
      }
      expect(stopped, `the mock at ${url} still answers after npx (PID ${npx.pid}) was stopped`).toBe(true);
    } finally {
      for (const pid of chain.reverse()) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone, as it should be
        }
      }
      for (const pid of chain) await gone(pid);
    }
  });

  it('the installed mock serves and the installed runner checks it, writing a JUnit report', { timeout: SLOW }, async () => {
    const bin = join(app, 'node_modules', '.bin', 'petstore-kit');
    const mock = spawn(bin, ['mock', '--port', '0', '--quiet'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await listeningUrl(mock);
      const report = join(app, 'conformance.xml');
      const run = await exec(bin, ['conformance', '--base-url', url, '--only', 'unknown-path-404,status-documented', '--format', 'junit', '--output', report], { cwd: app, timeout: SLOW });
      expect(run.stdout).toContain('report written to');
      expect(existsSync(report)).toBe(true);
      expect(readFileSync(report, 'utf8')).toContain('<testcase name="unknown-path-404 on (no operation)"');
      // The docs page's Swagger UI comes from the package's own dist/swagger-ui/.
      const bundle = await fetch(`${url}/__mock/docs/swagger-ui-bundle.js`);
      expect(bundle.status).toBe(200);
      expect((await bundle.text()).length).toBeGreaterThan(100_000);
    } finally {
      if (mock.pid !== undefined && mock.exitCode === null) mock.kill('SIGTERM');
      if (mock.pid !== undefined) await gone(mock.pid);
    }
  });
});

/**
 * Resolves once the process is gone (bounded: 100 looks, 100 ms apart). A stopped command writes its code cache into
 * the app's node_modules/.cache as it exits (src/cli/code-cache.ts): the folder is removed only after that write,
 * where a clean-up racing it failed with ENOTEMPTY (twice in test:all runs).
 */
async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
