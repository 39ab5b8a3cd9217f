/**
 * After the sunset (issue 9, point 2): when the target's Date is past
 * getPet's x-sunset, getPet must answer 410 with its deprecation headers and
 * the stateful checks read pets through its successor (the list filtered by
 * id); before the sunset a 410 is a finding of exactly one check, sunset-410.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/transport/server.js';
import { startProxy } from '../fixtures/defective/proxy.js';
import type { CheckResult, RunReport } from './model.js';
import { runConformance } from './runner.js';

function explain(results: readonly CheckResult[]): string[] {
  return results.map((r) => `${r.checkId} ${r.operationId ?? ''} ${r.title}: ${r.reason ?? ''} ${r.findings[0]?.message ?? ''}`);
}

describe('against the mock started with now: 2027-07-01T00:00:00Z, past the sunset', () => {
  let mock: RunningMock;
  let report: RunReport;
  beforeAll(async () => {
    mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true, now: new Date('2027-07-01T00:00:00Z') });
    report = await runConformance({ baseUrl: mock.url, seed: 6, origin: 'http://localhost:5173' });
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
  });

  it('exits with zero failures', () => {
    const failed = report.results.filter((r) => r.verdict === 'failed');
    expect(explain(failed)).toEqual([]);
  });

  it('saw getPet answer 410, judged it right, and still read created pets back (through the successor)', () => {
    expect(report.coverage.statuses.find((s) => s.operationId === 'getPet' && s.status === '410')?.observed).toBe(true);
    expect(report.results.filter((r) => r.checkId === 'sunset-410' && r.operationId === 'getPet').map((r) => r.verdict)).toEqual(['passed']);
    const readBack = report.results.find((r) => r.checkId === 'create-read-back' && r.operationId === 'createPet');
    expect(readBack?.verdict).toBe('passed');
    expect(readBack?.evidence.some((e) => /\/pets\?id=\d+/.test(e.request.url) && e.response?.status === 200)).toBe(true);
  });

  it('cleans up the pets it created, though getPet is gone', () => {
    for (const left of report.cleanup.leftBehind) expect(left.reason).toMatch(/ORDER_ALREADY_COMPLETE|409/);
    expect(report.cleanup.deleted).toBeGreaterThan(3);
  });
});

describe('a 410 before the sunset', () => {
  let report: RunReport;
  beforeAll(async () => {
    const mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
    // getPet answers 410 today, with the mock's own deprecation headers: the sunset is seven months away.
    const proxy = await startProxy(async (request, next) => {
      const answer = await next(request);
      if (request.route.kind !== 'match' || request.route.operation.operationId !== 'getPet' || answer.status >= 500) return answer;
      const body = { code: 'OPERATION_SUNSET', message: 'getPet is gone; use GET /pets?id=…', status: 410 };
      return { status: 410, headers: { ...answer.headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
    }, mock.url);
    try {
      report = await runConformance({ baseUrl: proxy.url, seed: 6 });
    } finally {
      await proxy.close();
      await mock.close();
    }
  }, 120_000);

  it('is flagged by exactly one check, sunset-410', () => {
    const failed = report.results.filter((r) => r.verdict === 'failed');
    expect(new Set(failed.map((r) => r.checkId)), explain(failed).join('\n')).toEqual(new Set(['sunset-410']));
    expect(failed[0]!.findings[0]!.message).toMatch(/410 before its sunset/);
  });
});
