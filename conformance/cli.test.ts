/**
 * `petstore-kit conformance` as a user runs it: the built executable in a
 * child process. Exit codes (contract.md): 0 every check passed, 1 a check
 * failed, 2 it could not run (bad arguments, unreachable target: one line
 * saying which and why). A --header value appears nowhere.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/transport/server.js';
import { buildIfStale } from '../mock/test-support/child-mock.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { CHECK_IDS } from './checks/index.js';

const run = promisify(execFile);
const BIN = join(PACKAGE_ROOT, 'bin', 'petstore-kit.js');
const SECRET = 'Bearer cli-s3cret-value-42';

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function cli(args: readonly string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd: PACKAGE_ROOT, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('petstore-kit conformance', () => {
  let mock: RunningMock;
  let broken: Server;
  let brokenUrl: string;
  let dir: string;

  beforeAll(async () => {
    // The executable runs dist/: build it when stale (under `npm test`, pretest has).
    buildIfStale();
    mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
    // The mock, minus X-Total-Count on listCategories: a target with one defect.
    const upstream = new URL(mock.url);
    broken = createServer((req, res) => {
      const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        const headers = { ...answer.headers };
        if ((req.url ?? '').split('?')[0] === '/categories') delete headers['x-total-count'];
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    const address = broken.address();
    brokenUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    dir = mkdtempSync(join(tmpdir(), 'petstore-kit-cli-'));
  }, 180_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => broken?.close(() => resolve()));
    await mock?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 when every check passes, writes --output, prints the console summary, and never shows a --header value', async () => {
    const file = join(dir, 'report.json');
    const outcome = await cli(['conformance', '--base-url', mock.url, '--header', `Authorization: ${SECRET}`, '--format', 'json', '--output', file, '--origin', 'http://localhost:5173']);
    expect(outcome.code, outcome.stderr + outcome.stdout.slice(-3000)).toBe(0);
    const report = readFileSync(file, 'utf8');
    const parsed = JSON.parse(report) as { summary: { failed: number }; meta: { options: { headers: string[] } } };
    expect(parsed.summary.failed).toBe(0);
    expect(parsed.meta.options.headers).toEqual(['Authorization']);
    expect(outcome.stdout).toMatch(/0 failed/);
    for (const text of [outcome.stdout, outcome.stderr, report]) {
      expect(text).not.toContain('cli-s3cret-value-42');
    }
  }, 90_000);

  it('exits 1 when a check fails', async () => {
    const outcome = await cli(['conformance', '--base-url', brokenUrl, '--only', 'listCategories', '--quiet']);
    expect(outcome.code, outcome.stderr).toBe(1);
    expect(outcome.stdout).toContain('response-headers');
    expect(outcome.stdout).toMatch(/x-total-count/i);
  }, 90_000);

  it('on Ctrl-C deletes what the run created, prints the report so far, and exits 130', async () => {
    const count = async (path: string): Promise<string | null> => (await fetch(`${mock.url}${path}?limit=1`)).headers.get('x-total-count');
    const before = { pets: await count('/pets'), categories: await count('/categories') };
    const child = spawn(process.execPath, [BIN, 'conformance', '--base-url', mock.url, '--concurrency', '1'], { cwd: PACKAGE_ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // Interrupt once the run is under way: it has created a record (without a TTY there is no progress line to watch). Bounded: 400 polls.
    for (let i = 0; i < 400; i += 1) {
      if ((await count('/pets')) !== before.pets || (await count('/categories')) !== before.categories) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (child.pid !== undefined) process.kill(child.pid, 'SIGINT');
    const code = await exited;
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('interrupted');
    expect(stdout).toMatch(/skipped/);
    expect({ pets: await count('/pets'), categories: await count('/categories') }).toEqual(before);
  }, 90_000);

  it('--no-cleanup leaves what the run created on the target and says so in one line', async () => {
    const count = async (path: string): Promise<number> => Number((await fetch(`${mock.url}${path}?limit=1`)).headers.get('x-total-count'));
    const before = await count('/pets');
    const outcome = await cli(['conformance', '--base-url', mock.url, '--only', 'create-read-back', '--no-cleanup']);
    expect(outcome.code, outcome.stderr + outcome.stdout.slice(-3000)).toBe(0);
    const left = /Cleanup: skipped \(--no-cleanup\); (\d+) records the run created are left on the target\./.exec(outcome.stdout);
    expect(left, outcome.stdout.slice(-2000)).not.toBeNull();
    expect(await count('/pets')).toBeGreaterThan(before);
  }, 90_000);

  // None of these needs the mock: each is a CLI process of its own, so they run side by side (issue 23, point 2).
  describe.concurrent('without a target to run against', () => {
    it('exits 2 with one clear line when the target is unreachable', async () => {
      const outcome = await cli(['conformance', '--base-url', 'http://127.0.0.1:1']);
      expect(outcome.code).toBe(2);
      const lines = outcome.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/TARGET_UNREACHABLE.*http:\/\/127\.0\.0\.1:1.*connection refused/);
    });

    it.each([
      [['conformance'], /--base-url URL is required/],
      [['conformance', '--base-url', 'http://127.0.0.1:1', '--timeout', 'soon'], /--timeout takes a whole number/],
      [['conformance', '--base-url', 'http://127.0.0.1:1', '--no-such-flag'], /no-such-flag/],
      [['conformance', '--base-url', 'not a url'], /is not a URL/],
      [['conformance', '--base-url', 'http://127.0.0.1:1', '--format', 'pdf'], /--format takes one of console, json, junit, html/],
      [['conformance', '--base-url', 'http://127.0.0.1:1', '--only', 'no-such-check'], /not a check id, check family, operationId or tag/],
      [['conformance', '--base-url', 'http://127.0.0.1:1', '--header', 'no colon here'], /--header takes 'Name: value'/],
      [['conformance', '--base-url', 'http://127.0.0.1:1', '--spec', 'no-such-document.yaml'], /SPEC_NOT_FOUND/],
      [['conformance', '--base-url', 'http://user:pw@127.0.0.1:1'], /must not carry credentials/],
    ])('exits 2 on bad arguments: %j', async (args, message) => {
      const outcome = await cli(args);
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toMatch(message);
      expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
    });

    it('a malformed --header never echoes its value', async () => {
      const outcome = await cli(['conformance', '--base-url', 'http://127.0.0.1:1', '--header', 'bad header name: cli-s3cret-value-42']);
      expect(outcome.code).toBe(2);
      expect(outcome.stdout + outcome.stderr).not.toContain('cli-s3cret-value-42');
    });

    it('--list-checks prints the registry and exits 0', async () => {
      const outcome = await cli(['conformance', '--list-checks']);
      expect(outcome.code).toBe(0);
      for (const id of CHECK_IDS) expect(outcome.stdout).toContain(id);
    });
  });
});
