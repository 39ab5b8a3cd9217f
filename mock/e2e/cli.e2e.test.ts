/**
 * The command line as a user runs it: `node bin/petstore-kit.js mock`, which
 * runs the built dist/ (built here once, when stale). Reads the one
 * `listening on` line, talks to the mock with the contract-checking client,
 * stops it with SIGTERM/SIGINT by PID and checks the exit code.
 */
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { KitError } from '../../src/kit-error.js';
import type { Category, Order, Pet } from '../../src/types.js';
import { mockOptionsFrom } from '../transport/cli.js';
import { startMock } from '../transport/server.js';
import { runChildMock as run, startChildMock as start, useChildMocks } from '../test-support/child-mock.js';

const clientFor = await useChildMocks();

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
    const api = clientFor(origin, '/api/v1');
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

  it('leaves the base path to the document when --base-path is not given, and / means the root (regression: the flag defaulted to the root, so a foreign document was never served under its server path)', () => {
    expect(mockOptionsFrom(['--port', '0'], {})).not.toHaveProperty('basePath');
    expect(mockOptionsFrom(['--port', '0', '--base-path', '/'], {})).toMatchObject({ basePath: '' });
  });

  it('maps the flags onto MockOptions', () => {
    expect(mockOptionsFrom(['--port', '0', '--host', '::1', '--seed', '3', '--pets', '5', '--fixtures', 'none', '--now', '2027-07-01T00:00:00Z', '--base-path', '/api/', '--cors-origin', 'http://localhost:5173', '--validation', 'warn', '--max-sessions', '8', '--max-session-memory', '64', '-q', '--max-connections', '50', '--idle-timeout', '5000', '--admin-token', 'a-token-of-a-test', '--admin-open'], {})).toEqual({
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
      maxConnections: 50,
      idleTimeoutMs: 5000,
      adminToken: 'a-token-of-a-test',
      adminOpen: true,
    });
  });

  it.each([
    [{ fixtures: '/no/such/folder' }, 'FIXTURES_INVALID'],
    [{ specPath: '/no/such/openapi.yaml' }, 'SPEC_NOT_FOUND'],
  ])('startMock(%j) rejects with %s', async (options, code) => {
    await expect(startMock({ port: 0, quiet: true, ...options })).rejects.toMatchObject({ code });
  });
});
