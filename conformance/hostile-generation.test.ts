/**
 * Issue 31 on loopback, the runner's side: `petstore-kit conformance` in a child process with a 256 MB heap, on a
 * document holding every class of hostile-but-legal schema, against a plain target. Before the generation budget
 * the runner passed 2 GB on two of these classes and spun without a report on three; now it finishes within
 * seconds, and each case whose body cannot be generated is skipped with the schema's spot as its reason.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { buildIfStale } from '../mock/test-support/child-mock.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'petstore-kit.js');
const HOSTILE = join(PACKAGE_ROOT, 'fixtures', 'documents', 'hostile');
/** A heap the runner of a small document never needs more than a fraction of: past it, V8 aborts the run. */
const HEAP_MIB = 256;
const KILL_AFTER_MS = 60_000;

interface Run {
  readonly code: number | null;
  readonly stderr: string;
  readonly report: { results: { checkId: string; operationId?: string; verdict: string; reason?: string }[] } | undefined;
}

function conformance(spec: string, baseUrl: string, extra: readonly string[] = []): Promise<Run> {
  const output = join(mkdtempSync(join(tmpdir(), 'petstore-kit-hostile-runner-')), 'report.json');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [`--max-old-space-size=${HEAP_MIB}`, BIN, 'conformance', '--spec', spec, '--base-url', baseUrl, '--quiet', '--format', 'json', '--output', output, ...extra],
      { cwd: PACKAGE_ROOT, timeout: KILL_AFTER_MS, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (error, _stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        let report: Run['report'];
        try {
          report = JSON.parse(readFileSync(output, 'utf8')) as Run['report'];
        } catch {
          report = undefined;
        }
        resolve({ code, stderr, report });
      },
    );
  });
}

/** A target that answers everything plainly: what matters is what the runner generates, not what it reads. */
let target: { server: Server; url: string };

beforeAll(async () => {
  buildIfStale();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const list = req.method === 'GET' && !/\d$/.test(req.url ?? '');
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(req.url?.startsWith('/health') ? '{"status":"up"}' : list ? '[]' : '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}, 120_000);
afterAll(async () => {
  await new Promise<void>((resolve) => target.server.close(() => resolve()));
});

describe('the runner on every class of hostile schema (issue 31, points 1, 2 and 6)', () => {
  it(`finishes within a ${HEAP_MIB} MB heap and skips each case it cannot generate, naming the spot`, async () => {
    const run = await conformance(join(HOSTILE, 'all-classes.yaml'), target.url);
    // 0 or 1: the run happened (the plain target has findings); a crash or a kill is neither.
    expect([0, 1], run.stderr).toContain(run.code);
    const reasons = new Set((run.report?.results ?? []).filter((r) => r.verdict === 'skipped').map((r) => r.reason ?? ''));
    const said = [...reasons].join('\n');
    expect(said).toContain("createMinLength's body cannot be generated: #/components/schemas/LongName/properties/name: minLength 100000000");
    expect(said).toContain("createRepeat's body cannot be generated: #/components/schemas/Repeated/properties/code: the pattern's shortest match has 100000000 characters");
    expect(said).toContain("createSelf's body cannot be generated: #/components/schemas/Selfish/properties/p0: it holds #/components/schemas/Selfish again");
    expect(said).toContain("createMinItems's body cannot be generated: #/components/schemas/Crowd/properties/tags: minItems 100000000");
    // A pattern RE2 cannot run is drawn from and sent, never checked by backtracking: its create ran.
    const backtrack = (run.report?.results ?? []).filter((r) => r.operationId === 'createBacktrack' && r.verdict !== 'skipped');
    expect(backtrack.length).toBeGreaterThan(0);
  }, 90_000);

  it('takes --generation-budget: with strings of 20 characters at most, the 41 characters a pattern needs are reported', async () => {
    const run = await conformance(join(HOSTILE, 'all-classes.yaml'), target.url, ['--only', 'createBacktrack', '--generation-budget', 'string=20']);
    expect([0, 1], run.stderr).toContain(run.code);
    const reasons = (run.report?.results ?? []).filter((r) => r.verdict === 'skipped').map((r) => r.reason ?? '');
    expect(reasons.join('\n')).toContain("createBacktrack's body cannot be generated: #/components/schemas/Backtracking/properties/code: the pattern's shortest match has 41 characters, more than the 20 a generated string may have");
  }, 90_000);

  it('refuses a document whose example contains itself with SPEC_INVALID (exit 2), instead of spinning', async () => {
    const run = await conformance(join(HOSTILE, 'self-containing-example.yaml'), target.url);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/SPEC_INVALID: .* at #\/components\/schemas\/Thing\/example: the value contains itself at #\/components\/schemas\/Thing\/example\/parent/);
  }, 90_000);
});
