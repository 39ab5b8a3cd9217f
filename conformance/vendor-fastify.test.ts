/**
 * The runner against the second vendor implementation (issue 30, point 2), the fast slice: ../shared/vendor-fastify/
 * is a Pet Store on fastify and SQLite (sql.js), written from the brief on another stack than the reference server,
 * with its own 12 legal variants and 47 single-defect mutants; used as it is, never copied, its dependencies
 * installed in its own folder. Here: the clean server with zero findings, and mutants of four kinds of defect
 * (a state rule reached through another path, a create that takes the client's id, a body limit checked on
 * Content-Length only, a partial update that drops a field), each killed by the check that owns its kind, run with
 * that check alone (--only). Every variant and every mutant run in vendor-fastify.full.test.ts (the full tier).
 */
import { describe, expect, it } from 'vitest';
import { groupDefects } from './reporters/defects.js';
import { explain, failedOf, runTarget, VENDOR_FASTIFY } from './test-support/catalogue.js';

const RUN_TIMEOUT = 240_000;
if (VENDOR_FASTIFY.missing) console.warn(`vendor-fastify.test.ts skipped: ${VENDOR_FASTIFY.missing}.`);

const SLICE: readonly { mutant: string; owner: string }[] = [
  { mutant: 'complete-order-no-reserve', owner: 'workflow-order-reserves-stock' },
  { mutant: 'order-client-id-honoured', owner: 'create-new-identity' },
  { mutant: 'body-limit-content-length-only', owner: 'payload-too-large-413' },
  { mutant: 'patch-drops-shipdate', owner: 'patch-keeps-fields' },
];

describe.runIf(!VENDOR_FASTIFY.missing).concurrent('the runner against the fastify + SQLite vendor (../shared/vendor-fastify), a slice', () => {
  it('clean: zero findings', { timeout: RUN_TIMEOUT }, async () => {
    const report = await runTarget(VENDOR_FASTIFY, { kind: 'clean', name: 'clean', args: [], basePath: '', category: '', needsOrigin: false });
    const failed = failedOf(report);
    expect(failed.map((r) => `${r.checkId} ${r.operationId ?? ''}`), explain(failed)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(300);
  });

  it.for(SLICE)('mutant $mutant is killed by $owner', { timeout: RUN_TIMEOUT }, async ({ mutant, owner }) => {
    const report = await runTarget(VENDOR_FASTIFY, { kind: 'mutant', name: mutant, args: ['--mutant', mutant], basePath: '', category: '', needsOrigin: false }, { only: [owner] });
    const failed = failedOf(report);
    expect(failed.filter((r) => r.checkId === owner).length, `${owner} did not fail; failures: ${explain(failed)}`).toBeGreaterThan(0);
    expect(groupDefects(report)[0]?.checkId).toBe(owner);
  });
});
