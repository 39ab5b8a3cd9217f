/**
 * The runner against an implementation it was not written beside (issue 9,
 * "Tests that must exist", bullets 2 and 3): fixtures/independent/ is a Pet
 * Store server written from the contract alone, on bare node:http, sharing
 * no code with the mock or the runner, with switchable LEGAL variants. The
 * runner must pass each variant, alone and combined, with zero findings; and
 * it must still catch one planted defect in it, so the zero is not trivial.
 *
 * Whether the fixture itself honours the contract is proven apart, by
 * fixtures/independent/server.test.ts (every answer validated against
 * openapi.yaml), so a failure here is the runner's.
 *
 * Runs go side by side (it.concurrent): each is a full run of the runner in
 * this process, mostly waiting on loopback I/O. The latency variant (50-100 ms
 * per answer) runs only the response, stateful, workflow, deprecation,
 * routing and errors families: the negative families alone would add about
 * 40 s of waiting and exercise nothing latency changes.
 */
import { describe, expect, it } from 'vitest';
import { start, type IndependentOptions } from '../fixtures/independent/server.js';
import { VARIANT_NAMES, type Variants } from '../fixtures/independent/variants.js';
import type { CheckResult, RunReport } from './model.js';
import { runConformance, type RunOptions } from './runner.js';

/** Before getPet's sunset, so these runs do not change meaning on 2027-07-01; the server's clock runs on from here. */
const BEFORE_SUNSET = new Date('2026-11-01T12:00:00Z');
const AFTER_SUNSET = new Date('2027-07-01T00:00:00Z');
/**
 * Bounds a hang, not a speed: the runs go side by side (describe.concurrent), each one's clock running while the
 * others share two cores with the rest of the suite; at 180 s, runs timed out on a loaded machine with nothing wrong.
 */
const RUN_TIMEOUT = 600_000;
/**
 * The runner's per-request limit (--timeout, 10 s by default), for the same reason: at load 14 (three agents beside
 * the suite) a plain run's first request waited past 10 s with nothing wrong, and the run stopped as unreachable.
 */
const REQUEST_TIMEOUT_MS = 60_000;
const LATENCY_FAMILIES = ['response', 'stateful', 'workflow', 'deprecation', 'routing', 'errors'];

async function runAgainst(server: IndependentOptions, run: Partial<RunOptions> = {}): Promise<RunReport> {
  const target = await start({ now: BEFORE_SUNSET, ...server });
  try {
    return await runConformance({ baseUrl: target.url, seed: 1, timeoutMs: REQUEST_TIMEOUT_MS, ...run });
  } finally {
    await target.close();
  }
}

function failedResults(report: RunReport): CheckResult[] {
  return report.results.filter((r) => r.verdict === 'failed');
}

/** Each failed result's check id, reason, first finding and first exchange: enough to see the cause without rerunning. */
function explain(results: readonly CheckResult[]): string {
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

function expectZeroFindings(report: RunReport): void {
  const failed = failedResults(report);
  expect(
    failed.map((r) => `${r.checkId} ${r.operationId ?? ''}`),
    `${failed.length} failed results:\n${explain(failed)}`,
  ).toEqual([]);
  // A run that checked nothing would also have no failures.
  expect(report.summary.passed).toBeGreaterThan(50);
}

const ALONE = VARIANT_NAMES.filter((name) => name !== 'latency');

describe.concurrent('the runner against the independent implementation', () => {
  it('plain: zero findings', { timeout: RUN_TIMEOUT }, async () => {
    expectZeroFindings(await runAgainst({}));
  });

  it.for(ALONE)('variant %s alone: zero findings', { timeout: RUN_TIMEOUT }, async (name) => {
    expectZeroFindings(await runAgainst({ variants: { [name]: true } satisfies Variants }));
  });

  it(`variant latency (50-100 ms per answer), families ${LATENCY_FAMILIES.join(', ')}: zero findings`, { timeout: RUN_TIMEOUT }, async () => {
    expectZeroFindings(await runAgainst({ variants: { latency: true } }, { only: LATENCY_FAMILIES }));
  });

  it('variants bigIds and numberForms together (ids above 2^53 written with a zero fraction, 4590224790122085204.0): zero findings', { timeout: RUN_TIMEOUT }, async () => {
    expectZeroFindings(await runAgainst({ variants: { bigIds: true, numberForms: true } }));
  });

  it('every variant combined but latency: zero findings', { timeout: RUN_TIMEOUT }, async () => {
    const all = Object.fromEntries(ALONE.map((name) => [name, true])) as Variants;
    expectZeroFindings(await runAgainst({ variants: all }));
  });

  it("past getPet's sunset (the target's clock at 2027-07-01): zero findings, getPet answering 410 throughout", { timeout: RUN_TIMEOUT }, async () => {
    // This server answers 410 to every getPet request after the sunset, before validating the id; 400 first would be as legal (both are documented).
    const report = await runAgainst({ now: AFTER_SUNSET });
    expectZeroFindings(report);
    expect(report.coverage.statuses.find((s) => s.operationId === 'getPet' && s.status === '410')?.observed).toBe(true);
  });

  it('a target that assigns ids above 2^53 passes, and the runner read its records back by those exact ids', { timeout: RUN_TIMEOUT }, async () => {
    const report = await runAgainst({ variants: { bigIds: true }, seed: 9 });
    expectZeroFindings(report);
    // Every id this target hands out is above 2^53, so a 200 of getPet or getOrder means a path carried an exact int64.
    const observed = (operationId: string, status: string) => report.coverage.statuses.some((s) => s.operationId === operationId && s.status === status && s.observed);
    expect(observed('getPet', '200')).toBe(true);
    expect(observed('getOrder', '200')).toBe(true);
  });

  it('with one planted defect (createPet answers 200, not 201) the runner reports exactly that, and nothing else', { timeout: RUN_TIMEOUT }, async () => {
    const report = await runAgainst({ defect: 'createPet200' });
    const failed = failedResults(report);
    expect(failed.length, 'the planted defect went unnoticed').toBeGreaterThan(0);
    const elsewhere = failed.filter((r) => r.checkId !== 'status-documented' || r.operationId !== 'createPet');
    expect(elsewhere.map((r) => `${r.checkId} ${r.operationId ?? ''}`), `checks other than status-documented on createPet fired:\n${explain(elsewhere)}`).toEqual([]);
    expect(failed[0]?.findings[0]).toMatchObject({ pointer: '/status', actual: 200 });
  });
});
