/**
 * The runner against a server nobody here wrote (issue 19, point 4), the fast slice: ../shared/reference/ holds an
 * independent Pet Store written from the brief, with its own OpenAPI description (other names, an allOf order
 * body), 17 legal variants and 119 single-defect mutants; used as it is, never copied. Here: the clean server with
 * zero findings, and a few mutants of different kinds, each killed by the check that owns its kind of defect, run
 * with that check alone (--only). Every variant and every mutant run in reference.full.test.ts (the full tier).
 */
import { describe, expect, it } from 'vitest';
import { groupDefects } from './reporters/defects.js';
import { explain, failedOf, REFERENCE, REFERENCE_SLICE as SLICE, runTarget } from './test-support/catalogue.js';

const RUN_TIMEOUT = 240_000;
if (REFERENCE.missing) console.warn(`reference.test.ts skipped: ${REFERENCE.missing}.`);

describe.runIf(!REFERENCE.missing).concurrent('the runner against the independent reference server (../shared/reference), a slice', () => {
  it('--fail-fast stops starting checks after the first failure, says why, and still fails the run', { timeout: RUN_TIMEOUT }, async () => {
    const target = { kind: 'mutant', name: 'order-keeps-pet-available', args: ['--mutant', 'order-keeps-pet-available'], basePath: '', category: '', needsOrigin: false } as const;
    const whole = await runTarget(REFERENCE, target);
    const fast = await runTarget(REFERENCE, target, { failFast: true });
    expect(failedOf(fast).length).toBeGreaterThan(0);
    const notStarted = fast.results.filter((r) => r.verdict === 'skipped' && /failed first \(--fail-fast\)/.test(r.reason ?? ''));
    expect(notStarted.length).toBeGreaterThan(0);
    expect(notStarted.every((r) => fast.results.some((f) => f.verdict === 'failed' && r.reason!.includes(f.checkId)))).toBe(true);
    expect(fast.summary.exchanges).toBeLessThan(whole.summary.exchanges);
  });

  it('clean: zero findings', { timeout: RUN_TIMEOUT }, async () => {
    const report = await runTarget(REFERENCE, { kind: 'clean', name: 'clean', args: [], basePath: '', category: '', needsOrigin: false });
    const failed = failedOf(report);
    expect(failed.map((r) => `${r.checkId} ${r.operationId ?? ''}`), explain(failed)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(300);
    // The reference description compiles whole: a schema left unchecked would hide defects (NewOrder's allOf did).
    expect((report.warnings ?? []).filter((w) => /cannot be compiled/.test(w.message))).toEqual([]);
  });

  // A race is seen only when the requests meet inside its window (order-race's is 5 ms): on a loaded machine a run
  // may miss it, so a mutant is tried up to three times; a clean server never fails, however often it is tried.
  it.for(SLICE)('mutant $mutant is killed by $owner', { timeout: RUN_TIMEOUT, retry: 2 }, async ({ mutant, owner, also }) => {
    const report = await runTarget(REFERENCE, { kind: 'mutant', name: mutant, args: ['--mutant', mutant], basePath: '', category: '', needsOrigin: true }, { only: [owner, ...(also ?? [])] });
    const failed = failedOf(report);
    expect(failed.filter((r) => r.checkId === owner).length, `${owner} did not fail; failures: ${explain(failed)}`).toBeGreaterThan(0);
    expect(groupDefects(report)[0]?.checkId).toBe(owner);
  });
});
