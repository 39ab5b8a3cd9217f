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
 * Tiers (issue 33): this file is the fast tier's slice: the plain server, every legal variant at once, and the
 * planted defect. conformance/independent.full.test.ts runs each variant alone, the latency variant, the sunset and
 * the ids past 2^53.
 *
 * Runs go side by side (it.concurrent): each is a full run of the runner in
 * this process, mostly waiting on loopback I/O. The latency variant (50-100 ms
 * per answer) runs only the response, stateful, workflow, deprecation,
 * routing and errors families: the negative families alone would add about
 * 40 s of waiting and exercise nothing latency changes.
 */
import { describe, expect, it } from 'vitest';
import { VARIANT_NAMES, type Variants } from '../fixtures/independent/variants.js';
import { explain, expectZeroFindings, failedResults, runAgainst, RUN_TIMEOUT } from './test-support/independent-runs.js';

const ALONE = VARIANT_NAMES.filter((name) => name !== 'latency');

describe.concurrent('the runner against the independent implementation', () => {
  it('plain: zero findings', { timeout: RUN_TIMEOUT }, async () => {
    expectZeroFindings(await runAgainst({}));
  });

  it('every variant combined but latency: zero findings', { timeout: RUN_TIMEOUT }, async () => {
    const all = Object.fromEntries(ALONE.map((name) => [name, true])) as Variants;
    expectZeroFindings(await runAgainst({ variants: all }));
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
