/**
 * The runner against a server nobody here wrote (issue 19, point 4):
 * ../shared/reference/ holds an independent Pet Store written from the brief,
 * with its own OpenAPI description (other names, an allOf order body), 17
 * legal variants and 119 single-defect mutants. Used as it is, never copied.
 *
 * - The clean server and every legal variant pass with zero findings: a
 *   runner that fails a correct server has no verdict worth reading.
 * - One mutant per check (at least) is killed by the check that owns its kind
 *   of defect, run with that check alone (--only), so the kill is that
 *   check's and not a side effect of another.
 * - A few mutants run with every check: the owning check's defect comes
 *   first in the fix-first list, its consequences grouped under it.
 *
 * The whole catalogue (every mutant, every check) runs in .ci/run through
 * the reference's own run-mutants.sh.
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from './model.js';
import { groupDefects } from './reporters/defects.js';
import { runConformance, type RunOptions } from './runner.js';
import { referencePresent as present, REFERENCE_MISSING, REF_SPEC as SPEC, startReference } from './test-support/reference.js';

const ORIGIN = 'http://localhost:5173';
const RUN_TIMEOUT = 240_000;
if (!present) console.warn(`reference.test.ts skipped: ${REFERENCE_MISSING}`);

async function runAgainst(args: readonly string[], basePath: string, options: Partial<RunOptions> = {}): Promise<RunReport> {
  const target = await startReference(args);
  try {
    return await runConformance({ baseUrl: `${target.url}${basePath}`, specPath: SPEC, origin: ORIGIN, seed: 1, ...options });
  } finally {
    await target.close();
  }
}

function explain(results: readonly CheckResult[]): string {
  return results
    .map((r) => {
      const f = r.findings[0];
      const ex = r.evidence.at(-1);
      return `${r.checkId} ${r.operationId ?? ''} "${r.title}": ${r.reason ?? ''}${f ? ` at ${f.pointer}: ${f.message}` : ''}${ex ? ` [${ex.request.method} ${ex.request.url} → ${ex.response?.status ?? ex.error?.code}]` : ''}`;
    })
    .join('\n');
}

/** The legal variants of mutants.mjs, with the base path each needs. */
const VARIANTS: readonly { name: string; basePath: string }[] = [
  ...['extra-fields', 'other-messages', 'empty', 'after-sunset', 'absolute-location', 'link-split', 'chunked', 'connection-close', 'random-ids', 'newest-first', 'offset-datetimes', 'float-quantities', 'extra-headers', 'slow', 'big-data', 'charset-upper'].map((name) => ({ name, basePath: '' })),
  { name: 'prefix', basePath: '/api/v1' },
];

/**
 * One planted defect per check: the mutant and the check that owns its kind of defect, with what that check
 * needs to see it (a check that judges every exchange needs another that makes some: create-read-back).
 */
