/**
 * The command line as a user runs it: `node bin/petstore-kit.js mock`, which
 * runs the built dist/ (built here once, when stale). Reads the one
 * `listening on` line, talks to the mock with the contract-checking client,
 * stops it with SIGTERM/SIGINT by PID and checks the exit code.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KitError } from '../src/kit-error.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { bundledContract } from '../src/test-support.js';
import type { Category, Order, Pet } from '../src/types.js';
import { mockOptionsFrom } from './cli.js';
import { startMock } from './server.js';
import { createContractClient, type ContractClient } from './test-support/contract-client.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'petstore-kit.js');
const BUILT = ['dist/src/cli/main.js', 'dist/mock/cli.js', 'dist/mock/server.js', 'dist/mock/app.js'].map((file) => join(PACKAGE_ROOT, file));

/** The newest mtime of the TypeScript the build compiles. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** `npm run build` when dist/ is missing or older than the sources; once per run of this file. */
function buildIfStale(): void {
  const sources = Math.max(...['src', 'mock', 'conformance'].map((dir) => newestSource(join(PACKAGE_ROOT, dir))));
  const built = BUILT.every(existsSync) ? Math.min(...BUILT.map((file) => statSync(file).mtimeMs)) : 0;
  if (built > sources) return;
  const result = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
  // tsc emits even when another part of the tree does not type-check; what matters here is that the mock was built.
  if (!BUILT.every(existsSync)) throw new Error(`the build did not produce dist/: ${result.stdout}${result.stderr}`);
}

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exit: Promise<number | null>;
}

const children = new Set<ChildProcess>();

/** Starts the CLI; resolves once it printed its line, or rejects with what it wrote when it exits first. */
function start(args: readonly string[]): Promise<Running> {
  const child = spawn(process.execPath, [BIN, 'mock', ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    children.delete(child);
    resolve(code);
  }));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 15 s; stderr: ${err}`)), 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^listening on (http:\/\/\S+)[^\n]*\n/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, stdout: () => out, stderr: () => err, exit });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    void exit.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited with ${code} before listening: ${err}`), { code, stderr: err }));
    });
  });
}

/** Runs the CLI to its end (for the failures that never listen). */
function run(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'mock', ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

const { compiled } = await bundledContract();
const clients: ContractClient[] = [];
const clientFor = (url: string): ContractClient => {
  const client = createContractClient({ origin: url, compiled });
  clients.push(client);
  return client;
};

beforeAll(() => {
  buildIfStale();
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const child of children) if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
});

