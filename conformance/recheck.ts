/**
 * A stateful finding is reported only when it reproduces on fresh records
 * (issue 19, point 1). The stateful and workflow checks write; a failure of
 * theirs may be the target's defect, or the trace of something else that ran
 * beside them (another check's writes, a record the run itself left in a
 * state the check did not expect). So a check whose first run failed runs
 * once more, on records it creates anew, and:
 *
 * - a failure that shows again is reported, marked `rechecked`, with the
 *   first run's evidence (the second run's stays in the recorder);
 * - one that does not is reported as skipped, with the first run's reason,
 *   never as a finding: a verdict that cannot be repeated is not one.
 *
 * Schemathesis does the same for its stateful failures: a failure is kept
 * only once it is reproduced (its "reproduce" step before reporting).
 */
import type { RunContext } from './context.js';
import type { CheckResult } from './model.js';
import { normalizeReason } from './reporters/defects.js';

/** The families whose checks write records and judge state across calls. */
export const RECHECKED_FAMILIES: ReadonlySet<string> = new Set(['stateful', 'workflow']);

/** What makes two failures of one check the same failure, whatever records they ran on. */
function sameFailure(a: CheckResult, b: CheckResult): boolean {
  return a.checkId === b.checkId && (a.operationId ?? '') === (b.operationId ?? '') && normalizeReason(a.title) === normalizeReason(b.title);
}

/**
 * Runs a check; when it fails, runs it again and reports each first-run
 * result as the rules above say. Results of a run that passed are reported
 * as they are.
 */
export async function runRechecked(ctx: RunContext, checkId: string, run: () => Promise<void>): Promise<void> {
  const first = await ctx.held(checkId, run);
  const failed = first.filter((r) => r.verdict === 'failed');
  if (failed.length === 0 || ctx.aborted) {
    for (const result of first) ctx.report(result);
    return;
  }
  const again = (await ctx.held(checkId, run)).filter((r) => r.verdict === 'failed');
  for (const result of first) {
    if (result.verdict !== 'failed') {
      ctx.report(result);
      continue;
    }
    // The same case failing again, or the check failing again on the same operation (a title may name what differs between runs).
    const reproduced = again.some((r) => sameFailure(result, r) || (r.operationId ?? '') === (result.operationId ?? ''));
    if (reproduced) {
      ctx.report({ ...result, rechecked: true });
    } else {
      ctx.report({
        checkId: result.checkId,
        ...(result.operationId !== undefined ? { operationId: result.operationId } : {}),
        title: result.title,
        verdict: 'skipped',
        reason: `failed once but not again on fresh records, so it is not reported as a finding (another check's writes may explain it): ${result.reason ?? ''}`,
        findings: [],
        evidence: result.evidence,
      });
    }
  }
}