const OWNED: readonly { mutant: string; owner: string; also?: readonly string[] }[] = [
  { mutant: 'pet-missing-name', owner: 'response-schema', also: ['create-read-back'] },
  { mutant: 'json-as-text-plain', owner: 'content-type', also: ['create-read-back'] },
  { mutant: 'create-200', owner: 'status-documented', also: ['create-read-back'] },
  { mutant: 'no-location', owner: 'response-headers', also: ['create-read-back'] },
  { mutant: 'location-wrong-path', owner: 'location-resolves' },
  { mutant: 'wrong-total-count', owner: 'total-count' },
  { mutant: 'page-limit-plus-one', owner: 'paging-walk' },
  { mutant: 'error-missing-code', owner: 'error-shape', also: ['unknown-id-404'] },
  { mutant: 'html-404', owner: 'error-shape', also: ['unknown-path-404'] },
  { mutant: 'bad-input-500', owner: 'no-server-error', also: ['malformed-json'] },
  { mutant: 'unknown-id-200', owner: 'unknown-id-404' },
  { mutant: '405-no-allow', owner: 'method-not-allowed-405' },
  { mutant: 'limit-over-100-accepted', owner: 'negative-parameters' },
  { mutant: 'closed-input-not-enforced', owner: 'negative-body' },
  { mutant: 'no-415', owner: 'unsupported-media-type' },
  { mutant: 'ignore-accept', owner: 'not-acceptable-406' },
  { mutant: 'no-413', owner: 'payload-too-large-413' },
  { mutant: 'accept-unknown-category', owner: 'unknown-reference-422' },
  { mutant: 'accept-application-wildcard-406', owner: 'accepts-json-accept' },
  { mutant: 'charset-415', owner: 'accepts-json-charset' },
  { mutant: 'short-name-400', owner: 'accepts-valid-bodies' },
  { mutant: 'limit-100-400', owner: 'accepts-valid-queries' },
  { mutant: 'huge-id-400', owner: 'accepts-large-ids' },
  { mutant: 'category-description-dropped', owner: 'create-read-back' },
  { mutant: 'put-not-updating', owner: 'replace-visible' },
  { mutant: 'patch-shipdate-not-persisted', owner: 'patch-keeps-fields' },
  { mutant: 'status-filter-ignored', owner: 'list-contains-created' },
  { mutant: 'delete-pet-twice-204', owner: 'delete-removes' },
  { mutant: 'delete-pet-keeps-inventory', owner: 'delete-removes' },
  { mutant: 'order-keeps-pet-available', owner: 'workflow-order-reserves-stock' },
  { mutant: 'complete-on-place-keeps-pending', owner: 'workflow-order-complete-sells' },
  { mutant: 'cancel-returns-double', owner: 'workflow-order-cancel-restores' },
  { mutant: 'put-pet-resets-status', owner: 'workflow-inventory-follows-pet' },
  { mutant: 'delete-category-in-use', owner: 'workflow-category-in-use' },
  { mutant: 'delete-pet-open-order', owner: 'workflow-pet-open-order-blocks-delete' },
  { mutant: 'stock-boundary-409', owner: 'workflow-order-whole-stock' },
  { mutant: 'no-availability-check', owner: 'workflow-order-refused' },
  { mutant: 'put-category-name-taken', owner: 'workflow-category-name-taken' },
  { mutant: 'id-filter-first-only', owner: 'collection-pets-filters' },
  { mutant: 'complete-filter-ignored', owner: 'list-contains-created' },
  { mutant: 'inventory-status-filter-ignored', owner: 'collection-inventory-filters' },
  { mutant: 'inventory-total-ignores-filter', owner: 'total-count', also: ['paging-walk'] },
  { mutant: 'offset-ignored', owner: 'collection-categories-paging' },
  { mutant: 'no-deprecation', owner: 'deprecation-headers', also: ['create-read-back'] },
  { mutant: 'link-successor-petid-param', owner: 'deprecation-links' },
  { mutant: 'deprecation-on-listpets', owner: 'no-unexpected-deprecation' },
  { mutant: 'no-410-after-sunset', owner: 'sunset-410', also: ['create-read-back'] },
  { mutant: 'cors-preflight-404', owner: 'cors-preflight' },
  { mutant: 'cors-expose-no-total-count', owner: 'cors-expose-headers' },
  { mutant: 'cors-no-acao-on-errors', owner: 'cors-on-errors' },
];

describe.runIf(present).concurrent('the runner against the independent reference server (../shared/reference)', () => {
  it('clean: zero findings', { timeout: RUN_TIMEOUT }, async () => {
    const report = await runAgainst([], '');
    const failed = report.results.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => `${r.checkId} ${r.operationId ?? ''}`), explain(failed)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(300);
    // The reference description compiles whole: a schema left unchecked would hide defects (NewOrder's allOf did).
    expect((report.warnings ?? []).filter((w) => /cannot be compiled/.test(w.message))).toEqual([]);
  });

  it.for(VARIANTS)('legal variant $name: zero findings', { timeout: RUN_TIMEOUT }, async ({ name, basePath }) => {
    // The slow variant answers in 40-80 ms: more requests in flight keep its run short without changing what is sent.
    const report = await runAgainst(['--variant', name], basePath, name === 'slow' ? { concurrency: 16 } : {});
    const failed = report.results.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => `${r.checkId} ${r.operationId ?? ''}`), explain(failed)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(name === 'empty' ? 200 : 300);
  });

  it.for(OWNED)('mutant $mutant is killed by $owner', { timeout: RUN_TIMEOUT }, async ({ mutant, owner, also }) => {
    const report = await runAgainst(['--mutant', mutant], '', { only: [owner, ...(also ?? [])] });
    const failed = report.results.filter((r) => r.verdict === 'failed');
    expect(failed.filter((r) => r.checkId === owner).length, `${owner} did not fail; failures: ${explain(failed)}`).toBeGreaterThan(0);
    expect(groupDefects(report)[0]?.checkId).toBe(owner);
  });

  // With every check: the defect first in the fix-first list is the planted one; what follows from it is grouped under it.
  it.for([
    { mutant: 'pet-id-string', first: 'response-schema' },
    { mutant: 'order-quantity-string', first: 'response-schema' },
    { mutant: 'sunset-not-imf', first: 'deprecation-headers' },
  ])('mutant $mutant, every check: $first comes first', { timeout: RUN_TIMEOUT }, async ({ mutant, first }) => {
    const report = await runAgainst(['--mutant', mutant], '');
    const defects = groupDefects(report);
    expect(defects[0]?.checkId, defects.map((d) => `${d.checkId} ${d.operationId ?? ''}: ${d.reason}`).join('\n')).toBe(first);
    // The fix-first line keeps the real values (a vendor reads "Sunset: 2027-06-30T23:59:59Z", not "NN-30T23:N:59Z").
    if (mutant === 'sunset-not-imf') expect(defects[0]?.reason).toContain('2027');
  });
});
