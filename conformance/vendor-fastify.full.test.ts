/**
 * The runner against the second vendor implementation (../shared/vendor-fastify/: fastify and SQLite), whole
 * (issue 30, point 2): the full tier. The clean server and its 12 legal variants pass with zero findings, and
 * each of its 47 mutants is killed by a run of every check, as its own run.sh runs them (--origin for the legal
 * targets and the CORS mutants). The catalogue is read from its own listing, so a mutant added there is judged
 * here at once. The fast slice is vendor-fastify.test.ts, whose clean run is not repeated here.
 */
import { describe, expect, it } from 'vitest';
import { explain, failedOf, runTarget, targetsOf, VENDOR_FASTIFY } from './test-support/catalogue.js';

const RUN_TIMEOUT = 240_000;
if (VENDOR_FASTIFY.missing) console.warn(`vendor-fastify.full.test.ts skipped: ${VENDOR_FASTIFY.missing}.`);

const TARGETS = targetsOf(VENDOR_FASTIFY);
const LEGAL = TARGETS.filter((t) => t.kind !== 'mutant');
// The clean server's run is the fast slice's (vendor-fastify.test.ts), and test:all runs both files: run once.
const VARIANTS = LEGAL.filter((t) => t.kind !== 'clean');
const MUTANTS = TARGETS.filter((t) => t.kind === 'mutant');

describe.runIf(!VENDOR_FASTIFY.missing).concurrent('the runner against the fastify + SQLite vendor (../shared/vendor-fastify), whole', () => {
  it('reads a catalogue of the clean server, 12 legal variants and 47 mutants', () => {
    expect(LEGAL.length).toBe(13);
    expect(MUTANTS.length).toBeGreaterThanOrEqual(47);
  });

  it.for(VARIANTS)('$kind $name: zero findings', { timeout: RUN_TIMEOUT }, async (target) => {
    const report = await runTarget(VENDOR_FASTIFY, target);
    const failed = failedOf(report);
    expect(failed.map((r) => `${r.checkId} ${r.operationId ?? ''}`), explain(failed)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(300);
  });

  it.for(MUTANTS)('mutant $name ($category) is killed', { timeout: RUN_TIMEOUT }, async (target) => {
    // Killed is "exit 1 with a report": --fail-fast stops at the first failure, as a CI job may (half the CPU).
    const report = await runTarget(VENDOR_FASTIFY, target, { failFast: true });
    expect(failedOf(report).length, `nothing failed against ${target.name}`).toBeGreaterThan(0);
  });
});
