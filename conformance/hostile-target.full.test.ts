/**
 * Hostile targets (issue 12) never take the runner down.
 *
 * Regression (issue 12, finding 2, "a hostile target kills the runner"):
 * a target answering ~1 MiB of `[{},{},…]` to every request (inside the
 * per-response cap) took the runner to 4.4 GB and exit 134 after 168
 * requests, with no report: parsed bodies were kept for the whole run and
 * validated with Ajv's allErrors. Now the run finishes with a report and its
 * peak RSS, measured in a child process running the CLI's entry point, stays
 * far below that.
 *
 * The child's V8 heap is capped at 256 MB: V8 sizes its heap to the machine
 * (24 GB here) and collects garbage lazily, so without a cap RSS measures
 * uncollected garbage as much as what the runner keeps. With the cap, a
 * runner that kept parsed bodies for the run (as it did) dies of
 * "heap out of memory" (exit 134) instead of finishing; one that keeps only
 * what later checks need finishes, and its RSS stays under the bound.
 *
 * Regression (issue 12, finding 8): 100,000-deep JSON overflowed the stack of
 * compare.ts; the whole run now takes it, from parsing to the report.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { runConformance } from './runner.js';

/** Just under the runner's 1 MiB cap, so every answer is read and parsed in full. */
const BODY = Buffer.from(`[${Array.from({ length: (1024 * 1024 - 2) / 3 - 1 }, () => '{}').join(',')}]`);
const RSS_BOUND_BYTES = 600 * 1024 * 1024;
/**
 * Requests the run may send (`--max-requests`). The runner that kept every parsed body died after 168 requests
 * without a heap cap, and with 256 MB it dies within a few dozen (each answer parses into ~350,000 objects): 200
 * show the regression with room to spare. The whole run sent 421, each costing ~0.2 s of CPU to parse and judge,
 * more than a minute of a two-core machine's test time for nothing more (issue 23, point 2).
 */
const REQUEST_BUDGET = 200;

describe('a hostile target answering ~1 MiB of [{},{},…] to every request', () => {
  let server: Server;
  let url: string;
  let dir: string;
  let requests = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-kit-hostile-'));
    server = createServer((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(BODY.length) });
      res.end(BODY);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the runner finishes with a report, its peak RSS under 600 MB (it reached 4.4 GB)', { timeout: 300_000 }, async () => {
    const output = join(dir, 'report.json');
    const main = pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js')).href;
    // The CLI's own entry point; the child reports its peak RSS (resourceUsage: kilobytes) once it is done.
    const script = `const { main } = await import(${JSON.stringify(main)}); const code = await main(process.argv.slice(1)); process.stderr.write('\\nmaxRssKb=' + process.resourceUsage().maxRSS + '\\n'); process.exitCode = code;`;
    const args = ['--max-old-space-size=256', '--input-type=module', '-e', script, 'conformance', '--base-url', url, '--format', 'json', '--output', output, '--timeout', '30000', '--max-requests', String(REQUEST_BUDGET)];
    const outcome = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, args, { cwd: PACKAGE_ROOT, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } }, (error, _stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr });
      });
    });
    const rss = Number(/maxRssKb=(\d+)/.exec(outcome.stderr)?.[1]) * 1024;
    // Exit 1: the failures found before the budget stopped the run (they outrank its being incomplete).
    expect(outcome.code, outcome.stderr.slice(-2000)).toBe(1);
    expect(requests).toBeGreaterThan(100);
    expect(requests).toBeLessThanOrEqual(REQUEST_BUDGET);
    const report = JSON.parse(readFileSync(output, 'utf8')) as { summary: { failed: number; total: number } };
    expect(report.summary.failed).toBeGreaterThan(0);
    console.info(`hostile target: ${requests} requests, peak RSS ${Math.round(rss / 1024 / 1024)} MB`);
    expect(rss).toBeGreaterThan(0);
    expect(rss).toBeLessThan(RSS_BOUND_BYTES);
  });
});

describe('a hostile target answering 100,000-deep JSON to every request', () => {
  it('the runner compares, judges and reports it without a stack overflow (issue 12, finding 8)', { timeout: 120_000 }, async () => {
    const deep = Buffer.from(`{"id":1,"name":${'['.repeat(100_000)}1${']'.repeat(100_000)},"categoryId":1,"quantity":1}`);
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-length': String(deep.length) });
      res.end(deep);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const report = await runConformance({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, only: ['create-read-back', 'replace-visible', 'negative-body', 'stable-reads', 'response-schema'], seed: 3 });
      const crashed = report.results.filter((r) => /internal error|Maximum call stack/.test(r.reason ?? ''));
      expect(crashed.map((r) => `${r.checkId}: ${r.reason?.slice(0, 200) ?? ''}`)).toEqual([]);
      expect(report.summary.failed).toBeGreaterThan(0);
      // Every finding fits a report: JSON-safe and bounded, whatever the target sent.
      expect(JSON.stringify(report).length).toBeLessThan(5_000_000);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
