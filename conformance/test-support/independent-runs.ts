/**
 * What conformance/independent.test.ts (the fast tier's slice) and independent.full.test.ts (the rest) share: a run
 * of the runner against the independent implementation (fixtures/independent/), and how a failure is explained.
 */
import { expect } from 'vitest';
import { start, type IndependentOptions } from '../../fixtures/independent/server.js';
import type { CheckResult, RunReport } from '../model.js';
import { runConformance, type RunOptions } from '../runner.js';

/** Before getPet's sunset, so these runs do not change meaning on 2027-07-01; the server's clock runs on from here. */
export const BEFORE_SUNSET = new Date('2026-11-01T12:00:00Z');
export const AFTER_SUNSET = new Date('2027-07-01T00:00:00Z');
/**
 * Bounds a hang, not a speed: the runs go side by side (describe.concurrent), each one's clock running while the
 * others share two cores with the rest of the suite; at 180 s, runs timed out on a loaded machine with nothing wrong.
 */
export const RUN_TIMEOUT = 600_000;
/**
 * The runner's per-request limit (--timeout, 10 s by default), for the same reason: at load 14 (three agents beside
 * the suite) a plain run's first request waited past 10 s with nothing wrong, and the run stopped as unreachable.
 */
const REQUEST_TIMEOUT_MS = 60_000;
export const LATENCY_FAMILIES = ['response', 'stateful', 'workflow', 'deprecation', 'routing', 'errors'];

export async function runAgainst(server: IndependentOptions, run: Partial<RunOptions> = {}): Promise<RunReport> {
  const target = await start({ now: BEFORE_SUNSET, ...server });
  try {
    return await runConformance({ baseUrl: target.url, seed: 1, timeoutMs: REQUEST_TIMEOUT_MS, ...run });
  } finally {
    await target.close();
  }
}

export function failedResults(report: RunReport): CheckResult[] {
  return report.results.filter((r) => r.verdict === 'failed');
}

/** Each failed result's check id, reason, first finding and first exchange: enough to see the cause without rerunning. */
export function explain(results: readonly CheckResult[]): string {
  return results
    .map((r) => {
      const finding = r.findings[0];
      // The first exchange is often the setup; the last is the one that failed.
      const exchanges = [...new Set([r.evidence[0], r.evidence.at(-1)])].filter((e) => e !== undefined);
      const where = finding ? `\n    at ${finding.pointer}: ${finding.message} (expected ${JSON.stringify(finding.expected)}, got ${JSON.stringify(finding.actual)})` : '';
      const exchange = exchanges.map((ex) => `\n    ${ex.request.method} ${ex.request.url}${ex.request.body ? ` ${ex.request.body.slice(0, 200)}` : ''} → ${ex.response ? `${ex.response.status} ${ex.response.bodyExcerpt.slice(0, 200)}` : (ex.error?.code ?? '?')}`).join('');
      return `${r.checkId} ${r.operationId ?? ''} "${r.title}": ${r.reason ?? ''}${where}${exchange}`;
    })
    .join('\n');
}

export function expectZeroFindings(report: RunReport): void {
  const failed = failedResults(report);
  expect(
    failed.map((r) => `${r.checkId} ${r.operationId ?? ''}`),
    `${failed.length} failed results:\n${explain(failed)}`,
  ).toEqual([]);
  // A run that checked nothing would also have no failures.
  expect(report.summary.passed).toBeGreaterThan(50);
}


