/**
 * The runner against Prism's static mock of the same document (issue 4):
 * an implementation we did not write must not be failed on schema, so every
 * response-schema result on its 2xx answers passes; and since Prism keeps no
 * state, the stateful checks fail, as they should.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH } from '../src/package-info.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';
import { startPrism, stopPrism, type RunningPrism } from './test-support/prism.js';

describe('against Prism 5 static mock of the same document', () => {
  let prism: RunningPrism | undefined;
  let report: RunReport;

  beforeAll(async () => {
    prism = await startPrism(DEFAULT_SPEC_PATH);
    // Prism answers slowly: more requests in flight keep the run short.
    report = await runConformance({ baseUrl: prism.url, seed: 5, concurrency: 8 });
  }, 240_000);

  afterAll(async () => {
    await stopPrism(prism);
  });

  it('passes response-schema on every 2xx answer', () => {
    const schema = report.results.filter((r) => r.checkId === 'response-schema');
    expect(schema.length).toBeGreaterThan(10);
    const failed = schema.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => `${r.title}: ${r.reason}`)).toEqual([]);
    // Every operation's successes were judged, not skipped.
    expect(new Set(schema.filter((r) => r.verdict === 'passed').map((r) => r.operationId)).size).toBe(18);
  });

  it('fails the stateful checks, since a static mock keeps nothing', () => {
    for (const id of ['create-read-back', 'replace-visible', 'list-contains-created', 'delete-removes']) {
      const results = report.results.filter((r) => r.checkId === id);
      expect(results.length, id).toBeGreaterThan(0);
      expect(
        results.some((r) => r.verdict === 'failed'),
        `${id}: ${results.map((r) => `${r.verdict} ${r.reason ?? ''}`).join('; ')}`,
      ).toBe(true);
    }
  });

  it('produces a report with coverage and a cleanup section, without crashing', () => {
    expect(report.summary.total).toBe(report.results.length);
    expect(report.coverage.operations.every((o) => o.exercised)).toBe(true);
    expect(Array.isArray(report.cleanup.leftBehind)).toBe(true);
  });
});
