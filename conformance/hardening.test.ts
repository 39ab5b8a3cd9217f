/**
 * Issue 12, the runner's part: each test named after the finding it fixes.
 * The runner runs as a user runs it, the built executable in a child process,
 * against targets on 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/transport/server.js';
import { BIN, buildIfStale, children, killChildren } from '../mock/test-support/child-mock.js';
import { KIT_ERROR_CODES } from '../src/kit-error.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { createAjv } from '../src/schema/index.js';
import { secretForms } from './reporters/redact.js';

interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `petstore-kit conformance ARGS`; `onStart` gets the child once it runs (to signal it). */
function conformance(args: readonly string[], onStart?: (pid: number) => void): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'conformance', ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
    if (child.pid !== undefined) onStart?.(child.pid);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

let dir: string;
let mock: RunningMock;
const servers: Server[] = [];
beforeAll(async () => {
  buildIfStale();
  dir = mkdtempSync(join(tmpdir(), 'petstore-kit-hardening-'));
  mock = await startMock({ port: 0, quiet: true });
}, 180_000);
afterAll(async () => {
  killChildren();
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  await mock?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('issue 12 finding 3: --header secrets do not leak in any form a target echoes them', () => {
  const SECRET = 's3cret-token-271828';
  const VALUE = `Bearer ${SECRET}`;
  const forms = [VALUE, SECRET, encodeURIComponent(VALUE), Buffer.from(VALUE).toString('base64'), Buffer.from(SECRET).toString('base64'), encodeURIComponent(VALUE).replace('%20', '+')];

  it('derives every form from the header value', () => {
    const derived = secretForms(VALUE);
    for (const form of forms) expect(derived).toContain(form);
    // A Basic credential's password, decoded (RFC 7617).
    expect(secretForms(`Basic ${Buffer.from('ann:pa55word').toString('base64')}`)).toContain('pa55word');
  });

  it.each(['console', 'json', 'junit', 'html'])('leaves no form of the secret in the %s report, stdout or stderr', async (format) => {
    // A target that echoes the credential back in every form, in headers and bodies, to every request.
    const echo = createServer((req, res) => {
      const value = req.headers.authorization ?? '';
      const credential = value.replace(/^Bearer /, '');
      const echoed = [value, credential, encodeURIComponent(value), Buffer.from(value).toString('base64'), Buffer.from(credential).toString('base64'), encodeURIComponent(value).replace('%20', '+')];
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': echoed.join(' ') });
      res.end(JSON.stringify({ code: 'ECHO', message: echoed.join(' | '), status: 200, echoed }));
    });
    servers.push(echo);
    const url = await listen(echo);
    const file = join(dir, `echo.${format}`);
    const outcome = await conformance(['--base-url', url, '--header', `Authorization: ${VALUE}`, '--format', format, '--output', file, '--read-only', '--only', 'listPets,getPet,unknown-path-404', '--quiet']);
    expect(outcome.code, outcome.stderr).toBe(1);
    const written = readFileSync(file, 'utf8');
    // The echo is in the report (the evidence is kept), but never the secret.
    expect(written).toMatch(/ECHO|\[redacted\]/);
    for (const text of [written, outcome.stdout, outcome.stderr]) for (const form of forms) expect(text).not.toContain(form);
  }, 60_000);
});

describe('issue 12 finding 7: SIGTERM stops the runner as SIGINT does', () => {
  it('cleans up, writes the --output report, and exits 143', async () => {
    // The mock behind a proxy that answers slowly, so the run is still going when the signal comes.
    let writes = 0;
    let onFirstWrite: () => void = () => undefined;
    const firstWrite = new Promise<void>((resolve) => (onFirstWrite = resolve));
    const upstream = new URL(mock.url);
    const slow = createServer((req, res) => {
      if (req.method === 'POST' && ++writes === 1) onFirstWrite();
      setTimeout(() => {
        const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        forward.on('error', () => res.destroy());
        req.pipe(forward);
      }, 50);
    });
    servers.push(slow);
    const url = await listen(slow);
    const file = join(dir, 'sigterm.json');
    const before = (await (await fetch(`${mock.url}/pets?limit=1`)).headers.get('x-total-count')) ?? '';
    const outcome = await conformance(['--base-url', url, '--format', 'json', '--output', file, '--only', 'stateful,workflow', '--concurrency', '1'], (pid) => {
      void firstWrite.then(() => process.kill(pid, 'SIGTERM'));
    });
    expect(outcome.signal).toBeNull();
    expect(outcome.code, outcome.stderr).toBe(143);
    expect(outcome.stderr).toMatch(/interrupted \(SIGTERM\)/);
    expect(existsSync(file)).toBe(true);
    const report = JSON.parse(readFileSync(file, 'utf8')) as { summary: { total: number }; cleanup: { deleted: number } };
    expect(report.cleanup.deleted).toBeGreaterThan(0);
    // What the run created was deleted: the mock holds as many pets as before.
    expect((await fetch(`${mock.url}/pets?limit=1`)).headers.get('x-total-count')).toBe(before);
  }, 120_000);
});

describe('issue 12 finding 8: a run that exits 2 still writes its --output report', () => {
  it.each([
    ['json', (text: string) => expect(JSON.parse(text)).toMatchObject({ outcome: 'could-not-run', error: { code: 'TARGET_UNREACHABLE' } })],
    ['junit', (text: string) => expect(text).toMatch(/<error type="TARGET_UNREACHABLE" message="[^"]*127\.0\.0\.1:1/)],
    ['html', (text: string) => expect(text).toMatch(/TARGET_UNREACHABLE/)],
  ] as const)('an unreachable target: exit 2 and a %s report saying why', async (format, check) => {
    const file = join(dir, `unreachable.${format}`);
    const outcome = await conformance(['--base-url', 'http://127.0.0.1:1', '--format', format, '--output', file, '--header', 'X-Key: unreachable-s3cret']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/TARGET_UNREACHABLE/);
    const text = readFileSync(file, 'utf8');
    check(text);
    expect(text).not.toContain('unreachable-s3cret');
  }, 60_000);

  it('a bad option after --output: exit 2 and a report naming the USAGE error, valid against could-not-run.schema.json', async () => {
    const file = join(dir, 'usage.json');
    const outcome = await conformance(['--base-url', mock.url, '--format', 'json', '--output', file, '--concurrency', '0']);
    expect(outcome.code).toBe(2);
    const written: unknown = JSON.parse(readFileSync(file, 'utf8'));
    expect(written).toMatchObject({ outcome: 'could-not-run', error: { code: 'USAGE' } });
    const schema = JSON.parse(readFileSync(new URL('./could-not-run.schema.json', import.meta.url), 'utf8')) as { properties: { error: { properties: { code: { enum: string[] } } } } };
    const validate = createAjv().compile(schema);
    expect(validate(written), JSON.stringify(validate.errors)).toBe(true);
    // The schema's list of codes is the kit's closed set, kept in step.
    expect(schema.properties.error.properties.code.enum).toEqual(Object.keys(KIT_ERROR_CODES));
  });
});
