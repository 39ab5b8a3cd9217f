/**
 * Issue 20 through the command line: documents built to hurt, and a target on
 * loopback. Each run is a real `petstore-kit conformance` process, bounded by
 * a kill timer; what matters is its exit code and everything it printed or wrote.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'petstore-kit.js');
const SECRET = 'secret-token-5be21d';
/** Kills a run that hangs, so the test fails instead of waiting forever. */
const KILL_AFTER_MS = 60_000;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function conformance(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'conformance', '--quiet', ...args], { cwd: PACKAGE_ROOT, timeout: KILL_AFTER_MS, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A target answering every request with one JSON body, counting what it received. */
async function startTarget(body: string): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    let received = '';
    req.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push(`${req.method ?? ''} ${req.url ?? ''} ${received}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const dir = mkdtempSync(join(tmpdir(), 'petstore-kit-hostile-'));
let target: Awaited<ReturnType<typeof startTarget>>;

beforeAll(async () => {
  expect(existsSync(join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js'))).toBe(true);
  target = await startTarget('[]');
});
afterAll(async () => {
  await new Promise<void>((resolve) => target.server.close(() => resolve()));
});

describe('a document that reaches for local files (issue 20 point 3)', () => {
  it.each([
    ['a file without a YAML/JSON extension outside its folder', '../outside/credentials'],
    ['a YAML file outside its folder and the working directory', '../outside/secret.yaml'],
    ['a dotfile inside its folder', './.secret.yaml'],
  ])('is refused with exit 2 naming the $ref, and nothing of the file is sent, printed or written: %s', async (_name, ref) => {
    const base = mkdtempSync(join(dir, 'refs-'));
    mkdirSync(join(base, 'outside'));
    mkdirSync(join(base, 'api'));
    writeFileSync(join(base, 'outside', 'credentials'), `${SECRET}\n`);
    writeFileSync(join(base, 'outside', 'secret.yaml'), `type: string\nenum: [${SECRET}]\n`);
    writeFileSync(join(base, 'api', '.secret.yaml'), `type: string\nenum: [${SECRET}]\n`);
    const spec = join(base, 'api', 'openapi.yaml');
    writeFileSync(
      spec,
      [
        'openapi: 3.0.3',
        'info: { title: refs, version: "1" }',
        'paths:',
        '  /things:',
        '    post:',
        '      requestBody:',
        '        content:',
        '          application/json:',
        `            schema: { type: object, properties: { name: { $ref: '${ref}' } } }`,
        '      responses:',
        "        '201': { description: created }",
        '',
      ].join('\n'),
    );
    const report = join(base, 'report.json');
    const before = target.requests.length;
    const run = await conformance(['--spec', spec, '--base-url', target.url, '--format', 'json', '--output', report]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(ref);
    expect(run.stderr).toContain('SPEC_INVALID');
    for (const text of [run.stdout, run.stderr, existsSync(report) ? readFileSync(report, 'utf8') : '', ...target.requests.slice(before)]) expect(text).not.toContain(SECRET);
  });
});

describe('a document that costs without bound to load (issue 20 point 2)', () => {
  it('a YAML alias bomb exits 2 with SPEC_INVALID naming the alias cap', async () => {
    const levels = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i <= 9; i++) levels.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(',')}]`);
    const spec = join(dir, 'bomb.yaml');
    writeFileSync(spec, `openapi: 3.0.3\ninfo: { title: bomb, version: "1" }\npaths: {}\nx-bomb:\n${levels.map((line) => `  ${line}`).join('\n')}\n`);
    expect(readFileSync(spec).length).toBeLessThan(1000);
    const run = await conformance(['--spec', spec, '--base-url', target.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('SPEC_INVALID');
    expect(run.stderr).toContain('alias cap');
  });
});

describe('a catastrophic pattern and a target that answers to it (issue 20 point 1)', () => {
  it('the runner finishes with a report: the pattern runs in linear time', async () => {
    const evil = await startTarget(JSON.stringify([{ name: `${'a'.repeat(44)}!` }]));
    try {
      const spec = join(dir, 'redos.yaml');
      writeFileSync(
        spec,
        [
          'openapi: 3.0.3',
          'info: { title: redos, version: "1" }',
          'paths:',
          '  /things:',
          '    get:',
          '      operationId: listThings',
          '      responses:',
          "        '200':",
          '          description: the things',
          '          content:',
          '            application/json:',
          '              schema:',
          '                type: array',
          '                items: { type: object, properties: { name: { type: string, pattern: "^(a+)+$" } } }',
          '',
        ].join('\n'),
      );
      const report = join(dir, 'redos-report.json');
      const run = await conformance(['--spec', spec, '--base-url', evil.url, '--format', 'json', '--output', report, '--only', 'listThings']);
      // A finding (exit 1): the answer breaks the pattern. Before, the run never ended.
      expect(run.code).toBe(1);
      expect(readFileSync(report, 'utf8')).toContain('pattern');
      expect(evil.requests.length).toBeGreaterThan(0);
    } finally {
      await new Promise<void>((resolve) => evil.server.close(() => resolve()));
    }
  });
});
