/**
 * The verdicts of the passive checks (those that judge every exchange: the response family, errors, deprecation
 * headers), tallied per check and operation as exchanges arrive and turned into CheckResults at the end: per
 * (check, operation) one passed result saying how many exchanges were judged, or the failures grouped by their
 * normalized reason (one defect, reporters/defects.ts), the first few of each listed with their exchange and the
 * rest only counted (`alike`). Nothing else of an exchange is kept (issue 12, finding 2: no parsed body outlives
 * its judging). The runner tallies its run through here, and the validating proxy (conformance/proxy/) a session
 * of live traffic, so both report the same way.
 */
import type { Contract } from '../src/contract/index.js';
import type { Judgement } from './judge.js';
import type { CheckInfo, CheckResult, Exchange, Finding } from './model.js';
import { normalizeReason } from './reporters/defects.js';

/** A failing exchange as the report shows it: a title and the exchange's excerpts, never the parsed body. */
export interface PassiveFailure {
  readonly title: string;
  readonly exchange: Exchange;
  /** The verdict's reason and findings as they are to be kept, when the caller scrubs them (the proxy: its traffic's secrets); the verdict's own otherwise. */
  readonly reason?: string;
  readonly findings?: readonly Finding[];
}

interface Listed extends PassiveFailure {
  readonly reason: string;
  readonly findings: readonly Finding[];
}

interface Tally {
  judged: number;
  readonly failures: Map<string, { readonly listed: Listed[]; more: number }>;
  /** Failures whose reason came after `maxReasons` others: counted, not grouped (a bound for long sessions). */
  unlisted: number;
}

export interface PassiveTallyOptions {
  /** Past this many failing exchanges per check, operation and reason, the rest are counted in the last listed result's `alike`. */
  readonly maxListed: number;
  /** Distinct reasons kept per check and operation; past it failures are only counted. Default: no bound (a run's requests are bounded already). */
  readonly maxReasons?: number;
  /** Why a check that judged nothing is skipped, e.g. "no exchange of the run was one this check judges". */
  readonly noneJudged: string;
}

export class PassiveTally {
  private readonly byCheck = new Map<string, Map<string, Tally>>();

  constructor(private readonly options: PassiveTallyOptions) {}

  /**
   * Counts one verdict of `checkId` on an exchange of `operationKey` ('' for a request no operation matches).
   * `failure` is asked only for a failure that will be listed, so an exchange's evidence is built only then.
   */
  add(checkId: string, operationKey: string, verdict: Exclude<Judgement, { verdict: 'n/a' }>, failure: () => PassiveFailure): void {
    let byOperation = this.byCheck.get(checkId);
    if (!byOperation) this.byCheck.set(checkId, (byOperation = new Map()));
    let tally = byOperation.get(operationKey);
    if (!tally) byOperation.set(operationKey, (tally = { judged: 0, failures: new Map(), unlisted: 0 }));
    tally.judged += 1;
    if (verdict.verdict !== 'fail') return;
    const reason = normalizeReason(verdict.reason);
    let same = tally.failures.get(reason);
    if (!same) {
      if (this.options.maxReasons !== undefined && tally.failures.size >= this.options.maxReasons) {
        tally.unlisted += 1;
        return;
      }
      tally.failures.set(reason, (same = { listed: [], more: 0 }));
    }
    if (same.listed.length < this.options.maxListed) same.listed.push({ reason: verdict.reason, findings: verdict.findings, ...failure() });
    else same.more += 1;
  }

  /** How many failing exchanges were counted so far, over every check. */
  get failures(): number {
    let count = 0;
    for (const byOperation of this.byCheck.values()) {
      for (const tally of byOperation.values()) {
        count += tally.unlisted;
        for (const { listed, more } of tally.failures.values()) count += listed.length + more;
      }
    }
    return count;
  }

  /** The results of one check, operations in the document's order, then the requests no operation matches. */
  results(check: Pick<CheckInfo, 'id' | 'description'>, contract: Contract): CheckResult[] {
    const tallies = this.byCheck.get(check.id);
    if (!tallies || tallies.size === 0) return [{ checkId: check.id, title: check.description, verdict: 'skipped', reason: this.options.noneJudged, findings: [], evidence: [] }];
    const out: CheckResult[] = [];
    const keys = [...contract.operations.map((op) => op.operationId).filter((id) => tallies.has(id)), ...(tallies.has('') ? [''] : [])];
    for (const key of keys) {
      const tally = tallies.get(key)!;
      const operationId = key || undefined;
      const where = operationId ?? 'requests no operation matches';
      if (tally.failures.size === 0 && tally.unlisted === 0) {
        out.push({ checkId: check.id, ...(operationId ? { operationId } : {}), title: `${where}: ${tally.judged} exchange${tally.judged === 1 ? '' : 's'} judged`, verdict: 'passed', findings: [], evidence: [], judged: tally.judged });
        continue;
      }
      for (const { listed, more } of tally.failures.values()) {
        for (const [i, failure] of listed.entries()) {
          out.push({
            checkId: check.id,
            ...(operationId ? { operationId } : {}),
            title: failure.title,
            verdict: 'failed',
            reason: failure.reason,
            findings: failure.findings,
            evidence: [failure.exchange],
            ...(i === listed.length - 1 && more > 0 ? { alike: more } : {}),
            judged: tally.judged,
          });
        }
      }
      if (tally.unlisted > 0) {
        const reason = `${tally.unlisted} more failing exchange${tally.unlisted === 1 ? '' : 's'} with ${tally.unlisted === 1 ? 'a reason' : 'reasons'} other than the ${this.options.maxReasons} listed, counted but not kept`;
        out.push({ checkId: check.id, ...(operationId ? { operationId } : {}), title: `${where}: ${reason}`, verdict: 'failed', reason, findings: [], evidence: [], judged: tally.judged });
      }
    }
    return out;
  }
}
