/**
 * Issue 9, point 1, third bullet: a difference is blamed on a request only
 * when the same read was stable without it. A server that stamps a field of
 * its own at read time is never accused of "the rejected request changed the
 * record"; a server whose reads are not stable is reported once, by
 * stable-reads, not by every negative check that reads a record back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/transport/server.js';
import { startProxy, type Middleware } from '../fixtures/defective/proxy.js';
import type { CheckResult, RunReport } from './model.js';
import { runConformance } from './runner.js';

function explain(results: readonly CheckResult[]): string[] {
  return results.map((r) => `${r.checkId} ${r.operationId ?? ''} ${r.title}: ${r.reason ?? ''} ${r.findings[0]?.message ?? ''}`);
}

async function runThrough(middleware: Middleware): Promise<RunReport> {
  const mock: RunningMock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
  try {
    const proxy = await startProxy(middleware, mock.url);
    try {
      return await runConformance({ baseUrl: proxy.url, seed: 9 });
    } finally {
      await proxy.close();
    }
  } finally {
    await mock.close();
  }
}

/** Rewrites every JSON object of a record-shaped answer (one with an `id`). */
function rewriteRecords(edit: (record: Record<string, unknown>) => void): Middleware {
  return async (request, next) => {
    const answer = await next(request);
    // A HEAD's answer has the GET's headers and no body to rewrite.
    if (!answer.headers['content-type']?.includes('json') || answer.status >= 300 || answer.body.length === 0) return answer;
    const value: unknown = JSON.parse(answer.body.toString('utf8'));
    const records = Array.isArray(value) ? value : [value];
    for (const record of records) if (typeof record === 'object' && record !== null && 'id' in record) edit(record as Record<string, unknown>);
    return { ...answer, body: Buffer.from(JSON.stringify(value)) };
  };
}

describe('a server that stamps updatedAt on every read', () => {
  let report: RunReport;
  let reads = 0;
  beforeAll(async () => {
    report = await runThrough(
      rewriteRecords((record) => {
        reads += 1;
        record['updatedAt'] = new Date(Date.UTC(2026, 0, 1) + reads).toISOString();
      }),
    );
  }, 120_000);

  it('is never accused of a change by a rejected request, nor of anything else', () => {
    expect(reads).toBeGreaterThan(100);
    const failed = report.results.filter((r) => r.verdict === 'failed');
    expect(explain(failed)).toEqual([]);
    expect(report.results.find((r) => r.checkId === 'stable-reads')?.verdict).toBe('passed');
  });
});

describe('a server whose reads are not stable (a declared field computed per read)', () => {
  let report: RunReport;
  let reads = 0;
  beforeAll(async () => {
    // Every read of an order gives another shipDate: a declared field that moves with no write.
    report = await runThrough(async (request, next) => {
      const answer = await next(request);
      if (request.method !== 'GET' || !/^\/store\/orders\/\d+$/.test(request.path) || answer.status !== 200) return answer;
      reads += 1;
      const order = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
      order['shipDate'] = new Date(Date.UTC(2030, 0, 1) + reads * 1000).toISOString();
      return { ...answer, body: Buffer.from(JSON.stringify(order)) };
    });
  }, 120_000);

  it('is reported once, by stable-reads', () => {
    const owner = report.results.filter((r) => r.checkId === 'stable-reads' && r.verdict === 'failed');
    expect(owner).toHaveLength(1);
    expect(owner[0]!.reason).toMatch(/getOrder/);
  });

  it('and no request is blamed for the differences', () => {
    const blamed = report.results.filter((r) => r.verdict === 'failed' && r.findings.some((f) => f.keyword === 'unchanged'));
    expect(explain(blamed)).toEqual([]);
    // One defect, one owner: the reads that compare a record with what was sent see the flicker too, and leave it to stable-reads.
    const failed = report.results.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => r.checkId), explain(failed).join('\n')).toEqual(['stable-reads']);
  });
});
