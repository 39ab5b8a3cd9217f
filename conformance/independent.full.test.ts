/**
 * The runner against the independent implementation (fixtures/independent/), the full tier's share (issue 33): each
 * legal variant alone, the latency variant, ids past 2^53, and the target past getPet's sunset. The fast tier's slice
 * (the plain server, every variant at once, a planted defect) and why these runs exist are in
 * conformance/independent.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { VARIANT_NAMES, type Variants } from '../fixtures/independent/variants.js';
import { AFTER_SUNSET, expectZeroFindings, LATENCY_FAMILIES, runAgainst, RUN_TIMEOUT } from './test-support/independent-runs.js';

const ALONE = VARIANT_NAMES.filter((name) => name !== 'latency');

describe.concurrent('the runner against the independent implementation, variant by variant', () => {
  it.for(ALONE)('variant %s alone: zero findings', { timeout: RUN_TIMEOUT }, async (name) => {
    expectZeroFindings(await runAgainst({ variants: { [name]: true } satisfies Variants }));
  });

  it(`variant latency (50-100 ms per answer), families ${LATENCY_FAMILIES.join(', ')}: zero findings`, { timeout: RUN_TIMEOUT }, async () => {
    expectZeroFindings(await runAgainst({ variants: { latency: true } }, { only: LATENCY_FAMILIES }));
  });

  it('variants bigIds and numberForms together (ids above 2^53 written with a zero fraction, 4590224790122085204.0): zero findings', { timeout: RUN_TIMEOUT }, async () => {
    expectZeroFindings(await runAgainst({ variants: { bigIds: true, numberForms: true } }));
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

});
