/**
 * Regression: list-contains-created failed when a collection it cannot narrow
 * (listCategories has no id filter) answered without X-Total-Count and the
 * run's records were not on the first page of 100. The missing header is
 * response-headers' finding (one defect, one report: architecture principle
 * 6); list-contains-created cannot find the last page without it, so it skips
 * and says why. Planted-bug pattern (fixtures/defective/): the real mock
 * behind a proxy that removes the header and holds over 100 categories.
 */
import { describe, expect, it } from 'vitest';
import { startMock } from '../mock/transport/server.js';
import { side } from '../fixtures/defective/helpers.js';
import { startProxy, type Middleware } from '../fixtures/defective/proxy.js';
import { runConformance } from './runner.js';
import type { RunReport } from './model.js';

/** More than a page of 100, so records created later sit past the first page (the mock lists by id). */
const FILLER_CATEGORIES = 101;

/** The mock with FILLER_CATEGORIES more categories, whose listCategories never sends X-Total-Count. */
function withoutTotalCountPastFirstPage(): Middleware {
  let filled: Promise<void> | undefined;
  return async (request, next) => {
    filled ??= (async () => {
      for (let i = 0; i < FILLER_CATEGORIES; i += 1) {
        const created = await side(next, 'POST', '/categories', { name: `filler category ${i}` });
        if (created.status !== 201) throw new Error(`filler category ${i}: the mock answered ${created.status}`);
      }
    })();
    await filled;
    const response = await next(request);
    if (request.route.kind !== 'match' || request.route.operation.operationId !== 'listCategories') return response;
    const headers = { ...response.headers };
    delete headers['x-total-count'];
    return { ...response, headers };
  };
}

async function runThroughProxy(middleware: Middleware): Promise<RunReport> {
  const mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
  try {
    const proxy = await startProxy(middleware, mock.url);
    try {
      return await runConformance({ baseUrl: proxy.url, seed: 1, only: ['list-contains-created', 'response-headers'] });
    } finally {
      await proxy.close();
    }
  } finally {
    await mock.close();
  }
}

describe('list-contains-created without X-Total-Count past the first page', () => {
  it('skips listCategories with the reason, and response-headers alone reports the missing header', { timeout: 120_000 }, async () => {
    const report = await runThroughProxy(withoutTotalCountPastFirstPage());
    const listCase = report.results.filter((r) => r.checkId === 'list-contains-created' && r.operationId === 'listCategories');
    expect(listCase).toHaveLength(1);
    expect(listCase[0]!.verdict, JSON.stringify(listCase[0]!.findings.slice(0, 2))).toBe('skipped');
    expect(listCase[0]!.reason).toMatch(/not on its first page of 100/);
    expect(listCase[0]!.reason).toMatch(/X-Total-Count \(response-headers reports that\)/);

    const headerFailures = report.results.filter((r) => r.checkId === 'response-headers' && r.verdict === 'failed');
    expect(headerFailures.map((r) => r.operationId)).toContain('listCategories');
    expect(headerFailures.flatMap((r) => r.findings.map((f) => f.pointer))).toContain('/header/x-total-count');
    // Only the owner fails: the other lists still pass.
    expect(report.results.filter((r) => r.verdict === 'failed' && r.checkId !== 'response-headers')).toEqual([]);
  });
});
