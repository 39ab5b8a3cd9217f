/**
 * Issue 11, point 4, against a server that does what
 * fixtures/documents/foreign-conventions.yaml says (Prism's errors are its
 * own, so the Prism runs of foreign-docs.test.ts cannot show this): a Problem
 * whose `status` is a string is judged by its schema, not by our contract's
 * "status equals the HTTP status" rule; the bare `deprecated: true` of
 * getReport is noted, never failed; exportReport is asked for text/csv.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/package-info.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

function reportsServer(): Server {
  const reports = new Map<string, { id: string; title: string }>();
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const json = (status: number, value: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      const problem = (status: number): void => json(status, { title: `answered ${status}`, status: 'fail' });
      const path = new URL(req.url ?? '/', 'http://fixture').pathname;
      const [, id, tail] = /^\/reports\/([^/]+)(\/export)?$/.exec(path) ?? [];
      const allowed = path === '/reports' ? 'GET, POST' : id !== undefined ? 'GET' : undefined;
      if (allowed && !allowed.split(', ').includes(req.method ?? '')) {
        // RFC 9110 §15.5.6: a 405 names the methods the resource has.
        return void res.writeHead(405, { 'content-type': 'application/json', allow: allowed }).end(JSON.stringify({ title: 'answered 405', status: 'fail' }));
      }
      if (path === '/reports' && req.method === 'GET') {
        const limit = new URL(req.url ?? '/', 'http://fixture').searchParams.get('limit');
        if (limit !== null && !(/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 100)) return problem(400);
        return json(200, [...reports.values()].slice(0, limit === null ? undefined : Number(limit)));
      }
      if (path === '/reports' && req.method === 'POST') {
        if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return problem(400);
        let title: unknown;
        try {
          title = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title?: unknown }).title;
        } catch {
          return problem(400);
        }
        if (typeof title !== 'string' || title === '') return problem(400);
        const report = { id: randomUUID(), title };
        reports.set(report.id, report);
        return json(201, report);
      }
      if (id !== undefined && req.method === 'GET') {
        const report = reports.get(id);
        if (tail) return void res.writeHead(report ? 200 : 404, { 'content-type': 'text/csv' }).end(report ? `id,title\n${report.id},${report.title}\n` : 'no such report\n');
        return report ? json(200, report) : problem(404);
      }
      problem(404);
    });
  });
}

describe('a document that does not declare our conventions, against a server that keeps it (foreign-conventions.yaml)', () => {
  const server = reportsServer();
  let report: RunReport;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    report = await runConformance({ baseUrl: `http://127.0.0.1:${port}`, specPath: join(PACKAGE_ROOT, 'fixtures', 'documents', 'foreign-conventions.yaml'), seed: 7, concurrency: 2 });
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('error-shape judges a Problem with a string status by its schema: no status-equality finding', () => {
    // The 404s with a string status that the run met (unknown-id-404's probes among them) are error-shape's to judge too.
    const problems = report.results.flatMap((r) => r.evidence).filter((x) => x.response?.status === 404 && x.response.bodyExcerpt.includes('"status":"fail"'));
    expect(problems.length).toBeGreaterThan(0);
    const errorShape = report.results.filter((r) => r.checkId === 'error-shape');
    expect(errorShape.length).toBeGreaterThan(0);
    expect(errorShape.filter((r) => r.verdict === 'failed').map((r) => r.reason)).toEqual([]);
  });

  it('unknown-id-404 sends a uuid to getReport and passes on its 404', () => {
    const probes = report.results.filter((r) => r.checkId === 'unknown-id-404');
    expect(probes.map((r) => [r.operationId, r.verdict]).sort()).toEqual([
      ['exportReport', 'passed'],
      ['getReport', 'passed'],
    ]);
  });

  it('no deprecation check fails the bare deprecated getReport; deprecation-links notes it', () => {
    const deprecation = report.results.filter((r) => r.checkId.startsWith('deprecation-') || r.checkId === 'sunset-410');
    expect(deprecation.filter((r) => r.verdict === 'failed')).toEqual([]);
    expect(deprecation.some((r) => r.checkId === 'deprecation-links' && r.verdict === 'skipped' && /bare `deprecated: true`/.test(r.reason ?? ''))).toBe(true);
  });

  it('the whole run passes: a server that keeps this document has no finding', () => {
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
  });
});