describe('petstore-kit mock', () => {
  it('serves the default data on the printed port, logs to stderr, and exits 0 on SIGTERM', async () => {
    const mock = await start(['--port', '0']);
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    const api = clientFor(mock.url);
    const pets = await api.get('/pets', { query: { limit: 100 } });
    expect(Number(pets.headers['x-total-count'])).toBeGreaterThanOrEqual(20);
    expect(new Set((pets.body as Pet[]).map((p) => p.status))).toEqual(new Set(['available', 'pending', 'sold']));
    expect(Number((await api.get('/categories')).headers['x-total-count'])).toBeGreaterThanOrEqual(4);
    const orders = (await api.get('/store/orders', { query: { limit: 100 } })).body as Order[];
    expect(orders.some((o) => o.complete)).toBe(true);
    expect(orders.some((o) => !o.complete)).toBe(true);
    expect((await api.get('/store/inventory')).headers['x-total-count']).toBe(pets.headers['x-total-count']);

    process.kill(mock.child.pid!, 'SIGTERM');
    expect(await mock.exit).toBe(0);
    expect(mock.stdout()).toBe(`listening on ${mock.url} (docs: ${mock.url}/__mock/docs)\n`);
    expect(mock.stderr()).toMatch(/^GET \/pets 200 [0-9.]+ms$/m);
  });

  it('the start-up line shows the base path and names the docs page (regression: --base-path was not shown)', async () => {
    const mock = await start(['--port', '0', '--base-path', '/api/v1', '-q']);
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+\/api\/v1$/);
    const origin = mock.url.replace(/\/api\/v1$/, '');
    expect(mock.stdout()).toBe(`listening on ${origin}/api/v1 (docs: ${origin}/__mock/docs)\n`);
    const api = createContractClient({ origin, compiled, basePath: '/api/v1' });
    clients.push(api);
    expect((await api.get('/api/v1/pets')).status).toBe(200);
    process.kill(mock.child.pid!, 'SIGTERM');
    expect(await mock.exit).toBe(0);
  });

  it('exits 0 on SIGINT, even with a request still waiting on Prefer: delay', async () => {
    const mock = await start(['--port', '0', '--quiet']);
    const api = clientFor(mock.url);
    // The request must be in the server's hands before the signal: on a loaded
    // 2-core CI machine 50 ms was not always enough (it failed once), so the
    // delay is long and the signal waits 500 ms.
    const slow = api.get('/categories', { headers: { prefer: 'delay=2000' } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(mock.child.pid!, 'SIGINT');
    expect((await slow).status).toBe(200);
    expect(await mock.exit).toBe(0);
    expect(mock.stderr()).toBe('');
  });

  it('--seed N --pets K generates the same data for the same seed', async () => {
    const [a, b] = await Promise.all([start(['--port', '0', '--quiet', '--fixtures', 'none', '--seed', '7', '--pets', '50']), start(['--port', '0', '--quiet', '--seed', '7', '--pets', '50'])]);
    const [apiA, apiB] = [clientFor(a.url), clientFor(b.url)];
    expect((await apiA.get('/pets')).headers['x-total-count']).toBe('50');
    expect(await apiA.state()).toEqual(await apiB.state());
    for (const m of [a, b]) process.kill(m.child.pid!, 'SIGTERM');
    expect(await Promise.all([a.exit, b.exit])).toEqual([0, 0]);
  });

  it('--fixtures none starts empty; --now past the sunset makes getPet answer 410', async () => {
    const mock = await start(['--port', '0', '--quiet', '--fixtures', 'none', '--now', '2027-07-01T00:00:00Z']);
    const api = clientFor(mock.url);
    expect((await api.get('/pets')).headers['x-total-count']).toBe('0');
    expect((await api.get('/categories')).body as Category[]).toEqual([]);
    expect((await api.get('/pets/1')).status).toBe(410);
    process.kill(mock.child.pid!, 'SIGTERM');
    expect(await mock.exit).toBe(0);
  });

  it('a port in use exits 2 with a message that says what to do', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const result = await run(['--port', String(port)]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is in use.*--port`));
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('an unknown flag exits 2 before loading anything, with a usage message', async () => {
    const result = await run(['--unknown']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/USAGE: .*Unknown option '--unknown'.*See petstore-kit mock --help/);
    expect(result.stdout).toBe('');
  });
});

// The same checks in process (each would otherwise cost a Node start-up): main() turns these KitErrors into exit 2.
describe('mock flags, in process', () => {
  it.each([
    [['--port', 'abc'], /--port takes a whole number/],
    [['--port', '70000'], /--port takes a whole number from 0 to 65535/],
    [['--validation', 'loose'], /--validation takes one of error, strict, warn, off/],
    [['--now', 'soon'], /--now takes an RFC 3339 date-time/],
    [['--cors-origin', 'localhost:5173'], /--cors-origin takes \*/],
    [['--cors-origin', 'http://localhost:5173/app'], /--cors-origin takes \*/],
    [['--base-path', 'api'], /--base-path takes a path such as \/api\/v1/],
    [['--max-sessions', '0'], /--max-sessions takes a whole number from 1 to 10000/],
    [['--max-session-memory', '0'], /--max-session-memory takes a whole number from 1 to 1048576/],
    [['--max-session-memory', '64MB'], /--max-session-memory takes a whole number/],
    [['--seed', '1', '--fixtures', 'fixtures/seed'], /give one of them/],
    [['stray'], /unexpected argument 'stray'/],
  ])('%j is a USAGE KitError', (args, message) => {
    expect(() => mockOptionsFrom(args)).toThrow(message);
    try {
      mockOptionsFrom(args);
    } catch (error) {
      expect(error).toBeInstanceOf(KitError);
      expect((error as KitError).code).toBe('USAGE');
    }
  });

  it('maps the flags onto MockOptions', () => {
    expect(mockOptionsFrom(['--port', '0', '--host', '::1', '--seed', '3', '--pets', '5', '--fixtures', 'none', '--now', '2027-07-01T00:00:00Z', '--base-path', '/api/', '--cors-origin', 'http://localhost:5173', '--validation', 'warn', '--max-sessions', '8', '--max-session-memory', '64', '-q'])).toEqual({
      port: 0,
      host: '::1',
      seed: 3,
      pets: 5,
      fixtures: 'none',
      now: new Date('2027-07-01T00:00:00Z'),
      basePath: '/api',
      corsOrigin: 'http://localhost:5173',
      validation: 'warn',
      maxSessions: 8,
      maxSessionMemory: 64 * 1024 * 1024,
      quiet: true,
    });
  });

  it.each([
    [{ fixtures: '/no/such/folder' }, 'FIXTURES_INVALID'],
    [{ specPath: '/no/such/openapi.yaml' }, 'SPEC_NOT_FOUND'],
  ])('startMock(%j) rejects with %s', async (options, code) => {
    await expect(startMock({ port: 0, quiet: true, ...options })).rejects.toMatchObject({ code });
  });
});
